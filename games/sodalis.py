"""Sodalis, as the registry knows it (:data:`ENTRY`)."""

from __future__ import annotations

from collections.abc import Mapping

from fairtable.engine.games import AnyGameRules, BenchPlan, GameEntry, Playthrough


def _rules() -> AnyGameRules:
    from fairtable.engine.sodalis import RULES

    return RULES


def _client() -> object:
    from fairtable.client.sodalis.parts import PARTS

    return PARTS


def _bots() -> Mapping[str, object]:
    from fairtable.client.sodalis.bots import BOTS

    return BOTS


def _search() -> object:
    from fairtable.client.sodalis.search import HINTS

    return HINTS


ENTRY = GameEntry(
    name="sodalis",
    rules=_rules,
    client=_client,
    bots=_bots,
    default_bot="heuristic",
    default_seats=4,
    default_bots=3,  # two teams of two: the player and three bots
    search=_search,
    bench=BenchPlan(seats=4, plies=2, fewer=4),
    golden=(Playthrough(4, 3, ("heuristic", "random", "heuristic", "random")),),
)
