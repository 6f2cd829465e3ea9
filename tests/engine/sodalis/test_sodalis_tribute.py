"""Victory and Earning Tribute: Speed, Sight, Strength, giving evenly, winning at once."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove
from fairtable.engine.outcome import Outcome
from fairtable.engine.sodalis import (
    PARAGON,
    Carry,
    Cast,
    EndTurn,
    GiveTribute,
    Respawn,
    Step,
    StrengthRefresh,
)
from fairtable.engine.sodalis import events as E
from tests.engine.sodalis.helpers import asked, build, rejects, roll, settle, unit

DUEL = "players=2 champions=tempest,empress"


def tributes(game) -> dict:  # type: ignore[no-untyped-def]
    return game.public()["tributes"]


# -- Sight ------------------------------------------------------------------------------------
def test_tribute_of_sight_a_critical_while_affecting_the_paragon_takes_it() -> None:
    game, ref = build(f"{DUEL} at=5:-2,0:0")
    game.apply(Cast(0, "squall", PARAGON))
    roll(game, 1, 10, 1)
    assert tributes(game)["dawn"]["sight"] == 0
    assert game.public()["paragon"]["sight"] is False
    assert unit(game, 0)["tributes"] == {"sight": True}  # arrives face up


def test_tribute_of_sight_no_critical_no_tribute() -> None:
    game, _ = build(f"{DUEL} at=5:-2,0:0")
    game.apply(Cast(0, "squall", PARAGON))
    roll(game, 9, 9, 9)
    assert tributes(game)["dawn"]["sight"] is None
    assert game.public()["paragon"]["sight"] is True


def test_tribute_of_sight_an_opposing_critical_steals_it() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 tributes=sight:1")
    game.apply(Cast(0, "squall", 1))
    roll(game, 1, 1, 10)
    assert tributes(game)["dawn"]["sight"] == 0
    assert tributes(game)["dusk"]["sight"] is None


def test_tribute_of_sight_a_teammates_critical_steals_nothing() -> None:
    game, _ = build(
        "players=4 champions=tempest,empress,lover,sage at=3:-1,0:0,5:-1,9:0 tributes=sight:2"
    )
    game.apply(Cast(0, "squall", 2))
    roll(game, 10, 10, 10)
    assert tributes(game)["dawn"]["sight"] == 2


def test_tribute_of_sight_gives_plus_one_range() -> None:
    """ "At 2" becomes "At 3" with Sight: the Empress 3 away can be affected, only with it."""
    game, _ = build(f"{DUEL} at=2:0,5:-1 tributes=sight:0")
    squall = next(c for c in asked(game).info.casts if c[0] == "squall")
    assert squall[1] == () and squall[2] == (1,)
    rejects(game, Cast(0, "squall", 1), IllegalMove)
    game.apply(Cast(0, "squall", 1, sight=True))
    assert unit(game, 0)["tributes"] == {"sight": False}


# -- Strength ---------------------------------------------------------------------------------
def test_tribute_of_strength_a_champion_reaching_zero_earns_the_opposing_team_strength() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 life=10,1")
    game.apply(Cast(0, "squall", 1))
    roll(game, 8, 1, 1)
    assert tributes(game)["dawn"]["strength"] == 0
    respawn = asked(game)
    assert respawn.kind == "respawn" and respawn.seat == 1
    assert (8, 0) not in respawn.info.spaces  # the Dawn Artifact sits at the base centre
    game.apply(Respawn(1, (9, 0)))
    assert unit(game, 1)["at"] == [9, 0] and unit(game, 1)["life"] == 10


def test_tribute_of_strength_held_already_lets_the_team_refresh_an_action() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 life=10,1 tributes=strength:0")
    game.apply(Cast(0, "squall", 1))
    roll(game, 8, 1, 1)
    offer = asked(game)
    assert offer.kind == "strength_refresh" and offer.seat == 0
    assert offer.info.options == ((0, "major"),)
    rejects(game, StrengthRefresh(0, 0, "move"), IllegalMove)
    game.apply(StrengthRefresh(0, 0, "major"))
    assert "major" in unit(game, 0)["up"]
    assert asked(game).kind == "respawn"


def test_tribute_of_strength_whoever_caused_it() -> None:
    """The recoil of the caster's own burst brings it to 0: the other team earns Strength."""
    game, _ = build(
        "players=2 champions=damned,empress at=3:-1,5:-1 life=1,10 "
        "spread0=damned_burst~r,damned_bolt,damned_mend"
    )
    game.apply(Cast(0, "damned_burst~r", None))  # within 2, all (the Damned too); recoil 1
    assert game.public()["cast"]["units"] == [0, 1]
    assert game.pending()[0].sides == (10,) * 5  # 2 + 2 (Bloodied Damned) + the recoil die
    roll(game, 1, 1, 1, 1, 10)
    assert tributes(game)["dusk"]["strength"] == 1


# -- Speed ------------------------------------------------------------------------------------
def test_tribute_of_speed_an_artifact_carried_to_the_centre_earns_speed() -> None:
    game, _ = build(f"{DUEL} at=5:-1,0:1 artifacts=dawn:5:-1")
    game.apply(Step(0, (5, -2), "move", carry=True))
    assert game.public()["artifacts"]["dawn"] is None
    assert tributes(game)["dawn"]["speed"] == 0


def test_tribute_of_speed_an_artifact_left_behind_stays() -> None:
    game, _ = build(f"{DUEL} at=5:-1,0:1 artifacts=dawn:5:-1")
    game.apply(Step(0, (5, -2), "move", carry=False))
    assert game.public()["artifacts"]["dawn"] == [5, -1]
    assert tributes(game)["dawn"]["speed"] is None


def test_tribute_of_speed_only_a_champion_on_its_artifact_carries_it() -> None:
    game, _ = build(f"{DUEL} at=4:-1,0:1")
    rejects(game, Step(0, (5, -1), "move", carry=True), IllegalMove)


def test_tribute_of_speed_may_be_exhausted_as_a_move_action() -> None:
    game, _ = build(f"{DUEL} at=4:-1,0:1 up=-,Mmv tributes=speed:0")
    assert asked(game).info.pay == ("speed",)
    events = game.apply(Step(0, (4, 0), "speed"))
    assert E.Moved(0, (4, -1), (4, 0), "speed") in events
    assert E.NothingLeft(0) in events  # nothing usable left: the turn ended by itself
    assert game.public()["active"] == 1
    assert unit(game, 0)["tributes"] == {"speed": True}  # refreshed at the end of the turn


def test_tribute_may_only_be_used_in_its_holders_turn_and_refreshes_at_its_end() -> None:
    game, ref = build(f"{DUEL} at=4:-1,0:1 tributes=speed:0")
    game.apply(Step(0, (4, 0), "speed"))
    game.apply(EndTurn(0))
    assert unit(game, 0)["tributes"] == {"speed": True}
    assert "speed" not in asked(game).info.pay  # seat 1's turn: it holds no Speed


def test_tribute_may_not_be_used_to_cast_arcana() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 up=mv,Mmv tributes=strength:0")
    assert all(c[0] != "squall" for c in asked(game).info.casts)


def test_tribute_strength_needs_an_effect_with_power() -> None:
    game, _ = build(
        f"{DUEL} at=3:-1,5:-1 tributes=strength:0 spread0=tempest_hex,squall,tempest_mend"
    )
    hexed = next(c for c in asked(game).info.casts if c[0] == "tempest_hex")
    assert hexed[3] is False
    rejects(game, Cast(0, "tempest_hex", 1, strength=True), IllegalMove)


# -- Victory ----------------------------------------------------------------------------------
def test_victory_one_of_each_tribute_wins_at_once() -> None:
    game, _ = build(f"{DUEL} at=5:-1,0:1 artifacts=dawn:5:-1 tributes=strength:0,sight:0")
    game.apply(Step(0, (5, -2), "minor", carry=True))
    assert game.outcome == Outcome.of_team("dawn", game.state.members("dawn"))
    assert game.state.over == "tribute"
    assert game.pending() == ()


def test_victory_tribute_is_given_as_evenly_as_possible() -> None:
    game, _ = build(
        "players=4 champions=tempest,empress,lover,sage at=5:-2,0:0,9:0,0:1 tributes=strength:0"
    )
    game.apply(Cast(0, "squall", PARAGON))
    roll(game, 10, 1, 1)
    assert tributes(game)["dawn"]["sight"] == 2  # seat 0 already holds one


def test_victory_the_captain_chooses_among_champions_holding_fewest() -> None:
    game, ref = build("players=4 champions=tempest,empress,lover,sage at=5:-2,0:0,9:0,0:1")
    game.apply(Cast(0, "squall", PARAGON))
    roll(game, 10, 1, 1)
    give = asked(game)
    assert give.kind == "give_tribute" and give.seat == 0 and give.info.candidates == (0, 2)
    game.apply(GiveTribute(0, 2))
    assert tributes(game)["dawn"]["sight"] == 2


def test_tribute_of_speed_forced_movement_may_carry_the_artifact() -> None:
    """The Empress stands on her (Dusk) Artifact; Gale pushes her: her seat decides whether
    the Artifact goes along."""
    game, ref = build(
        f"{DUEL} at=2:0,4:0 artifacts=dusk:4:0 spread0=tempest_lure~r,squall,tempest_mend"
    )
    game.apply(Cast(0, "tempest_lure~r", 1))  # Gale: push 3
    carry = asked(game)
    assert carry.kind == "carry" and carry.seat == 1
    game.apply(Carry(1, True))
    settle(game, ref)
    assert game.public()["artifacts"]["dusk"] == unit(game, 1)["at"]
    assert unit(game, 1)["at"] != [4, 0]
