"""Bots: legal play from views only, and the heuristic bot's strength."""

from __future__ import annotations

from fairtable.client.simulate import run_game


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
    from fairtable.client.reign.bots import HeuristicBot
    from fairtable.engine.rng import ChanceStream
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


def test_heuristic_bot_orders_its_own_army_and_settles_combat_ties_in_its_favour() -> None:
    # Combat Phase > The Reveal / Regent's Special Rules: the owner orders its army (the
    # ward on the wine wins combat, 5 against 4); the Regent's tie goes its own way.
    from fairtable.client.reign.bots import HeuristicBot
    from fairtable.engine.reign import CombatTie, OrderArmy
    from fairtable.engine.rng import ChanceStream
    from tests.engine.reign_helpers import decision, plot, table

    spear, marine = "crimson-ash-spearman.1", "azure-tidecaller-marine.1"
    guard = "azure-harbour-guard.1"
    witnesses, wine, oath = "sworn-witnesses.1", "poisoned-wine", "broken-oath.1"
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=3,
        regent=3,
        phase="plotting",
        support=support,
        hands={0: [spear, witnesses], 1: [marine, wine], 2: [oath]},
    )
    plot(
        game,
        ref,
        covert={0: ((0, 0), (spear, witnesses)), 1: ((1, 0), (marine, wine)), 2: ((0,), (oath,))},
    )
    d = decision(game, ref)
    answer = HeuristicBot(ChanceStream(b"k" * 32)).decide(game.view(d.seat), d)
    assert answer == OrderArmy(0, (wine, oath))
    # seat 1 as Regent facing Turncoat Captain in seat 0's army: the Spearman deserts, so
    # seat 0 falls to 3 and seat 1's 3 ties (rather than losing 4 to 3)
    game, ref = table(
        first=1,
        regent=1,
        phase="plotting",
        support=support,
        hands={0: [spear, marine], 1: [guard], 2: ["turncoat-captain.1"]},
    )
    plot(
        game,
        ref,
        covert={
            0: ((0, 0), (spear, marine)),
            1: ((1,), (guard,)),
            2: ((0,), ("turncoat-captain.1",)),
        },
    )
    d = decision(game, ref)
    assert d.kind == "combat_tie"
    answer = HeuristicBot(ChanceStream(b"k" * 32)).decide(game.view(d.seat), d)
    assert answer == CombatTie(1, spear)
