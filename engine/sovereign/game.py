"""The Sovereign game object: the engine contract for Sovereign.

``new_game(config, known=...)`` builds a game; ``pending()`` says who must answer;
``apply(answer)`` takes a seat's decision or a chance, shuffle, deal, peek or reveal
answer and either changes the state or raises a typed
:class:`~engine.errors.EngineError` leaving it untouched (a refused answer is checked
completely before anything changes; a failure inside a reveal's checks is raised before
the state is touched too).  ``view(seat)`` and ``digest()`` give a seat's knowledge and
the hash of the public state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fairtable.engine.common_state import known_seats
from fairtable.engine.contract import ContractGame
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Decision,
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Reveal,
    RevealAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.sovereign import decide, depart, flow, requests_in
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.answers import ACCEPTS, Pass, SovereignAnswer
from fairtable.engine.sovereign.cards import Catalog, standard_catalog
from fairtable.engine.sovereign.state import Secrets, SovereignConfig, SovereignState
from fairtable.engine.sovereign.view import SovereignView, make_view

Answer = (
    SovereignAnswer
    | ChanceAnswer
    | ShuffleAnswer
    | DealAnswer
    | PeekAnswer
    | RehandleAnswer
    | RevealAnswer
)

_GENERIC: dict[type, tuple[type, None, Callable[[SovereignState, Any], None]]] = {
    ChanceAnswer: (Chance, None, requests_in.on_chance),
    ShuffleAnswer: (Shuffle, None, requests_in.on_shuffle),
    DealAnswer: (Deal, None, requests_in.on_deal),
    PeekAnswer: (Peek, None, requests_in.on_peek),
    RehandleAnswer: (Rehandle, None, requests_in.on_deal),
    RevealAnswer: (Reveal, None, requests_in.on_reveal),
}


class SovereignGame(ContractGame[SovereignState, SovereignView]):
    """One game of Sovereign as seen by one engine instance (no hand-overs: a breached hand
    is re-handled, so ``handover_cards`` raises :class:`KeyError`)."""

    game = "sovereign"
    EVENT_PARSER = E.PARSER
    DECISIONS = {
        cls: (cls.__name__, check, apply) for cls, (check, apply) in decide.DECISION_RULES.items()
    }
    GENERIC = _GENERIC

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.seat(self.state.winner) if self.over else None

    def advance(self) -> None:
        flow.advance(self.state)

    def accepts(self, req: Decision, answer: Any) -> bool:
        """A Sovereign decision kind takes several answer classes (a window: reflexes,
        abilities, moves or a pass)."""
        return type(answer) in ACCEPTS[req.kind]

    def before_apply(self, req: Decision, answer: Any) -> None:
        decide.reask(self.state, req, not isinstance(answer, Pass))

    def departure_allowed(self, seat: int) -> bool:
        return depart.can_go_on(self.state, seat)

    def on_depart(self, seat: int, *, revealing: bool = False) -> None:
        depart.depart(self.state, seat)  # no pooled reveal here: never ``revealing``

    def stand_in(self, decision: Decision) -> Any:
        return depart.stand_in(self.state, decision)

    def set_aside(self, seat: int) -> frozenset[int]:
        return frozenset(self.state.aside_handles.get(seat, ()))

    def view(self, seat: int | None) -> SovereignView:
        return make_view(self.state, seat)

    def secret_of(self, handle: int) -> str:
        card: str | None = self.state.secret(handle)
        if card is None:
            raise KeyError(f"this engine instance does not know face-down card {handle}")
        return card


def new_game(
    config: SovereignConfig, known: Iterable[int] | None = None, catalog: Catalog | None = None
) -> SovereignGame:
    """A new game.  ``known`` are the seats whose secrets this instance holds (``None``:
    every seat, as the local referee does; ``()``: a spectator)."""
    catalog = catalog or standard_catalog()
    config.check(catalog)
    known_set = known_seats(config.players, known)
    state = SovereignState(
        config=config,
        catalog=catalog,
        known=known_set,
        secrets={s: Secrets() for s in sorted(known_set)},
    )
    flow.start(state)
    return SovereignGame(state)
