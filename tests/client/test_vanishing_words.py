"""What a person is told when a seat vanishes at a ``go-on`` table (issue 33): the table agrees
it is gone, then "<name> vanished; the game goes on" with who plays the seat from now on (each
game's reading, docs/rules/<game>.md); where the game cannot go on, that it is over; and a
seat that comes back that the seat is no longer its own."""

from __future__ import annotations

import pytest

from fairtable.client.games import model_for
from fairtable.client.lifecycle import departed_line, resigned_line, vanishing_line
from fairtable.client.netcli import describe
from fairtable.client.reign.model import ClientModel
from fairtable.client.watch_screen import spectator_events
from fairtable.netplay import events as ev
from fairtable.protocol import GameResigned, SeatLeft


def test_the_lines_say_vanished_and_what_follows() -> None:
    assert vanishing_line(ev.Vanishing(2)).startswith("seat 2 never came back: the table agrees")
    line = departed_line(ev.Departed(2, 40, False, True), "a teammate plays its champion")
    assert line == "seat 2 vanished; the game goes on (a teammate plays its champion)"
    over = resigned_line(ev.Resigned(2, 40, False, True))
    assert over == "seat 2 vanished and the game cannot go on without it - the game is over"
    back = resigned_line(ev.Resigned(2, 40, True, True))
    assert "you had vanished" in back and "no longer yours" in back
    assert back.endswith("they play on")  # the watch line follows, where anyone serves it
    assert departed_line(ev.Departed(2, 40, False)).startswith("seat 2 left the table")
    assert describe(ev.Vanishing(1)) == vanishing_line(ev.Vanishing(1))


@pytest.mark.parametrize(
    ("game", "who"),
    [
        ("reign", "nobody plays its seat: it is asked nothing more and cannot win"),
        ("sovereign", "nobody plays its seat: its turns are skipped, its cards in play pass"),
        ("sodalis", "a teammate plays its champion"),
    ],
)
def test_the_screen_says_who_vanished_and_who_plays_the_seat(game: str, who: str) -> None:
    model = model_for(game)
    model.names = type(model.names)(("Ada", "Bo", "Cy", "Di"))
    model.apply_event(ev.Vanishing(2))
    model.apply_event(ev.Departed(2, 40, False, True))
    shown = model.log_shown()
    assert shown[-2].startswith("Cy never came back: the table agrees it vanished")
    assert shown[-1] == f"Cy vanished; the game goes on ({who})"
    assert not model.over


def test_a_seat_that_comes_back_is_told_the_seat_is_no_longer_its_own() -> None:
    model = ClientModel()
    model.seat, model.players = 2, 4
    model.apply_event(ev.Resigned(2, 40, True, True))
    assert model.over.startswith("the others agreed that you had vanished")
    assert "no winner" not in model.over


def test_a_spectator_hears_the_vanishing_as_the_players_do() -> None:
    (left,) = spectator_events(SeatLeft(1, 9, "d", vanished=True), None)  # type: ignore[arg-type]
    assert left == ev.Departed(1, 9, False, True)
    (ended,) = spectator_events(GameResigned(1, 9, "d", vanished=True), None)  # type: ignore[arg-type]
    assert ended == ev.Resigned(1, 9, False, True)
