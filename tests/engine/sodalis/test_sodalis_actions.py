"""Actions, movement, forced movement, turn order and the end of a turn."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import IllegalMove, MalformedAnswer, WrongPhase, WrongSeat
from fairtable.engine.outcome import Outcome
from fairtable.engine.sodalis import Cast, EndTurn, ForcedStep, Step
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.movement import forced_candidates
from tests.engine.sodalis.helpers import asked, build, rejects, roll, settle, unit

DUEL = "players=2 champions=tempest,empress"


def test_actions_moving_is_one_space_per_exhausted_action_of_any_kind() -> None:
    game, _ = build(f"{DUEL} at=0:1,9:0")
    assert asked(game).info.pay == ("move", "minor", "major")
    game.apply(Step(0, (1, 0), "major"))
    game.apply(Step(0, (2, 0), "minor"))
    assert unit(game, 0)["up"] == ["move"]
    events = game.apply(Step(0, (3, 0), "move"))
    assert unit(game, 0)["at"] == [3, 0]
    assert E.NothingLeft(0) in events  # no token left: the turn ended by itself
    assert game.public()["active"] == 1


def test_actions_a_step_goes_to_a_side_sharing_space_only() -> None:
    game, _ = build(f"{DUEL} at=0:1,9:0")
    rejects(game, Step(0, (2, 0), "move"), IllegalMove)
    rejects(game, Step(0, (0, 1), "move"), IllegalMove)


@pytest.mark.parametrize(
    ("line", "to"),
    [
        ("at=1:0,2:0", (2, 0)),  # occupied by a champion
        ("at=0:-1,9:0", (-1, -1)),  # impassable
        ("at=6:-3,9:0", (6, -4)),  # the Paragon
        ("at=1:0,9:0", (0, 0)),  # the Dusk Artifact, for a Dawn champion
    ],
)
def test_actions_champions_may_not_move_onto_occupied_or_impassable_spaces(
    line: str, to: tuple[int, int]
) -> None:
    game, _ = build(f"{DUEL} {line}")
    assert to not in asked(game).info.steps
    rejects(game, Step(0, to, "move"), IllegalMove)


def test_actions_champions_may_move_onto_their_own_artifact() -> None:
    """(8,0) holds the Dawn Artifact, (0,0) the Dusk one."""
    dawn, _ = build(f"{DUEL} at=7:0,9:-1")
    dawn.apply(Step(0, (8, 0), "move"))
    assert unit(dawn, 0)["at"] == [8, 0]
    dusk, _ = build(f"{DUEL} at=9:0,1:0 active=1")
    assert (0, 0) in asked(dusk).info.steps


def test_actions_casting_exhausts_a_token_of_the_cost_type_only() -> None:
    game, _ = build(f"{DUEL} at=3:-1,5:-1 up=mv,Mmv")
    assert all(c[0] != "squall" for c in asked(game).info.casts)  # Squall costs Major
    rejects(game, Cast(0, "squall", 1), IllegalMove)


def test_actions_you_may_end_your_turn_early_and_all_tokens_refresh() -> None:
    game, _ = build(f"{DUEL} at=0:1,9:0")
    game.apply(Step(0, (1, 0), "major"))
    game.apply(EndTurn(0))
    assert unit(game, 0)["up"] == ["major", "minor", "move"]
    assert asked(game).seat == 1


def test_actions_the_wrong_seat_or_kind_is_refused() -> None:
    game, _ = build(f"{DUEL} at=0:1,9:0")
    rejects(game, EndTurn(1), WrongSeat)
    rejects(game, Step(0, (1, 0), "teleport"), MalformedAnswer)
    rejects(game, Step(0, [1, 0], "move"), MalformedAnswer)  # type: ignore[arg-type]
    from fairtable.engine.sodalis import Respawn

    rejects(game, Respawn(0, (0, 1)), WrongPhase)


def test_turn_order_after_the_highest_token_comes_token_one() -> None:
    game, _ = build(
        "players=4 champions=tempest,empress,lover,sage tokens=1,4,5,2 at=0:1,9:0,-1:0,9:1"
    )
    assert game.public()["order"] == [0, 3, 1, 2]
    seen = []
    for _ in range(5):
        seen.append(asked(game).seat)
        game.apply(EndTurn(asked(game).seat))
    assert seen == [0, 3, 1, 2, 0]
    assert game.public()["round"] == 2


def test_end_of_the_game_round_limit_ends_with_no_winner() -> None:
    game, _ = build(f"{DUEL} at=0:1,9:0 round=3 round_limit=3")
    game.apply(EndTurn(0))
    game.apply(EndTurn(1))
    assert game.outcome == Outcome.nobody() and game.state.over == "round_limit"


def test_movement_push_goes_straight_away_and_stops_at_a_closed_space() -> None:
    """Shove (push 2) from (3,0) on the Empress at (4,0): (5,0) then (6,0)."""
    game, ref = build(f"{DUEL} at=3:0,4:0 spread0=tempest_strike~r,squall,tempest_mend")
    game.apply(Cast(0, "tempest_strike~r", 1))
    roll(game, 1, 1, 1)
    settle(game, ref)
    assert unit(game, 1)["at"] == [6, 0]
    blocked, ref2 = build(
        "players=4 champions=tempest,empress,lover,sage "
        "at=3:0,4:0,0:1,5:0 spread0=tempest_strike~r,squall,tempest_mend"
    )
    blocked.apply(Cast(0, "tempest_strike~r", 1))
    roll(blocked, 1, 1, 1)
    settle(blocked, ref2)
    assert unit(blocked, 1)["at"] == [4, 0]  # the Sage stands in the way


def test_movement_pull_goes_toward_the_caster() -> None:
    game, ref = build(f"{DUEL} at=1:0,4:0 spread0=tempest_lure,squall,tempest_mend")
    game.apply(Cast(0, "tempest_lure", 1))
    roll(game, 1)
    settle(game, ref)
    assert unit(game, 1)["at"] == [2, 0]


def test_movement_the_caster_picks_among_equally_straight_spaces() -> None:
    """Gale (push 3) from (2,0) on the Empress at (4,-1): (5,-2) and (5,-1) are both one step
    farther and equally straight, so the Tempest picks."""
    game, ref = build(f"{DUEL} at=2:0,4:-1 spread0=tempest_lure~r,squall,tempest_mend")
    game.apply(Cast(0, "tempest_lure~r", 1))
    choice = asked(game)
    assert choice.kind == "forced_step" and choice.seat == 0
    assert choice.info.options == ((5, -2), (5, -1))
    rejects(game, ForcedStep(0, (4, 0)), IllegalMove)
    game.apply(ForcedStep(0, (5, -1)))
    settle(game, ref)
    while asked(game).kind == "forced_step":
        game.apply(ForcedStep(0, asked(game).info.options[0]))
        settle(game, ref)
    assert unit(game, 1)["at"] != [4, -1]
    assert game.state.arena.distance((2, 0), tuple(unit(game, 1)["at"])) > 2
    assert ("moved", 1, [4, -1], [5, -1], "push") in game.state.stored_events()


def test_movement_forced_candidates_are_one_walking_step_farther_or_nearer() -> None:
    game, _ = build(f"{DUEL} at=0:1,1:0")
    arena = game.state.arena
    for origin in sorted(arena.passable)[::5]:
        for here in sorted(arena.passable):
            d = arena.distance(origin, here)
            for kind, want in (("push", d + 1), ("pull", d - 1)):
                for space in forced_candidates(game.state, origin, here, kind):
                    assert arena.distance(origin, space) == want > 0


def test_actions_legal_answers_are_exactly_the_answers_the_engine_accepts() -> None:
    """Every enumerated answer passes check(); every other step or cast is refused."""
    from fairtable.engine.errors import EngineError
    from fairtable.engine.sodalis import PARAGON
    from fairtable.engine.sodalis.choices import legal_answers

    game, _ = build(
        "players=4 champions=tempest,empress,lover,sage at=3:-1,5:-1,4:0,6:-3 "
        "tributes=sight:0,strength:0,speed:0 artifacts=dawn:3:-1 "
        "spread0=squall,tempest_burst,tempest_lure~r"
    )
    decision = asked(game)
    legal = set(legal_answers(game.view(0), decision))
    for answer in legal:
        game.check(answer)
    spaces = sorted(game.state.arena.spaces)
    candidates = [
        Step(0, to, pay, carry)
        for to in spaces
        for pay in ("move", "minor", "major", "speed")
        for carry in (False, True)
    ]
    cards = ["squall", "tempest_burst", "tempest_lure~r", "tempest_mend"]
    candidates += [
        Cast(0, card, target, sight, strength)
        for card in cards
        for target in (None, PARAGON, 0, 1, 2, 3)
        for sight in (False, True)
        for strength in (False, True)
    ]
    accepted = set()
    for answer in candidates:
        try:
            game.check(answer)
        except EngineError:
            continue
        accepted.add(answer)
    assert accepted == legal - {EndTurn(0)}
    assert any(isinstance(a, Cast) and a.sight for a in legal)
    assert any(isinstance(a, Cast) and a.strength for a in legal)
    assert any(isinstance(a, Step) and a.carry and a.pay == "speed" for a in legal)
