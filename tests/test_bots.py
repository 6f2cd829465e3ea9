"""Bots: legal play from views only, and the heuristic bot's strength."""

from __future__ import annotations

from client.simulate import run_game


def test_heuristic_bot_wins_at_least_half_of_200_five_player_games_against_random() -> None:
    wins = 0
    for game in range(200):
        seat = game % 5  # every seat in turn, so the first-player draw cannot flatter it
        bots = ["random"] * 5
        bots[seat] = "heuristic"
        result = run_game("reign", 5, 1000 + game, bots)
        wins += result["winner"] == seat
    assert wins >= 100, f"the heuristic bot won only {wins} of 200"


def test_random_bots_finish_games_at_every_table_size() -> None:
    for players in range(3, 8):
        result = run_game("reign", players, players, ["random"] * players)
        assert result["end"] in ("won", "round_limit")
        assert result["decisions"] > 0
