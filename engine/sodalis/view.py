"""Per-seat views of a Sodalis game: the public state, plus that seat's own buffered choice.

Everything in Sodalis is public except (a) the order of each deck's unseen cards, which no
engine instance ever holds, and (b) a simultaneous answer given but not yet applied (turn
tokens, rearranging, reversals), which only its own seat's view shows, under ``secret``.
A spectator's view (seat ``None``) holds the public state only.

``public`` (canonical JSON-ready): ``players``, ``round``, ``round_limit``, ``phase``
("setup", "play", "over"), ``order`` (seats in turn order), ``active``, ``seats`` (per seat:
``team``, ``token``, ``champion``, ``cards`` (the deck's nine identities), ``at`` ([q, r]),
``life``, ``up`` (face-up action tokens), ``confused``, ``slowed``, ``casts``, ``moved``,
``side`` and ``top`` (the spread: the cards beside the deck and the deck's visible top),
``unseen`` (how many cards of unknown order lie under the top), ``bottom`` (the known cards
under those, top first), ``continuous`` ([card, units its aura touches]), ``tributes``
(kind -> face up)), ``paragon`` (``at``, ``sight``), ``artifacts`` (team -> [q, r] or None
once delivered), ``tributes`` (team -> kind -> holding seat), ``cast`` (the cast being
resolved), ``last_roll`` (``seat``, ``card``, ``sides``, ``values``, ``critical``), ``winner``
and ``over``.  :class:`SodalisTable` (``view.table``) holds its top-level fields by name.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, NamedTuple

import attrs

from fairtable.engine.public_table import PublicTable, record_of
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis.arena import Space
from fairtable.engine.sodalis.cards import Action, Catalog, FaceEffect
from fairtable.engine.sodalis.state import SodalisState
from fairtable.engine.sodalis.team import Team, Tribute


class SodalisPlay(NamedTuple):
    """Where play stands, beyond ``public``: all of it public (the digest covers the task
    queue and the pending requests); what a sampled world needs to play on
    (:mod:`engine.sodalis.world`)."""

    tasks: tuple[tuple[Any, ...], ...]
    pending: tuple[Any, ...]
    decisions: int
    serial: int
    teams: tuple[Team, ...] | None
    arena: Any  # the arena (frozen data, shared)


def _space(at: Any) -> Space | None:
    """A space of the public state (a list, or None: off the arena)."""
    return None if at is None else (at[0], at[1])


@attrs.frozen(kw_only=True, eq=False)
class SeatTable:
    """One seat of Sodalis's public state, by field: its player's team and turn token, its
    champion, where it stands and how it fares, its spread and its tributes."""

    team: Team
    token: int | None
    champion: str | None  # None until chosen
    cards: tuple[str, ...]  # the deck's nine identities, orientation fixed, sorted
    at: Space | None  # None: not on the arena
    life: int
    up: tuple[Action, ...]  # the face-up action tokens
    confused: bool
    slowed: bool
    casts: int  # arcana cast this turn
    moved: bool  # took a step of its own this turn
    side: tuple[str | None, ...]  # spread cards beside the deck
    top: str | None  # the deck's visible top card (part of the spread)
    unseen: int  # cards under the top whose order nobody knows
    bottom: tuple[str, ...]  # known cards under those, top first
    continuous: tuple[tuple[str, tuple[int, ...]], ...]  # (card, units its aura touches)
    tributes: Mapping[Tribute, bool]  # kind -> face up

    @property
    def spread(self) -> list[str]:
        """The spread: the cards beside the deck, then its top."""
        cards = [c for c in self.side if c is not None]
        return cards + [self.top] if self.top is not None else cards

    @classmethod
    def of(cls, seat: Mapping[str, Any]) -> SeatTable:
        """The record of one seat of a Sodalis public state."""
        return record_of(
            cls,
            seat,
            team=Team,
            cards=tuple,
            at=_space,
            up=lambda up: tuple(Action(a) for a in up),
            side=tuple,
            bottom=tuple,
            continuous=lambda auras: tuple((card, tuple(units)) for card, units in auras),
            tributes=lambda held: {Tribute(k): up for k, up in held.items()},
        )


@attrs.frozen(kw_only=True, eq=False)
class RollTable:
    """The last cast's roll: ``seat`` cast ``card``, dice of ``sides`` rolled ``values``."""

    seat: int
    card: str
    sides: tuple[int, ...]
    values: tuple[int, ...]
    critical: bool

    @classmethod
    def of(cls, roll: Mapping[str, Any]) -> RollTable:
        return record_of(cls, roll, sides=tuple, values=tuple)


@attrs.frozen(kw_only=True, eq=False)
class CastTable:
    """The cast being resolved: ``seat`` casts ``card`` on ``units`` with ``main`` dice of
    ``sides`` (``values`` once rolled); ``at``: where the caster stood."""

    seat: int
    card: str
    units: tuple[int, ...]
    effect: FaceEffect
    sight: bool
    strength: bool
    sides: tuple[int, ...]
    main: int
    values: tuple[int, ...] | None
    critical: bool
    at: Space | None  # the stored dict's "from"

    @classmethod
    def of(cls, cast: Mapping[str, Any]) -> CastTable:
        values, at = cast["values"], cast["from"]
        return cls(
            seat=cast["seat"],
            card=cast["card"],
            units=tuple(cast["units"]),
            effect=FaceEffect(cast["effect"]),
            sight=cast["sight"],
            strength=cast["strength"],
            sides=tuple(cast["sides"]),
            main=cast["main"],
            values=None if values is None else tuple(values),
            critical=cast["critical"],
            at=_space(at),
        )


@attrs.frozen(kw_only=True, eq=False)
class SodalisTable(PublicTable):
    """Sodalis's public state by field (the module's docstring)."""

    order: tuple[int, ...]  # seats in turn order (empty before the turn tokens)
    active: int | None
    seats: tuple[SeatTable, ...]
    paragon_at: Space
    paragon_sight: bool  # the Paragon still holds the Tribute of Sight
    artifacts: Mapping[Team, Space | None]  # team -> its space (None: delivered)
    tributes: Mapping[Team, Mapping[Tribute, int | None]]  # team -> kind -> holding seat
    cast: CastTable | None  # the cast being resolved
    last_roll: RollTable | None
    winner: Team | None
    over: str | None  # None, "tribute" or "round_limit"

    @classmethod
    def of(cls, public: Mapping[str, Any]) -> SodalisTable:
        """The record of a Sodalis public state (a view's ``public``)."""
        winner = public["winner"]
        return cls(
            **cls.common(public),
            order=tuple(public["order"]),
            active=public["active"],
            seats=tuple(SeatTable.of(s) for s in public["seats"]),
            paragon_at=(public["paragon"]["at"][0], public["paragon"]["at"][1]),
            paragon_sight=public["paragon"]["sight"],
            artifacts={Team(t): _space(at) for t, at in public["artifacts"].items()},
            tributes={
                Team(t): {Tribute(k): seat for k, seat in held.items()}
                for t, held in public["tributes"].items()
            },
            cast=None if public["cast"] is None else CastTable.of(public["cast"]),
            last_roll=None if public["last_roll"] is None else RollTable.of(public["last_roll"]),
            winner=None if winner is None else Team(winner),
            over=public["over"],
        )


@attrs.frozen
class SodalisView:
    seat: int | None
    public: dict[str, Any]
    secret: dict[str, Any] | None  # this seat's simultaneous answer waiting for the others
    decisions: tuple[Decision, ...]  # what this seat is asked now
    catalog: Catalog = attrs.field(eq=False, repr=False)
    play: SodalisPlay | None = attrs.field(default=None, eq=False, repr=False)

    @functools.cached_property
    def table(self) -> SodalisTable:
        """The public state as a typed record (made once, the first time it is read)."""
        return SodalisTable.of(self.public)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "secret": self.secret,
            "decisions": [d.plain() for d in self.decisions],
        }


def make_view(state: SodalisState, seat: int | None) -> SodalisView:
    decisions = state.view_decisions(seat)
    secret: dict[str, Any] | None = None
    mine = None if seat is None else state.buffered.get(seat)
    if mine is not None:
        secret = {"answer": type(mine).__name__, **attrs.asdict(mine)}
    play = SodalisPlay(
        tuple(state.tasks),
        tuple(state.pending),
        state.decisions,
        state.serial,
        state.config.teams,
        state.arena,
    )
    return SodalisView(seat, state.public(), secret, decisions, state.catalog, play)
