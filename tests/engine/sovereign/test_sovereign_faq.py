"""The FAQ rulings of the rulebook (l. 334-362) as scenarios on positions, one
``test_faq_<topic>`` per ruling the engine can express (docs/rules/sovereign.md §2)."""

from __future__ import annotations

from importlib import resources

from fairtable.engine.errors import IllegalMove, WrongPhase
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.cards import build_catalog
from tests.engine.sovereign.helpers import handle_of, play, pos, quiet, rejects, settle, until


def _text(name: str) -> str:
    return (
        resources.files("fairtable.engine.sovereign") / "data" / "factions" / f"{name}.toml"
    ).read_text(encoding="utf-8")


# -- Salamander Armor (l. 359-360) ------------------------------------------------------------
_ATTACKED = (
    "factions=windwalker,machina active=0 phase=battle citadel=0.0,4.1 "
    "lanes0=ww-sentinels lanes1=ms-lancer-mech "
)


def test_faq_salamander_armor_forged_from_hand_in_combat():
    game, ref = pos(_ATTACKED + "hand1=ms-salamander-armor")
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    until(game, ref, "window", seat=1, window="combat")
    s = game.state
    game.apply(
        A.QuickForge(1, handle_of(game, 1, "ms-salamander-armor"), "hand", "1:ms-lancer-mech")
    )
    settle(game, ref)
    assert s.units["1:ms-lancer-mech"].augments == ["1:ms-salamander-armor"]
    assert s.boards[1].citadel == [0, 5]  # four talents exhausted into drones
    assert effects.stats(s, "1:ms-lancer-mech") == (4, 3)
    until(game, ref, "move", seat=0)
    assert s.units["1:ms-lancer-mech"].health == [0, 2]  # 3 attack against 3 armor


def test_faq_salamander_armor_from_hand_needs_its_cost_in_talents():
    game, ref = pos(
        _ATTACKED.replace("4.1", "3.1") + "hand1=ms-salamander-armor,ms-reactive-plating"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    until(game, ref, "window", seat=1, window="combat")
    h = handle_of(game, 1, "ms-salamander-armor")
    rejects(game, A.QuickForge(1, h, "hand", "1:ms-lancer-mech"), IllegalMove)
    rejects(game, A.QuickForge(1, h, "forge", "1:ms-lancer-mech"), IllegalMove)
    other = handle_of(game, 1, "ms-reactive-plating")  # an ordinary augment
    game.state.boards[1].citadel = [4, 1]
    rejects(game, A.QuickForge(1, other, "hand", "1:ms-lancer-mech"), IllegalMove)
    rejects(game, A.QuickForge(1, h, "hand", "1:nowhere"), IllegalMove)
    game.apply(A.QuickForge(1, h, "hand", "0:ww-sentinels"))  # any player's unit (l. 147)
    settle(game, ref)
    assert game.state.units["0:ww-sentinels"].augments == ["1:ms-salamander-armor"]


def test_faq_salamander_armor_revealed_from_the_forge_counts_as_forged():
    text = _text("machina").replace(
        "\nquick_forge = true", '\nquick_forge = true\non_forge = [ { op = "gain", drones = 2 } ]'
    )
    catalog = build_catalog(
        {"factions/machina.toml": text, "factions/windwalker.toml": _text("windwalker")}
    )
    line = (
        "factions=windwalker,machina active=0 phase=move turn=5 citadel=0.0,0.1 "
        "lanes1=ms-lancer-mech forge1=ms-salamander-armor:{}@2"
    )
    game, ref = pos(line.format(3), catalog=catalog)
    until(game, ref, "window", seat=1, window="move_begin")
    h = game.state.boards[1].forge[0].handle
    rejects(game, A.QuickForge(1, h, "forge", "1:ms-lancer-mech"), IllegalMove)  # not complete
    game, ref = pos(line.format(4), catalog=catalog)
    until(game, ref, "window", seat=1, window="move_begin")
    s = game.state
    game.apply(A.QuickForge(1, s.boards[1].forge[0].handle, "forge", "1:ms-lancer-mech"))
    settle(game, ref)
    assert s.boards[1].forge == []
    assert s.units["1:ms-lancer-mech"].augments == ["1:ms-salamander-armor"]
    assert s.boards[1].citadel == [0, 1 + 1 + 2]  # its forge talent as a drone, the on_forge
    assert ("forged", "1:ms-salamander-armor", "host:1:ms-lancer-mech") in s.stored_events()


def _index(events: list, event: tuple) -> int:
    return events.index(event)


# -- l. 336: the order of upkeep --------------------------------------------------------------
def test_faq_upkeep_order():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 phase=growth "
        "lanes0=ww-clan-elders reflexes0=ww-storm-front:2.0 "
        "fac0=ww-weather-spire:0.2 forge0=ww-grav-skimmers:1@0"
    )
    d = until(game, ref, "upkeep_return", seat=0)
    ev = game.state.stored_events()
    # the trigger resolved while the reflex was still in play, then the reflex went
    assert _index(ev, ("gain", 0, 0, 1)) < _index(ev, ("reflex_ends", "0:ww-storm-front"))
    assert not any(e[0] == "forge_advance" for e in ev)  # the forge waits for the returns
    assert d.info.cards == ("0:ww-weather-spire",)
    game.apply(A.UpkeepReturn(0, (("0:ww-weather-spire", "drone"),)))
    until(game, ref, "forge", seat=0)
    assert game.state.boards[0].forge[0].progress == 2
    assert game.state.boards[0].citadel == [2 + 2, 1 + 1]  # growth + reflex; Elders + Spire


# -- l. 338: restore vs add --------------------------------------------------------------------
def test_faq_restore_vs_add_types():
    game, ref = pos(
        "factions=utopian,windwalker active=0 citadel=2.0,0.0 "
        "fac0=ur-keel-infirmary lanes0=ur-keel-shieldbearers:0.1 "
        "hand0=ur-answer-the-call"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    unit = s.units["0:ur-keel-shieldbearers"]
    game.apply(A.Work(0, "0:ur-keel-infirmary", 1, ("0:ur-keel-shieldbearers",)))
    settle(game, ref)
    assert unit.health == [0, 1]  # restore takes only the printed type: no idle drone
    s.boards[0].citadel = [1, 3]
    s.facilities["0:ur-keel-infirmary"].workers = [0, 0]
    game.apply(A.Work(0, "0:ur-keel-infirmary", 1, ("0:ur-keel-shieldbearers",)))
    settle(game, ref)
    assert unit.health == [0, 2] and s.boards[0].citadel == [0, 2]  # up to the maximum
    s.boards[0].citadel = [1, 0]
    d = play(game, ref, 0, "ur-answer-the-call", 1, 0, ("0:ur-keel-shieldbearers",))[0]
    assert d.kind == "add_health" and d.info.talents == (0, 1)  # either type
    game.apply(A.AddHealth(0, 1))
    assert unit.health == [1, 2]  # added above the printed maximum, of a type it does not print
    game, ref = pos(
        "factions=windwalker,utopian active=0 citadel=2.0,0.0 "
        "fac0=ww-skyforge-hangar lanes0=ww-gale-riders"
    )
    until(game, ref, "forge", seat=0)
    game.apply(A.Work(0, "0:ww-skyforge-hangar", 1, ("0:ww-gale-riders",)))
    settle(game, ref)
    assert game.state.units["0:ww-gale-riders"].health == [1, 2]  # any type: a talent


# -- l. 340: simultaneous effects ---------------------------------------------------------------
def test_faq_simultaneous_effects_player_order():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 phase=growth "
        "lanes0=ng-bloatflesh-chimera,ng-splice-hounds+ng-hive-gland"
    )
    d = until(game, ref, "order_triggers", seat=0)
    assert d.info.sources == ("0:ng-bloatflesh-chimera", "0:ng-hive-gland")
    rejects(game, A.OrderTriggers(0, ("0:ng-hive-gland",)), IllegalMove)
    game.apply(A.OrderTriggers(0, ("0:ng-hive-gland", "0:ng-bloatflesh-chimera")))
    ev = game.state.stored_events()
    assert _index(ev, ("add_health", "0:ng-splice-hounds", 0, 1)) < _index(
        ev, ("add_health", "0:ng-bloatflesh-chimera", 0, 1)
    )


# -- l. 342: the start of a phase ---------------------------------------------------------------
def test_faq_start_of_phase():
    game, ref = pos("factions=windwalker,windwalker active=0 citadel=1.0,1.0 hand0=ww-gale-riders")
    d = settle(game, ref)[0]
    assert (game.state.phase, d.kind, d.info.window, d.seat) == (
        "forge",
        "window",
        "forge_begin",
        0,
    )
    rejects(game, A.PlayToForge(0, game.state.boards[0].hand[0]), WrongPhase)
    game.apply(A.Pass(0))
    game.apply(A.Pass(1))
    d = settle(game, ref)[0]
    assert d.kind == "forge"
    game.apply(A.Pass(0))  # the forge phase is declared complete
    d = settle(game, ref)[0]
    assert (game.state.phase, d.info.window) == ("forge", "forge_end")


# -- l. 344: what counts as a move ---------------------------------------------------------------
def test_faq_what_is_a_move():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 phase=move citadel=0.2,0.0 "
        "lanes0=ww-sentinels,ww-herdmasters,ww-gale-riders/"
        "ww-cloudbreakers,ww-thermal-kites,ww-clan-elders"
    )
    until(game, ref, "move", seat=0)
    s = game.state
    rejects(game, A.Move(0, "0:ww-sentinels", "up"), IllegalMove)
    rejects(game, A.Move(0, "0:ww-gale-riders", "down"), IllegalMove)
    rejects(game, A.Move(0, "0:ww-sentinels", "other"), IllegalMove)  # the other lane is full
    rejects(game, A.Move(0, "0:ww-gale-riders", "front"), IllegalMove)
    game.apply(A.Move(0, "0:ww-herdmasters", "up"))  # one space
    assert s.boards[0].lanes[0] == ["0:ww-herdmasters", "0:ww-sentinels", "0:ww-gale-riders"]
    settle(game, ref)
    game.apply(A.Work(0, "leader", 1, ("0:ww-gale-riders>up",)))  # a card's move is a move
    settle(game, ref)
    assert s.boards[0].lanes[0] == ["0:ww-herdmasters", "0:ww-gale-riders", "0:ww-sentinels"]


# -- l. 346: Airborne moves before the declaration -------------------------------------------
def test_faq_airborne_before_declaration():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 phase=battle citadel=0.1,0.1 "
        "lanes0=ww-sentinels,ww-gale-riders lanes1=ww-herdmasters"
    )
    until(game, ref, "window", seat=0, window="battle_begin")
    rejects(game, A.Move(0, "0:ww-sentinels", "down", True), IllegalMove)  # not Airborne
    game.apply(A.Move(0, "0:ww-gale-riders", "up", True))
    assert game.state.boards[0].lanes[0] == ["0:ww-gale-riders", "0:ww-sentinels"]
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "window", seat=0, window="combat")
    rejects(game, A.Move(0, "0:ww-gale-riders", "down", True), IllegalMove)


# -- l. 348: "cannot be used when resolving combat" -------------------------------------------
def test_faq_resolving_combat_window():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 phase=battle citadel=0.0,0.3 "
        "lanes0=ww-sentinels,ww-updraft-scouts "
        "lanes1=ww-gale-riders,ww-thermal-kites"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "window", seat=1, window="combat")
    s = game.state
    assert s.battle["round"] == 1
    game.check(A.Work(1, "leader", 1, ("1:ww-thermal-kites>up",)))  # after the declaration
    game.apply(A.Pass(1))
    until(game, ref, "window", seat=1, window="combat")
    assert s.battle["round"] == 2
    err = rejects(game, A.Work(1, "leader", 1, ("1:ww-thermal-kites>down",)), IllegalMove)
    assert err.rule == "FAQ: resolving combat"
    game.apply(A.Pass(1))
    until(game, ref, "window", seat=1, window="battle_end")
    game.check(A.Work(1, "leader", 1, ("1:ww-thermal-kites>other",)))  # combat is over


# -- l. 350: an augment goes to its owner's scrap pile -----------------------------------------
def test_faq_augment_scrapped_to_owner():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 citadel=1.0,0.0 "
        "lanes0=ww-gale-riders+1:ww-storm-lance,ww-sentinels "
        "hand0=ww-desperate-sacrifice"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    assert effects.stats(s, "0:ww-gale-riders") == (3, 0)
    play(game, ref, 0, "ww-desperate-sacrifice", 1, 0, ("0:ww-gale-riders", "0:ww-sentinels"))
    assert "0:ww-gale-riders" not in s.units
    assert s.boards[0].scrap == ["ww-gale-riders"]
    assert s.boards[1].scrap == ["ww-storm-lance"]


# -- l. 352: a reflex's added cost buys its effect once ----------------------------------------
def test_faq_reflex_added_cost_once():
    game, ref = pos(
        "factions=utopian,windwalker active=0 citadel=2.0,0.0 "
        "lanes0=ur-keel-shieldbearers lanes1=ww-gale-riders,ww-cloudbreakers "
        "hand0=ur-zealotry"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    play(game, ref, 0, "ur-zealotry", 2, 0, ("0:ur-keel-shieldbearers", "1:ww-gale-riders"))
    assert s.units["0:ur-keel-shieldbearers"].health == [0, 1]  # the added cost
    assert "1:ww-gale-riders" not in s.units  # the bought effect, at play
    assert effects.stats(s, "0:ur-keel-shieldbearers") == (2, 2)  # the passive part
    until(game, ref, "move", seat=0)
    assert effects.stats(s, "0:ur-keel-shieldbearers") == (2, 2)
    assert s.units["0:ur-keel-shieldbearers"].health == [0, 1]
    assert s.units["1:ww-cloudbreakers"].health == [0, 2]  # nothing more was dealt
    until(game, ref, "forge", seat=0)  # the next upkeep scrapped it
    assert effects.stats(s, "0:ur-keel-shieldbearers") == (1, 2)
    assert "ur-zealotry" in s.boards[0].scrap


# -- l. 354: taking damage vs losing health ----------------------------------------------------
def test_faq_damage_vs_health_loss():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 citadel=3.0,0.0 "
        "lanes0=ww-gale-riders lanes1=ww-sentinels "
        "hand0=ww-lightning-lash,ww-desperate-sacrifice"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    play(game, ref, 0, "ww-lightning-lash", 2, 0, ("1:ww-sentinels",))
    assert ("damage", "0:ww-lightning-lash", "1:ww-sentinels", 2, 0) in s.stored_events()  # taken
    assert s.units["1:ww-sentinels"].health == [0, 3]  # armor 2: no health lost
    play(game, ref, 0, "ww-desperate-sacrifice", 1, 0, ("0:ww-gale-riders", "1:ww-sentinels"))
    assert s.units["1:ww-sentinels"].health == [0, 2]  # health loss ignores armor


# -- l. 356: Slow and lethal damage -------------------------------------------------------------
def _slow(health: str):
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=battle "
        "lanes0=ww-stormcaller-matriarch "
        f"lanes1=md-praetorian-juggernaut:{health}"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    for _ in range(40):
        pending = settle(game, ref)
        if game.state.phase == "move":
            break
        game.apply(quiet(game, pending[0]))
    return game.state


def test_faq_slow_lethal():
    s = _slow("0.1")  # 4 attack against armor 3: 1, lethal -> it deals nothing
    assert "1:md-praetorian-juggernaut" not in s.units
    assert s.units["0:ww-stormcaller-matriarch"].health == [2, 2]
    assert not [
        e
        for e in s.stored_events()
        if e[0] == "combat_damage" and e[1] == "1:md-praetorian-juggernaut"
    ]
    s = _slow("0.2")  # not lethal: it strikes back, 4 against armor 2
    assert "1:md-praetorian-juggernaut" in s.units
    assert sum(s.units["0:ww-stormcaller-matriarch"].health) == 2
