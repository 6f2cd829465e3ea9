"""Plotting Phase: Overt Backing, Covert Backing, Event Cards and Betrayal, Regent's Special
Rules (rulebook pages 11-12; readings in docs/rules/reign.md)."""

from __future__ import annotations

import json

from fairtable.engine.errors import IllegalMove, WrongSeat
from fairtable.engine.reign import Covert, Overt
from fairtable.engine.requests import Reveal
from tests.engine.reign_helpers import (
    decision,
    events_of,
    play,
    play_until,
    plot,
    rejects,
    settle,
    table,
)

SPEAR, RIDER = "crimson-ash-spearman.1", "crimson-steppe-rider.1"  # 3, 2
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"  # 3, 2
PIKE, WARDEN = "ivory-oathbound-pikeman.1", "ivory-temple-warden.1"  # 3, 2
ARCHER, THRALL = "violet-veiled-archer.1", "violet-gloam-thrall.1"  # 3, 1
RALLY, FURY, OATH = "rally-the-levies.1", "usurpers-fury", "broken-oath.1"
SABOTAGE = "political-sabotage.1"

SUPPORT = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
HANDS = {
    0: [SPEAR, RIDER, RALLY],
    1: [MARINE, GUARD, "azure-harbour-guard.2"],
    2: [PIKE, WARDEN, OATH],
    3: [ARCHER, THRALL, FURY],
}


def plotting(**kw):
    args = {"first": 0, "phase": "plotting", "support": SUPPORT, "hands": HANDS}
    args.update(kw)
    return table(**args)


# -- Overt Backing -----------------------------------------------------------------------
def test_plotting_overt_then_covert_backing_each_from_first_player_clockwise():
    game, ref = plotting(first=2)
    assert plot(game, ref) == [
        ("overt", 2),
        ("overt", 3),
        ("overt", 0),
        ("overt", 1),
        ("covert", 2),
        ("covert", 3),
        ("covert", 0),
        ("covert", 1),
    ]


def test_plotting_overt_backing_only_into_armies_of_support_holders():
    game, ref = plotting(first=2)
    d = decision(game, ref)
    assert d.info.targets == (0, 1)
    assert game.state.armies == {0: [], 1: []}
    for target in (2, 3):
        err = rejects(game, Overt(2, target, PIKE), IllegalMove)
        assert err.rule == "Plotting Phase > Overt Backing"


def test_plotting_overt_backing_one_card_face_up_need_not_match_house():
    game, ref = plotting(first=2)
    settle(game, ref)
    game.apply(Overt(2, 0, PIKE))  # an ivory card in the crimson army
    assert game.state.armies[0] == [PIKE]
    assert ("overt", 2, 0, PIKE) in game.state.stored_events()
    assert game.state.hand_count[2] == 2
    assert PIKE not in game.state.hidden
    rejects(game, Overt(2, 0, WARDEN), WrongSeat)  # one card only: seat 3's turn now
    play(game, ref, Overt(3, 1, FURY))  # an event card is fine too
    assert game.state.armies[1] == [FURY]


def test_plotting_overt_backing_may_pass():
    game, ref = plotting(first=2)
    settle(game, ref)
    game.apply(Overt(2, None, None))
    assert ("overt_pass", 2) in game.state.stored_events()
    assert game.state.hand_count[2] == 3 and 2 not in game.state.backing


# -- Covert Backing ----------------------------------------------------------------------
def test_plotting_covert_backing_up_to_two_face_down_split_between_armies():
    game, ref = plotting()
    plot(game, ref, covert={0: ((0,), (SPEAR,)), 2: ((0, 1), (PIKE, WARDEN))}, stop=("covert", 3))
    s = game.state
    assert [placer for _, placer in s.army_down[0]] == [0, 2]
    assert [placer for _, placer in s.army_down[1]] == [2]
    assert s.armies == {0: [], 1: []}  # nothing face up
    text = json.dumps(game.public()) + repr(s.stored_events())
    assert PIKE not in text and WARDEN not in text
    assert sorted(s.secrets[2].facedown.values()) == [PIKE, WARDEN]
    assert ("covert", 2, [0, 1]) in s.stored_events()  # where they went is public, not what


def test_plotting_covert_backing_more_than_two_cards_rejected():
    game, ref = plotting()
    plot(game, ref, covert={0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,))}, stop=("covert", 2))
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.max_cards) == ("covert", 2, 2)
    err = rejects(game, Covert(2, (0, 0, 1), (PIKE, WARDEN, OATH)), IllegalMove)
    assert err.rule == "Plotting Phase > Covert Backing"
    game.apply(Covert(2, (0, 1), (PIKE, WARDEN)))


def test_plotting_covert_backing_only_into_armies_of_support_holders():
    game, ref = plotting()
    plot(game, ref, covert={0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,))}, stop=("covert", 2))
    rejects(game, Covert(2, (3,), (PIKE,)), IllegalMove)
    rejects(game, Covert(2, (0, 2), (PIKE, WARDEN)), IllegalMove)


def test_plotting_covert_backing_face_down_cards_revealed_together_at_combat():
    game, ref = plotting()
    plot(
        game,
        ref,
        overt={0: (0, RALLY)},
        covert={0: ((0,), (SPEAR,)), 2: ((0, 1), (PIKE, WARDEN))},
        stop=("covert", 3),
    )
    game.apply(Covert(3, (), ()))
    reveal = game.pending()[0]
    assert isinstance(reveal, Reveal) and reveal.label == "armies"
    assert all(mixed for _, _, mixed in reveal.groups)  # nobody learns who placed which
    assert {g: len(h) for g, h, _ in reveal.groups} == {"0": 2, "1": 1}
    game.apply(ref.answer(game, reveal))
    assert ("army_revealed", 0, sorted([PIKE, SPEAR])) in game.state.stored_events()
    assert ("army_revealed", 1, [WARDEN]) in game.state.stored_events()
    # crimson army: Rally (+2), spearman 3+1, pikeman 3; azure army: warden 2
    assert game.state.combat_totals == [[0, 9], [1, 2]]


def test_plotting_covert_backing_you_back_where_your_last_card_went():
    game, ref = plotting()
    plot(
        game,
        ref,
        overt={2: (0, PIKE), 3: (1, ARCHER)},
        covert={0: ((0,), (SPEAR,)), 2: ((0, 1), (WARDEN, OATH))},
    )
    backing = game.state.backing
    assert backing[2] == 1  # overt into 0, covert 0 then 1: the last card decides
    assert backing[3] == 1  # overt only: that card is the last one
    assert backing[0] == 0
    assert 1 not in backing  # placed nothing: backs nobody


def test_plotting_no_support_holder_means_no_plotting_or_combat():
    none = {"crimson": None, "azure": None, "ivory": None, "violet": None}
    game, ref = plotting(support=none, first=2, regent=2, legit=[1, 2, 3, 4])
    d = decision(game, ref)
    assert ("no_armies",) in game.state.stored_events()
    assert (d.kind, d.seat) == ("draw", 2)  # straight to the draw, from the Regent
    play_until(game, ref, lambda g: g.state.round == 3)
    assert events_of(game, "combat_totals") == [] and events_of(game, "spoils") == []
    assert game.state.legitimacy == [1, 2, 3, 4]
    assert game.state.regent == 2 and game.state.first_player == 2


def test_plotting_event_cards_influence_events_never_go_into_an_army():
    hands = dict(HANDS)
    hands[2] = [PIKE, SABOTAGE]
    game, ref = plotting(hands=hands, first=2)
    settle(game, ref)
    rule = "Influence Phase > Event Cards and Special Abilities"
    assert rejects(game, Overt(2, 0, SABOTAGE), IllegalMove).rule == rule
    play(
        game,
        ref,
        Overt(2, None, None),
        Overt(3, None, None),
        Overt(0, None, None),
        Overt(1, None, None),
    )
    assert rejects(game, Covert(2, (0,), (SABOTAGE,)), IllegalMove).rule == rule


# -- Event Cards and Betrayal ------------------------------------------------------------
def test_plotting_event_cards_and_betrayal_effect_happens_to_the_army_owner():
    # Seat 2 slips Broken Oath into seat 1's army: seat 1 loses its support card, not seat 2.
    game, ref = plotting()
    plot(game, ref, covert={0: ((0, 0), (SPEAR, RIDER)), 1: ((1,), (MARINE,)), 2: ((1,), (OATH,))})
    settle(game, ref)
    assert game.state.regent == 0
    assert ("support_lost", 1, "azure") in game.state.stored_events()
    assert game.state.support["azure"] is None
    assert game.state.support["crimson"] == 0


def test_plotting_event_cards_and_betrayal_you_is_the_army_owner_not_the_placer():
    # Usurper's Fury: "If you are not the Regent, this army gets +3 force."
    # The Regent (seat 0) places it into seat 1's army: seat 1 is not the Regent, +3.
    hands = {0: [FURY, SPEAR], 1: [MARINE]}
    game, ref = plotting(regent=0, hands=hands)
    plot(game, ref, overt={0: (1, FURY), 1: (1, MARINE)}, covert={0: ((0,), (SPEAR,))})
    settle(game, ref)
    assert game.state.combat_totals == [[0, 4], [1, 7]]  # 3+1 ; 3+1 +3
    # Placed by seat 3 into the Regent's army it does nothing.
    hands = {0: [SPEAR], 1: [MARINE], 3: [FURY]}
    game, ref = plotting(regent=0, hands=hands)
    plot(game, ref, overt={0: (0, SPEAR), 1: (1, MARINE), 3: (0, FURY)})
    settle(game, ref)
    assert game.state.combat_totals == [[0, 4], [1, 4]]


# -- Regent's Special Rules --------------------------------------------------------------
def test_plotting_regents_special_rules_regent_places_up_to_three_face_down():
    hands = {0: [SPEAR, RIDER, RALLY, "crimson-steppe-rider.2"]}
    game, ref = plotting(regent=0, hands=hands)
    plot(game, ref, stop=("covert", 0))  # the Regent passes overt
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.max_cards) == ("covert", 0, 3)
    rejects(
        game, Covert(0, (1, 0, 1, 0), (SPEAR, RIDER, RALLY, "crimson-steppe-rider.2")), IllegalMove
    )
    game.apply(Covert(0, (1, 1, 0), (SPEAR, RIDER, RALLY)))
    assert len(game.state.army_down[1]) == 2 and len(game.state.army_down[0]) == 1


def test_plotting_regents_special_rules_last_card_own_army():
    game, ref = plotting(regent=0, hands={0: [SPEAR, RIDER]})
    plot(game, ref, stop=("covert", 0))
    err = rejects(game, Covert(0, (0, 1), (SPEAR, RIDER)), IllegalMove)
    assert err.rule == "Plotting Phase > Regent's Special Rules"
    play(game, ref, Covert(0, (1, 0), (SPEAR, RIDER)))
    assert game.state.backing[0] == 0


def test_plotting_regents_special_rules_overt_elsewhere_then_covert_must_end_home():
    game, ref = plotting(regent=0, hands={0: [SPEAR, RIDER, RALLY]})
    settle(game, ref)
    game.apply(Overt(0, 1, RALLY))  # allowed: cards are left to end in the Regent's army
    plot(game, ref, stop=("covert", 0))
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("covert", 0)
    rule = "Plotting Phase > Regent's Special Rules"
    assert rejects(game, Covert(0, (), ()), IllegalMove).rule == rule
    assert rejects(game, Covert(0, (1,), (SPEAR,)), IllegalMove).rule == rule
    play(game, ref, Covert(0, (0,), (SPEAR,)))
    assert game.state.backing[0] == 0


def test_plotting_regents_special_rules_overt_elsewhere_needs_a_card_left_for_home():
    rule = "Plotting Phase > Regent's Special Rules"
    game, ref = plotting(regent=0, hands={0: [SPEAR]})
    settle(game, ref)
    assert rejects(game, Overt(0, 1, SPEAR), IllegalMove).rule == rule
    # An influence-phase event cannot end in an army, so it does not count as a card left.
    game, ref = plotting(regent=0, hands={0: [SPEAR, SABOTAGE]})
    settle(game, ref)
    assert rejects(game, Overt(0, 1, SPEAR), IllegalMove).rule == rule
    game.apply(Overt(0, 0, SPEAR))


def test_plotting_regents_special_rules_regent_without_army_places_nothing():
    game, ref = plotting(first=3, regent=3)
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.targets) == ("overt", 3, (0, 1))
    rejects(game, Overt(3, 0, ARCHER), IllegalMove)
    play(
        game,
        ref,
        Overt(3, None, None),
        Overt(0, None, None),
        Overt(1, None, None),
        Overt(2, None, None),
    )
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.max_cards) == ("covert", 3, 3)
    rejects(game, Covert(3, (0,), (ARCHER,)), IllegalMove)
    rejects(game, Covert(3, (1, 0), (ARCHER, THRALL)), IllegalMove)
    game.apply(Covert(3, (), ()))
    assert 3 not in game.state.backing
