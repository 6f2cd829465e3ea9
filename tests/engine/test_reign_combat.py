"""Combat Phase: The Reveal and Regent's Special Rules (rulebook pages 13-14; readings in
docs/rules/reign.md)."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove
from fairtable.engine.reign import TieBreak
from fairtable.engine.reign.combat import resolve
from tests.engine.reign_helpers import CATALOG, decision, play, plot, rejects, settle, table

SPEAR, RIDER = "crimson-ash-spearman.1", "crimson-steppe-rider.1"  # 3, 2
RIDERS = [f"crimson-steppe-rider.{n}" for n in range(1, 5)]
KHAGAN = "crimson-khagan-ulvar"  # 5: military with printed force <= 2 get +1
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"  # 3, 2
PIKE, WARDEN = "ivory-oathbound-pikeman.1", "ivory-temple-warden.1"  # 3, 2
ARCHER, THRALL = "violet-veiled-archer.1", "violet-gloam-thrall.1"  # 3, 1
YSMAY = "violet-queen-ysmay"  # 5: the other army with the highest current total loses 2
RALLY, WITNESSES, WINE = "rally-the-levies.1", "sworn-witnesses.1", "poisoned-wine"
TURNCOAT, DESERTERS, STAND = "turncoat-captain.1", "deserters-in-the-night.1", "desperate-stand"

SUPPORT = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}


def totals(*armies, regent=None):
    return dict(resolve(CATALOG, list(armies), regent).totals)


def combat(hands, covert, support=SUPPORT, **kw):
    """Play a plotting phase where each seat places ``covert`` cards; stop after combat."""
    args = {"first": 0, "phase": "plotting", "support": support, "hands": hands}
    args.update(kw)
    game, ref = table(**args)
    plot(game, ref, covert=covert)
    return game, ref


# -- The Reveal --------------------------------------------------------------------------
def test_combat_reveal_house_bonus_one_per_military_card_of_the_support_house():
    # 3+2 crimson (+1 each) and an azure 3 (no bonus) in the crimson army; events get none.
    assert totals((0, "crimson", [SPEAR, RIDER, MARINE])) == {0: 10}
    assert totals((0, "crimson", [SPEAR, RIDER, MARINE, RALLY])) == {0: 12}
    assert totals((0, "azure", [SPEAR, RIDER, MARINE])) == {0: 9}


def test_combat_reveal_highest_total_becomes_regent_and_takes_the_crown():
    hands = {0: [SPEAR, RIDER], 1: [MARINE, GUARD], 2: [PIKE]}
    game, ref = combat(
        hands,
        {0: ((0, 0), (SPEAR, RIDER)), 1: ((1, 1), (MARINE, GUARD)), 2: ((1,), (PIKE,))},
        regent=3,
        first=3,
    )
    assert game.state.combat_totals == [[0, 7], [1, 10]]
    assert game.state.regent == 1
    assert ("regent", 1) in game.state.stored_events()
    assert game.state.legitimacy[1] == 3


def test_combat_reveal_all_army_cards_are_discarded_next_to_their_piles():
    hands = {0: [SPEAR, RALLY], 1: [MARINE], 2: [PIKE, WINE]}
    pile = [f"violet-duskblade.{n}" for n in range(1, 5)]  # the spoils come from here
    game, ref = combat(
        hands,
        {0: ((0, 0), (SPEAR, RALLY)), 1: ((1,), (MARINE,)), 2: ((1, 1), (PIKE, WINE))},
        military=pile,
    )
    s = game.state
    assert s.armies == {} and s.army_down == {}
    assert sorted(s.discards["military"]) == sorted([SPEAR, MARINE, PIKE])
    assert sorted(s.discards["event"]) == sorted([RALLY, WINE])


def test_combat_reveal_only_support_holders_fight_in_turn_order():
    support = {"crimson": 2, "azure": None, "ivory": 0, "violet": None}
    hands = {0: [PIKE], 2: [SPEAR]}
    game, ref = combat(hands, {0: ((0,), (PIKE,)), 2: ((2,), (SPEAR,))}, support=support, first=1)
    assert game.state.combat_totals == [[2, 4], [0, 4]]  # from seat 1: 2 before 0


def test_combat_reveal_order_special_abilities_before_events():
    # The Khagan lifts both riders (2 -> 3) before Turncoat Captain makes him desert.
    assert totals((0, "azure", [KHAGAN, RIDERS[0], RIDERS[1], TURNCOAT])) == {0: 6}


def test_combat_reveal_non_betrayal_events_before_betrayal_events():
    # Sworn Witnesses' ward is up before Poisoned Wine resolves, though the wine sorts first.
    assert totals((0, "azure", [SPEAR, WITNESSES, WINE])) == {0: 4}
    # Desperate Stand counts five military cards (no bonus) before the deserters leave.
    assert totals((0, "azure", [*RIDERS, SPEAR, STAND, DESERTERS])) == {0: 7}


def test_combat_reveal_betrayal_events_resolve_last():
    # Rally (+2) then Poisoned Wine (-3): whatever the card order, the betrayal comes last.
    army = [THRALL, WINE, RALLY]
    assert totals((0, "azure", army)) == {0: 0}
    assert totals((0, "azure", [SPEAR, RALLY, WINE])) == {0: 2}


def test_combat_reveal_each_pass_runs_over_all_armies():
    # Reading: abilities of every army, then events of every army.  Ysmay (seat 1) sees
    # seat 0 at 3 (its Rally has not resolved yet) and seat 2 at 4: seat 2 is struck.
    result = totals(
        (0, "crimson", [MARINE, RALLY]), (1, "crimson", [YSMAY]), (2, "crimson", [ARCHER, THRALL])
    )
    assert result == {0: 5, 1: 5, 2: 2}


def test_combat_reveal_total_never_below_zero():
    assert totals((0, "azure", [THRALL, WINE])) == {0: 0}


def test_combat_reveal_face_down_and_face_up_cards_count_alike():
    hands = {0: [SPEAR, RIDER], 1: [MARINE]}
    game, ref = table(first=0, phase="plotting", support=SUPPORT, hands=hands)
    plot(game, ref, overt={0: (0, SPEAR)}, covert={0: ((0,), (RIDER,)), 1: ((1,), (MARINE,))})
    assert game.state.combat_totals == [[0, 7], [1, 4]]


# -- Regent's Special Rules --------------------------------------------------------------
TIE_HANDS = {0: [SPEAR], 1: [MARINE], 2: [PIKE], 3: [ARCHER]}
TIE_COVERT = {0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,))}  # 4 against 4


def test_combat_regents_special_rules_regent_decides_ties():
    game, ref = combat(TIE_HANDS, TIE_COVERT, regent=3, first=3)
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.tied, d.info.phase) == ("tie_break", 3, (0, 1), "combat")
    play(game, ref, TieBreak(3, 1))
    assert game.state.regent == 1
    assert ("tie_broken", 3, 1) in game.state.stored_events()


def test_combat_regents_special_rules_first_player_decides_without_regent():
    game, ref = combat(TIE_HANDS, TIE_COVERT, first=2)
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.tied) == ("tie_break", 2, (0, 1))
    play(game, ref, TieBreak(2, 0))
    assert game.state.regent == 0


def test_combat_regents_special_rules_winner_chosen_only_among_the_tied():
    support = {"crimson": 0, "azure": 1, "ivory": 2, "violet": None}
    hands = {0: [SPEAR], 1: [MARINE], 2: [WARDEN], 3: [ARCHER]}
    covert = {0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,)), 2: ((2,), (WARDEN,))}  # 4, 4, 3
    game, ref = combat(hands, covert, support=support, regent=3, first=3)
    d = decision(game, ref)
    assert d.info.tied == (0, 1)
    for outsider in (2, 3):
        err = rejects(game, TieBreak(3, outsider), IllegalMove)
        assert err.rule == "Combat Phase > Regent's Special Rules"
    game.apply(TieBreak(3, 0))
    assert game.state.regent == 0


def test_combat_regents_special_rules_regent_may_choose_itself():
    game, ref = combat(TIE_HANDS, TIE_COVERT, regent=1, first=1)
    d = decision(game, ref)
    assert (d.seat, d.info.tied) == (1, (0, 1))
    play(game, ref, TieBreak(1, 1))
    assert game.state.regent == 1


def test_combat_regents_special_rules_tie_winner_gets_its_backers():
    # Seat 2 backs seat 1 (its last card), seat 3 backs seat 0; the Regent picks seat 1.
    hands = {0: [SPEAR], 1: [MARINE, GUARD], 2: [PIKE], 3: [ARCHER]}
    covert = {0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,)), 2: ((1,), (PIKE,)), 3: ((0,), (ARCHER,))}
    game, ref = combat(hands, covert, regent=1, first=1)
    settle(game, ref)
    assert game.state.combat_totals == [[1, 7], [0, 7]]
    play(game, ref, TieBreak(1, 1))
    assert game.state.legitimacy == [0, 3, 2, 0]
