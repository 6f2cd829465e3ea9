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


def test_heuristic_bot_orders_influence_events_in_its_own_favour() -> None:
    # Influence Phase > Event Cards and Special Abilities: whoever orders the events may
    # favour itself; the heuristic bot
    # picks the order that wins its own bid (1 + Herald wants the Sabotage first: 0 + 2 = 2)
    from client.bots import HeuristicBot
    from engine.rng import ChanceStream
    from tests.engine.reign_helpers import bid_round, decision, table

    sabotage, herald = "political-sabotage.1", "bought-herald.1"
    for first in (0, 1):  # whoever decides wins the bid
        hands = {0: ["violet-gloam-thrall.1", sabotage], 1: ["violet-gloam-thrall.2", herald]}
        game, ref = table(first=first, hands=hands)
        bid_round(game, ref, hands)
        d = decision(game, ref)
        answer = HeuristicBot(ChanceStream(b"k" * 32)).decide(game.view(d.seat), d)
        game.apply(answer)
        decision(game, ref)
        winner = game.state.support["violet"]
        assert winner == first, (first, answer)
