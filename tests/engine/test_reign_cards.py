"""Card effects: every op of the effect vocabulary, proven with real cards from the data
(docs/cards/reign.md).  Armies are resolved directly with ``engine.reign.combat.resolve``;
``house`` is the army's support-card house (the +1 house bonus applies to it)."""

from __future__ import annotations

import pytest

from fairtable.engine.reign.combat import resolve
from tests.engine.reign_helpers import CATALOG, DEFS, plot, table

SPEAR, RIDER, THRALL = "crimson-ash-spearman.1", "crimson-steppe-rider.1", "violet-gloam-thrall.1"
RIDERS = [f"crimson-steppe-rider.{n}" for n in range(1, 5)]
GUARDS = [f"azure-harbour-guard.{n}" for n in range(1, 4)]
MARINE = "azure-tidecaller-marine.1"
RALLY, RALLIES = "rally-the-levies.1", [f"rally-the-levies.{n}" for n in range(1, 4)]
WINE, PLAGUE, FEUDING = "poisoned-wine", "plague-in-the-camp", "feuding-banners"
OATHS = ["broken-oath.1", "broken-oath.2"]


def total(cards, house="azure", regent=None):
    """The total of one army owned by seat 0."""
    return dict(resolve(CATALOG, [(0, house, cards)], regent).totals)[0]


# -- force ---------------------------------------------------------------------------------
def test_cards_force_flat_modifiers():
    assert total([SPEAR, RALLY]) == 5  # Rally the Levies: +2
    assert total([SPEAR, RIDER, WINE]) == 2  # Poisoned Wine: -3


def test_cards_force_conditional_on_support_house():
    blade = "azure-wave-sworn-blade.1"
    assert total([blade], "azure") == 2 + 1 + 1  # +1 ability, +1 house bonus
    assert total([blade], "crimson") == 2
    enforcer = "amber-paymasters-enforcer.1"
    assert total([enforcer], "amber") == 1 + 1  # own house: no ability, house bonus only
    assert total([enforcer], "crimson") == 1 + 2


def test_cards_force_conditional_on_army_contents():
    sergeant = "crimson-red-banner-sergeant.1"  # +2 with at least 4 other military cards
    assert total([sergeant, *RIDERS]) == 2 + 2 + 8
    assert total([sergeant, *RIDERS[:3]]) == 2 + 6
    stand = "desperate-stand"  # +3 with 3 or fewer military cards
    assert total([SPEAR, stand]) == 6
    assert total([*RIDERS, stand]) == 8
    idris = "ivory-saint-captain-idris"  # +2 with no betrayal event in the army
    assert total([idris]) == 6
    assert total([idris, FEUDING]) == 4


def test_cards_force_conditional_on_regent():
    fury = "usurpers-fury"  # +3 if you are not the Regent
    assert total([SPEAR, fury], regent=1) == 6
    assert total([SPEAR, fury], regent=None) == 6
    assert total([SPEAR, fury], regent=0) == 3


# -- force_per (with max) ----------------------------------------------------------------
def test_cards_force_per_counts_other_military_cards_up_to_max():
    drummer = "crimson-horde-drummer.1"
    assert total([drummer]) == 1
    assert total([drummer, RIDER]) == 1 + 1 + 2
    assert total([drummer, *RIDERS]) == 1 + 3 + 8  # four others, capped at +3
    assert total([drummer, RALLY]) == 1 + 2  # an event is not a military card


def test_cards_force_per_any_card_and_events():
    tamra = "crimson-tamra-horde-mother"  # +1 per other card, military or event, up to +4
    assert total([tamra, RIDER, RALLY]) == 3 + 2 + 2 + 2
    assert total([tamra, *RIDERS, RALLY]) == 3 + 8 + 2 + 4
    orsolo = "amber-magister-orsolo"  # +1 per event card, up to +3
    assert total([orsolo, RALLY]) == 4 + 2 + 1
    assert total([orsolo, *RALLIES, "forced-march.1"]) == 4 + 6 + 3


def test_cards_force_per_house_filter():
    pilot = "azure-deep-current-pilot.1"  # +1 per other House Essendel military, up to +2
    assert total([pilot, GUARDS[0]], "crimson") == 1 + 1 + 2
    assert total([pilot, *GUARDS], "crimson") == 1 + 2 + 6
    assert total([pilot, RIDER], "ivory") == 1 + 2  # a crimson card is not Essendel
    muster = "muster-of-the-banner.1"  # +1 per military card of your support house, up to +3
    assert total([SPEAR, RIDER, MARINE, muster], "crimson") == 8 + 2 + 2
    assert total([SPEAR, *RIDERS[:3], muster], "crimson") == 9 + 4 + 3


def test_cards_force_per_betrayal_events_even_cancelled():
    zealot = "ivory-penitent-zealot.1"  # +2 per betrayal event, up to +4
    assert total([zealot]) == 1
    assert total([zealot, FEUDING]) == 3
    assert total([zealot, FEUDING, *OATHS]) == 5
    assert total([zealot, "ivory-vigil-keeper.1", FEUDING]) == 1 + 2 + 2


# -- boost -------------------------------------------------------------------------------
def test_cards_boost_by_printed_force():
    assert total(["crimson-khagan-ulvar", RIDER, SPEAR]) == 5 + 3 + 3
    assert total([RIDER, SPEAR, "forced-march.1"]) == 3 + 3


def test_cards_boost_negative_never_below_zero():
    assert total([THRALL, SPEAR, PLAGUE]) == 0 + 2
    assert total([THRALL, PLAGUE]) == 0


def test_cards_boost_own_house_and_unique_filters():
    oracle = "azure-tide-oracle"  # under the Tidewrit: each House Essendel card +1
    assert total([oracle, GUARDS[0], RIDER], "azure") == (3 + 1 + 1) + (2 + 1 + 1) + 2
    assert total([oracle, GUARDS[0], RIDER], "crimson") == 3 + 2 + 2 + 1
    sabeth = "violet-sabeth-night-witch"  # each unique military card +1, herself included
    assert total([sabeth, "violet-queen-ysmay", THRALL], "amber") == 3 + 6 + 1


# -- desert ------------------------------------------------------------------------------
def test_cards_desert_strongest_and_weakest():
    assert total([SPEAR, RIDER, THRALL, "turncoat-captain.1"]) == 2 + 1
    assert total([SPEAR, RIDER, THRALL, "deserters-in-the-night.1"]) == 3


def test_cards_desert_with_printed_force_filter():
    orrin = "violet-orrin-pale-herald"  # the weakest card of printed force <= 4 deserts
    assert total([orrin, THRALL, SPEAR]) == 5 + 3
    assert total([orrin, "violet-vael-the-oathless"]) == 5 + 6  # nobody small enough
    assert total([orrin]) == 5  # never himself


# -- ward --------------------------------------------------------------------------------
def test_cards_ward_cancels_the_next_betrayal_events():
    vigil = "ivory-vigil-keeper.1"
    assert total([vigil, SPEAR, WINE]) == 5
    # One ward, two betrayals: the first in card order (Plague) is cancelled, the Wine is not.
    assert total([vigil, SPEAR, WINE, PLAGUE]) == 2
    assert total(["ivory-high-confessor-aubrel", SPEAR, WINE, PLAGUE]) == 6
    assert total([SPEAR, "sworn-witnesses.1", WINE]) == 3 + 1
    assert total([vigil, RALLY]) == 4  # non-betrayal events are not cancelled


# -- no_house_bonus / house_bonus --------------------------------------------------------
def test_cards_no_house_bonus():
    assert total(["violet-vael-the-oathless", THRALL], "violet") == 7
    assert total([SPEAR, RIDER, FEUDING], "crimson") == 5
    assert total([SPEAR, RIDER], "crimson") == 7


def test_cards_house_bonus_doubled():
    assert total([SPEAR, RIDER, "banners-unfurled"], "crimson") == 5 + 4
    seren = "azure-admiral-seren"
    assert total([seren, GUARDS[0]], "azure") == 6 + 4
    assert total([seren, GUARDS[0]], "crimson") == 6


# -- lose_support --------------------------------------------------------------------------
def test_cards_lose_support():
    assert resolve(CATALOG, [(0, "azure", [SPEAR, OATHS[0]])], None).lose_support == (0,)
    warded = resolve(CATALOG, [(0, "azure", [SPEAR, OATHS[0], "sworn-witnesses.1"])], None)
    assert warded.lose_support == ()


# -- strike --------------------------------------------------------------------------------
def test_cards_strike_strongest_other_army():
    armies = [
        (0, "amber", ["violet-queen-ysmay"]),
        (1, "amber", [SPEAR]),
        (2, "amber", [MARINE, THRALL]),
    ]
    assert dict(resolve(CATALOG, armies, None).totals) == {0: 5, 1: 3, 2: 2}


def test_cards_strike_all_other_armies():
    armies = [(0, "amber", ["violet-hollow-choir"]), (1, "amber", [SPEAR]), (2, "amber", [THRALL])]
    assert dict(resolve(CATALOG, armies, None).totals) == {0: 4, 1: 2, 2: 0}


# -- counts_as_army_house ----------------------------------------------------------------
@pytest.mark.parametrize("house", ["crimson", "azure", "amber"])
def test_cards_counts_as_army_house(house):
    lancer = "amber-turncloak-lancer.1"
    assert total([lancer], house) == 3 + 1
    assert total([lancer, "muster-of-the-banner.1"], house) == 3 + 1 + 1


def test_cards_counts_as_army_house_for_other_abilities():
    pilot, lancer = "azure-deep-current-pilot.1", "amber-turncloak-lancer.1"
    assert total([pilot, lancer], "azure") == (1 + 1 + 1) + (3 + 1)


# -- hooks ---------------------------------------------------------------------------------
def test_cards_mirror_strongest_hook():
    vessa = "amber-vessa-gilded-mirror"
    assert total([vessa, MARINE, THRALL], "crimson") == 3 + 3 + 1
    assert total([vessa], "crimson") == 2


def test_cards_kingmaker_hook_backers_gain_one_extra():
    promise = "promise-of-the-crown"
    assert resolve(CATALOG, [(0, "azure", [SPEAR, promise])], None).backer_bonus == ((0, 1),)
    # In play: seat 2 backs the new Regent (seat 0) whose army held the Promise: 2 + 1.
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    hands = {0: [SPEAR, promise], 1: ["azure-harbour-guard.4"], 2: [RIDER], 3: [THRALL]}
    game, ref = table(
        first=0,
        phase="plotting",
        support=support,
        hands=hands,
        military=RIDERS[1:] + ["crimson-ash-spearman.2"],
    )
    plot(
        game,
        ref,
        covert={
            0: ((0, 0), (SPEAR, promise)),
            1: ((1,), ("azure-harbour-guard.4",)),
            2: ((0,), (RIDER,)),
            3: ((1,), (THRALL,)),
        },
    )
    assert game.state.regent == 0
    assert game.state.legitimacy == [3, 0, 3, 0]


def test_cards_kingmaker_hook_only_if_you_become_regent():
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    promise = "promise-of-the-crown"
    hands = {0: [THRALL, promise], 1: [MARINE], 2: [RIDER], 3: ["violet-duskblade.1"]}
    game, ref = table(
        first=0,
        phase="plotting",
        support=support,
        hands=hands,
        military=RIDERS[1:] + ["crimson-ash-spearman.2"],
    )
    plot(
        game,
        ref,
        covert={
            0: ((0, 0), (THRALL, promise)),
            1: ((1,), (MARINE,)),
            2: ((0,), (RIDER,)),
            3: ((1,), ("violet-duskblade.1",)),
        },
    )
    assert game.state.regent == 1
    assert game.state.legitimacy == [0, 3, 0, 2]


def test_cards_every_effect_op_is_used_by_some_card():
    used = {e.op for d in set(DEFS.values()) for e in d.effects}
    used |= {f"hook:{e.name}" for d in set(DEFS.values()) for e in d.effects if e.op == "hook"}
    assert used >= {
        "force",
        "force_per",
        "boost",
        "desert",
        "ward",
        "no_house_bonus",
        "house_bonus",
        "lose_support",
        "strike",
        "counts_as_army_house",
        "bid_force",
        "sabotage",
        "hook:mirror_strongest",
        "hook:kingmaker",
    }


def test_cards_betrayal_events_always_have_a_negative_effect():
    # "Some event cards will have the red betrayal dagger printed on them, these cards always
    # have a negative effect."
    betrayals = {DEFS[e] for e in CATALOG.events if DEFS[e].betrayal}
    assert len(betrayals) == 6
    harmful = {"desert", "no_house_bonus", "lose_support"}
    for card in betrayals:
        assert card.phase == "plotting"
        for e in card.effects:
            assert e.op in harmful or (e.op in ("force", "boost") and e.amount < 0), card.id
