"""Rulebook fidelity (issue 19): readings an independent pass over the rulebook and the FAQ
found the engine missing, each tested under the section it proves (docs/rules/sovereign.md)."""

from __future__ import annotations

from importlib import resources

import pytest

from fairtable.engine.errors import CardDataError
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.cards import build_catalog
from tests.engine.sovereign.helpers import play, pos, quiet, settle, until


# -- Glossary "Restore Health" (l. 314), FAQ l. 338: never above the printed total ----------
def test_glossary_restore_health_never_above_the_printed_maximum():
    # Lilin Matron prints 1 talent + 2 drones (3); it lost its talent, then had a drone added
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 citadel=0.2,0.0 "
        "fac0=ng-regeneration-vats lanes0=ng-lilin-matron:0.3"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.Work(0, "0:ng-regeneration-vats", 1, ("0:ng-lilin-matron",)))
    settle(game, ref)
    assert s.units["0:ng-lilin-matron"].health == [0, 3]  # already at its printed 3
    assert effects.citizens_total(s) == s.creche_out


def test_glossary_restore_health_up_to_the_printed_total_only():
    # Centurion Guard prints 1 talent + 2 drones; holding 0 + 2 it misses 1: restoring 2
    # gives back that 1 talent, not a second token
    game, ref = pos(
        "factions=myrmidon,windwalker active=0 citadel=3.0,0.0 "
        "fac0=md-field-hospital lanes0=md-centurion-guard:0.2"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.Work(0, "0:md-field-hospital", 1, ("0:md-centurion-guard",)))
    settle(game, ref)
    assert s.units["0:md-centurion-guard"].health == [1, 2]
    # a drone above the printed drones (it was added) and no talent: the unit is full
    s.units["0:md-centurion-guard"].health = [0, 3]
    s.facilities["0:md-field-hospital"].workers = [0, 0]
    s.boards[0].citadel[0] += 1
    game.apply(A.Work(0, "0:md-field-hospital", 1, ("0:md-centurion-guard",)))
    settle(game, ref)
    assert s.units["0:md-centurion-guard"].health == [0, 3]
    assert effects.citizens_total(s) == s.creche_out


def test_glossary_restore_health_self_repair_never_above_the_printed_maximum():
    # a Self-Repair Lattice host printing 1 talent + 1 drone, holding 2 drones (one added)
    game, ref = pos(
        "factions=machina,windwalker active=0 phase=growth "
        "lanes0=ms-cognition-engine:0.2+ms-self-repair-lattice"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    assert s.units["0:ms-cognition-engine"].health == [0, 2]
    assert effects.citizens_total(s) == s.creche_out


# -- FAQ l. 356: "How does a 'Slow' unit check for lethal damage?" ---------------------------
def _slow_pair(attacker: str, defender: str):
    game, ref = pos(
        "factions=machina,myrmidon active=0 phase=battle "
        f"lanes0=ms-siege-automaton:{attacker} "
        f"lanes1=md-praetorian-juggernaut:{defender}"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    for _ in range(40):
        pending = settle(game, ref)
        if game.state.phase == "move":
            break
        game.apply(quiet(game, pending[0]))
    return game.state


def test_faq_slow_lethal_two_slow_units_facing_each_other():
    # both Slow, both would take lethal damage (4 - 3 = 1 and 4 - 2 = 2 against 1 health):
    # "first check … and if so, they deal no combat damage themselves" -- neither does
    s = _slow_pair("0.1", "0.1")
    assert s.units["0:ms-siege-automaton"].health == [0, 1]
    assert s.units["1:md-praetorian-juggernaut"].health == [0, 1]
    assert not [e for e in s.stored_events() if e[0] == "combat_damage"]
    # only one would take lethal damage: it alone deals none, the other strikes
    s = _slow_pair("0.4", "0.1")
    assert "1:md-praetorian-juggernaut" not in s.units
    assert s.units["0:ms-siege-automaton"].health == [0, 4]


# -- Glossary "Adjacent" (l. 287): "In a lane, a unit in front of or behind this unit." -------
def _damaged(s, since: int) -> list[str]:
    return [e[2] for e in s.stored_events(since) if e[0] == "damage"]


def test_glossary_adjacent_an_emptied_defending_space_separates():
    game, ref = pos(
        "factions=myrmidon,undercity active=0 phase=battle citadel=3.0,0.0 "
        "lanes0=md-hunter-seeker,md-legion-hoplites "
        "lanes1=ub-sump-golem,ub-gutter-runners,ub-undercity-anarchs "
        "hand0=md-barrage"
    )
    s = game.state
    golem, runners, anarchs = "1:ub-sump-golem", "1:ub-gutter-runners", "1:ub-undercity-anarchs"
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "window", seat=0, window="combat")
    game.apply(A.Pass(0))
    until(game, ref, "window", seat=0, window="combat")  # round 2: the spaces are frozen
    assert s.battle["round"] == 2
    effects.scrap_unit(s, runners)  # as an ability bringing it to 0 would, at once
    assert s.battle["spaces"] == [golem, None, anarchs]
    assert s.boards[1].lanes[0] == [golem, anarchs]
    assert effects.stats(s, golem)[0] == 2  # the Anarchs are not adjacent across the space
    since = len(s.events)
    play(game, ref, 0, "md-barrage", 3, 0, (golem,))
    assert _damaged(s, since) == [golem]


def test_glossary_adjacent_a_unit_left_out_of_the_attack_is_not_behind_the_attackers():
    game, ref = pos(
        "factions=myrmidon,undercity active=0 phase=battle citadel=0.0,2.0 "
        "lanes0=md-hunter-seeker,md-legion-hoplites lanes1=ub-sump-golem "
        "hand1=ub-ambush-from-below"
    )
    s = game.state
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))  # the Hoplites stay home
    until(game, ref, "window", seat=1, window="combat")
    since = len(s.events)
    play(game, ref, 1, "ub-ambush-from-below", 2, 0, ("0:md-hunter-seeker",))
    assert _damaged(s, since) == ["0:md-hunter-seeker"]
    assert s.units["0:md-legion-hoplites"].health == [0, 2]


# -- FAQ l. 353-354: "What is the difference between taking damage and losing health?" ------
def _fired(s, since: int, kind: str) -> list[tuple]:
    return [e for e in s.stored_events(since) if e[0] == kind]


def test_faq_damage_vs_health_loss_armor_stops_all_of_it():
    # Barrage deals 1 damage; the Vigil's armor 2 stops it: it "took damage" (on_damaged
    # fires, +1 armor until the end of the phase) and lost no health (on_health_lost silent)
    game, ref = pos(
        "factions=myrmidon,utopian active=0 citadel=3.0,0.0 "
        "lanes1=ur-oathsworn-vigil,ur-lantern-wardens:0.2 hand0=md-barrage"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    hand_before = len(s.boards[1].hand)
    play(game, ref, 0, "md-barrage", 3, 0, ("1:ur-oathsworn-vigil",))
    assert s.units["1:ur-oathsworn-vigil"].health == [0, 3]
    assert effects.stats(s, "1:ur-oathsworn-vigil") == (2, 3)  # took damage: +1 armor
    # the Wardens (armor 1) took 1 adjacent damage, stopped too: no health lost, no draw
    assert s.units["1:ur-lantern-wardens"].health == [0, 2]
    assert len(s.boards[1].hand) == hand_before


def test_faq_damage_vs_health_loss_health_lost_without_damage():
    # "lose health" is not damage: the Brood's on_health_lost fires (a drone), and an
    # on_damaged unit losing health the same way does not react
    game, ref = pos(
        "factions=windwalker,neogenesis active=0 citadel=1.0,0.0 "
        "lanes0=ww-gale-riders lanes1=ng-ichor-brood hand0=ww-desperate-sacrifice"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    before = list(s.boards[1].citadel)
    play(game, ref, 0, "ww-desperate-sacrifice", 1, 0, ("0:ww-gale-riders", "1:ng-ichor-brood"))
    assert s.units["1:ng-ichor-brood"].health == [0, 2]
    assert s.boards[1].citadel == [before[0], before[1] + 1]
    assert effects.citizens_total(s) == s.creche_out


def test_faq_damage_vs_health_loss_in_combat_both_fire_after_the_round():
    # an attack on the Vigil and the Wardens: the Wardens lose health in combat and draw;
    # the Vigil is under fire and braces (+1 armor for the rest of the battle phase)
    game, ref = pos(
        "factions=myrmidon,utopian active=0 phase=battle citadel=1.0,0.0 "
        "lanes0=md-ballista-crew,md-hunter-seeker "
        "lanes1=ur-lantern-wardens,ur-oathsworn-vigil"
    )
    s = game.state
    until(game, ref, "attack", seat=0)
    hand_before = len(s.boards[1].hand)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "window", seat=0, window="combat")
    game.apply(A.Pass(0))
    until(game, ref, "window", seat=0, window="combat")  # round 2
    # round 1: the Ballista Crew (3) hit the Wardens (armor 1): 2 lost -> scrapped at the
    # round's end, but the trigger fired first (it was still in play)
    assert "1:ur-lantern-wardens" not in s.units
    assert len(s.boards[1].hand) == hand_before + 1
    # round 2: the Ballista Crew face the Vigil but have dealt their damage already
    game.apply(A.Pass(0))
    until(game, ref, "window", seat=0, window="combat")  # round 3
    assert s.battle["round"] == 3
    assert effects.stats(s, "1:ur-oathsworn-vigil")[1] == 2  # not yet under fire
    # round 3: the Hunter-Seeker (2) hits the Vigil (armor 2): no health lost, damage taken
    game.apply(A.Pass(0))
    until(game, ref, "window", seat=0, window="battle_end")
    assert s.units["1:ur-oathsworn-vigil"].health == [0, 3]
    assert effects.stats(s, "1:ur-oathsworn-vigil")[1] == 3


# -- found while here: "until end of phase" stat changes (temp_stat) never counted ----------
def test_card_text_until_end_of_phase_stat_changes_apply_then_end():
    # Tribune Castra Voss: "1 talent: Target unit you control gets +1 armor until end of
    # phase."
    game, ref = pos("factions=myrmidon,windwalker active=0 citadel=1.0,0.0 lanes0=md-hunter-seeker")
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.Work(0, "leader", 1, ("0:md-hunter-seeker",)))
    settle(game, ref)
    assert effects.stats(s, "0:md-hunter-seeker") == (2, 2)
    until(game, ref, "attack", seat=0)  # the forge phase is over
    assert effects.stats(s, "0:md-hunter-seeker") == (2, 1)


def test_faq_damage_vs_health_loss_triggers_are_about_units_only():
    text = (
        resources.files("fairtable.engine.sovereign") / "data" / "factions" / "neogenesis.toml"
    ).read_text(encoding="utf-8")
    catalog = build_catalog({"factions/neogenesis.toml": text})
    assert catalog.defs["ng-ichor-brood"].trigger("on_health_lost")
    facility = text.replace(
        'id = "ng-regeneration-vats"',
        'id = "ng-regeneration-vats"\non_damaged = [ { op = "draw", count = 1 } ]',
    )
    with pytest.raises(CardDataError) as info:
        build_catalog({"factions/neogenesis.toml": facility})
    assert (info.value.card, info.value.field) == ("ng-regeneration-vats", "on_damaged")
