"""Rule clauses of Sovereign, named after the rulebook section they prove."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import CardDataError, IllegalMove, MalformedAnswer, WrongPhase
from fairtable.engine.sovereign import SovereignConfig
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign.cards import build_catalog, standard_catalog
from tests.engine.sovereign.helpers import (
    at_forge,
    hand_card,
    put_unit,
    quiet,
    rejects,
    settle,
    start,
    until,
    windwalkers,
)

CATALOG = standard_catalog()


# -- Game Setup --------------------------------------------------------------------------------
def test_setup_echo_target_defaults_and_players():
    assert SovereignConfig(2).target == 12
    assert SovereignConfig(4).target == 10
    assert SovereignConfig(3, echo_target=7).target == 7
    for bad in (1, 7):
        with pytest.raises(MalformedAnswer):
            SovereignConfig(bad).check()
    with pytest.raises(MalformedAnswer):
        SovereignConfig(2, echo_target=0).check()


def test_setup_first_player_drones_and_hands():
    game, ref = start(4, seed=3)
    until(game, ref, "mulligan")
    s = game.state
    first = s.first_player
    for i, seat in enumerate(s.order_from(first)):
        assert s.boards[seat].citadel == [0, i + 1]
        assert len(s.boards[seat].hand) == 8
        assert s.boards[seat].deck == 42


def test_setup_mulligan_free_once_then_shown_needs_no_units():
    game, ref = start(2)
    d = until(game, ref, "mulligan")
    game.apply(A.Mulligan(0, "free"))
    game.apply(A.Mulligan(1, "keep"))
    settle(game, ref)
    assert game.state.boards[0].mulligans == [1, 0]
    assert len(game.state.boards[0].hand) == 8
    rejects(game, A.Mulligan(0, "free"), IllegalMove)
    cards = [game.state.secrets[0].cards[h] for h in game.state.boards[0].hand]
    has_unit = any(CATALOG.defs[c].type == "unit" for c in cards)
    if has_unit:
        rejects(game, A.Mulligan(0, "shown"), IllegalMove)
    assert d.simultaneous


# -- Growth and Upkeep ---------------------------------------------------------------------------
def test_growth_two_talents_on_the_citadel():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    assert game.state.boards[seat].citadel == [2, 1]


def test_upkeep_advances_every_forge_talent():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    h = game.state.boards[seat].hand[0]
    if CATALOG.defs[game.state.secrets[seat].cards[h]].type == "reflex":
        h = (
            game.state.boards[seat].hand[1]
            if CATALOG.defs[game.state.secrets[seat].cards[game.state.boards[seat].hand[1]]].type
            != "reflex"
            else hand_card(game, seat, "ww-echo-first-wind")
        )
    game.apply(A.PlayToForge(seat, h))
    assert game.state.slot(seat, h).progress == 1
    game.apply(A.Pass(seat))
    until(game, ref, "forge", seat=seat)
    assert game.state.slot(seat, h).progress == 2


# -- Forge Phase ---------------------------------------------------------------------------------
def test_forge_echo_not_same_turn():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    h = hand_card(game, seat, "ww-echo-storm-map")
    game.apply(A.PlayToForge(seat, h))
    game.apply(A.Accelerate(seat, h, 1))
    assert game.state.slot(seat, h).progress == 2
    err = rejects(game, A.ForgeCard(seat, h), IllegalMove)
    assert "turn it entered" in str(err)
    game.apply(A.Pass(seat))
    until(game, ref, "forge", seat=seat)  # the next own turn: upkeep made it 3
    game.apply(A.ForgeCard(seat, h))
    settle(game, ref)
    b = game.state.boards[seat]
    assert f"{seat}:ww-echo-storm-map" in b.scored
    assert "ww-echo-storm-map" not in b.scrap


def test_forge_echo_talent_returns_unflipped_and_unit_talent_as_drone():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    b = game.state.boards[seat]
    b.citadel = [5, 0]
    h = hand_card(game, seat, "ww-gale-riders")
    game.apply(A.PlayToForge(seat, h))
    game.apply(A.Accelerate(seat, h, 1))
    assert b.citadel == [3, 1]
    game.apply(A.ForgeCard(seat, h, "lane:0"))
    settle(game, ref)
    assert b.citadel == [3, 2]  # the forge talent came back as a drone
    game.apply(A.Pass(seat))
    d = settle(game, ref)[0]
    assert d.kind == "finish_forge"
    rejects(game, A.FinishForge(seat, ((f"{seat}:ww-gale-riders", 1, 0),)), IllegalMove)
    game.apply(A.FinishForge(seat, ((f"{seat}:ww-gale-riders", 0, 2),)))
    assert game.state.units[f"{seat}:ww-gale-riders"].health == [0, 2]
    assert b.citadel == [3, 0]


def test_forge_cost_must_be_met():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    h = hand_card(game, seat, "ww-grav-skimmers")
    game.apply(A.PlayToForge(seat, h))
    rejects(game, A.ForgeCard(seat, h, "lane:0"), IllegalMove)


def test_forge_reflexes_never_enter_the_forge():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    h = hand_card(game, seat, "ww-updraft")
    rejects(game, A.PlayToForge(seat, h), IllegalMove)


def test_forge_zero_health_unit_scrapped_at_end_of_forge_actions():
    game, ref, d = at_forge(2, factions=windwalkers(2))
    seat = d.seat
    game.state.boards[seat].citadel = [3, 0]
    h = hand_card(game, seat, "ww-gale-riders")
    game.apply(A.PlayToForge(seat, h))
    game.apply(A.Accelerate(seat, h, 1))
    game.apply(A.ForgeCard(seat, h, "lane:1"))
    settle(game, ref)
    game.apply(A.Pass(seat))
    settle(game, ref)
    game.apply(A.FinishForge(seat, ((f"{seat}:ww-gale-riders", 0, 0),)))
    settle(game, ref)
    assert f"{seat}:ww-gale-riders" not in game.state.units
    assert "ww-gale-riders" in game.state.boards[seat].scrap


# -- Battle Phase -------------------------------------------------------------------------------
def _battle(seed: int = 0):
    game, ref, d = at_forge(2, seed, factions=windwalkers(2))
    return game, ref, d.seat, 1 - d.seat


def test_battle_damage_armor_and_simultaneous():
    game, ref, me, foe = _battle()
    sent = put_unit(game, me, 0, "ww-sentinels")
    cloud = put_unit(game, foe, 1, "ww-cloudbreakers")
    until(game, ref, "attack", seat=me)
    game.apply(A.Attack(me, 0, 1, foe, 1))
    until(game, ref, "move", seat=me)
    # Sentinels 3 vs armor 1: 2 tokens, Cloudbreakers scrapped; 2 vs armor 2: nothing
    assert cloud not in game.state.units
    assert game.state.units[sent].health == [0, 3]
    assert ("combat_damage", cloud, sent, 2) in game.state.stored_events()


def test_battle_breach_value_undefended_is_total_attack_plus_bonus():
    game, ref, me, foe = _battle(1)
    put_unit(game, me, 0, "ww-sentinels")
    put_unit(game, me, 0, "ww-updraft-scouts")  # attack 1, +1 breach value
    until(game, ref, "attack", seat=me)
    game.apply(A.Attack(me, 0, 2, foe, 1))
    until(game, ref, "move", seat=me)
    breach = [e for e in game.state.stored_events() if e[0] == "breach"][-1]
    assert breach[4] == 3 + 1 + 1


def test_battle_breach_with_living_defender_is_one_per_attacker():
    game, ref, me, foe = _battle(2)
    put_unit(game, me, 0, "ww-updraft-scouts")
    put_unit(game, me, 0, "ww-thermal-kites")  # attack 0: looks at no card
    put_unit(game, foe, 0, "ww-sentinels")
    put_unit(game, foe, 0, "ww-herdmasters")
    until(game, ref, "attack", seat=me)
    game.apply(A.Attack(me, 0, 2, foe, 0))
    for _ in range(40):
        pending = settle(game, ref)
        if (
            any(e[0] == "breach" for e in game.state.stored_events())
            or game.state.phase != "battle"
        ):
            break
        game.apply(quiet(game, pending[0]))
    # both attackers die to the Sentinels: no breach at all
    assert not [e for e in game.state.stored_events() if e[0] == "breach"]


def test_battle_hand_breach_scores_echoes_or_discards():
    game, ref, me, foe = _battle(3)
    put_unit(game, me, 0, "ww-sentinels")
    until(game, ref, "attack", seat=me)
    hand_before = len(game.state.boards[foe].hand)
    game.apply(A.Attack(me, 0, 1, foe, 0))
    d = until(game, ref, "findings", seat=me)
    seen = game.state.secrets[me].seen
    echoes = tuple(sorted(h for h in d.info.handles if CATALOG.defs[seen[h]].type == "echo"))
    if echoes:
        rejects(game, A.Findings(me, (), d.info.handles[0]), IllegalMove)
        game.apply(A.Findings(me, echoes))
    else:
        rejects(game, A.Findings(me, ()), IllegalMove)
        game.apply(A.Findings(me, (), d.info.handles[0]))
    settle(game, ref)
    b = game.state.boards[foe]
    assert len(b.hand) == hand_before - max(1, len(echoes))
    assert len(game.state.boards[me].scored) == len(echoes)
    assert not set(seen) & set(b.hand)  # the hand was re-handled: old handles are void


def test_battle_attack_only_neighbours_and_front_units():
    game, ref, me, foe = _battle()
    put_unit(game, me, 0, "ww-sentinels")
    d = until(game, ref, "attack", seat=me)
    rejects(game, A.Attack(me, 0, 2, foe, 0), IllegalMove)
    rejects(game, A.Attack(me, 1, 1, foe, 0), IllegalMove)
    rejects(game, A.Pass(me), WrongPhase)
    assert d.info.targets == (foe,)


# -- Move Phase ---------------------------------------------------------------------------------
def test_move_phase_one_move_to_back_of_other_lane():
    game, ref, me, foe = _battle()
    a = put_unit(game, me, 0, "ww-sentinels")
    b = put_unit(game, me, 0, "ww-herdmasters")
    c = put_unit(game, me, 1, "ww-gale-riders")
    until(game, ref, "move", seat=me)
    game.apply(A.Move(me, a, "other"))
    assert game.state.boards[me].lanes == [[b], [c, a]]
    d = settle(game, ref)[0]
    rejects(game, A.Move(me, b, "other"), IllegalMove)
    assert d.kind == "move"


# -- Card data --------------------------------------------------------------------------------
def test_card_data_errors_name_file_card_and_field():
    from importlib import resources

    text = (
        resources.files("fairtable.engine.sovereign") / "data" / "factions" / "windwalker.toml"
    ).read_text(encoding="utf-8")
    bad = text.replace(
        'id = "ww-sentinels"\nname = "Sentinels"\ntype = "unit"\nsubtype = "Mech"\n'
        "cost = 5\nattack = 3",
        'id = "ww-sentinels"\nname = "Sentinels"\n'
        'type = "unit"\nsubtype = "Mech"\ncost = 5\nattack = 30',
    )
    with pytest.raises(CardDataError) as info:
        build_catalog({"factions/windwalker.toml": bad})
    assert (info.value.file, info.value.card, info.value.field) == (
        "factions/windwalker.toml",
        "ww-sentinels",
        "attack",
    )
    bad = text.replace(
        'op = "breach_bonus", amount = 1 } ]\ntext = "+1 breach value."\n\n# -- augments',
        'op = "explode" } ]\ntext = ""\n\n# -- augments',
    )
    with pytest.raises(CardDataError) as info:
        build_catalog({"factions/windwalker.toml": bad})
    assert info.value.card == "ww-updraft-scouts" and info.value.field == "static[0].op"


def test_cards_rulebook_figures():
    d = CATALOG.defs
    assert d["ww-grav-skimmers"].cost == 5
    assert (d["ww-sentinels"].attack, d["ww-sentinels"].armor) == (3, 2)
    assert d["ww-cloudbreakers"].armor == 1 and d["ww-jetleap-seraphim"].armor == 1
    assert d["ww-webweave-spies"].attack == 2
    leader = d[CATALOG.faction("windwalker").leader]
    assert leader.ability.drones == 1 and leader.ability.not_in_combat
    f = CATALOG.faction("windwalker")
    assert len(f.cards) == 30 and len(f.echoes) == 20
    kinds = [d[c].type for c in f.cards]
    assert (
        kinds.count("unit"),
        kinds.count("augment"),
        kinds.count("facility"),
        kinds.count("reflex"),
    ) == (12, 6, 6, 6)
