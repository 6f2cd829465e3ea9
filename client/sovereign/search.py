"""Sovereign's hints for the search bot (:class:`client.search.SearchHints`): a seat's score is
the Echoes it scored, and the table's Echo target wins.  Its rollouts play whole games of a few
hundred decisions, so few fit a budget: candidates are compared in common worlds (``paired``)."""

from __future__ import annotations

from typing import Any

from fairtable.client.search import SearchHints


def _scores(game: Any) -> list[int]:
    return [len(b.scored) for b in game.state.boards]


def _target(game: Any) -> int:
    return int(game.state.config.target)


HINTS = SearchHints(scores=_scores, win_score=_target, paired=True)
