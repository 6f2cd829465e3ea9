"""Review findings on the Sovereign engine, each test named after the rulebook section it
proves (docs/rules/sovereign.md §1.15)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from fairtable.engine.errors import IllegalMove, MalformedAnswer
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import battle, effects
from fairtable.engine.sovereign.cards import build_catalog
from fairtable.engine.sovereign.choices import legal_answers
from tests.engine.sovereign.helpers import play, pos, quiet, rejects, settle, until


# -- Augments (l. 147): an augment on another player's card is controlled by that player --------
def test_augments_foreign_augment_triggers_in_its_hosts_controllers_upkeep():
    line = (
        "factions=neogenesis,myrmidon active={} phase=growth turn=4 "
        "lanes1=md-hunter-seeker:0.2+0:ng-hive-gland"
    )
    game, ref = pos(line.format(1))
    until(game, ref, "forge", seat=1)
    s = game.state
    assert effects.controller(s, "0:ng-hive-gland") == 1
    assert s.units["1:md-hunter-seeker"].health == [0, 3]  # Hive Gland: +1 drone, seat 1's upkeep
    assert effects.citizens_total(s) == s.creche_out
    game, ref = pos(line.format(0))
    until(game, ref, "forge", seat=0)
    assert game.state.units["1:md-hunter-seeker"].health == [0, 2]  # not its owner's upkeep


# -- Draw Phase (l. 247-248): a full hand draws nothing; only an empty deck is reported ----------
_NINE = (
    "ww-sentinels,ww-webweave-spies,ww-gale-riders,ww-cloudbreakers,ww-herdmasters,"
    "ww-updraft-scouts,ww-thermal-kites,ww-jetleap-seraphim,ww-echo-first-wind"
)


def test_draw_phase_above_the_hand_limit_draws_nothing_and_the_deck_is_not_empty():
    game, ref = pos(f"factions=windwalker,myrmidon active=0 phase=move turn=5 hand0={_NINE}")
    until(game, ref, "forge", seat=1)
    s = game.state
    assert len(s.boards[0].hand) == 9 and s.boards[0].deck == 41
    assert not [e for e in s.stored_events() if e[0] in ("draw", "deck_empty") and e[1] == 0]


# -- When Can I Play Reflexes and Abilities (l. 174-176) and FAQ Salamander Armor (l. 360) --------
def test_reflex_timing_complete_quick_forge_card_is_asked_without_idle_citizens():
    """Revealing a complete Salamander Armor from the forge costs no citizen, so a seat
    with an empty Citadel is still asked in a window (auto-pass only on public grounds:
    a forge card as far along as a quick-forge card of its public deck list)."""
    game, ref = pos(
        "factions=windwalker,machina active=0 phase=move turn=5 "
        "citadel=0.0,0.0 lanes1=ms-lancer-mech forge1=ms-salamander-armor:4@2"
    )
    d = until(game, ref, "window", seat=1, window="move_begin", limit=6)
    s = game.state
    game.apply(A.QuickForge(1, s.boards[1].forge[0].handle, "forge", "1:ms-lancer-mech"))
    settle(game, ref)
    assert d.seat == 1 and s.units["1:ms-lancer-mech"].augments == ["1:ms-salamander-armor"]
    assert s.boards[1].citadel == [0, 1]  # its forge talent, back as a drone


def test_reflex_timing_empty_citadel_and_short_forge_is_still_passed():
    game, ref = pos(
        "factions=windwalker,machina active=0 phase=move turn=5 "
        "citadel=0.0,0.0 lanes1=ms-lancer-mech forge1=ms-salamander-armor:3@2"
    )
    for _ in range(10):
        d = settle(game, ref)[0]
        assert not (d.kind == "window" and d.seat == 1)
        if d.kind == "move":
            break
        game.apply(quiet(game, d))
    assert d.kind == "move" and d.seat == 0


# -- Calculating Breach Value (l. 220, 232): Sentinels and Webweave Spies look at 5 cards ----------
def test_breach_value_combat_example_sentinels_and_spies_look_at_five_cards():
    """The rulebook's own figure: with no living defender the breach value is the total
    attack, 3 + 2 = 5 ("the total attack value is unchanged"); our Webweave Spies printed an
    extra +1 breach value, which contradicted the example (docs §1.14 is withdrawn)."""
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=battle "
        "lanes0=ww-sentinels,ww-webweave-spies hand1=md-nautilus,md-ballista-crew,"
        "md-pike-phalanx,md-legion-hoplites,md-shieldwall-cohort,md-centurion-guard,"
        "md-echo-first-oath"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "findings", seat=0)
    breach = [e for e in game.state.stored_events() if e[0] == "breach"][-1]
    assert breach[1:] == (0, 1, "hand", 5)
    assert len(game.state.battle["seen"]) == 5


# -- Glossary "Add Health" (l. 285) and FAQ l. 338: the player chooses the citizen type ----------
def test_add_health_the_player_chooses_the_type():
    """Adding health takes "either citizen type": from a Citadel holding both types its
    user chooses how many talents (a Citadel with one type, or with fewer idle citizens
    than the amount, leaves no choice); from the unlimited creche any split."""
    game, ref = pos(
        "factions=windwalker,neogenesis active=0 phase=forge citadel=2.3,0.0 "
        "fac0=ww-skyforge-hangar lanes0=ww-gale-riders:0.1"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.Work(0, "0:ww-skyforge-hangar", 1, ("0:ww-gale-riders",)))
    d = settle(game, ref)[0]
    assert d.kind == "add_health" and d.seat == 0
    assert (d.info.unit, d.info.amount, d.info.talents, d.info.source) == (
        "0:ww-gale-riders",
        1,
        (0, 1),
        "citadel",
    )
    rejects(game, A.AddHealth(0, 2), IllegalMove)
    rejects(game, A.AddHealth(0, "1"), MalformedAnswer)
    game.apply(A.AddHealth(0, 1))
    assert s.units["0:ww-gale-riders"].health == [1, 1] and s.boards[0].citadel == [0, 3]
    assert effects.citizens_total(s) == s.creche_out
    # only drones idle: forced, no decision
    s.facilities["0:ww-skyforge-hangar"].workers = [0, 0]
    s.boards[0].citadel = [1, 2]
    game.apply(A.Work(0, "0:ww-skyforge-hangar", 1, ("0:ww-gale-riders",)))
    assert settle(game, ref)[0].kind == "forge"
    assert s.units["0:ww-gale-riders"].health == [1, 2]


def test_add_health_from_the_creche_any_split():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 phase=forge citadel=2.0,0.0 "
        "lanes0=ng-bloatflesh-chimera:0.1 hand0=ng-rapid-mitosis"
    )
    until(game, ref, "forge", seat=0)
    d = play(game, ref, 0, "ng-rapid-mitosis", 2, 0, ("0:ng-bloatflesh-chimera",))[0]
    assert d.kind == "add_health" and d.info.talents == (0, 2) and d.info.source == "creche"
    game.apply(A.AddHealth(0, 2))
    s = game.state
    assert s.units["0:ng-bloatflesh-chimera"].health == [2, 1]
    assert effects.citizens_total(s) == s.creche_out


# -- Glossary "Restore Health" (l. 314) and FAQ l. 338: printed types, the controller chooses ----
_RESTORE = (
    "factions=utopian,windwalker active=0 phase=forge citadel=3.2,0.0 "
    "lanes1=ww-stormcaller-matriarch:{} hand0=ur-hands-joined"
)


def test_restore_health_the_player_chooses_the_types_within_the_printed_maximum():
    """Restored tokens "must match the citizen type shown on the card", up to "its original
    maximum": a unit printing both types and missing some of each, restored by fewer tokens
    than it misses, has its controller choose the talents (Hands Joined on another seat's
    unit: seat 1 chooses, tokens from seat 0's Citadel); missing one type only, no question."""
    game, ref = pos(_RESTORE.format("1.1"))
    until(game, ref, "forge", seat=0)
    d = play(game, ref, 0, "ur-hands-joined", 2, 0, ("1:ww-stormcaller-matriarch",))[0]
    assert d.kind == "add_health" and d.seat == 1 and d.info.op == "restore_health"
    assert (d.info.amount, d.info.talents, d.info.source, d.info.by) == (
        1,
        (0, 1),
        "citadel",
        0,
    )
    rejects(game, A.AddHealth(1, 2), IllegalMove)
    rejects(game, A.AddHealth(1, True), MalformedAnswer)
    game.apply(A.AddHealth(1, 1))
    s = game.state
    assert s.units["1:ww-stormcaller-matriarch"].health == [2, 1]
    assert s.boards[0].citadel == [0, 2]
    assert ("restore_health", "1:ww-stormcaller-matriarch", 1, 0) in s.stored_events()
    assert effects.citizens_total(s) == s.creche_out
    # only drones missing: the printed maximum of talents leaves no choice
    game, ref = pos(_RESTORE.format("2.1"))
    until(game, ref, "forge", seat=0)
    assert (
        play(game, ref, 0, "ur-hands-joined", 2, 0, ("1:ww-stormcaller-matriarch",))[0].kind
        == "forge"
    )
    assert game.state.units["1:ww-stormcaller-matriarch"].health == [2, 2]
    assert game.state.boards[0].citadel == [1, 1]


# -- Apsynthos Memorial (l. 144): "she may flip two drones on a Citadel (her own or an opponent's)"
_MEMORIAL = (
    "factions=windwalker,neogenesis active=0 phase=forge turn=5 citadel=1.3,0.2 "
    "fac0=ww-apsynthos-memorial:2.0 forge0=ww-echo-first-wind:4@1"
)


def test_apsynthos_memorial_any_citadel_or_decline():
    game, ref = pos(_MEMORIAL)
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.ForgeCard(0, s.boards[0].forge[0].handle, ""))
    d = settle(game, ref)[0]
    assert d.kind == "optional_effect" and d.seat == 0
    assert d.info.source == "0:ww-apsynthos-memorial"
    legal = set(legal_answers(game.view(0), d))
    assert legal == {
        A.OptionalEffect(0, False),
        A.OptionalEffect(0, True, ("seat:0",)),
        A.OptionalEffect(0, True, ("seat:1",)),
    }
    rejects(game, A.OptionalEffect(0, True, ("seat:7",)), IllegalMove)
    rejects(game, A.OptionalEffect(0, False, ("seat:1",)), IllegalMove)
    rejects(game, A.OptionalEffect(0, 1, ("seat:1",)), MalformedAnswer)
    before = list(s.boards[0].citadel)
    game.apply(A.OptionalEffect(0, True, ("seat:1",)))  # the opponent's Citadel
    assert s.boards[1].citadel == [2, 0] and s.boards[0].citadel == before
    game, ref = pos(_MEMORIAL)
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.ForgeCard(0, s.boards[0].forge[0].handle, ""))
    settle(game, ref)
    before = [list(b.citadel) for b in s.boards]
    game.apply(A.OptionalEffect(0, False))  # "may": declined, nothing flips
    assert [b.citadel for b in s.boards] == before


# -- FAQ l. 340: one seat's simultaneous scoring triggers resolve in the order it chooses -------
def _two_score_triggers() -> Any:
    files = {}
    root = resources.files("fairtable.engine.sovereign") / "data" / "factions"
    for e in root.iterdir():
        if e.name.endswith(".toml"):
            text = e.read_text(encoding="utf-8")
            if e.name == "windwalker.toml":  # Cloud Nurseries also draws when you score
                text = text.replace(
                    'growth = [ { op = "gain", drones = 2 } ]',
                    'growth = [ { op = "gain", drones = 2 } ]\n'
                    'on_score = [ { op = "draw", count = 1 } ]',
                )
            files[f"factions/{e.name}"] = text
    return build_catalog(files)


def test_scoring_triggers_in_the_owners_chosen_order():
    catalog = _two_score_triggers()
    game, ref = pos(
        _MEMORIAL.replace("fac0=", "fac0=ww-cloud-nurseries:1.0,") + " hand0=", catalog=catalog
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.ForgeCard(0, s.boards[0].forge[0].handle, ""))
    d = settle(game, ref)[0]
    assert d.kind == "order_triggers" and d.info.when == "on_score"
    assert sorted(d.info.sources) == ["0:ww-apsynthos-memorial", "0:ww-cloud-nurseries"]
    game.apply(A.OrderTriggers(0, ("0:ww-cloud-nurseries", "0:ww-apsynthos-memorial")))
    d = settle(game, ref)[0]
    assert d.kind == "optional_effect" and len(s.boards[0].hand) == 1  # drew first
    game.apply(A.OptionalEffect(0, True, ("seat:0",)))
    assert s.boards[0].citadel[1] == 1


# -- Choosing Your Attackers (l. 184) and FAQ l. 348: declared attackers swap among themselves ---
_ATTACK = (
    "factions=windwalker,windwalker active=0 phase=battle citadel=0.2,0.0 "
    "lanes0=ww-sentinels,ww-webweave-spies,ww-gale-riders "
    "lanes1=ww-cloudbreakers,ww-herdmasters"
)


def test_declared_attackers_may_swap_places_among_themselves_only():
    game, ref = pos(_ATTACK)
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "window", seat=0, window="combat")
    s = game.state
    for move in ("0:ww-sentinels>other", "0:ww-gale-riders>up", "0:ww-webweave-spies>down"):
        rejects(game, A.Work(0, "leader", 1, (move,)), IllegalMove)  # leave, join, leave
    game.apply(A.Work(0, "leader", 1, ("0:ww-webweave-spies>up",)))
    assert s.battle["order"] == ["0:ww-webweave-spies", "0:ww-sentinels"]
    assert battle.pairs(s, 1) == [("0:ww-webweave-spies", "1:ww-cloudbreakers")]
    until(game, ref, "move", seat=0)
    # survivors return "to their original lane, in their original order" (l. 229)
    assert [r for r in s.boards[0].lanes[0]] == [
        r for r in ("0:ww-sentinels", "0:ww-webweave-spies", "0:ww-gale-riders") if r in s.units
    ]


# -- Combat rounds (§1.8): lanes pack until round 1's damage; no empty round gets a window -------
def test_combat_rounds_front_attacker_killed_before_damage_no_empty_round():
    game, ref = pos(
        "factions=windwalker,windwalker active=0 phase=battle citadel=1.0,0.1 "
        "lanes0=ww-sentinels:0.1,ww-webweave-spies "
        "lanes1=ww-gale-riders/ww-herdmasters "
        "hand1=ww-desperate-sacrifice"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "window", seat=1, window="combat")
    s = game.state
    play(game, ref, 1, "ww-desperate-sacrifice", 0, 1, ("1:ww-herdmasters", "0:ww-sentinels"))
    assert "0:ww-sentinels" not in s.units
    assert battle.pairs(s, 1) == [("0:ww-webweave-spies", "1:ww-gale-riders")]  # packed
    rounds = set()
    for _ in range(40):
        d = settle(game, ref)[0]
        if d.kind == "window" and d.info.window == "combat":
            rounds.add(s.battle["round"])
        if d.kind == "move":
            break
        game.apply(quiet(game, d))
    assert rounds == {1}
    assert ("combat_damage", "0:ww-webweave-spies", "1:ww-gale-riders", 2) in s.stored_events()


def test_battle_end_every_units_own_text_applies_again():
    """A unit left out of the attack adds no text "to combat" (l. 186); once the breach is
    over (battle_end) combat is, and its own bonuses apply as usual."""
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 phase=battle citadel=1.0,1.0 "
        "lanes0=ng-bloatflesh-chimera,ng-lilin-matron lanes1=ww-gale-riders"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    s = game.state
    until(game, ref, "window", seat=0, window="combat")
    assert effects.stats(s, "0:ng-bloatflesh-chimera")[1] == 0  # Lilin Matron is silent
    until(game, ref, "window", window="battle_end")
    assert "0:ng-bloatflesh-chimera" in s.units
    assert effects.stats(s, "0:ng-bloatflesh-chimera")[1] == 1  # its +1 armor is back
