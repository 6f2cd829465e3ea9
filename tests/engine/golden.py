"""Golden playthroughs: whole games saved as answers and digests, replayed by the tests.

A golden file is JSON lines: a header with the table, then one line per answer
with the digest after it.  Replaying must reproduce every digest on every
machine and Python version; a deliberate rules change regenerates the files:

    .venv/bin/python -m tests.engine.golden --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

from engine.reign import answers as reign_answers
from engine.requests import ChanceAnswer, DealAnswer, RevealAnswer, ShuffleAnswer
from tests.engine.driver import Table

HERE = Path(__file__).parent / "golden"
TABLES = [
    (3, 101, ["heuristic", "random", "random"]),
    (5, 7, ["random", "heuristic", "random", "heuristic", "random"]),
    (7, 42, ["random"] * 7),
]
TYPES = {
    cls.__name__: cls
    for cls in (
        ChanceAnswer,
        DealAnswer,
        RevealAnswer,
        ShuffleAnswer,
        *reign_answers.ANSWER_KINDS.values(),
    )
}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def encode(answer: Any) -> dict[str, Any]:
    return {"type": type(answer).__name__, **attrs.asdict(answer)}


def decode(data: dict[str, Any]) -> Any:
    fields = {k: _tuples(v) for k, v in data.items() if k != "type"}
    return TYPES[data["type"]](**fields)


def path_for(players: int, seed: int) -> Path:
    return HERE / f"reign-{players}p-seed{seed}.jsonl"


def record(players: int, seed: int, bots: list[str]) -> list[str]:
    table = Table(players, seed=seed, bots=bots)
    table.play()
    lines = [
        json.dumps(
            {"game": "reign", "players": players, "seed": seed, "bots": bots}, sort_keys=True
        )
    ]
    for answer, digest in zip(table.answers, table.digests[1:], strict=True):
        lines.append(json.dumps({"answer": encode(answer), "digest": digest}, sort_keys=True))
    return lines


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python -m tests.engine.golden --write")
    for players, seed, bots in TABLES:
        path_for(players, seed).write_text("\n".join(record(players, seed, bots)) + "\n")
        print("wrote", path_for(players, seed))
