"""Outcome: one winner type for every game, written exactly as the bare winner was."""

from __future__ import annotations

import attrs
import pytest

from fairtable.engine.games import rules
from fairtable.engine.outcome import Outcome
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream


def test_a_seat_wins_alone_and_is_written_as_its_number() -> None:
    won = Outcome.seat(2)
    assert won.seats == (2,) and won.team is None and won.decided
    assert won.won(2) and not won.won(0)
    assert won.plain() == 2 and won.words() == "seat 2"


def test_a_team_wins_with_each_of_its_seats_and_is_written_as_its_name() -> None:
    won = Outcome.of_team("dusk", (3, 1))
    assert won.seats == (1, 3) and won.team == "dusk"
    assert won.won(1) and won.won(3) and not won.won(0)
    assert won.plain() == "dusk" and won.words() == "team Dusk"


def test_nobody_wins_and_is_written_as_null() -> None:
    for nobody in (Outcome.nobody(), Outcome.seat(None), Outcome.of_team(None, (0, 2))):
        assert nobody == Outcome() and not nobody.decided and not nobody.won(0)
        assert nobody.plain() is None and nobody.words() == "nobody"


def test_an_outcome_is_frozen_and_compares_by_value() -> None:
    won = Outcome.seat(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        won.team = "dawn"  # type: ignore[misc]
    assert won == Outcome((1,)) and hash(won) == hash(Outcome.seat(1))
    assert Outcome.of_team("dawn", (2, 0)) == Outcome.of_team("dawn", [0, 2])


@pytest.mark.parametrize(
    ("seats", "team"),
    [((-1,), None), ((True,), None), ((1, 1), "dawn"), ((), "dawn"), ((0, 2), None)],
)
def test_an_outcome_that_cannot_be_is_refused(seats: tuple[int, ...], team: str | None) -> None:
    with pytest.raises(ValueError):
        Outcome(seats, team)


@pytest.mark.parametrize(("game", "players"), [("reign", 3), ("sodalis", 2), ("sovereign", 2)])
def test_every_game_names_its_outcome_only_once_it_is_over(game: str, players: int) -> None:
    """``game.outcome`` is None while play goes on; at the end it names the winners, the
    same winner the public state writes (the digest's bytes did not change with the type)."""
    rules_ = rules(game)
    played = rules_.new_game(players)
    stream = ChanceStream.from_int(5)
    referee = Referee(stream.child("referee").take(32))
    while not played.over:
        assert played.outcome is None
        request = played.pending()[0]
        if isinstance(request, Decision):
            answer = rules_.random_answer(played.view(request.seat), request, stream)
        else:
            answer = referee.answer(played, request)
        played.apply(answer)
    outcome = played.outcome
    assert outcome is not None
    assert outcome.plain() == played.public()["winner"]
