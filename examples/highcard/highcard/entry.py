"""High Card's registry entry (:data:`ENTRY`), published as ``highcard`` under the
entry-point group ``fairtable.games`` by this package's ``pyproject.toml``.

Each hook imports its part only when called: listing the installed games loads none of
this game's code.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from fairtable.engine.games import AnyGameRules, BenchPlan, GameEntry, Playthrough


def _rules() -> AnyGameRules:
    from highcard.rules import RULES

    return RULES


def _client() -> object:
    from highcard.parts import PARTS

    return PARTS


def _bots() -> Mapping[str, object]:
    from highcard.bots import BOTS

    return BOTS


ENTRY = GameEntry(
    name="highcard",
    rules=_rules,
    client=_client,
    bots=_bots,
    default_bot="high",
    default_seats=2,
    default_bots=1,
    styles=(("card", "bold"),),
    bench=BenchPlan(seats=3, plies=1),
    golden=(
        Playthrough(2, 1, ("high", "random")),
        Playthrough(3, 2, ("random", "high", "random")),
    ),
    golden_dir=str(Path(__file__).parent / "golden"),
)
