"""A seat leaving a game of Sodalis for good (issue 33; docs/rules/sodalis.md, Departures): a
teammate takes its champion over.  Rule tests named after the rulebook section each reading
rests on, the refusals, and random games with a departure at any step, mirrored on every
seat's instance."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import CannotDepart, WrongSeat
from fairtable.engine.games import rules
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import SodalisGame
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.answers import EndTurn
from fairtable.engine.sodalis.choices import legal_answers
from tests.engine.departures import depart_plan, play_departing


def aside_cards(game: SodalisGame, seat: int) -> list[str]:
    return []  # Sodalis has no hidden cards: nothing is set aside


def until_turn_of(game: SodalisGame, seat: int, seed: int = 1) -> Referee:
    """Play quietly (the first legal answer) until ``seat``'s champion is to act."""
    referee = Referee(seed)
    for _ in range(2000):
        pending = game.pending()
        request = pending[0]
        if isinstance(request, Decision):
            if request.kind == "turn" and request.acts_for == seat:
                return referee
            answer = next(iter(legal_answers(game.view(request.seat), request)))
        else:
            answer = referee.answer(game, request)
        game.apply(answer)
    raise AssertionError(f"seat {seat}'s turn never came")


def test_overview_a_one_against_one_game_cannot_go_on_without_a_seat() -> None:
    game = rules("sodalis").new_game(2)
    before = game.digest()
    for seat in (0, 1):
        assert not game.can_depart(seat)
        with pytest.raises(CannotDepart):
            game.depart(seat)
    assert game.digest() == before and "departed" not in game.public()


def test_overview_the_game_goes_on_while_the_team_keeps_a_player() -> None:
    game = rules("sodalis").new_game(4)
    team = game.state.members(game.state.team_of(0))
    game.depart(team[0])
    assert game.departed == (team[0],) and game.public()["departed"] == [team[0]]
    assert not game.can_depart(team[1])  # the last of its team
    other = game.state.members(game.state.other(game.state.team_of(0)))
    assert game.can_depart(other[0])
    assert game.set_aside(team[0]) == frozenset()


def test_actions_a_teammate_takes_the_turns_of_the_champion_that_left() -> None:
    game = rules("sodalis").new_game(4)
    until_turn_of(game, 1)
    keeper = next(s for s in game.state.members(game.state.team_of(1)) if s != 1)
    before = game.pending()[0]
    game.depart(1)
    asked = game.pending()[0]
    assert isinstance(asked, Decision) and isinstance(before, Decision)
    assert (asked.seat, asked.behalf, asked.info) == (keeper, 1, before.info)
    assert asked in game.view(keeper).decisions
    with pytest.raises(WrongSeat):
        game.apply(EndTurn(1))  # the seat that left answers nothing
    events = game.apply(EndTurn(keeper))
    assert E.TurnEnd(1) in events  # the champion's turn ended
    assert game.state.active != 1


def test_victory_the_team_wins_without_the_seat_that_left() -> None:
    game = rules("sodalis").new_game(4)
    team = game.state.team_of(0)
    game.depart(0)
    game.state.winner, game.state.over = team, "tribute"
    outcome = game.outcome
    assert outcome is not None and outcome.team == team
    assert 0 not in outcome.seats and outcome.seats


def test_turn_order_a_captain_that_left_hands_its_team_decision_on() -> None:
    game = rules("sodalis").new_game(6)
    tokens = [r for r in game.pending() if isinstance(r, Decision)]
    captain = tokens[0].seat
    game.depart(captain)
    again = [r for r in game.pending() if isinstance(r, Decision)]
    assert captain not in [r.seat for r in again] and len(again) == len(tokens)
    new = next(s for s in game.state.members(game.state.team_of(captain)) if s != captain)
    assert new in [r.seat for r in again]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([4, 6]), st.integers(0, 10_000))
def test_a_departure_at_any_step_leaves_a_game_every_instance_plays_to_its_end(
    data: Any, players: int, seed: int
) -> None:
    plan = depart_plan(data, players, 600)
    played = play_departing("sodalis", players, seed, plan, aside_cards)
    game = played.game
    assert game.over and game.outcome is not None
    assert all(not game.outcome.won(seat) for seat in game.departed)
    for seat in game.departed:  # its team kept a player
        team = game.state.members(game.state.team_of(seat))
        assert any(s not in game.departed for s in team)


def test_a_world_sampled_after_a_departure_agrees_with_the_view() -> None:
    played = play_departing("sodalis", 4, 5, {60: [1]}, aside_cards, worlds=True)
    assert played.departed


def test_the_same_departure_on_two_copies_gives_the_same_digest() -> None:
    game = rules("sodalis").new_game(4)
    until_turn_of(game, 2)
    other = game.copy()
    assert game.depart(2) == other.depart(2)
    assert game.digest() == other.digest()


def test_reversals_two_seats_that_left_before_them_keep_their_arcana_front_up() -> None:
    """Champion Selection: "players may review their Arcana and flip them" -- two seats
    that left before the reversals both answer at once by the public rule (no reversal)."""
    game = rules("sodalis").new_game(4)
    game.depart(0)
    game.depart(1)
    referee = Referee(3)
    while not any(isinstance(r, Decision) and r.kind == "reversals" for r in game.state.pending):
        request = game.pending()[0]
        if isinstance(request, Decision):
            game.apply(next(iter(legal_answers(game.view(request.seat), request))))
        else:
            game.apply(referee.answer(game, request))
    asked = [r.seat for r in game.pending() if isinstance(r, Decision)]
    assert asked == [2, 3] and sorted(game.state.buffered) == [0, 1]
