"""Regent Phase: Gain Legitimacy Points, Spoils, Draw (rulebook page 15; readings in
docs/rules/reign.md)."""

from __future__ import annotations

import json

import pytest

from fairtable.engine.errors import GameOver, IllegalMove
from fairtable.engine.outcome import Outcome
from fairtable.engine.reign import Bid, Discard, DrawChoice, Spoils
from tests.engine.reign_helpers import (
    DEFS,
    decision,
    decisions,
    events_of,
    hand,
    play,
    play_until,
    plot,
    rejects,
    settle,
    table,
)

SPEAR, RIDER = "crimson-ash-spearman.1", "crimson-steppe-rider.1"
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"
PIKE, WARDEN = "ivory-oathbound-pikeman.1", "ivory-temple-warden.1"
ARCHER, THRALL = "violet-veiled-archer.1", "violet-gloam-thrall.1"
TURNCOAT, WITNESSES = "turncoat-captain.1", "sworn-witnesses.1"
PILE = (
    [f"violet-duskblade.{n}" for n in range(1, 5)]
    + [f"violet-gloam-thrall.{n}" for n in range(2, 5)]
    + ["violet-veiled-archer.2"]
)
EVENTS = ["rally-the-levies.1", "rally-the-levies.2", "forced-march.1"]
SUPPORT = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
HANDS = {0: [SPEAR, RIDER, GUARD], 1: [MARINE], 2: [PIKE, WARDEN], 3: [ARCHER, THRALL]}
# Seat 0: 3+1 + 2+1 + pikeman 3 = 10; seat 1: 3+1 + archer 3 = 7.  Seat 2 backs 0, seat 3 backs 1.
COVERT = {
    0: ((0, 0), (SPEAR, RIDER)),
    1: ((1,), (MARINE,)),
    2: ((0,), (PIKE,)),
    3: ((1,), (ARCHER,)),
}


def seat0_wins(covert=COVERT, hands=HANDS, **kw):
    args = {
        "first": 0,
        "phase": "plotting",
        "support": SUPPORT,
        "hands": hands,
        "military": PILE,
        "events": EVENTS,
    }
    args.update(kw)
    game, ref = table(**args)
    plot(game, ref, covert=covert)
    return game, ref


# -- Gain Legitimacy Points --------------------------------------------------------------
def test_regent_gain_legitimacy_three_to_regent_two_to_each_backer():
    game, ref = seat0_wins()
    s = game.state
    assert s.regent == 0
    assert s.legitimacy == [3, 0, 2, 0]  # seat 0 backed itself: no backer points for it
    assert ("legitimacy", [3, 0, 2, 0]) in s.stored_events()


def test_regent_gain_legitimacy_new_regent_at_nine_wins():
    game, ref = seat0_wins(legit=[6, 0, 0, 0])
    assert game.outcome == Outcome.seat(0) and game.state.over == "won"
    assert ("winner", 0) in game.state.stored_events()
    assert game.pending() == ()
    rejects(game, Spoils(0, (), ()), GameOver)
    rejects(game, DrawChoice(1, 0), GameOver)


def test_regent_gain_legitimacy_below_nine_play_goes_on():
    game, ref = seat0_wins(legit=[5, 0, 0, 0])
    assert not game.over and game.state.legitimacy[0] == 8
    assert decision(game, ref).kind == "spoils"


def test_regent_gain_legitimacy_backer_reaching_nine_does_not_win():
    game, ref = seat0_wins(legit=[0, 0, 8, 0])
    assert game.state.legitimacy == [3, 0, 10, 0]
    assert not game.over and game.outcome is None
    assert decision(game, ref).kind == "spoils"


# -- Spoils ------------------------------------------------------------------------------
def test_regent_spoils_regent_draws_as_many_military_cards_as_players():
    game, ref = seat0_wins()
    assert ("draw", 0, "military", 4) in game.state.stored_events()
    assert game.state.hand_count[0] == 1 + 4
    assert hand(game, 0) == sorted([GUARD, *PILE[:4]])


def test_regent_spoils_at_least_one_card_to_each_backer():
    game, ref = seat0_wins()
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.must_give) == ("spoils", 0, (2,))
    err = rejects(game, Spoils(0, ((3, 1),), ((3, GUARD),)), IllegalMove)
    assert err.rule == "Regent Phase > Spoils"
    play(game, ref, Spoils(0, ((2, 1),), ((2, GUARD),)))
    assert GUARD in hand(game, 2)


def test_regent_spoils_giving_a_backer_nothing_is_rejected():
    game, ref = seat0_wins()
    assert decision(game, ref).info.must_give == (2,)
    rejects(game, Spoils(0, (), ()), IllegalMove)


def test_regent_spoils_every_backer_needs_a_card_not_just_one():
    covert = dict(COVERT)
    covert[3] = ((0,), (ARCHER,))  # seat 3 backs seat 0 too
    game, ref = seat0_wins(covert=covert)
    assert decision(game, ref).info.must_give == (2, 3)
    rejects(game, Spoils(0, ((2, 1),), ((2, GUARD),)), IllegalMove)


def test_regent_spoils_may_also_go_to_players_who_did_not_back():
    # Negotiation: promises are not binding; the Regent hands cards how they see fit.
    game, ref = seat0_wins()
    drawn = PILE[0]
    play(game, ref, Spoils(0, ((1, 2), (2, 1)), ((1, GUARD), (1, drawn), (2, PILE[1]))))
    assert {GUARD, drawn} <= set(hand(game, 1))
    assert game.state.hand_count[0] == 2  # kept the other two


@pytest.mark.parametrize("betrayal", [TURNCOAT, "feuding-banners"])
def test_regent_spoils_betrayal_in_regent_army_frees_the_regent(betrayal):
    hands = {0: [SPEAR, RIDER, GUARD], 1: [MARINE], 2: [PIKE, betrayal], 3: [ARCHER, THRALL]}
    covert = dict(COVERT)
    covert[2] = ((0, 0), (PIKE, betrayal))
    covert[3] = ((), ())  # seat 1 fights alone (4), so seat 0 wins in spite of the betrayal
    game, ref = seat0_wins(covert=covert, hands=hands)
    assert game.state.regent == 0 and game.state.backing[2] == 0
    d = decision(game, ref)
    assert d.info.must_give == ()
    play(game, ref, Spoils(0, (), ()))
    assert game.state.legitimacy == [3, 0, 2, 0]  # the backer still gains legitimacy


def test_regent_spoils_cancelled_betrayal_still_frees_the_regent():
    hands = {0: [SPEAR, RIDER, WITNESSES], 1: [MARINE], 2: [PIKE, TURNCOAT], 3: [ARCHER]}
    covert = {
        0: ((0, 0), (SPEAR, WITNESSES)),
        1: ((1,), (MARINE,)),
        2: ((0, 0), (PIKE, TURNCOAT)),
        3: ((1,), (ARCHER,)),
    }
    game, ref = seat0_wins(covert=covert, hands=hands)
    assert game.state.regent == 0
    assert decision(game, ref).info.must_give == ()


def test_regent_spoils_recipients_learn_the_cards_others_only_the_count():
    game, ref = seat0_wins()
    gift = PILE[2]  # drawn privately by the Regent
    play(game, ref, Spoils(0, ((2, 1),), ((2, gift),)))
    assert gift in game.view(2).hand
    assert ("spoils", 0, [[2, 1]]) in game.state.stored_events()
    assert ("handover", 0, 2, 1) in game.state.stored_events()
    assert gift not in json.dumps(game.public()) + repr(game.state.stored_events())
    assert gift not in game.view(3).hand and gift not in game.view(1).hand


def test_regent_spoils_only_to_other_players_and_only_cards_held():
    game, ref = seat0_wins()
    settle(game, ref)
    rejects(game, Spoils(0, ((0, 1), (2, 1)), ((0, GUARD), (2, PILE[0]))), IllegalMove)
    rejects(game, Spoils(0, ((2, 6),), tuple((2, c) for c in [GUARD, *PILE[:5]])), IllegalMove)
    rejects(game, Spoils(0, ((2, 1),), ((2, PIKE),)), IllegalMove)  # not the Regent's card


# -- Draw --------------------------------------------------------------------------------
def drawing(**kw):
    args = {"phase": "draw", "regent": 2, "support": SUPPORT, "military": PILE, "events": EVENTS}
    args.update(kw)
    return table(**args)


def test_regent_draw_starts_from_the_regent_clockwise():
    game, ref = drawing(
        military=PILE
        + [
            "crimson-ash-spearman.2",
            "crimson-ash-spearman.3",
            "crimson-ash-spearman.4",
            "azure-harbour-guard.2",
        ]
    )
    order = []
    for _ in range(4):
        d = decision(game, ref)
        order.append(d.seat)
        game.apply(DrawChoice(d.seat, 0))
    assert order == [2, 3, 0, 1]


@pytest.mark.parametrize(("events", "military", "event"), [(0, 3, 0), (1, 2, 1)])
def test_regent_draw_three_military_or_two_military_and_one_event(events, military, event):
    game, ref = drawing()
    play(game, ref, DrawChoice(2, events))
    kinds = [DEFS[c].kind for c in hand(game, 2)]
    assert (kinds.count("military"), kinds.count("event")) == (military, event)
    assert game.state.piles == {"military": 8 - military, "event": 3 - event}


def test_regent_draw_empty_pile_is_refilled_from_its_discard_pile():
    discard = ["crimson-ash-spearman.2", "crimson-ash-spearman.3", "crimson-ash-spearman.4"]
    game, ref = drawing(
        military=[PILE[0]], military_discard=discard, events=[], event_discard=["forced-march.2"]
    )
    play(game, ref, DrawChoice(2, 1))
    assert ("reshuffle", "military", 3) in game.state.stored_events()
    assert ("reshuffle", "event", 1) in game.state.stored_events()
    got = hand(game, 2)
    assert PILE[0] in got and "forced-march.2" in got and len(got) == 3
    assert len(set(got) & set(discard)) == 1
    assert game.state.discards == {"military": [], "event": []}
    assert game.state.piles == {"military": 2, "event": 0}


def test_regent_draw_short_when_pile_and_discard_are_both_empty():
    game, ref = drawing(military=[PILE[0]], events=[])
    play(game, ref, DrawChoice(2, 1))
    assert hand(game, 2) == [PILE[0]]
    assert ("pile_empty", "military", 2, 1) in game.state.stored_events()
    assert ("pile_empty", "event", 2, 1) in game.state.stored_events()


def over_the_limit():
    big = {
        0: [f"amber-quell-sellsword.{n}" for n in range(1, 5)]
        + [f"amber-coin-bound-crossbowman.{n}" for n in range(1, 4)],
        1: [f"ivory-temple-warden.{n}" for n in range(1, 5)]
        + [f"ivory-oathbound-pikeman.{n}" for n in range(1, 4)],
        2: [f"azure-harbour-guard.{n}" for n in range(1, 5)] + [MARINE],
    }
    pile = PILE + [f"crimson-steppe-rider.{n}" for n in range(1, 5)]
    game, ref = drawing(hands=big, military=pile)
    play(game, ref, DrawChoice(2, 0), DrawChoice(3, 0), DrawChoice(0, 0), DrawChoice(1, 0))
    return game, ref


def test_regent_draw_discard_down_to_eight_all_at_once():
    game, ref = over_the_limit()
    ds = decisions(game, ref)
    assert [(d.seat, d.kind, d.info.count, d.simultaneous) for d in ds] == [
        (0, "discard", 2, True),
        (1, "discard", 2, True),
    ]  # seat 2 is at exactly 8
    assert game.state.hand_count == [10, 10, 8, 3]
    err = rejects(game, Discard(0, (hand(game, 0)[0],)), IllegalMove)
    assert err.rule == "Regent Phase > Draw"
    game.apply(Discard(1, tuple(hand(game, 1)[:2])))
    assert [d.seat for d in decisions(game, ref)] == [0]
    game.apply(Discard(0, tuple(hand(game, 0)[:2])))
    assert game.state.hand_count == [8, 8, 8, 3]
    assert len(game.state.discards["military"]) == 4  # face up


def test_regent_draw_discard_answers_in_any_arrival_order_give_the_same_state():
    results = []
    for order in ((0, 1), (1, 0)):
        game, ref = over_the_limit()
        chosen = {s: tuple(hand(game, s)[-2:]) for s in (0, 1)}
        for seat in order:
            game.apply(Discard(seat, chosen[seat]))
        results.append((game.digest(), game.state.stored_events()[-3:], game.state.secrets))
    assert results[0] == results[1]


def test_regent_draw_new_round_begins_with_the_regent_as_first_player():
    game, ref = drawing(first=0, hands={0: [SPEAR], 2: [MARINE]})
    play_until(game, ref, lambda g: g.state.round == 3)
    d = decision(game, ref)
    assert game.state.first_player == 2 and game.state.phase == "influence"
    assert (d.kind, d.seat) == ("bid", 2)


def test_regent_draw_without_regent_first_player_draws_first_and_stays():
    game, ref = drawing(first=3, regent=None, hands={1: [SPEAR]})
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("draw", 3)
    play_until(game, ref, lambda g: g.state.round == 3)
    assert game.state.first_player == 3
    assert events_of(game, "round")[-1] == ("round", 3, 3)
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("bid", 3)
    game.apply(Bid(3, 0, ()))
