"""The authored factions: the catalog, the named hooks of their cards (Undercity, Neogenesis,
Machina) and a perpetual Leader ability, proved on positions (engine/sovereign/position.py)."""

from __future__ import annotations

from importlib import resources

import pytest

from fairtable.engine.errors import CardDataError
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.cards import build_catalog, standard_catalog
from fairtable.engine.sovereign.hooks import HOOKS, HookName
from fairtable.engine.sovereign.kinds import CardType, HealthSource, Mode, Op, Target, When, Who
from tests.engine.sovereign.helpers import play, pos, settle, until

CATALOG = standard_catalog()


def _faction_text(name: str) -> str:
    return (
        resources.files("fairtable.engine.sovereign") / "data" / "factions" / f"{name}.toml"
    ).read_text(encoding="utf-8")


def test_cards_every_faction_loads_with_thirty_cards_and_twenty_echoes():
    assert {"windwalker", "undercity", "utopian", "neogenesis", "machina"} <= set(
        CATALOG.faction_ids
    )
    for fid in CATALOG.faction_ids:
        f = CATALOG.faction(fid)
        assert len(f.cards) == 30 and len(f.echoes) == 20
        costs = sorted(CATALOG.defs[e].cost for e in f.echoes)
        assert costs == [1] * 4 + [2] * 8 + [3] * 6 + [4] * 2, fid


# -- Facilities and Your Leader Card: a perpetual Leader (l. 134-137) ---------------------------
def test_leader_perpetual_ability_stacks_by_level():
    game, ref = pos(
        "factions=undercity,windwalker active=0 phase=battle leader=2.0,0.0 "
        "lanes0=ub-gutter-runners"
    )
    s = game.state
    assert effects.level(s, "0:ub-mother-nine-keys") == 2
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 1))
    until(game, ref, "move", seat=0)
    # undefended: attack 1, Gutter Runners +1, the Leader worked twice +2
    assert ("breach", 0, 1, "forge", 4) in s.stored_events()


# -- Undercity: Lift the Keys (hook steal_talent) ---------------------------------------------
def test_hook_steal_talent_takes_one_idle_talent():
    game, ref = pos("factions=undercity,windwalker active=0 citadel=3.0,2.1 hand0=ub-lift-the-keys")
    until(game, ref, "forge", seat=0)
    play(game, ref, 0, "ub-lift-the-keys", 3, 0, ("seat:1",))
    assert game.state.boards[0].citadel == [1, 0]
    assert game.state.boards[1].citadel == [1, 1]


def test_hook_steal_talent_nothing_from_yourself_or_an_empty_citadel():
    game, ref = pos("factions=undercity,windwalker active=0 citadel=3.1,0.2 hand0=ub-lift-the-keys")
    until(game, ref, "forge", seat=0)
    play(game, ref, 0, "ub-lift-the-keys", 3, 0, ("seat:1",))
    assert game.state.boards[1].citadel == [0, 2]  # a drone is not taken
    assert game.state.boards[0].citadel == [0, 1]
    game, ref = pos("factions=undercity,windwalker active=0 citadel=3.0,0.0 hand0=ub-lift-the-keys")
    until(game, ref, "forge", seat=0)
    play(game, ref, 0, "ub-lift-the-keys", 3, 0, ("seat:0",))
    assert game.state.boards[0].citadel == [0, 0]


# -- Undercity: Hegemony Slavers (hook slaver_raid, FAQ l. 362) ------------------------------
_RAID = (
    "factions=undercity,windwalker active=0 phase=battle citadel=0.0,1.0 "
    "forge1=ww-echo-storm-map:1,ww-echo-first-wind:1 "
)


def test_faq_slavers_citadel_snapshot():
    game, ref = pos(_RAID + "lanes0=ub-hegemony-slavers")
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 1))
    until(game, ref, "move", seat=0)
    s = game.state
    assert len(s.boards[0].scored) == 2
    # two Echoes scored, but only the one talent there when the breach began can be taken;
    # the two forge talents returned after the scoring stay
    assert s.boards[0].citadel == [1, 0]
    assert s.boards[1].citadel == [2, 0]


def test_hook_slaver_raid_only_for_a_living_attacker():
    game, ref = pos(_RAID + "lanes0=ub-gutter-runners,ub-hegemony-slavers")
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 1))  # the Slavers stay home
    until(game, ref, "move", seat=0)
    s = game.state
    assert len(s.boards[0].scored) == 2
    assert s.boards[0].citadel == [0, 0] and s.boards[1].citadel == [3, 0]


def test_hook_slaver_raid_nothing_when_an_echo_is_forged():
    game, ref = pos(
        "factions=undercity,windwalker active=0 citadel=0.0,2.0 turn=3 "
        "lanes0=ub-hegemony-slavers forge0=ub-echo-rusted-keel-key:1@1"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.ForgeCard(0, s.boards[0].forge[0].handle))
    settle(game, ref)
    assert s.boards[0].scored == ["0:ub-echo-rusted-keel-key"]
    assert s.boards[1].citadel == [2, 0]


# -- Neogenesis: swell; Machina: self_repair (upkeep triggers) ---------------------------------
def test_hook_swell_adds_a_drone_above_the_maximum():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 phase=growth "
        "lanes0=ng-bloatflesh-chimera,ng-splice-hounds:0.1+ng-hive-gland"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    assert s.units["0:ng-bloatflesh-chimera"].health == [0, 4]  # printed 3
    assert s.units["0:ng-splice-hounds"].health == [0, 2]  # printed 1: the Gland's host
    assert effects.citizens_total(s) == s.creche_out


def test_hook_self_repair_restores_up_to_the_printed_maximum():
    game, ref = pos(
        "factions=machina,windwalker active=0 phase=growth "
        "lanes0=ms-ironheart-revenant:0.1,ms-scrap-mites+ms-self-repair-lattice"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    assert s.units["0:ms-ironheart-revenant"].health == [0, 2]
    assert s.units["0:ms-scrap-mites"].health == [0, 1]  # full: nothing
    assert effects.citizens_total(s) == s.creche_out


# -- Neogenesis: Mosaic Mutation (hook mosaic_mutation, FAQ l. 358) ---------------------------
def _mosaic_catalog():
    """Font Behemoth given a forge trigger, so that a forge effect could be seen firing."""
    text = _faction_text("neogenesis").replace(
        'id = "ng-font-behemoth"',
        'id = "ng-font-behemoth"\non_forge = [ { op = "gain", talents = 3 } ]',
    )
    return build_catalog(
        {"factions/neogenesis.toml": text, "factions/windwalker.toml": _faction_text("windwalker")}
    )


def test_faq_mosaic_not_forged():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 citadel=2.0,0.0 "
        "lanes0=ng-splice-hounds:0.1+ng-chitin-graft,ng-lilin-matron "
        "scrap0=ng-font-behemoth,ng-mantis-limbs hand0=ng-mosaic-mutation",
        catalog=_mosaic_catalog(),
    )
    until(game, ref, "forge", seat=0)
    play(game, ref, 0, "ng-mosaic-mutation", 2, 0, ("0:ng-splice-hounds",))
    s = game.state
    new = "0:ng-font-behemoth"
    assert s.boards[0].lanes[0] == [new, "0:ng-lilin-matron"]
    assert s.units[new].health == [0, 1] and s.units[new].augments == ["0:ng-chitin-graft"]
    assert s.boards[0].scrap == ["ng-mantis-limbs", "ng-splice-hounds"]
    assert s.boards[0].citadel == [0, 0]  # no forge trigger
    game.apply(A.Pass(0))
    assert settle(game, ref)[0].kind != "finish_forge"  # no first health to place
    assert effects.citizens_total(s) == s.creche_out


def test_hook_mosaic_mutation_fizzles_without_a_unit_in_the_scrap_pile():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 citadel=2.0,0.0 "
        "lanes0=ng-splice-hounds scrap0=ng-mantis-limbs hand0=ng-mosaic-mutation"
    )
    until(game, ref, "forge", seat=0)
    play(game, ref, 0, "ng-mosaic-mutation", 2, 0, ("0:ng-splice-hounds",))
    s = game.state
    assert s.boards[0].lanes[0] == ["0:ng-splice-hounds"]
    assert s.boards[0].scrap == ["ng-mantis-limbs"]
    assert ("fizzle", "0:ng-mosaic-mutation", "0:ng-splice-hounds") in s.stored_events()


def test_card_data_quick_forge_is_a_flag_of_augments():
    text = _faction_text("machina")
    for bad, field in (('\nquick_forge = "yes"', "quick_forge"),):
        with pytest.raises(CardDataError) as info:
            build_catalog({"f.toml": text.replace("\nquick_forge = true", bad)})
        assert info.value.field == field
    unit = text.replace('id = "ms-scrap-mites"', 'id = "ms-scrap-mites"\nquick_forge = true')
    with pytest.raises(CardDataError) as info:
        build_catalog({"f.toml": unit})
    assert info.value.card == "ms-scrap-mites"
    assert CATALOG.defs["ms-salamander-armor"].quick_forge


def test_hook_mosaic_mutation_in_combat_takes_the_attackers_place():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 phase=battle citadel=2.0,0.1 "
        "lanes0=ng-splice-hounds lanes1=ww-herdmasters scrap0=ng-chimera-telepaths "
        "hand0=ng-mosaic-mutation"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    until(game, ref, "window", seat=0, window="combat")
    play(game, ref, 0, "ng-mosaic-mutation", 2, 0, ("0:ng-splice-hounds",))
    s = game.state
    new = "0:ng-chimera-telepaths"
    assert s.battle["order"] == [new] and s.battle["attackers"] == [new]
    until(game, ref, "move", seat=0)
    assert ("combat_damage", new, "1:ww-herdmasters", 2) in s.stored_events()  # it attacked
    assert s.units["1:ww-herdmasters"].health == [0, 1]


@pytest.mark.parametrize(
    ("old", "new", "card", "field", "says"),
    [
        ('type = "unit"', 'type = "monster"', "ms-scrap-mites", "type", "expected one of unit"),
        ('type = "unit"', 'type = "echo"', "ms-scrap-mites", "type", "expected one of unit"),
        ('target = "own_slot"', 'target = "moon"', "", "effects[0].target", "own_slot"),
        ('op = "accelerate"', 'op = "teleport"', "", "effects[0].op", "'teleport'"),
        ('op = "accelerate"', "op = 7", "", "effects[0].op", "7 is not a one-shot"),
        ('attach = "facility"', 'attach = "citadel"', "", "attach", "expected one of unit"),
        ('source = "creche"', 'source = "void"', "", "effects[0].source", "citadel, creche"),
        ('who = "target"', 'who = "everyone"', "", ".who", "expected one of self, host"),
        ('mode = "triggered"', 'mode = "sometimes"', "", "ability.mode", "triggered, perpetual"),
        ('name = "self_repair"', 'name = "self_mend"', "", ".name", "no hook named 'self_mend'"),
    ],
)
def test_card_data_an_unknown_word_is_a_card_data_error(
    old: str, new: str, card: str, field: str, says: str
) -> None:
    text = _faction_text("machina")
    assert old in text
    with pytest.raises(CardDataError) as info:
        build_catalog({"factions/machina.toml": text.replace(old, new, 1)})
    assert info.value.file == "factions/machina.toml"
    assert info.value.field.endswith(field) and says in str(info.value)
    if card:
        assert info.value.card == card


def test_card_data_types_ops_targets_and_sources_are_typed_and_equal_their_words() -> None:
    defs = list(CATALOG.defs.values())
    assert {type(d.type) for d in defs} == {CardType}
    assert {type(d.attach) for d in defs if d.type is CardType.AUGMENT} == {CardType}
    effs = [
        e
        for d in defs
        for e in d.static + d.lasting + d.play + (d.ability.effects if d.ability else ())
    ]
    assert {type(e.op) for e in effs} == {Op}
    assert {type(e.target) for e in effs if e.target is not None} == {Target}
    assert {type(e.source) for e in effs} == {HealthSource}
    assert {type(e.who) for e in effs if e.who is not None} == {Who}
    assert {type(e.when) for e in effs if e.when is not None} == {When}
    assert {type(d.ability.mode) for d in defs if d.ability} == {Mode}
    assert CardType.REFLEX == "reflex" and f"{Target.OWN_SLOT}" == "own_slot"


def test_hooks_each_hook_name_has_its_hook_and_the_cards_name_members() -> None:
    assert set(HOOKS) == set(HookName)
    named = [
        e.name
        for d in CATALOG.defs.values()
        for e in d.static
        + d.lasting
        + d.play
        + (d.ability.effects if d.ability else ())
        + tuple(e for _, effects in d.triggers for e in effects)
        if e.op is Op.HOOK
    ]
    assert set(named) == set(HookName) and {type(n) for n in named} == {HookName}
    assert HookName.SECOND_WIND == "second_wind"
