"""Scenarios: the rulebook's own situations played through whole phases and rounds, as a
sequence of seat decisions."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove, IllegalReveal
from fairtable.engine.outcome import Outcome
from fairtable.engine.referee import Referee
from fairtable.engine.reign import (
    Bid,
    Covert,
    Discard,
    DrawChoice,
    Overt,
    RegentDiscard,
    ReignConfig,
    Spoils,
    TieBreak,
    new_game,
)
from tests.engine.reign_helpers import (
    DEFS,
    bid_round,
    decision,
    decisions,
    events_of,
    hand,
    play,
    plot,
    rejects,
    settle,
    table,
)

SPEAR, RIDER = "crimson-ash-spearman.1", "crimson-steppe-rider.1"
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"
GUARD2 = "azure-harbour-guard.2"
PIKE, WARDEN = "ivory-oathbound-pikeman.1", "ivory-temple-warden.1"
ARCHER, THRALL, DUSK = "violet-veiled-archer.1", "violet-gloam-thrall.1", "violet-duskblade.1"
SABOTAGE, HERALD, RALLY = "political-sabotage.1", "bought-herald.1", "rally-the-levies.1"
TURNCOAT, OATH = "turncoat-captain.1", "broken-oath.1"
PILE = [
    "crimson-ash-spearman.2",
    "crimson-ash-spearman.3",
    "crimson-ash-spearman.4",
    "crimson-steppe-rider.3",
    "crimson-steppe-rider.4",
    "azure-tidecaller-marine.2",
    "azure-tidecaller-marine.3",
    "azure-tidecaller-marine.4",
    "azure-harbour-guard.3",
    "azure-harbour-guard.4",
    "ivory-oathbound-pikeman.3",
    "ivory-oathbound-pikeman.4",
    "ivory-temple-warden.2",
    "ivory-temple-warden.3",
    "ivory-temple-warden.4",
    "violet-veiled-archer.2",
]


def names(game):
    return [e[0] for e in game.state.stored_events()]


def test_scenario_round_summary_one_whole_round():
    extra = [
        "violet-duskblade.2",
        "violet-duskblade.3",
        "violet-duskblade.4",
        "violet-gloam-thrall.2",
        "violet-gloam-thrall.3",
    ]
    hands = {
        0: [SPEAR, RIDER, RALLY, GUARD2],
        1: [MARINE, SABOTAGE, GUARD],
        2: [WARDEN, PIKE, TURNCOAT],
        3: [ARCHER, THRALL, DUSK, HERALD, *extra],
    }
    game, ref = table(first=1, hands=hands, military=PILE, events=["forced-march.1"])
    s = game.state
    # Influence: place and reveal bids, resolve events, take support cards.
    assert bid_round(game, ref, {1: [MARINE, SABOTAGE], 2: [WARDEN], 0: [SPEAR]}) == [1, 2, 3, 0]
    d = decision(game, ref)
    assert s.support == {"azure": 1, "crimson": 0, "ivory": 2, "violet": None}
    assert sorted(s.discards["military"]) == sorted([MARINE, WARDEN, SPEAR])
    assert s.discards["event"] == [SABOTAGE]
    # Plotting: overt backing (up to 1 card), covert backing (up to 2 cards).
    assert (d.kind, d.seat, d.info.targets) == ("overt", 1, (1, 2, 0))
    asked = plot(
        game,
        ref,
        overt={1: (1, GUARD), 3: (0, ARCHER), 0: (0, RALLY)},
        covert={2: ((1, 2), (TURNCOAT, PIKE)), 3: ((2, 0), (DUSK, THRALL)), 0: ((0,), (RIDER,))},
    )
    assert asked == [
        ("overt", 1),
        ("overt", 2),
        ("overt", 3),
        ("overt", 0),
        ("covert", 2),
        ("covert", 3),
        ("covert", 0),
    ]  # seat 1's hand is empty
    assert s.backing == {0: 0, 1: 1, 2: 2, 3: 0}
    # Combat: crimson 3 + 2 + (1+1) + (2+1) = 9 against azure 0 (the guard deserts), ivory 6.
    assert s.combat_totals == [[1, 0], [2, 6], [0, 9]]
    assert s.regent == 0
    # Regent phase: legitimacy, spoils, draws, discard down to 8.
    assert s.legitimacy == [3, 0, 0, 2]
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.must_give) == ("spoils", 0, (3,))
    assert hand(game, 0) == sorted([GUARD2, *PILE[:4]])
    play(game, ref, Spoils(0, ((1, 1), (3, 1)), ((1, GUARD2), (3, PILE[0]))))
    assert hand(game, 1) == [GUARD2] and PILE[0] in hand(game, 3)
    for seat in (0, 1, 2, 3):
        d = decision(game, ref)
        assert (d.kind, d.seat) == ("draw", seat)
        game.apply(DrawChoice(seat, 1 if seat == 2 else 0))
    assert "forced-march.1" in hand(game, 2)
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.count) == ("discard", 3, 2)
    play(game, ref, Discard(3, tuple(extra[:2])))
    assert s.hand_count == [6, 4, 3, 8]
    # A new round begins at the influence phase with the Regent as first player.
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.forbidden) == ("bid", 0, ("crimson",))
    assert s.stored_events()[-1] == ("round", 3, 0)
    order = [
        n
        for n in (
            "bid_revealed",
            "support_gained",
            "overt",
            "covert",
            "army_revealed",
            "combat_totals",
            "regent",
            "legitimacy",
            "spoils",
            "handover",
            "discard",
        )
        if n in names(game)
    ]
    firsts = sorted(order, key=names(game).index)
    assert firsts == order


def test_scenario_first_round_of_a_new_game_with_second_bid():
    game, ref = new_game(ReignConfig(3)), Referee(11)
    first = decision(game, ref).seat
    military = [c for c in hand(game, first) if DEFS[c].kind == "military"]
    house = DEFS[military[0]].house
    mine = [c for c in military if DEFS[c].house == house]
    bid_round(game, ref, {first: mine})
    d = decision(game, ref)
    assert game.state.support[house] == first
    assert ("second_bid",) in game.state.stored_events()
    assert d.kind == "bid" and d.seat != first and d.info.forbidden == (house,)
    # The second bidder goes for another house in the centre and gets it.
    other = [c for c in hand(game, d.seat) if DEFS[c].kind == "military" and DEFS[c].house != house]
    assert other, "seed 11 deals the second bidder a card of another house"
    bid_round(game, ref, {d.seat: [other[0]]})
    settle(game, ref)
    assert game.state.support[DEFS[other[0]].house] == d.seat
    assert game.state.phase == "plotting"
    assert len(game.state.holders()) == 2


def test_scenario_regent_holds_the_crown_and_wins_the_game():
    support = {"crimson": 0, "azure": None, "ivory": None, "violet": None}
    hands = {0: [SPEAR, RIDER, "crimson-steppe-rider.2"], 1: [MARINE], 2: [PIKE]}
    game, ref = table(
        round=3, first=0, regent=0, legit=[6, 0, 4, 0], support=support, hands=hands, military=PILE
    )
    # Nobody may bid for the Regent's Warbanner; seat 1 takes the Tidewrit from the centre.
    rejects(game, Bid(0, 1, (SPEAR,)), (IllegalMove, IllegalReveal))
    bid_round(game, ref, {1: [MARINE]})
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 0)
    play(game, ref, RegentDiscard(0, "crimson-steppe-rider.2"))
    # Seat 1's army is empty (its only card went into the bid); seat 2 backs the Regent.
    plot(game, ref, overt={0: (0, SPEAR)}, covert={0: ((0,), (RIDER,)), 2: ((0,), (PIKE,))})
    assert game.state.combat_totals == [[0, 10], [1, 0]]
    assert game.outcome == Outcome.seat(0)
    assert game.state.legitimacy == [9, 0, 6, 0]
    assert game.pending() == ()


def test_scenario_sabotage_on_both_sides_tie_settled_by_the_regent():
    support = {"crimson": 3, "azure": None, "ivory": None, "violet": None}
    hands = {0: [GUARD, SABOTAGE], 1: [GUARD2, "political-sabotage.2"], 3: [SPEAR, RIDER]}
    game, ref = table(first=3, regent=3, support=support, hands=hands)
    bid_round(game, ref, {0: [GUARD, SABOTAGE], 1: [GUARD2, "political-sabotage.2"]})
    d = decision(game, ref)  # 2 - 3 and 2 - 3: both bids at 0, still the highest
    assert (d.kind, d.seat, d.info.tied, d.info.house) == ("tie_break", 3, (0, 1), "azure")
    play(game, ref, TieBreak(3, 1))
    assert game.state.support["azure"] == 1
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 3)
    play(game, ref, RegentDiscard(3, RIDER))
    assert game.state.hand_count[3] == 1 and RIDER in game.state.discards["military"]


def test_scenario_broken_oath_leaves_the_new_regent_without_a_banner():
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    hands = {0: [SPEAR, RIDER], 1: [MARINE], 2: [OATH, PIKE, "crimson-red-banner-sergeant.1"]}
    game, ref = table(first=0, phase="plotting", support=support, hands=hands, military=PILE)
    plot(
        game,
        ref,
        overt={0: (0, SPEAR), 1: (1, MARINE)},
        covert={0: ((0,), (RIDER,)), 2: ((0,), (OATH,))},
    )
    s = game.state
    assert s.regent == 0 and s.support["crimson"] is None  # won, then the oath broke
    assert s.legitimacy == [3, 0, 2, 0]  # seat 2 backed the winner with a betrayal
    d = decision(game, ref)
    assert d.info.must_give == ()  # the betrayal frees the Regent from paying spoils
    play(game, ref, Spoils(0, (), ()))
    for seat in (0, 1, 2, 3):
        play(game, ref, DrawChoice(seat, 0))
    # Next round: the Regent holds no support card, so every house may be bid for.
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.forbidden) == ("bid", 0, ())
    bid_round(game, ref, {2: ["crimson-red-banner-sergeant.1"]})
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 0)
    play(game, ref, RegentDiscard(0, hand(game, 0)[0]))
    # Plotting: the Regent has no army, so may place no card at all.
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.targets) == ("overt", 0, (1, 2))
    rejects(game, Overt(0, 1, hand(game, 0)[0]), IllegalMove)
    plot(game, ref, stop=("covert", 0))
    rejects(game, Covert(0, (2,), (hand(game, 0)[0],)), IllegalMove)
    plot(game, ref)
    # Both armies are empty: a tie the Regent (without an army) still settles.
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.tied) == ("tie_break", 0, (1, 2))
    play(game, ref, TieBreak(0, 2))
    assert s.regent == 2 and events_of(game, "regent")[-1] == ("regent", 2)
    assert decisions(game, ref)[0].kind == "spoils"
