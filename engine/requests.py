"""The engine contract's requests and the generic answers to them.

A game state lists its *pending requests*: who or what must answer before the
game can go on.  These kinds are shared by every game:

- :class:`Decision` -- a seat must choose.  What it is asked, and within which public
  limits (targets, counts, candidates), is its ``info``: a frozen record of the game, one
  :class:`DecisionInfo` subclass per kind of decision, whose ``KIND`` is a member of the
  game's :class:`DecisionKind` enum (both in ``engine/<game>/decisions.py``).  Several
  seats may be asked at once (``simultaneous``); their answers are accepted in any arrival
  order and applied in seat order once all are in, so arrival order never changes the
  outcome.  The answer classes are game-specific.
- :class:`Chance` -- a random pick (first player, a random subset).  Answered by
  :class:`ChanceAnswer` with ``k`` distinct indices below ``n``.
- :class:`Roll` -- dice: one value ``1..s`` for each die size ``s`` listed (values
  may repeat, unlike :class:`Chance`).  Answered by :class:`RollAnswer`; a whole
  roll costs one joint-randomness round in the protocol.
- :class:`Shuffle` -- a hidden pile is formed from the listed cards in an order
  nobody may know; answered by :class:`ShuffleAnswer`.  The engine never learns
  the order: whoever deals (the local referee, or the protocol's mental-poker
  deck) keeps it.
- :class:`Deal` -- cards go from a hidden pile (or from one seat's hand, for a
  hand-over) to one seat, whose identities only that seat (and the giver) may
  learn.  Answered by :class:`DealAnswer`, with the identities where this
  engine instance is entitled to know them and ``None`` where it is not.
- :class:`Flip` -- the next cards of a hidden pile are turned face up for
  everyone (Sodalis' spreads); answered by :class:`FlipAnswer`.
- :class:`Rehandle` -- a seat's face-down cards get fresh handles in an order
  only that seat knows (Sovereign, after a breach showed some of them); answered
  by :class:`RehandleAnswer`.
- :class:`Peek` -- one seat privately sees hidden cards that stay where they
  are (Sovereign's breaches); answered by :class:`PeekAnswer`, with the
  identities only on an instance entitled to know them.
- :class:`Reveal` -- hidden cards must become public.  Answered by
  :class:`RevealAnswer`.  ``mixed`` groups are revealed as a sorted multiset so
  nobody learns who contributed which card.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Self

import attrs


class DecisionKind(enum.StrEnum):
    """What a :class:`Decision` asks.  Each game subclasses it with one member per kind
    of decision it can raise; a member's value is the kind's name as logs, digests and
    test vectors have always spelled it, and compares equal to that string."""


_KEY = "fairtable.info_key"
_OMIT_NONE = "fairtable.info_omit_none"


def info_key(name: str) -> dict[str, str]:
    """The metadata of an info field whose stored name is ``name`` (``"from"``: a word
    Python keeps for itself)."""
    return {_KEY: name}


OMITTED_IF_NONE: dict[str, bool] = {_OMIT_NONE: True}
"""The metadata of an info field that is left out of the stored pairs while it is ``None``."""


@attrs.frozen(kw_only=True)
class DecisionInfo:
    """The public limits of one kind of decision: a game declares one frozen subclass per
    kind, whose ``KIND`` names it, and whose fields are read as attributes.

    Digests, views and logs hold a decision's info as it has always been stored: a tuple of
    ``(name, value)`` pairs in field order (:meth:`pairs`), a field named by
    :func:`info_key` under that name, and one marked :data:`OMITTED_IF_NONE` left out while
    it is ``None``."""

    KIND: ClassVar[DecisionKind]

    def pairs(self) -> tuple[tuple[str, Any], ...]:
        """The stored form: ``(name, value)`` per field, in declaration order."""
        return tuple(
            (f.metadata.get(_KEY, f.name), value)
            for f in attrs.fields(type(self))
            if not ((value := getattr(self, f.name)) is None and f.metadata.get(_OMIT_NONE))
        )

    @classmethod
    def of(cls, decision: Decision) -> Self:
        """``decision``'s info as this record (:class:`TypeError` if it asks another kind):
        how a reader that has told the kinds apart reads one kind's fields."""
        info = decision.info
        if not isinstance(info, cls):
            raise TypeError(f"a {decision.kind} decision carries no {cls.__name__}")
        return info


@attrs.frozen
class Decision:
    """Seat ``seat`` must make the decision ``info`` describes (its kind and public limits).

    Its stored form (:meth:`plain`), which digests and views hold, is that of the record
    ``seat, kind, info, simultaneous`` with ``info`` as its pairs (:meth:`DecisionInfo.pairs`).

    ``behalf``: the seat the decision is about when ``seat`` answers it for a seat that left
    the game (a teammate taking its champion over, Sodalis; ``None``: ``seat``'s own).  The
    answer names ``seat``, who gives it; the rules apply it as ``behalf``'s.  It is stored
    only when set, so no decision without it changed its stored form.
    """

    seat: int
    info: DecisionInfo
    simultaneous: bool = False
    behalf: int | None = None

    @property
    def acts_for(self) -> int:
        """The seat whose move this is: ``behalf`` if set, else ``seat``."""
        return self.seat if self.behalf is None else self.behalf

    @property
    def kind(self) -> DecisionKind:
        """What the decision asks: a member of the game's :class:`DecisionKind`."""
        return self.info.KIND

    def plain(self) -> dict[str, Any]:
        """The decision as JSON-shaped data, as digests and views hold it."""
        data = {
            "seat": self.seat,
            "kind": self.kind,
            "info": _plain(self.info.pairs()),
            "simultaneous": self.simultaneous,
        }
        if self.behalf is not None:
            data["behalf"] = self.behalf
        return data


def _plain(value: Any) -> Any:
    """``value`` with its tuples as lists, all the way down (as :func:`attrs.asdict` gives)."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@attrs.frozen
class Chance:
    """Pick ``k`` distinct indices below ``n`` uniformly at random (``label`` names why)."""

    label: str
    n: int
    k: int = 1


@attrs.frozen
class Roll:
    """Roll one die of each size in ``sides`` (e.g. ``(10, 10, 10)``); ``label`` names why."""

    label: str
    sides: tuple[int, ...]


@attrs.frozen
class Shuffle:
    """Form hidden pile ``pile`` from ``cards`` (public list) in a secret order."""

    pile: str
    cards: tuple[str, ...]


@attrs.frozen
class Deal:
    """Move ``count`` cards from ``source`` to ``seat``'s hand, privately.

    ``source`` is a pile name, or ``"hand:<seat>"`` for a hand-over of cards a
    seat chose earlier (Reign's spoils)."""

    source: str
    seat: int
    count: int

    @property
    def giver(self) -> int | None:
        """The seat whose hand the cards leave (a hand-over), or ``None`` for a pile."""
        return int(self.source[5:]) if self.source.startswith(HAND_SOURCE) else None

    @staticmethod
    def from_hand(giver: int, seat: int, count: int) -> Deal:
        """A hand-over: ``count`` cards ``giver`` chose go to ``seat``."""
        return Deal(f"{HAND_SOURCE}{giver}", seat, count)


HAND_SOURCE = "hand:"
"""The prefix of a :class:`Deal` source that is a seat's hand (``"hand:<seat>"``)."""


@attrs.frozen
class Flip:
    """Turn the next ``count`` cards of hidden pile ``pile`` face up, for everyone."""

    pile: str
    count: int = 1


@attrs.frozen
class Rehandle:
    """Seat ``seat``'s face-down cards ``handles`` are shuffled among themselves: they get
    fresh handles, and only that seat knows which card is which."""

    seat: int
    handles: tuple[int, ...]


@attrs.frozen
class Peek:
    """Seat ``seat`` sees the identities of face-down cards ``handles``; nothing moves and
    nobody else learns them."""

    label: str
    seat: int
    handles: tuple[int, ...]


@attrs.frozen
class Reveal:
    """Make hidden cards public.  ``groups`` is a tuple of ``(group, handles,
    mixed)``: for an unmixed group each handle's identity is revealed; for a
    mixed group only the sorted multiset of identities is."""

    label: str
    groups: tuple[tuple[str, tuple[int, ...], bool], ...]


Request = Decision | Chance | Roll | Shuffle | Deal | Flip | Rehandle | Peek | Reveal


@attrs.frozen
class ChanceAnswer:
    values: tuple[int, ...]


@attrs.frozen
class RollAnswer:
    """The face of each die of a :class:`Roll`, in order, each in ``1..sides``."""

    values: tuple[int, ...]


@attrs.frozen
class ShuffleAnswer:
    pile: str


@attrs.frozen
class DealAnswer:
    """``cards`` are the dealt identities, or ``None`` on an instance that may not know them."""

    seat: int
    cards: tuple[str, ...] | None


@attrs.frozen
class FlipAnswer:
    """The identities of the flipped cards, top first."""

    pile: str
    cards: tuple[str, ...]


@attrs.frozen
class RehandleAnswer:
    """The cards under the fresh handles, in order, or ``None`` on an instance that may not
    know them."""

    seat: int
    cards: tuple[str, ...] | None


@attrs.frozen
class PeekAnswer:
    """The peeked identities in the request's handle order, or ``None`` on an instance that
    may not know them."""

    label: str
    seat: int
    cards: tuple[str, ...] | None


@attrs.frozen
class RevealAnswer:
    """``cards`` maps each group name to its identities: per handle (in the
    request's handle order) for an unmixed group, sorted for a mixed one."""

    label: str
    cards: tuple[tuple[str, tuple[str, ...]], ...]

    def group(self, name: str) -> tuple[str, ...] | None:
        for group, ids in self.cards:
            if group == name:
                return ids
        return None
