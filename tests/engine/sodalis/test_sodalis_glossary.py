"""Glossary: Confuse, Slow, Bloodied; and the nine passive hooks (Champion Cards)."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove
from fairtable.engine.sodalis import Cast, ConfuseChoice, EndTurn, RefreshToken, Step
from fairtable.engine.sodalis.passives import PASSIVES
from tests.engine.sodalis.helpers import CATALOG, asked, build, rejects, roll, settle, unit

DUEL = "players=2 champions=tempest,empress"
HEX = "spread0=tempest_hex,tempest_mend,squall"


def test_glossary_confuse_the_confused_seat_chooses_major_or_minor() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {HEX}")
    game.apply(Cast(0, "tempest_hex", 1))
    choice = asked(game)
    assert choice.kind == "confuse" and choice.seat == 1
    assert choice.info.options == ("major", "minor")
    rejects(game, ConfuseChoice(1, "move"), IllegalMove)
    game.apply(ConfuseChoice(1, "minor"))
    assert unit(game, 1)["up"] == ["major", "move"] and unit(game, 1)["confused"] is True


def test_glossary_confuse_with_one_token_face_up_there_is_no_choice() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {HEX} up=Mmv,Mv")
    game.apply(Cast(0, "tempest_hex", 1))
    settle(game, ref)
    assert unit(game, 1)["up"] == ["move"] and unit(game, 1)["confused"] is True


def test_glossary_confuse_may_not_be_confused_again_until_its_next_turn() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {HEX} marks=-,c")
    game.apply(Cast(0, "tempest_hex", 1))
    settle(game, ref)
    assert unit(game, 1)["up"] == ["major", "minor", "move"]
    game.apply(EndTurn(0))
    assert unit(game, 1)["confused"] is False  # cleared as its turn begins


def test_glossary_slow_exhausts_the_move_action_once_until_the_next_turn() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 spread0=tempest_hex~r,tempest_mend,squall")
    game.apply(Cast(0, "tempest_hex~r", 1))  # Mire: slow
    settle(game, ref)
    assert unit(game, 1)["up"] == ["major", "minor"] and unit(game, 1)["slowed"] is True
    game.apply(EndTurn(0))
    assert unit(game, 1)["slowed"] is False
    assert "move" not in asked(game).info.pay  # exhausted until the end of its own turn
    game.apply(EndTurn(1))
    assert unit(game, 1)["up"] == ["major", "minor", "move"]


def test_glossary_slow_never_takes_the_speed_tribute() -> None:
    game, ref = build(
        f"{DUEL} at=3:-1,5:-1 spread0=tempest_hex~r,tempest_mend,squall up=Mmv,Mm tributes=speed:1"
    )
    game.apply(Cast(0, "tempest_hex~r", 1))
    settle(game, ref)
    assert unit(game, 1)["tributes"] == {"speed": True}


def test_glossary_bloodied_is_at_or_below_half_of_maximum_life() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 life=6,5")
    assert game.state.bloodied(1) and not game.state.bloodied(0)


def test_glossary_refresh_any_token_is_chosen_by_the_affected_seat() -> None:
    game, ref = build(
        "players=4 champions=damned,empress,lover,sage at=3:-1,0:0,4:-1,9:0 "
        "spread0=damned_lure~r,damned_mend,damned_bolt up=Mmv,Mmv,v,Mmv"
    )
    game.apply(Cast(0, "damned_lure~r", 2))  # Rally: refresh any token of an ally
    choice = asked(game)
    assert choice.kind == "refresh_token" and choice.seat == 2
    assert choice.info.options == ("major", "minor")
    rejects(game, RefreshToken(2, "move"), IllegalMove)
    game.apply(RefreshToken(2, "minor"))
    assert unit(game, 2)["up"] == ["minor", "move"]


# -- passives ---------------------------------------------------------------------------------
def test_champion_cards_every_passive_is_a_named_hook_and_fixtures_cover_them() -> None:
    assert sorted(PASSIVES) == sorted(c.passive for c in CATALOG.champions)
    assert len(PASSIVES) == 9


def test_passive_royal_guard_allies_next_to_the_empress_gain_inertia() -> None:
    game, _ = build("players=4 champions=tempest,empress,lover,sage at=0:1,5:-1,9:0,6:-1")
    assert game.state.inertia(3) == CATALOG.by_id["sage"].inertia + 1
    assert game.state.inertia(1) == 7  # not the Empress herself
    assert game.state.inertia(0) == CATALOG.by_id["tempest"].inertia


def test_passive_kindred_growth_gains_power_for_every_arcana_already_cast() -> None:
    game, ref = build(
        "players=2 champions=animist,empress at=3:-1,4:-1 casts=2 "
        "spread0=animist_bolt,animist_mend,animist_hex"
    )
    game.apply(Cast(0, "animist_bolt", 1))
    assert len(game.pending()[0].sides) == 2 + 2


def test_passive_blood_scent_pierces_bloodied_champions() -> None:
    game, ref = build(
        "players=2 champions=beast,empress at=3:-1,4:-1 life=12,5 "
        "spread0=beast_bolt,beast_mend,beast_hex"
    )
    game.apply(Cast(0, "beast_bolt", 1))
    roll(game, 5, 4)  # 7 - 2 = 5: the 5 meets it
    assert unit(game, 1)["life"] == 4


def test_passive_shared_soul_the_lover_is_healed_by_the_same_roll() -> None:
    game, ref = build(
        "players=4 champions=lover,empress,tempest,sage at=3:-1,0:0,4:-1,9:0 "
        "life=5,10,5,9 spread0=lover_mend,lover_bolt,lover_hex"
    )
    game.apply(Cast(0, "lover_mend", 2))
    assert game.public()["cast"]["units"] == [0, 2]
    roll(game, 10, 5)  # the Lover (inertia 5) counts two, the Tempest (6) one
    assert unit(game, 0)["life"] == 7 and unit(game, 2)["life"] == 6


def test_passive_steady_aim_only_before_moving() -> None:
    game, _ = build(
        "players=2 champions=archer,empress at=3:-1,5:-1 spread0=archer_bolt,archer_mend,archer_hex"
    )
    game.apply(Cast(0, "archer_bolt", 1))
    assert len(game.pending()[0].sides) == 2 + 2
    moved, _ = build(
        "players=2 champions=archer,empress at=2:0,5:-1 spread0=archer_bolt,archer_mend,archer_hex"
    )
    moved.apply(Step(0, (3, -1), "move"))
    moved.apply(Cast(0, "archer_bolt", 1))
    assert len(moved.pending()[0].sides) == 2


def test_passive_suffering_the_bloodied_damned_gains_power() -> None:
    game, _ = build(
        "players=2 champions=damned,empress at=3:-1,5:-1 life=5,10 "
        "spread0=damned_bolt,damned_mend,damned_hex"
    )
    game.apply(Cast(0, "damned_bolt", 1))
    assert len(game.pending()[0].sides) == 4


def test_passive_many_paths_the_sages_spread_holds_four() -> None:
    game, _ = build(
        "players=2 champions=sage,empress at=3:-1,5:-1 "
        "spread0=sage_bolt,sage_mend,sage_hex,sage_burst"
    )
    seat = unit(game, 0)
    assert len(seat["side"]) == 3 and seat["top"] == "sage_burst"


def test_passive_chain_lightning_strikes_champions_next_to_an_affected_one() -> None:
    game, _ = build("players=4 champions=tempest,empress,lover,sage at=3:-1,5:-1,9:0,6:-1")
    game.apply(Cast(0, "squall", 1))
    assert game.public()["cast"]["units"] == [1, 3]
    roll(game, 10, 10, 1)
    assert unit(game, 3)["life"] == CATALOG.by_id["sage"].max_life - 2


def test_passive_chain_lightning_never_strikes_the_tempest_herself() -> None:
    game, _ = build(
        "players=4 champions=tempest,empress,lover,sage at=3:-1,4:-1,9:0,5:-1 "
        "spread0=tempest_strike,squall,tempest_mend"
    )
    game.apply(Cast(0, "tempest_strike", 1))  # the Empress, next to the Tempest and the Sage
    assert game.public()["cast"]["units"] == [1, 3]


def test_passive_endurance_the_undying_regains_one_life_as_its_turn_begins() -> None:
    game, _ = build("players=2 champions=empress,undying at=0:1,9:0 life=10,5")
    game.apply(EndTurn(0))
    assert unit(game, 1)["life"] == 6
