"""Combat Phase > The Reveal and Regent's Special Rules: the choices made while combat
resolves -- the owner orders its own army's cards, the Regent settles ties inside effects --
each asked only when it changes the result (readings in docs/rules/reign.md)."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove
from fairtable.engine.reign import CombatTie, OrderArmy, TieBreak
from fairtable.engine.reign.combat import army_order_matters, next_tie, resolve
from tests.engine.reign_helpers import CATALOG, decision, events_of, play, plot, rejects, table

SPEAR, RIDER, RIDER2 = "crimson-ash-spearman.1", "crimson-steppe-rider.1", "crimson-steppe-rider.2"
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"  # 3, 2
PIKE, THRALL = "ivory-oathbound-pikeman.1", "violet-gloam-thrall.1"  # 3, 1
YSMAY = "violet-queen-ysmay"  # 5: the other army with the highest current total loses 2
WITNESSES, WINE, OATH = "sworn-witnesses.1", "poisoned-wine", "broken-oath.1"
RALLY, MARCH, TURNCOAT = "rally-the-levies.1", "forced-march.1", "turncoat-captain.1"

SUPPORT = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}


def combat_table(hands, covert, support=SUPPORT, **kw):
    args = {"first": 3, "regent": 3, "phase": "plotting", "support": support, "hands": hands}
    args.update(kw)
    game, ref = table(**args)
    plot(game, ref, covert=covert)
    return game, ref


# -- The Reveal: the owner orders its own army -----------------------------------------
def test_combat_reveal_owner_orders_own_army_when_a_ward_meets_two_betrayals():
    # "each player resolves any special abilities ... and effects on event cards in their
    # army": one ward cancels "the next betrayal event", so the owner's order decides
    # whether Broken Oath (support lost) or Poisoned Wine (-3) is cancelled.
    hands = {0: [SPEAR, WITNESSES], 1: [MARINE, WINE], 2: [OATH]}
    covert = {0: ((0, 0), (SPEAR, WITNESSES)), 1: ((1, 0), (MARINE, WINE)), 2: ((0,), (OATH,))}
    game, ref = combat_table(hands, covert)
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("order_army", 0)
    assert d.info.groups == ((OATH, WINE),)
    refused = rejects(game, OrderArmy(0, (OATH,)), IllegalMove)
    assert refused.rule == "Combat Phase > The Reveal"
    play(game, ref, OrderArmy(0, (WINE, OATH)))  # the ward takes the wine; the oath holds
    assert ("army_ordered", 0, [WINE, OATH]) in game.state.stored_events()
    assert game.state.combat_totals == [[0, 5], [1, 4]]
    assert ("support_lost", 0, "crimson") in game.state.stored_events()


def test_combat_reveal_owner_order_other_way_cancels_the_oath():
    hands = {0: [SPEAR, WITNESSES], 1: [MARINE, WINE], 2: [OATH]}
    covert = {0: ((0, 0), (SPEAR, WITNESSES)), 1: ((1, 0), (MARINE, WINE)), 2: ((0,), (OATH,))}
    game, ref = combat_table(hands, covert)
    play(game, ref, OrderArmy(0, (OATH, WINE)))
    assert game.state.combat_totals == [[0, 2], [1, 4]]
    assert not events_of(game, "support_lost")


def test_combat_reveal_no_order_is_asked_when_every_order_gives_the_same_result():
    # Rally (+2) and Forced March (+1 to cards of printed force <= 2) commute.
    army = (0, "crimson", (RIDER, RALLY, MARCH))
    assert not army_order_matters(CATALOG, [army], None, 0, {})
    hands = {0: [RIDER, RALLY], 1: [MARINE, MARCH]}
    game, ref = combat_table(hands, {0: ((0, 0), (RIDER, RALLY)), 1: ((1, 0), (MARINE, MARCH))})
    assert not events_of(game, "army_ordered")
    assert game.state.combat_totals == [[0, 6], [1, 4]]


def test_combat_reveal_order_is_kept_within_the_rulebook_passes():
    hands = {0: [SPEAR, WITNESSES], 1: [MARINE, WINE], 2: [OATH]}
    covert = {0: ((0, 0), (SPEAR, WITNESSES)), 1: ((1, 0), (MARINE, WINE)), 2: ((0,), (OATH,))}
    game, ref = combat_table(hands, covert)
    d = decision(game, ref)
    # the decision lists only the cards whose order can matter (the ward's own pass holds
    # one card), and every legal answer keeps military, non-betrayal, betrayal in order
    assert d.info.cards == (OATH, WINE)
    rejects(game, OrderArmy(0, (OATH, WINE, WITNESSES)), IllegalMove)


# -- Regent's Special Rules: ties inside effects ----------------------------------------
def test_combat_regents_special_rules_regent_settles_a_desertion_tie():
    # "The Regent determines the winner of any and all ties in the combat phase": Turncoat
    # Captain's "highest force" meets the Spearman (crimson, +1 bonus) and the Marine at 3.
    hands = {0: [SPEAR, MARINE], 1: [GUARD], 2: [TURNCOAT]}
    covert = {0: ((0, 0), (SPEAR, MARINE)), 1: ((1,), (GUARD,)), 2: ((0,), (TURNCOAT,))}
    game, ref = combat_table(hands, covert)
    d = decision(game, ref)
    assert (d.kind, d.seat, d.info.op) == ("combat_tie", 3, "desert")
    assert d.info.options == (MARINE, SPEAR)
    refused = rejects(game, CombatTie(3, GUARD), IllegalMove)
    assert refused.rule == "Combat Phase > Regent's Special Rules"
    play(game, ref, CombatTie(3, SPEAR))  # the Marine stays: 3 against 3, a tie
    assert game.state.combat_totals == [[0, 3], [1, 3]]
    assert decision(game, ref).kind == "tie_break"
    play(game, ref, TieBreak(3, 1))
    assert game.state.regent == 1


def test_combat_regents_special_rules_first_player_settles_without_regent():
    hands = {0: [SPEAR, MARINE], 1: [GUARD], 2: [TURNCOAT]}
    covert = {0: ((0, 0), (SPEAR, MARINE)), 1: ((1,), (GUARD,)), 2: ((0,), (TURNCOAT,))}
    game, ref = combat_table(hands, covert, regent=None, first=2)
    d = decision(game, ref)
    assert (d.kind, d.seat) == ("combat_tie", 2)
    play(game, ref, CombatTie(2, MARINE))  # the Spearman stays: 4 against 3
    assert game.state.combat_totals == [[0, 4], [1, 3]]
    assert game.state.regent == 0


def test_combat_regents_special_rules_strike_tie_among_the_strongest_armies():
    # Queen Ysmay strikes "the other army with the highest current total": 6 and 6.
    armies = [(0, "crimson", (RIDER, RIDER2)), (1, "azure", (YSMAY,)), (2, "ivory", (PIKE, GUARD))]
    fixed, tie = next_tie(CATALOG, armies, None, {}, {})
    assert tie is not None and (tie.op, tie.army, tie.options) == ("strike", 1, ("0", "2"))
    hit0 = resolve(CATALOG, armies, None, None, {tie.key: "0"})
    hit2 = resolve(CATALOG, armies, None, None, {tie.key: "2"})
    assert dict(hit0.totals) == {0: 4, 1: 5, 2: 6}
    assert dict(hit2.totals) == {0: 6, 1: 5, 2: 4}


def test_combat_regents_special_rules_no_tie_is_asked_when_it_changes_nothing():
    # Both 4s are struck to 2 either way and Ysmay's 5 wins: nobody is asked.
    armies = [(0, "crimson", (SPEAR,)), (1, "azure", (YSMAY,)), (2, "ivory", (PIKE,))]
    fixed, tie = next_tie(CATALOG, armies, None, {}, {})
    assert tie is None and list(fixed.values()) == ["0"]


def test_combat_reveal_order_shortcut_agrees_with_trying_every_order():
    # army_order_matters tries only the cards whose effects do not commute; on 3000 seeded
    # random tables (every military card and event in play) it must agree with resolving
    # combat under every order of the whole army.
    import random

    from fairtable.engine.reign.combat import order_changes_result

    rng = random.Random(32)
    houses = list(CATALOG.military)
    deck = [c for h in houses for c in CATALOG.military[h]] + list(CATALOG.events)
    deck = [c for c in deck if CATALOG.defs[c].phase != "influence"]
    asked = 0
    for _ in range(3000):
        cards = rng.sample(deck, 20)
        owners = rng.sample(range(5), rng.randint(2, 4))
        armies, at = [], 0
        for owner in owners:
            n = rng.randint(2, 6)
            armies.append((owner, rng.choice([*houses, None]), tuple(sorted(cards[at : at + n]))))
            at += n
        regent = rng.choice([None, *owners])
        for owner in owners:
            fast = army_order_matters(CATALOG, armies, regent, owner, {})
            assert fast == order_changes_result(CATALOG, armies, regent, owner, {}), armies
            asked += fast
    assert asked >= 10, asked  # the tables do meet orders that matter
