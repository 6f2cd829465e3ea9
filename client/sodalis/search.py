"""Sodalis's hints for the search bot (:class:`client.search.SearchHints`): a seat's score is
its team's Tributes (three win, and team mates are not rivals); whole games are too long to
play out within a budget, so a rollout is scored after 60 decisions."""

from __future__ import annotations

from typing import Any

from fairtable.client.search import SearchHints


def _scores(game: Any) -> list[int]:
    s = game.state
    return [len(s.team_tributes(s.team_of(seat))) for seat in range(s.players)]


def _team(game: Any, seat: int) -> object:
    team: object = game.state.team_of(seat)
    return team


HINTS = SearchHints(scores=_scores, win_score=lambda game: 3, side=_team, horizon=60)
