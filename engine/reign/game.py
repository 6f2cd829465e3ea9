"""The Reign game object: the engine contract for Reign.

``new_game(config, known=...)`` builds a game; ``pending()`` says who must
answer; ``apply(answer)`` takes a seat's decision or a chance, shuffle, deal or
reveal answer and either changes the state or raises a typed
:class:`~engine.errors.EngineError` leaving it untouched; ``view(seat)`` and
``digest()`` give a seat's knowledge and the hash of the public state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fairtable.engine.common_state import known_seats
from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import IllegalReveal
from fairtable.engine.outcome import Outcome
from fairtable.engine.reign import decide, depart, flow, setup
from fairtable.engine.reign import events as E
from fairtable.engine.reign.answers import ReignAnswer
from fairtable.engine.reign.cards import Catalog, standard_catalog
from fairtable.engine.reign.state import ReignConfig, ReignState, Secrets
from fairtable.engine.reign.view import ReignView, make_view
from fairtable.engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Reveal,
    RevealAnswer,
    Shuffle,
    ShuffleAnswer,
)

Answer = ReignAnswer | ChanceAnswer | ShuffleAnswer | DealAnswer | RevealAnswer

_GENERIC: dict[type, tuple[type, None, Callable[[ReignState, Any], None]]] = {
    ChanceAnswer: (Chance, None, setup.on_chance),
    ShuffleAnswer: (Shuffle, None, setup.on_shuffle),
    DealAnswer: (Deal, None, setup.on_deal),
    RevealAnswer: (Reveal, None, flow.on_reveal),
}


class ReignGame(ContractGame[ReignState, ReignView]):
    """One game of Reign as seen by one engine instance."""

    game = "reign"
    EVENT_PARSER = E.PARSER
    DECISIONS = decide.DECISION_RULES
    GENERIC = _GENERIC

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.seat(self.state.winner) if self.over else None

    def advance(self) -> None:
        flow.advance(self.state)

    def check_simultaneous(self, answer: Any) -> None:
        """Two seats cannot show one card: the deck itself was tampered with (the protocol's
        audit finds by whom), so nobody is named here."""
        cards = set(getattr(answer, "cards", ()) or ())
        for other in self.state.buffered.values():
            if cards & set(getattr(other, "cards", ()) or ()):
                raise IllegalReveal("two seats show the same card", rule="Regent Phase > Draw")

    def view(self, seat: int | None) -> ReignView:
        """What ``seat`` may see (``None``: a spectator)."""
        return make_view(self.state, seat)

    def secret_of(self, handle: int) -> str:
        return secret_of(self, handle)

    def departure_allowed(self, seat: int) -> bool:
        return depart.can_go_on(self.state, seat)

    def on_depart(self, seat: int, *, revealing: bool = False) -> None:
        depart.depart(self.state, seat, revealing=revealing)

    def set_aside(self, seat: int) -> frozenset[int]:
        return frozenset(self.state.aside_handles.get(seat, ()))

    def handover_cards(self, giver: int, seat: int) -> tuple[str, ...]:
        return handover_cards(self, giver, seat)


def new_game(
    config: ReignConfig,
    known: Iterable[int] | None = None,
    catalog: Catalog | None = None,
) -> ReignGame:
    """A new game.  ``known`` are the seats whose secrets this instance holds
    (``None``: every seat, as the local referee does; ``()``: a spectator)."""
    config.check()
    known_set = known_seats(config.players, known)
    state = ReignState(
        config=config,
        catalog=catalog or standard_catalog(),
        known=known_set,
        secrets={s: Secrets() for s in sorted(known_set)},
    )
    flow.start(state)
    return ReignGame(state)


def secret_of(game: ReignGame, handle: int) -> str:
    """The identity of a face-down card (an instance that knows its placer only)."""
    for sec in game.state.secrets.values():
        if handle in sec.facedown:
            card: str = sec.facedown[handle]
            return card
    raise KeyError(f"this engine instance does not know face-down card {handle}")


def handover_cards(game: ReignGame, giver: int, seat: int) -> tuple[str, ...]:
    """The cards ``giver`` chose to hand to ``seat`` (known to the giver's instance)."""
    if giver not in game.state.secrets:
        raise KeyError(f"this engine instance does not know seat {giver}'s gifts")
    return tuple(sorted(c for s, c in game.state.secrets[giver].gifts if s == seat))
