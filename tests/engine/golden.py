"""Golden playthroughs: whole games saved as answers and digests, replayed by the tests.

Every registered game lists its golden tables in its registry entry
(:attr:`engine.games.GameEntry.golden`); each is a file ``<game>-<seats>p-seed<seed>.jsonl``
in the entry's ``golden_dir`` (this repository's games: ``tests/engine/golden``).  A golden
file is JSON lines: a header with the table, then one line per answer with the digest after
it.  Replaying must reproduce every digest on every machine and Python version; a deliberate
rules change regenerates a game's files, and a new game writes its own:

    .venv/bin/python -m tests.engine.golden --write GAME
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

from fairtable.client.games import bots_for
from fairtable.engine.games import Playthrough, entry, game_names, rules
from fairtable.engine.referee import Referee
from fairtable.engine.requests import (
    ChanceAnswer,
    DealAnswer,
    FlipAnswer,
    PeekAnswer,
    RehandleAnswer,
    RevealAnswer,
    RollAnswer,
    ShuffleAnswer,
)
from fairtable.engine.rng import ChanceStream
from fairtable.engine.shapes import answer_from_plain

HERE = Path(__file__).parent / "golden"
REQUEST_ANSWERS = (
    ChanceAnswer,
    DealAnswer,
    FlipAnswer,
    PeekAnswer,
    RehandleAnswer,
    RevealAnswer,
    RollAnswer,
    ShuffleAnswer,
)


def tables() -> list[tuple[str, Playthrough]]:
    """(game, table) of every registered game's golden playthroughs."""
    return [(name, table) for name in game_names() for table in entry(name).golden]


def path_for(game: str, table: Playthrough) -> Path:
    found = entry(game).golden_dir
    folder = HERE if found is None else Path(found)
    return folder / f"{game}-{table.seats}p-seed{table.seed}.jsonl"


def encode(answer: Any) -> dict[str, Any]:
    return {"type": type(answer).__name__, **attrs.asdict(answer)}


def decode(game: str, data: dict[str, Any]) -> Any:
    kinds = {cls.__name__: cls for cls in (*REQUEST_ANSWERS, *rules(game).answer_kinds)}
    fields = {k: v for k, v in data.items() if k != "type"}
    return answer_from_plain(kinds[data["type"]], fields)  # leaves the classes' fields as they are


def record(game: str, table: Playthrough) -> list[str]:
    """The golden file of one table: its game played to the end by the table's bots, chance
    from the table's seed."""
    state = rules(game).new_game(table.seats)
    root = ChanceStream.from_int(table.seed)
    referee = Referee(root.child("referee").take(32))
    kinds = bots_for(game)
    bots = [kinds[kind](root.child(f"bot/{s}")) for s, kind in enumerate(table.bots)]
    header = {"game": game, "players": table.seats, "seed": table.seed, "bots": list(table.bots)}
    lines = [json.dumps(header, sort_keys=True)]
    for _ in range(50_000):
        if state.over:
            return lines
        request = state.pending()[0]
        if request.__class__.__name__ == "Decision":
            answer = bots[request.seat].decide(state.view(request.seat), request)
        else:
            answer = referee.answer(state, request)
        state.apply(answer)
        lines.append(
            json.dumps({"answer": encode(answer), "digest": state.digest()}, sort_keys=True)
        )
    raise AssertionError(f"{game}: the game did not end")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--write" or sys.argv[2] not in game_names():
        sys.exit(f"usage: python -m tests.engine.golden --write {'|'.join(game_names())}")
    for name, table in tables():
        if name == sys.argv[2]:
            path_for(name, table).write_text("\n".join(record(name, table)) + "\n")
            print("wrote", path_for(name, table))
