"""The one game loop (engine/playout.py): each decision answered by its seat's player from
that seat's view, every other request by the referee, every game of the registry played to
its end the same way from one seed -- as ``fairtable simulate`` plays it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fairtable.client.games import bot_maker
from fairtable.client.simulate import run_game
from fairtable.engine.errors import CannotDepart
from fairtable.engine.games import entry, game_names, rules
from fairtable.engine.playout import Player, play_out, play_to_end, seeded_players
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream


class Recording:
    """A random bot that notes each decision it is asked and the view it is given."""

    def __init__(self, game: str, seat: int, stream: ChanceStream, asked: list[Any]) -> None:
        self.bot = bot_maker(game, "random")(stream)
        self.seat, self.asked = seat, asked

    def decide(self, view: Any, decision: Decision) -> Any:
        self.asked.append((self.seat, decision, view))
        return self.bot.decide(view, decision)


def _maker(game: str, seat: int, asked: list[Any]) -> Callable[[ChanceStream], Player]:
    return lambda stream: Recording(game, seat, stream, asked)


@pytest.mark.parametrize("game", game_names())
def test_a_game_played_out_ends_the_same_from_the_same_seed(game: str) -> None:
    seats = entry(game).default_seats
    digests = set()
    for _ in range(2):
        state = rules(game).new_game(seats)
        referee, players = seeded_players(3, [bot_maker(game, "random")] * seats)
        assert play_to_end(state, players, referee) > 0
        assert state.over
        digests.add(state.digest())
    assert len(digests) == 1


def test_each_decision_goes_to_its_seat_with_that_seats_view_and_the_rest_to_the_referee() -> None:
    asked: list[Any] = []
    state = rules("reign").new_game(3)
    referee, players = seeded_players(5, [_maker("reign", seat, asked) for seat in range(3)])
    decisions = chances = 0
    for step in play_out(state, players, referee):
        if isinstance(step.request, Decision):
            seat, decision, view = asked[-1]
            assert seat == step.request.seat and decision is step.request
            assert view == state.view(seat)  # its seat's view, taken before the answer
            decisions += 1
        else:
            chances += 1
    assert state.over and decisions == len(asked) > 0 and chances > 0


def test_stopping_the_loop_leaves_the_yielded_answer_unapplied() -> None:
    state = rules("reign").new_game(3)
    referee, players = seeded_players(0, [bot_maker("reign", "random")] * 3)
    steps = play_out(state, players, referee)
    for _ in range(10):
        step = next(steps)
    steps.close()  # stopped with the tenth answer chosen, not applied
    assert not state.over and state.pending()[0] == step.request


def test_a_game_that_does_not_end_in_the_steps_allowed_is_an_error() -> None:
    state = rules("reign").new_game(3)
    referee, players = seeded_players(0, [bot_maker("reign", "random")] * 3)
    with pytest.raises(AssertionError, match="did not end in 5 steps"):
        for _ in play_out(state, players, referee, max_steps=5):
            pass


def test_simulate_plays_the_same_game_as_the_loop() -> None:
    seats = entry("sodalis").default_seats
    state = rules("sodalis").new_game(seats)
    referee, players = seeded_players(9, [bot_maker("sodalis", "random")] * seats)
    play_to_end(state, players, referee)
    assert run_game("sodalis", seats, 9, ["random"] * seats)["digest"] == state.digest()


@pytest.mark.parametrize(
    ("game", "seats", "seat"), [("reign", 4, 2), ("sovereign", 3, 0), ("sodalis", 4, 3)]
)
def test_a_game_played_out_with_a_departure_goes_on_to_its_end_without_that_seat(
    game: str, seats: int, seat: int
) -> None:
    """engine/playout.py's ``departures``: the seat leaves before step 40, is asked nothing
    after, and the game still ends; the same seed gives the same game."""
    digests = set()
    for _ in range(2):
        state = rules(game).new_game(seats)
        referee, players = seeded_players(7, [bot_maker(game, "random")] * seats)
        for number, step in enumerate(play_out(state, players, referee, departures={40: [seat]})):
            if number >= 40 and isinstance(step.request, Decision):
                assert step.request.seat != seat
        assert state.over and state.departed == (seat,)
        digests.add(state.digest())
    assert len(digests) == 1


def test_a_departure_the_game_refuses_stops_the_play_out() -> None:
    state = rules("reign").new_game(3)
    referee, players = seeded_players(7, [bot_maker("reign", "random")] * 3)
    with pytest.raises(CannotDepart):
        play_to_end(state, players, referee, departures={5: [0, 1]})
    assert state.departed == (0,)
