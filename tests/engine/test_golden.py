"""Golden playthroughs of every registered game replay to the same digests, step by step."""

from __future__ import annotations

import json

import pytest

from fairtable.engine.games import Playthrough, entry, game_names, rules
from tests.engine.golden import decode, path_for, tables


def test_every_registered_game_has_golden_playthroughs() -> None:
    for name in game_names():
        assert entry(name).golden, f"{name} has no golden playthrough"
        for table in entry(name).golden:
            assert path_for(name, table).is_file(), path_for(name, table)


@pytest.mark.parametrize(("game", "table"), tables())
def test_golden_playthrough_replays_to_the_recorded_digests(game: str, table: Playthrough) -> None:
    lines = path_for(game, table).read_text().splitlines()
    header = json.loads(lines[0])
    assert (header["game"], header["players"], header["seed"]) == (game, table.seats, table.seed)
    state = rules(game).new_game(table.seats)
    for number, line in enumerate(lines[1:], start=1):
        step = json.loads(line)
        state.apply(decode(game, step["answer"]))
        assert state.digest() == step["digest"], f"digest differs after answer {number}"
    assert state.over
