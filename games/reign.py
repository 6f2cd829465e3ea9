"""Reign: The Card Game, as the registry knows it (:data:`ENTRY`)."""

from __future__ import annotations

from collections.abc import Mapping

from fairtable.engine.games import AnyGameRules, BenchPlan, GameEntry, Playthrough


def _rules() -> AnyGameRules:
    from fairtable.engine.reign import RULES

    return RULES


def _client() -> object:
    from fairtable.client.reign.parts import PARTS

    return PARTS


def _bots() -> Mapping[str, object]:
    from fairtable.client.reign.bots import BOTS

    return BOTS


def _search() -> object:
    from fairtable.client.reign.search import HINTS

    return HINTS


ENTRY = GameEntry(
    name="reign",
    rules=_rules,
    client=_client,
    bots=_bots,
    default_bot="heuristic",
    default_seats=5,
    default_bots=2,
    styles=(  # the houses, by their data's colour names
        ("house-amber", "fg:#d7a000"),
        ("house-azure", "fg:#3a8fd8"),
        ("house-crimson", "fg:#d03030"),
        ("house-ivory", "fg:#d8d0b0"),
        ("house-violet", "fg:#a060d0"),
    ),
    search=_search,
    bench=BenchPlan(seats=5, plies=1),
    golden=(
        Playthrough(3, 101, ("heuristic", "random", "random")),
        Playthrough(5, 7, ("random", "heuristic", "random", "heuristic", "random")),
        Playthrough(7, 42, ("random",) * 7),
    ),
)
