"""Decision kinds are each game's enum members, and every one has a handler in its bot."""

from __future__ import annotations

import json

import pytest

from fairtable.client.reign import bots as reign_bots
from fairtable.client.sodalis import bots as sodalis_bots
from fairtable.client.sovereign import bots as sovereign_bots
from fairtable.engine.reign.decisions import ReignDecisionKind
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.sodalis.decisions import SodalisDecisionKind
from fairtable.engine.sovereign.decisions import SovereignDecisionKind
from tests.bot_games import BotTable

KINDS: dict[str, type[DecisionKind]] = {
    "reign": ReignDecisionKind,
    "sodalis": SodalisDecisionKind,
    "sovereign": SovereignDecisionKind,
}
HANDLERS = {
    "reign": reign_bots.HANDLERS,
    "sodalis": sodalis_bots.HANDLERS,
    "sovereign": sovereign_bots.HANDLERS,
}
PLAYERS = {"reign": 3, "sodalis": 2, "sovereign": 2}


@pytest.mark.parametrize("game", sorted(KINDS))
def test_the_heuristic_bot_handles_every_decision_kind_of_its_game(game: str) -> None:
    assert set(HANDLERS[game]) == set(KINDS[game])


@pytest.mark.parametrize("game", sorted(KINDS))
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_game_asks_only_decisions_of_its_own_kinds(game: str, bot: str) -> None:
    kind = KINDS[game]
    seen: set[DecisionKind] = set()
    for request in BotTable(game, PLAYERS[game], seed=7, bot=bot).requests():
        if isinstance(request, Decision):
            assert type(request.kind) is kind, request
            seen.add(request.kind)
    assert len(seen) >= 3  # a whole game asks several kinds


def test_a_decision_kind_is_its_name_on_the_wire() -> None:
    """The enum changes no byte: a kind compares, hashes and encodes as its name."""
    assert ReignDecisionKind.BID == "bid" and hash(ReignDecisionKind.BID) == hash("bid")
    assert json.dumps([SodalisDecisionKind.TURN]) == '["turn"]'
    assert str(SovereignDecisionKind.FINISH_FORGE) == "finish_forge"
