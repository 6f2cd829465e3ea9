"""The Sodalis game object: the engine contract for Sodalis.

``new_game(config, known=...)`` builds a game; ``pending()`` says who must answer;
``apply(answer)`` takes a seat's decision or a roll, shuffle or flip answer and either
changes the state or raises a typed :class:`~engine.errors.EngineError` leaving it
untouched; ``check(answer)`` only validates; ``view(seat)`` and ``digest()`` give a seat's
knowledge and the hash of the public state.  Simultaneous decisions (turn tokens,
rearranging, reversals) are buffered in any arrival order and applied in seat order once
all are in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fairtable.engine.common_state import known_seats
from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import (
    Decision,
    Flip,
    FlipAnswer,
    Roll,
    RollAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.sodalis import decide, depart, flow
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.answers import SodalisAnswer
from fairtable.engine.sodalis.arena import Arena, standard_arena
from fairtable.engine.sodalis.cards import Catalog
from fairtable.engine.sodalis.catalog import standard_catalog
from fairtable.engine.sodalis.state import Seat, SodalisConfig, SodalisState
from fairtable.engine.sodalis.view import SodalisView, make_view

Answer = SodalisAnswer | RollAnswer | ShuffleAnswer | FlipAnswer

_GENERIC: dict[
    type, tuple[type, Callable[[SodalisState, Any], None], Callable[[SodalisState, Any], None]]
] = {
    RollAnswer: (Roll, flow.check_roll, flow.on_roll),
    ShuffleAnswer: (Shuffle, flow.check_shuffle, flow.on_shuffle),
    FlipAnswer: (Flip, flow.check_flip, flow.on_flip),
}


class SodalisGame(ContractGame[SodalisState, SodalisView]):
    """One game of Sodalis as seen by one engine instance (no face-down cards, no
    hand-overs: ``secret_of`` and ``handover_cards`` raise :class:`KeyError`)."""

    game = "sodalis"
    EVENT_PARSER = E.PARSER
    DECISIONS = decide.DECISION_RULES
    GENERIC = _GENERIC

    @property
    def outcome(self) -> Outcome | None:
        """A team wins, and with it every seat of the team."""
        if not self.over:
            return None
        team = self.state.winner
        seats = () if team is None else self.state.living(self.state.members(team))
        return Outcome.of_team(team, seats)

    def advance(self) -> None:
        flow.advance(self.state)

    def departure_allowed(self, seat: int) -> bool:
        return depart.can_go_on(self.state, seat)

    def on_depart(self, seat: int, *, revealing: bool = False) -> None:
        depart.depart(self.state, seat)  # no pooled reveal here: never ``revealing``

    def stand_in(self, decision: Decision) -> Any:
        return depart.stand_in(self.state, decision)

    def view(self, seat: int | None) -> SodalisView:
        """What ``seat`` may see (``None``: a spectator)."""
        return make_view(self.state, seat)


def new_game(
    config: SodalisConfig,
    known: Iterable[int] | None = None,
    catalog: Catalog | None = None,
    arena: Arena | None = None,
) -> SodalisGame:
    """A new game.  ``known`` are the seats whose secrets this instance holds (``None``:
    every seat, as the local referee does; ``()``: a spectator).  Sodalis' only secrets are
    simultaneous answers not yet revealed, so ``known`` only decides whose views this
    instance may build."""
    config.check()
    known_set = known_seats(config.players, known)
    catalog = catalog or standard_catalog()
    if len(catalog.champions) < config.players:
        raise MalformedAnswer(
            f"{config.players} players need {config.players} champions; the "
            f"catalog has {len(catalog.champions)}",
            rule="Setup",
        )
    state = SodalisState(
        config=config,
        catalog=catalog,
        arena=arena or standard_arena(),
        known=known_set,
        seats=[Seat(team=config.team_of(s)) for s in range(config.players)],
    )
    flow.start(state)
    return SodalisGame(state)
