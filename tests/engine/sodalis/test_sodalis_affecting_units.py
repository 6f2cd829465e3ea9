"""Affecting Units, the Arcana Example and the glossary's dice words (Power, Accuracy,
Piercing, Critical): docs/rules/sodalis.md, "Affecting units" and section 2."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import IllegalMove
from fairtable.engine.sodalis import PARAGON, Cast
from fairtable.engine.sodalis.arena import hex_distance, standard_arena
from tests.engine.sodalis.helpers import asked, build, rejects, roll, unit

ARENA = standard_arena()
DUEL = "players=2 champions=tempest,empress"


def test_arcana_example_squall_faces_6_0_7_against_the_empress_loses_two() -> None:
    """l. 150-160: Squall (at 2, power 3) at the Empress (inertia 7); faces 6, 0 and 7: the 0
    reads 10, so 10 and 7 meet 7 -- the Empress loses two life, and the roll is a critical."""
    game, _ = build(f"{DUEL} at=3:-1,5:-1")
    assert ARENA.distance((3, -1), (5, -1)) == 2
    game.apply(Cast(0, "squall", 1))
    request = game.pending()[0]
    assert request.sides == (10, 10, 10)
    roll(game, 6, 10, 7)
    assert unit(game, 1)["life"] == 10 - 2
    assert game.public()["last_roll"]["critical"] is True
    assert game.public()["last_roll"]["values"] == [6, 10, 7]
    assert unit(game, 0)["up"] == ["minor", "move"]  # the Major action was exhausted


def test_affecting_units_each_result_meeting_inertia_changes_life_by_one() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1")
    game.apply(Cast(0, "squall", 1))
    roll(game, 7, 8, 9)
    assert unit(game, 1)["life"] == 7


def test_affecting_units_life_cannot_exceed_maximum() -> None:
    game, _ = build(
        "players=2 champions=lover,empress at=3:-1,5:-1 life=9,10 "
        "spread0=lover_mend,lover_bolt,lover_hex"
    )
    game.apply(Cast(0, "lover_mend", 0))
    roll(game, 10, 10)
    assert unit(game, 0)["life"] == 10


def test_affecting_units_range_at_excludes_nearer_units_and_the_caster() -> None:
    game, _ = build(f"{DUEL} at=3:-1,4:-1")
    casts = dict((c[0], c) for c in asked(game).info.casts)
    assert "squall" not in casts  # the Empress is 1 away, Squall is "At 2"
    rejects(game, Cast(0, "squall", 1), IllegalMove)
    rejects(game, Cast(0, "squall", 0), IllegalMove)


def test_affecting_units_range_is_the_shortest_walking_path_around_impassable_spaces() -> None:
    """(3,-2) and (5,-2) are two hexes apart but (4,-2) and (4,-3) are impassable: walking
    takes three steps, so "At 2" does not reach."""
    assert hex_distance((3, -2), (5, -2)) == 2
    assert ARENA.distance((3, -2), (5, -2)) == 3
    game, _ = build(f"{DUEL} at=3:-2,5:-2")
    assert all(c[0] != "squall" for c in asked(game).info.casts)


def test_affecting_units_other_units_do_not_block_or_lengthen_range() -> None:
    game, _ = build("players=4 champions=tempest,empress,lover,sage at=3:-1,5:-1,4:-1,0:0")
    casts = {c[0]: c for c in asked(game).info.casts}
    assert 1 in casts["squall"][1]


def test_affecting_units_one_unit_unless_specified_and_all_units_when_specified() -> None:
    line = (
        "players=4 champions=damned,empress,lover,sage at=4:0,5:0,3:0,5:-1 "
        "spread0=damned_burst,damned_bolt,damned_mend"
    )
    game, _ = build(line)
    game.apply(Cast(0, "damned_burst", None))  # within 1, all enemies: seats 1 and 3
    assert game.public()["cast"]["units"] == [1, 3]
    rejects_one, _ = build(line)
    rejects(rejects_one, Cast(0, "damned_burst", 1), IllegalMove)


def test_affecting_units_you_may_affect_yourself_within_range() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 spread0=tempest_mend,squall,tempest_hex")
    mend = next(c for c in asked(game).info.casts if c[0] == "tempest_mend")
    assert 0 in mend[1]


def test_affecting_units_the_paragon_may_be_affected_and_never_changes_life() -> None:
    game, _ = build(f"{DUEL} at=5:-2,0:0")  # the Paragon stands at (6,-4), two away
    squall = next(c for c in asked(game).info.casts if c[0] == "squall")
    assert PARAGON in squall[1]
    game.apply(Cast(0, "squall", PARAGON))
    roll(game, 1, 2, 3)
    assert game.public()["paragon"]["sight"] is True


def test_glossary_accuracy_replaces_every_d10_with_a_d12() -> None:
    game, _ = build(
        "players=2 champions=damned,empress at=2:0,5:-1 "
        "spread0=damned_bolt~r,damned_mend,damned_hex"
    )
    game.apply(Cast(0, "damned_bolt~r", 1))  # Long Bolt: at 3, power 2, accuracy
    assert game.pending()[0].sides == (12, 12)
    roll(game, 12, 11)
    assert unit(game, 1)["life"] == 8
    assert game.public()["last_roll"]["critical"] is True


def test_glossary_piercing_lowers_inertia_for_that_effect() -> None:
    game, _ = build(f"{DUEL} at=4:-1,5:-1 spread0=tempest_strike,squall,tempest_hex")
    game.apply(Cast(0, "tempest_strike", 1))  # power 4, piercing 1: 6 meets 7 - 1
    roll(game, 6, 6, 5, 1)
    assert unit(game, 1)["life"] == 8


def test_glossary_power_strength_gives_two_more_dice() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 tributes=strength:0")
    game.apply(Cast(0, "squall", 1, strength=True))
    assert game.pending()[0].sides == (10,) * 5
    roll(game, 1, 1, 1, 1, 10)
    assert unit(game, 0)["tributes"] == {"strength": False}


@pytest.mark.parametrize(("faces", "critical"), [((9, 9, 9), False), ((1, 10, 1), True)])
def test_glossary_critical_is_a_die_of_10_or_above(faces: tuple[int, ...], critical: bool) -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1")
    game.apply(Cast(0, "squall", 1))
    roll(game, *faces)
    assert game.public()["last_roll"]["critical"] is critical


def test_affecting_units_an_effect_with_no_power_rolls_nothing() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 spread0=tempest_hex,squall,tempest_mend")
    game.apply(Cast(0, "tempest_hex", 1))
    assert unit(game, 1)["confused"] is True
    assert asked(game).kind == "confuse"  # no roll was asked: the hex went straight on
    assert game.public()["last_roll"] is None


def test_affecting_units_a_roll_answer_must_fit_the_dice() -> None:
    from fairtable.engine.errors import MalformedAnswer, WrongPhase
    from fairtable.engine.requests import FlipAnswer, RollAnswer

    game, _ = build(f"{DUEL} at=3:-1,5:-1")
    rejects(game, RollAnswer((1, 2, 3)), WrongPhase)
    game.apply(Cast(0, "squall", 1))
    rejects(game, RollAnswer((1, 2)), MalformedAnswer)
    rejects(game, RollAnswer((1, 2, 11)), MalformedAnswer)
    rejects(game, RollAnswer((0, 2, 3)), MalformedAnswer)
    rejects(game, RollAnswer((1, True, 3)), MalformedAnswer)
    rejects(game, FlipAnswer("deck:0", ("tempest_hex",)), WrongPhase)
    rejects(game, Cast(0, "squall", 1), WrongPhase)
