"""Sovereign: Fall of Wormwood, as the registry knows it (:data:`ENTRY`)."""

from __future__ import annotations

from collections.abc import Mapping

from fairtable.engine.games import AnyGameRules, BenchPlan, GameEntry, Playthrough


def _rules() -> AnyGameRules:
    from fairtable.engine.sovereign import RULES

    return RULES


def _client() -> object:
    from fairtable.client.sovereign.parts import PARTS

    return PARTS


def _bots() -> Mapping[str, object]:
    from fairtable.client.sovereign.bots import BOTS

    return BOTS


def _search() -> object:
    from fairtable.client.sovereign.search import HINTS

    return HINTS


ENTRY = GameEntry(
    name="sovereign",
    rules=_rules,
    client=_client,
    bots=_bots,
    default_bot="heuristic",
    default_seats=5,
    default_bots=2,
    styles=(  # the factions
        ("faction-machina", "fg:#5fafd7"),
        ("faction-myrmidon", "fg:#d7875f"),
        ("faction-neogenesis", "fg:#5fd75f"),
        ("faction-undercity", "fg:#af87af"),
        ("faction-utopian", "fg:#d7d75f"),
        ("faction-windwalker", "fg:#87d7d7"),
    ),
    search=_search,
    bench=BenchPlan(seats=2, plies=2, fewer=4),
    golden=(Playthrough(2, 5, ("heuristic", "random")),),
)
