"""Review findings on the Sovereign engine, each test named after the rulebook section it
proves (docs/rules/sovereign.md §1.15)."""

from __future__ import annotations

from engine.sovereign import answers as A
from engine.sovereign import effects
from tests.engine.sovereign.helpers import pos, quiet, settle, until


# -- Augments (l. 147): an augment on another player's card is controlled by that player --------
def test_augments_foreign_augment_triggers_in_its_hosts_controllers_upkeep():
    line = ("factions=neogenesis,myrmidon active={} phase=growth turn=4 "
            "lanes1=md-hunter-seeker:0.2+0:ng-hive-gland")
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
_NINE = ("ww-sentinels,ww-webweave-spies,ww-gale-riders,ww-cloudbreakers,ww-herdmasters,"
         "ww-updraft-scouts,ww-thermal-kites,ww-jetleap-seraphim,ww-echo-first-wind")


def test_draw_phase_above_the_hand_limit_draws_nothing_and_the_deck_is_not_empty():
    game, ref = pos(f"factions=windwalker,myrmidon active=0 phase=move turn=5 hand0={_NINE}")
    until(game, ref, "forge", seat=1)
    s = game.state
    assert len(s.boards[0].hand) == 9 and s.boards[0].deck == 41
    assert not [e for e in s.events if e[0] in ("draw", "deck_empty") and e[1] == 0]


# -- When Can I Play Reflexes and Abilities (l. 174-176) and FAQ Salamander Armor (l. 360) --------
def test_reflex_timing_complete_quick_forge_card_is_asked_without_idle_citizens():
    """Revealing a complete Salamander Armor from the forge costs no citizen, so a seat
    with an empty Citadel is still asked in a window (auto-pass only on public grounds:
    a forge card as far along as a quick-forge card of its public deck list)."""
    game, ref = pos("factions=windwalker,machina active=0 phase=move turn=5 "
                    "citadel=0.0,0.0 lanes1=ms-lancer-mech forge1=ms-salamander-armor:4@2")
    d = until(game, ref, "window", seat=1, window="move_begin", limit=6)
    s = game.state
    game.apply(A.QuickForge(1, s.boards[1].forge[0].handle, "forge", "1:ms-lancer-mech"))
    settle(game, ref)
    assert d.seat == 1 and s.units["1:ms-lancer-mech"].augments == ["1:ms-salamander-armor"]
    assert s.boards[1].citadel == [0, 1]  # its forge talent, back as a drone


def test_reflex_timing_empty_citadel_and_short_forge_is_still_passed():
    game, ref = pos("factions=windwalker,machina active=0 phase=move turn=5 "
                    "citadel=0.0,0.0 lanes1=ms-lancer-mech forge1=ms-salamander-armor:3@2")
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
    game, ref = pos("factions=windwalker,myrmidon active=0 phase=battle "
                    "lanes0=ww-sentinels,ww-webweave-spies hand1=md-nautilus,md-ballista-crew,"
                    "md-pike-phalanx,md-legion-hoplites,md-shieldwall-cohort,md-centurion-guard,"
                    "md-echo-first-oath")
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))
    until(game, ref, "findings", seat=0)
    breach = [e for e in game.state.events if e[0] == "breach"][-1]
    assert breach[1:] == (0, 1, "hand", 5)
    assert len(game.state.battle["seen"]) == 5
