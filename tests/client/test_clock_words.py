"""The clocks in words: ``--clock`` parsing (a one-line reason for nonsense), and the status
line of Reign's and the menu games' screens while a clock or an offline countdown runs."""

from __future__ import annotations

import argparse

import pytest

from fairtable.client.clock_words import clock_arg, limits_words, mm_ss, parse_clock
from fairtable.client.reign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.netplay import SeatClock
from fairtable.netplay import events as ev
from fairtable.protocol import TimeLimits
from tests.client.test_sodalis_model import first_turn
from tests.engine.driver import Table


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("10m+5s", (600.0, 5.0)),
        ("10m", (600.0, 0.0)),
        ("90", (90.0, 0.0)),
        ("90s", (90.0, 0.0)),
        ("1m+0s", (60.0, 0.0)),
        (" 2M+3S ", (120.0, 3.0)),
        ("45+2", (45.0, 2.0)),
    ],
)
def test_a_clock_is_minutes_or_seconds_plus_an_increment(text: str, parsed: tuple) -> None:
    assert parse_clock(text) == SeatClock(*parsed)


@pytest.mark.parametrize(
    "text", ["", "10x", "m", "10m+", "-5", "0", "0m+5s", "1.5m", "10m 5s", "25h", "99999m"]
)
def test_nonsense_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_clock(text)
    assert "\n" not in str(caught.value) and repr(text) in str(caught.value)
    with pytest.raises(argparse.ArgumentTypeError):
        clock_arg(text)


def test_times_and_limits_read_as_a_clock_does() -> None:
    assert [mm_ss(t) for t in (272, 271.2, 0.2, 0, -3, 3723)] == [
        "4:32",
        "4:32",
        "0:01",
        "0:00",
        "0:00",
        "1:02:03",
    ]
    assert limits_words(TimeLimits(600_000, 5_000, 120_000)) == (
        "clock 10:00 + 5 s a decision; offline limit 2:00"
    )
    assert limits_words(TimeLimits(0, 0, 90_000)) == ("no clock; offline limit 1:30")
    assert limits_words(None) == ""


def reign_model(seat: int) -> tuple[ClientModel, Table]:
    table = Table(3, seed=4, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    model = ClientModel()
    model.apply_event(
        ev.Seated(
            seat=seat,
            players=3,
            clock=TimeLimits(300_000, 0, 120_000),
        )
    )
    model.apply_event(ev.ViewChanged(view=table.truth.view(seat), events=()))
    return model, table


def test_reign_status_shows_our_clock_running_on_our_move() -> None:
    table = Table(3, seed=4, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model = ClientModel()
    model.apply_event(
        ev.Seated(
            seat=d.seat,
            players=3,
            clock=TimeLimits(300_000, 5_000, 1),
        )
    )
    assert "Time: clock 5:00 + 5 s a decision" in "\n".join(model.log)
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    model.apply_event(ev.ClockReadings(seats=[ev.ClockReading(d.seat, 272.0, False, None)]))
    assert "your move: bid - 4:32 left" in model.status
    model.apply_event(ev.ClockReadings(seats=[ev.ClockReading(d.seat, 271.0, False, None)]))
    assert "your move: bid - 4:31 left" in model.status
    model.apply_event(
        ev.Verdict(seat=d.seat, kind="out-of-time", reason=f"seat {d.seat} ran out of time")
    )
    assert f"seat {d.seat} ran out of time" in model.status
    log = "\n".join(model.log)  # what the clock's end means for the others (issue 31, N3)
    assert "ran out of time; it ends for every seat, with no winner" in log


def test_reign_status_shows_the_others_clock_and_an_offline_countdown() -> None:
    model, _ = reign_model(0)
    model.apply_event(ev.WaitingFor(seats=[1, 2]))
    model.apply_event(
        ev.ClockReadings(
            seats=[
                ev.ClockReading(1, 67.0, False, None),
                ev.ClockReading(2, 30.0, True, 105.0),
            ]
        )
    )
    assert model.status.endswith(
        " - seat 2 offline - the game ends in 1:45; waiting for seat 1, seat 2 (seat 1 1:07 left)"
    )
    model.apply_event(ev.WaitingFor(seats=[2]))
    model.apply_event(ev.ClockReadings(seats=[ev.ClockReading(2, None, True, 105.0)]))
    assert model.status.endswith(" - seat 2 offline - the game ends in 1:45")
    model.apply_event(ev.ClockReadings(seats=[ev.ClockReading(2, 67.0, False, None)]))
    assert model.status.endswith(" - waiting for seat 2 (1:07 left)")
    model.apply_event(ev.SeatWaiting(seat=2, seconds=10))
    assert model.status.endswith(" - waiting for seat 2 (1:07 left)")  # the clock says it
    model.apply_event(ev.ClockReadings(seats=[]))
    assert model.status.endswith(" - waiting for seat 2 (10 s)")  # said once, not twice
    model.apply_event(ev.SeatOnline(seat=2))
    assert model.log[-1] == "Seat 2 is back online"
    model.apply_event(ev.ClockReadings(seats=[]))
    assert "offline" not in model.status and "left" not in model.status


def test_menu_status_shows_the_clock_and_the_offline_countdown() -> None:
    game, d = first_turn()
    from fairtable.client.sodalis.model import ClientModel as SodalisModel

    model = SodalisModel()
    model.apply_event(ev.Seated(seat=d.seat, players=4))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
    model.apply_event(ev.ClockReadings(seats=[ev.ClockReading(d.seat, 59.5, False, None)]))
    assert "your move: " in model.status and " - 1:00 left" in model.status
    other = (d.seat + 1) % 4
    watcher = SodalisModel()
    watcher.apply_event(ev.Seated(seat=other, players=4))
    watcher.apply_event(ev.ViewChanged(view=game.view(other), events=()))
    watcher.apply_event(ev.ClockReadings(seats=[ev.ClockReading(d.seat, None, True, 9.0)]))
    assert watcher.status.endswith(f" - seat {d.seat} offline - the game ends in 0:09")
