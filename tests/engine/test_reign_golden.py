"""Golden playthroughs replay to the same digests, step by step."""

from __future__ import annotations

import json

import pytest

from engine.reign import ReignConfig, new_game
from tests.engine.golden import TABLES, decode, path_for


@pytest.mark.parametrize(("players", "seed", "bots"), TABLES)
def test_golden_playthrough_replays_to_the_recorded_digests(
    players: int, seed: int, bots: list[str]
) -> None:
    lines = path_for(players, seed).read_text().splitlines()
    header = json.loads(lines[0])
    assert header["players"] == players
    game = new_game(ReignConfig(players))
    for number, line in enumerate(lines[1:], start=1):
        entry = json.loads(line)
        game.apply(decode(entry["answer"]))
        assert game.digest() == entry["digest"], f"digest differs after answer {number}"
    assert game.over
