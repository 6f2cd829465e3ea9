"""Reign's hints for the search bot (:class:`client.search.SearchHints`): a seat's score is its
legitimacy, 9 of which wins."""

from __future__ import annotations

from typing import Any

from fairtable.client.search import SearchHints


def _scores(game: Any) -> list[int]:
    return list(game.state.legitimacy)


HINTS = SearchHints(scores=_scores, win_score=lambda game: 9)
