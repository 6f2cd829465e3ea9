"""Influence Phase: Bidding, First Round Special Case, Event Cards and Special Abilities,
Regent's Special Rules (rulebook pages 8-10; readings in docs/rules/reign.md)."""

from __future__ import annotations

import json

import pytest

from fairtable.engine.errors import EngineError, IllegalMove, IllegalReveal, MalformedAnswer
from fairtable.engine.reign import Bid, KeepSupport, OrderEvents, RegentDiscard, TieBreak
from fairtable.engine.reign.combat import bid_totals
from fairtable.engine.requests import Reveal
from tests.engine.reign_helpers import (
    CATALOG,
    bid_round,
    decision,
    events_of,
    hand,
    play,
    rejects,
    settle,
    table,
)

SPEAR, SPEAR2 = "crimson-ash-spearman.1", "crimson-ash-spearman.2"  # force 3
RIDER, RIDER2 = "crimson-steppe-rider.1", "crimson-steppe-rider.2"  # force 2
GUARD, GUARD2 = "azure-harbour-guard.1", "azure-harbour-guard.2"  # force 2
MARINE = "azure-tidecaller-marine.1"  # force 3
WARDEN, PIKE = "ivory-temple-warden.1", "ivory-oathbound-pikeman.1"  # force 2, 3
THRALL, THRALL2 = "violet-gloam-thrall.1", "violet-gloam-thrall.2"  # force 1
SABOTAGE, SABOTAGE2 = "political-sabotage.1", "political-sabotage.2"
HERALD, SEAL = "bought-herald.1", "forged-crown-seal"


def refused_by_rule(game, answer, rule):
    # The bid's own instance checks the cards with the reveal check (flow.check_bid), which
    # raises IllegalReveal; IllegalMove would be the documented class for a bad decision.
    err = rejects(game, answer, (IllegalMove, IllegalReveal))
    assert err.rule == rule
    return err


# -- Bidding -----------------------------------------------------------------------------
def test_influence_bidding_starts_with_first_player_and_goes_clockwise():
    game, ref = table(first=2, hands={0: [RIDER], 1: [GUARD], 2: [WARDEN], 3: [THRALL]})
    assert bid_round(game, ref) == [2, 3, 0, 1]


def test_influence_bidding_seat_with_empty_hand_is_skipped():
    game, ref = table(first=0, hands={0: [RIDER], 2: [WARDEN], 3: [THRALL]})
    assert bid_round(game, ref) == [0, 2, 3]


def test_influence_bidding_bids_are_face_down_others_see_only_the_count():
    game, ref = table(first=0, hands={0: [RIDER, RIDER2], 1: [GUARD], 2: [WARDEN]})
    settle(game, ref)
    game.apply(Bid(0, 2, (RIDER, RIDER2)))
    assert ("bid", 0, 2) in game.state.stored_events()
    assert len(game.state.bids[0]) == 2
    text = json.dumps(game.public()) + repr(game.state.stored_events())
    assert RIDER not in text and RIDER2 not in text
    assert hand(game, 0) == [] and game.state.hand_count[0] == 0
    game.apply(Bid(1, 1, (GUARD,)))
    game.apply(Bid(2, 0, ()))
    reveal = game.pending()[0]  # all bids are revealed together, once everyone has bid
    assert isinstance(reveal, Reveal) and reveal.label == "bids"
    assert [(g, len(h), mixed) for g, h, mixed in reveal.groups] == [
        ("0", 2, False),
        ("1", 1, False),
    ]
    game.apply(ref.answer(game, reveal))
    assert ("bid_revealed", 0, [RIDER, RIDER2]) in game.state.stored_events()


def test_influence_bidding_highest_combined_force_takes_support():
    # Two riders (2+2) beat one spearman (3): the combined force counts, not the best card.
    game, ref = table(first=0, hands={0: [SPEAR], 1: [RIDER, RIDER2], 2: [GUARD], 3: [PIKE]})
    bid_round(game, ref, {0: [SPEAR], 1: [RIDER, RIDER2], 2: [GUARD]})
    settle(game, ref)
    assert game.state.support == {"azure": 2, "crimson": 1, "ivory": None, "violet": None}
    assert ("support_gained", 1, "crimson") in game.state.stored_events()
    assert game.state.phase == "plotting"


def test_influence_bidding_cards_of_one_house_only_mixed_bid_rejected():
    game, ref = table(first=0, hands={0: [SPEAR, GUARD], 1: [RIDER]})
    settle(game, ref)
    refused_by_rule(game, Bid(0, 2, (SPEAR, GUARD)), "Influence Phase > Bidding")
    game.apply(Bid(0, 1, (SPEAR,)))  # one house is fine


def test_influence_bidding_tie_without_regent_card_stays_in_centre():
    game, ref = table(first=0, hands={0: [SPEAR], 1: [SPEAR2], 2: [GUARD]})
    bid_round(game, ref, {0: [SPEAR], 1: [SPEAR2], 2: [GUARD]})
    settle(game, ref)
    assert game.state.support["crimson"] is None
    assert game.state.support["azure"] == 2
    assert ("bid_tie", "crimson", [0, 1]) in game.state.stored_events()
    assert not any(d.kind == "tie_break" for d in game.pending())


def test_influence_bidding_tie_leaves_a_held_card_with_its_holder():
    support = {"crimson": 2, "azure": None, "ivory": None, "violet": None}
    game, ref = table(first=0, support=support, hands={0: [SPEAR], 1: [SPEAR2], 2: [WARDEN]})
    bid_round(game, ref, {0: [SPEAR], 1: [SPEAR2]})
    settle(game, ref)
    assert game.state.support["crimson"] == 2


def test_influence_bidding_outbidding_takes_a_card_from_its_holder():
    support = {"crimson": 2, "azure": None, "ivory": None, "violet": None}
    game, ref = table(first=0, support=support, hands={0: [SPEAR], 2: [RIDER]})
    bid_round(game, ref, {0: [SPEAR], 2: [RIDER]})
    settle(game, ref)
    assert game.state.support["crimson"] == 0
    assert game.state.support_of(2) == []


def test_influence_bidding_holder_may_defend_its_own_card():
    support = {"crimson": 2, "azure": None, "ivory": None, "violet": None}
    game, ref = table(first=0, support=support, hands={0: [RIDER], 2: [SPEAR]})
    bid_round(game, ref, {0: [RIDER], 2: [SPEAR]})
    settle(game, ref)
    assert game.state.support["crimson"] == 2
    assert events_of(game, "support_gained") == []


@pytest.mark.parametrize(("keep", "returned"), [("crimson", "ivory"), ("ivory", "crimson")])
def test_influence_bidding_never_more_than_one_support_card(keep, returned):
    support = {"crimson": None, "azure": None, "ivory": 0, "violet": None}
    game, ref = table(first=0, support=support, hands={0: [SPEAR], 1: [RIDER]})
    bid_round(game, ref, {0: [SPEAR], 1: [RIDER]})
    d = decision(game, ref)
    assert (d.seat, d.kind, d.info.houses) == (0, "keep_support", ("crimson", "ivory"))
    rejects(game, KeepSupport(0, "azure"), IllegalMove)
    play(game, ref, KeepSupport(0, keep))
    assert game.state.support[keep] == 0
    assert game.state.support[returned] is None
    assert ("support_returned", 0, returned) in game.state.stored_events()


def test_influence_bidding_keep_support_choices_in_turn_order():
    support = {"crimson": None, "azure": None, "ivory": 3, "violet": 1}
    hands = {1: [SPEAR], 3: [GUARD]}
    game, ref = table(first=2, support=support, hands=hands)
    bid_round(game, ref, {1: [SPEAR], 3: [GUARD]})
    first = decision(game, ref)
    assert (first.kind, first.seat) == ("keep_support", 3)  # seat 3 comes before 1 from 2
    play(game, ref, KeepSupport(3, "azure"))
    second = decision(game, ref)
    assert (second.kind, second.seat) == ("keep_support", 1)


def test_influence_bidding_bid_cards_discarded_successful_or_not():
    game, ref = table(first=0, hands={0: [SPEAR, HERALD], 1: [RIDER], 2: [THRALL]})
    bid_round(game, ref, {0: [SPEAR, HERALD], 1: [RIDER], 2: [THRALL]})
    settle(game, ref)
    assert sorted(game.state.discards["military"]) == sorted([SPEAR, RIDER, THRALL])
    assert game.state.discards["event"] == [HERALD]
    assert game.state.hand_count == [0, 0, 0, 0]


# -- First Round Special Case -------------------------------------------------------------
def first_round(**kw):
    hands = {0: [SPEAR], 1: [RIDER, GUARD], 2: [MARINE], 3: [WARDEN]}
    return table(round=1, first=0, hands=hands, **kw)


def test_first_round_special_case_players_without_support_bid_again():
    game, ref = first_round()
    assert bid_round(game, ref, {0: [SPEAR]}) == [0, 1, 2, 3]
    d = decision(game, ref)
    assert ("second_bid",) in game.state.stored_events()
    assert (d.kind, d.seat, d.info.pass_number) == ("bid", 1, 2)
    assert "crimson" in d.info.forbidden
    assert bid_round(game, ref, {2: [MARINE]}) == [1, 2, 3]  # the holder does not bid again
    settle(game, ref)
    assert game.state.support == {"azure": 2, "crimson": 0, "ivory": None, "violet": None}
    assert game.state.phase == "plotting"


def test_first_round_special_case_only_cards_not_held_by_others():
    game, ref = first_round()
    bid_round(game, ref, {0: [SPEAR]})
    settle(game, ref)
    err = refused_by_rule(game, Bid(1, 1, (RIDER,)), "Influence Phase > Regent's Special Rules")
    assert "may not bid" in err.reason
    game.apply(Bid(1, 1, (GUARD,)))


@pytest.mark.parametrize("winners", [{}, {0: [SPEAR], 2: [MARINE]}], ids=["nobody", "two"])
def test_first_round_special_case_only_when_exactly_one_player_holds(winners):
    game, ref = first_round()
    bid_round(game, ref, winners)
    settle(game, ref)
    assert ("second_bid",) not in game.state.stored_events()
    assert not any(getattr(d, "kind", "") == "bid" for d in game.pending())


def test_first_round_special_case_not_after_the_first_round():
    hands = {0: [SPEAR], 1: [RIDER, GUARD], 2: [MARINE], 3: [WARDEN]}
    game, ref = table(round=2, first=0, hands=hands)
    bid_round(game, ref, {0: [SPEAR]})
    settle(game, ref)
    assert ("second_bid",) not in game.state.stored_events()
    assert game.state.phase == "plotting"


# -- Event Cards and Special Abilities ----------------------------------------------------
def test_influence_event_cards_political_sabotage_resolves_before_support_is_taken():
    # Seat 0 bids 3; seat 1 bids 2 with Political Sabotage: seat 0's bid drops to 0.
    game, ref = table(first=0, hands={0: [SPEAR], 1: [RIDER, SABOTAGE]})
    bid_round(game, ref, {0: [SPEAR], 1: [RIDER, SABOTAGE]})
    settle(game, ref)
    assert game.state.support["crimson"] == 1
    assert SABOTAGE in game.state.discards["event"]


def test_influence_event_cards_sabotage_only_hits_bids_for_the_same_house():
    hands = {0: [SPEAR], 1: [GUARD, SABOTAGE], 2: [MARINE]}
    game, ref = table(first=0, hands=hands)
    bid_round(game, ref, {0: [SPEAR], 1: [GUARD, SABOTAGE], 2: [MARINE]})
    settle(game, ref)
    assert game.state.support["crimson"] == 0  # untouched: another house
    assert game.state.support["azure"] == 1  # 2 beats 3 - 3 = 0


@pytest.mark.parametrize(("card", "amount"), [(HERALD, 2), (SEAL, 3)])
def test_influence_event_cards_bid_force_raises_your_bid(card, amount):
    assert bid_totals(CATALOG, [(0, [RIDER, card])]) == {0: ("crimson", 2 + amount)}
    # In play: 2 + amount beats a bid of 3 (Herald) / of 4 (Seal).
    rival = [SPEAR] if amount == 2 else [RIDER2, "crimson-steppe-rider.3"]
    game, ref = table(first=0, hands={0: rival, 1: [RIDER, card]})
    bid_round(game, ref, {0: rival, 1: [RIDER, card]})
    settle(game, ref)
    assert game.state.support["crimson"] == 1


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize(("order", "winner"), [((SABOTAGE, HERALD), 1), ((HERALD, SABOTAGE), 0)])
def test_influence_event_cards_first_player_determines_the_order(first, order, winner):
    # Seat 0: 1 + Sabotage; seat 1: 1 + Herald.  Sabotage first: 1-3=0, +2 = 2 beats 1.
    # Herald first: 1+2 = 3, then sabotage leaves 0; seat 0's 1 wins.  The order matters,
    # so the first player (no Regent) determines it, whoever it favours.
    hands = {0: [THRALL, SABOTAGE], 1: [THRALL2, HERALD]}
    game, ref = table(first=first, hands=hands)
    bid_round(game, ref, hands)
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("order_events", first)
    assert sorted(d.info.events) == sorted([SABOTAGE, HERALD])
    play(game, ref, OrderEvents(first, order))
    assert game.state.support["violet"] == winner
    assert ("events_ordered", first, list(order)) in game.state.stored_events()


def test_influence_event_cards_the_regent_determines_the_order():
    hands = {0: [THRALL, SABOTAGE], 1: [THRALL2, HERALD]}
    game, ref = table(first=0, regent=2, hands=hands)
    bid_round(game, ref, hands)
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("order_events", 2)
    refused = rejects(game, OrderEvents(2, (SABOTAGE,)), IllegalMove)
    assert refused.rule == "Influence Phase > Event Cards and Special Abilities"
    rejects(game, OrderEvents(2, (SABOTAGE, SABOTAGE)), IllegalMove)
    rejects(game, OrderEvents(2, (SABOTAGE, HERALD, "forged-crown-seal")), IllegalMove)
    rejects(game, OrderEvents(2, [SABOTAGE, HERALD]), MalformedAnswer)  # type: ignore[arg-type]
    play(game, ref, OrderEvents(2, (SABOTAGE, HERALD)))
    assert game.state.support["violet"] == 1


def test_influence_event_cards_no_order_is_asked_when_it_cannot_matter():
    # Seat 0: 3 + Seal; seat 1: 2 + Sabotage.  Either order leaves seat 0 at 3 (no bid
    # reaches below 0 on the way), so nobody is asked and seat 0's 3 beats 2.
    hands = {0: [SPEAR, SEAL], 1: [RIDER, SABOTAGE]}
    game, ref = table(first=0, hands=hands)
    bid_round(game, ref, hands)
    settle(game, ref)
    assert not [e for e in game.state.stored_events() if e[0] == "events_ordered"]
    assert game.state.support["crimson"] == 0


def test_influence_event_cards_no_order_is_asked_when_it_changes_no_winner():
    # As above, plus seat 2's 6 violet: either order it keeps 3 and wins violet; only the
    # losing seat 1 ends at 0 or 2.  No dispute, nobody is asked.
    archers = ["violet-veiled-archer.1", "violet-veiled-archer.2"]
    hands = {0: [THRALL, SABOTAGE], 1: [THRALL2, HERALD], 2: archers}
    game, ref = table(first=0, hands=hands)
    bid_round(game, ref, hands)
    settle(game, ref)
    assert not [e for e in game.state.stored_events() if e[0] == "events_ordered"]
    assert game.state.support["violet"] == 2


def test_influence_event_cards_military_special_abilities_do_not_work():
    drummer = "crimson-horde-drummer.1"  # 1 force, +1 per other military card in combat
    assert bid_totals(CATALOG, [(0, [drummer, RIDER, RIDER2])]) == {0: ("crimson", 5)}
    blade = "azure-wave-sworn-blade.1"  # +1 under House Essendel's banner, in combat only
    assert bid_totals(CATALOG, [(0, [blade])]) == {0: ("azure", 2)}
    # In play the drummer's bid (5) only ties the rival's 5, so the card stays put.
    rider3 = "crimson-steppe-rider.3"
    game, ref = table(first=0, hands={0: [drummer, RIDER, RIDER2], 1: [SPEAR, rider3]})
    bid_round(game, ref, {0: [drummer, RIDER, RIDER2], 1: [SPEAR, rider3]})
    settle(game, ref)
    assert game.state.support["crimson"] is None


def test_influence_event_cards_need_a_military_card_beside_them():
    game, ref = table(first=0, hands={0: [HERALD, RIDER]})
    settle(game, ref)
    refused_by_rule(game, Bid(0, 1, (HERALD,)), "Influence Phase > Bidding")


def test_influence_event_cards_plotting_events_cannot_be_bid():
    game, ref = table(first=0, hands={0: [RIDER, "rally-the-levies.1"]})
    settle(game, ref)
    refused_by_rule(
        game,
        Bid(0, 2, (RIDER, "rally-the-levies.1")),
        "Influence Phase > Event Cards and Special Abilities",
    )


# -- Regent's Special Rules ---------------------------------------------------------------
REGENT_SUPPORT = {"crimson": 1, "azure": None, "ivory": None, "violet": None}


def test_influence_regents_special_rules_nobody_bids_for_the_regents_support():
    hands = {0: [SPEAR], 1: [RIDER, GUARD], 2: [WARDEN]}
    game, ref = table(first=1, regent=1, support=REGENT_SUPPORT, hands=hands)
    rule = "Influence Phase > Regent's Special Rules"
    d = decision(game, ref)
    assert (d.seat, d.info.forbidden) == (1, ("crimson",))
    refused_by_rule(game, Bid(1, 1, (RIDER,)), rule)  # not even the Regent
    play(game, ref, Bid(1, 0, ()), Bid(2, 0, ()))
    d = decision(game, ref)
    assert (d.seat, d.info.forbidden) == (0, ("crimson",))
    refused_by_rule(game, Bid(0, 1, (SPEAR,)), rule)


def test_influence_regents_special_rules_regent_may_bid_but_keeps_one_card():
    hands = {1: [GUARD, WARDEN]}
    game, ref = table(first=1, regent=1, support=REGENT_SUPPORT, hands=hands)
    bid_round(game, ref, {1: [GUARD]})
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("keep_support", 1)
    play(game, ref, KeepSupport(1, "azure"))
    assert game.state.support["crimson"] is None and game.state.support["azure"] == 1
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 1)  # the Regent's own gain counts


def test_influence_regents_special_rules_regent_discards_for_each_new_support_card():
    hands = {0: [THRALL], 1: [RIDER, RIDER2, SPEAR], 2: [GUARD]}
    game, ref = table(first=1, regent=1, support=REGENT_SUPPORT, hands=hands)
    bid_round(game, ref, {0: [THRALL], 2: [GUARD]})
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 1)
    play(game, ref, RegentDiscard(1, RIDER))
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 1)
    play(game, ref, RegentDiscard(1, RIDER2))
    assert game.state.hand_count[1] == 1
    assert {RIDER, RIDER2} <= set(game.state.discards["military"])  # face up
    assert ("regent_discard", 1, RIDER) in game.state.stored_events()
    assert game.state.phase == "plotting"


def test_influence_regents_special_rules_discard_even_if_the_gain_is_given_back():
    support = {"crimson": 1, "azure": None, "ivory": 2, "violet": None}
    game, ref = table(first=1, regent=1, support=support, hands={1: [RIDER], 2: [GUARD]})
    bid_round(game, ref, {2: [GUARD]})
    play(game, ref, KeepSupport(2, "ivory"))
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("regent_discard", 1)


def test_influence_regents_special_rules_no_discard_when_no_new_card_is_gained():
    support = {"crimson": 1, "azure": None, "ivory": 2, "violet": None}
    game, ref = table(first=1, regent=1, support=support, hands={1: [RIDER], 2: [WARDEN]})
    bid_round(game, ref, {2: [WARDEN]})  # seat 2 defends its own card
    settle(game, ref)
    assert game.state.phase == "plotting"
    assert game.state.hand_count[1] == 1


def test_influence_regents_special_rules_regent_with_no_cards_discards_nothing():
    game, ref = table(first=1, regent=1, support=REGENT_SUPPORT, hands={0: [PIKE], 2: [GUARD]})
    bid_round(game, ref, {2: [GUARD]})
    d = decision(game, ref)
    assert game.state.support["azure"] == 2
    assert (d.kind, game.state.phase) == ("overt", "plotting")
    assert events_of(game, "regent_discard") == []


def test_influence_regents_special_rules_regent_settles_tied_bids():
    marine2 = "azure-tidecaller-marine.2"
    hands = {0: [MARINE], 1: [RIDER], 2: [marine2], 3: [WARDEN]}
    game, ref = table(first=1, regent=1, support=REGENT_SUPPORT, hands=hands)
    bid_round(game, ref, {0: [MARINE], 2: [marine2]})  # 3 against 3
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("tie_break", 1)
    assert d.info.house == "azure" and d.info.tied == (0, 2)
    rejects(game, TieBreak(1, 3), IllegalMove)  # only among the tied players
    play(game, ref, TieBreak(1, 2))
    assert game.state.support["azure"] == 2
    assert ("tie_broken", 1, 2) in game.state.stored_events()


def test_influence_regents_special_rules_bid_rejection_is_typed_and_names_the_rule():
    game, ref = table(first=1, regent=1, support=REGENT_SUPPORT, hands={1: [RIDER]})
    settle(game, ref)
    err = rejects(game, Bid(1, 1, (RIDER,)), EngineError)
    assert err.rule == "Influence Phase > Regent's Special Rules"
