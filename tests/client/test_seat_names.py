"""Players' names on the screen: a named seat is called by its name in the log, the panes and
the status line; unnamed seats and bracketed labels keep their numbers; ``--name`` is
checked on the command line."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from fairtable.client.reign.model import ClientModel
from fairtable.client.seat_names import SeatNames, at_the_table
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.client.screen import render
from tests.engine.driver import Table


def test_named_seats_are_called_by_their_names_and_the_rest_keep_numbers() -> None:
    names = SeatNames(("Ann", "", "Carol"))
    assert names.text("seat 0 bid 2 cards; Seat 2 is offline; seat 1 passed") == (
        "Ann bid 2 cards; Carol is offline; seat 1 passed"
    )
    assert names.text("into seat 2's army") == "into Carol's army"
    assert names.text("the Mage (seat 2)") == "the Mage (seat 2)"  # a label beside a name
    assert names.text("seat 20 and seat 3") == "seat 20 and seat 3"  # no such named seat
    assert names.label(1) == "seat 1" and names.label(2) == "Carol"
    assert SeatNames().text("seat 0") == "seat 0" and not SeatNames(("", ""))


def test_a_name_two_seats_share_is_numbered_after_its_first_seat() -> None:
    names = SeatNames(("Ann", "Ann", "Bob", "Ann"))
    assert names.text("seat 0 and seat 1 and seat 2 and seat 3") == (
        "Ann and Ann 2 and Bob and Ann 3"
    )
    assert at_the_table(names.names) == (
        "At the table: Ann (seat 0), Ann 2 (seat 1), Bob (seat 2), Ann 3 (seat 3)"
    )


def test_a_number_never_makes_a_label_another_seat_has() -> None:
    names = SeatNames(("ada", "ada", "ada 2"))
    assert [names.label(seat) for seat in range(3)] == ["ada", "ada 3", "ada 2"]


def test_at_the_table_names_every_seat() -> None:
    assert at_the_table(("Ann", "", "Carol")) == (
        "At the table: Ann (seat 0), seat 1, Carol (seat 2)"
    )


def _model(names: tuple[str, ...]) -> ClientModel:
    table = Table(3, seed=3, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Seated(seat=d.seat, players=3, names=names))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    model.apply_event(ev.SeatOffline((d.seat + 1) % 3))
    return model


def test_the_screen_calls_other_players_by_their_names() -> None:
    model = _model(("Ann", "Bob", "Carol"))
    other = (model.seat + 1) % 3  # type: ignore[operator]
    name = ("Ann", "Bob", "Carol")[other]
    screen = "\n".join(render(model, 120, 40))
    assert f"{name} is offline" in screen
    assert f"you are {('Ann', 'Bob', 'Carol')[model.seat]} (seat {model.seat} of 3)" in screen  # type: ignore[index]
    assert "At the table: Ann (seat 0), Bob (seat 1), Carol (seat 2)" in screen
    unnamed = "\n".join(render(_model(("", "", "")), 120, 40))
    assert f"Seat {other} is offline" in unnamed and "At the table" not in unnamed


def test_a_spectator_learns_the_names_from_the_start() -> None:
    model = ClientModel(lambda answer: None)
    model.spectating = True
    model.apply_event(ev.PlayerNames(("Ann", "", "")))
    model.apply_event(ev.SeatOffline(0))
    assert model.log_shown()[-1] == "Ann is offline"
    assert list(model.log)[-1] == "Seat 0 is offline"  # the words themselves keep the seat


@pytest.mark.parametrize(
    "name,why",
    [("seat 2", "would read as a seat"), ("Ann\x1b[31m", "printable"), ("x" * 30, "1 to 24")],
)
def test_a_bad_name_is_refused_on_the_command_line_in_one_line(name: str, why: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fairtable.client.cli",
            "host",
            "reign",
            "--seats",
            "3",
            "--name",
            name,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert why in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_only_our_own_name_needs_no_table_line() -> None:
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Seated(seat=0, players=3, names=("Zoë", "", "")))
    assert list(model.log) == ["The game starts: you are Zoë (seat 0 of 3)"]


def test_menu_options_call_other_seats_by_their_names() -> None:
    """A menu that names another seat (Sodalis: turn tokens 'to seat 2') names its player,
    before the pane measures it (so '+N more' still counts right)."""
    from fairtable.client.room import menu_lines
    from fairtable.client.sodalis.model import ClientModel as SodalisModel
    from fairtable.engine.sodalis import SodalisConfig, new_game
    from tests.client import games

    game = new_game(SodalisConfig(4, 100))
    asked: list[Decision] = []
    games.play(
        game,
        5,
        [games_bot() for _ in range(4)],
        until=lambda g, r: isinstance(r, Decision) and bool(asked.append(r) or True),
    )
    d = asked[0]
    model = SodalisModel(lambda answer: None)
    names = ("Ann", "Bob", "Carol", "Dan")
    model.apply_event(ev.Seated(seat=d.seat, players=4, names=names))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
    raw = " ".join(label for label, _ in model.menu())
    mentioned = {int(n) for n in re.findall(r"seat (\d+)", raw)}
    assert mentioned  # the game's own words name a seat
    shown = "".join(frag[1] for frag in menu_lines(model))
    assert all(names[seat] in shown for seat in mentioned)
    assert not re.search(r"(?<!\()seat \d", shown)


def games_bot() -> object:
    from fairtable.client.games import bots_for

    return bots_for("sodalis")["random"]


def test_a_table_on_the_lan_names_its_host_by_name_and_key() -> None:
    from fairtable.client.seat_names import host_words

    assert host_words("ada", "cafc6d0a" * 8) == "ada (key cafc6d0a)"
    assert host_words("", "cafc6d0a" * 8) == "key cafc6d0acafc6d0a"


def test_a_second_seat_of_a_name_is_told_its_label_as_the_others_see_it() -> None:
    """Issue 31: a second window of one account ("root" twice) read "you are root" while
    every other screen called it "root 2"."""
    model = _model(("root", "Bob", "root"))
    model.log.clear()
    model.apply_event(ev.Seated(seat=2, players=3, names=("root", "Bob", "root")))
    assert model.log[0] == "The game starts: you are root 2 (seat 2 of 3)"


def test_reign_legitimacy_reads_apart_from_a_numbered_name() -> None:
    """Issue 31 (proof run): "Legitimacy: you 0, root 2 0" -- whose 2, whose 0?"""
    from fairtable.client.reign.words import describe_public_event
    from fairtable.engine.reign import events as E

    line = describe_public_event(E.Legitimacy(values=(0, 9, 0)), 0)
    assert line == "Legitimacy: you L0, seat 1 L9, seat 2 L0"
    assert SeatNames(("root", "Ada", "root")).text(line or "") == (
        "Legitimacy: you L0, Ada L9, root 2 L0"
    )


def test_our_own_seat_reads_you_whatever_the_words_come_from() -> None:
    """Issue 31: the network's words ("seat 0 ran out of time", "seat 0 left") named our
    own seat by our name or number while the game's words say "you"."""
    names = SeatNames(("ada", "Bob", ""), you=0)
    assert names.text("seat 0 ran out of time") == "you ran out of time"
    assert names.text("Seat 0 is offline; seat 1 is back") == "You are offline; Bob is back"
    assert names.text("seat 0's turn, then seat 1's") == "your turn, then Bob's"
    assert names.text("seat 0 has 3 cards, seat 2 has 2") == "you have 3 cards, seat 2 has 2"
    assert names.text("you are seat 0 of 3") == "you are seat 0 of 3"  # a count of seats
    assert names.text("At the table: ada (seat 0)") == "At the table: ada (seat 0)"
    assert SeatNames((), you=1).text("seat 1 did not answer in time") == (
        "you did not answer in time"
    )
    assert SeatNames(("ada", "Bob")).text("seat 0 ran out of time") == "ada ran out of time"


def test_the_screen_calls_our_own_seat_you_in_the_networks_words() -> None:
    model = _model(("Ann", "Bob", "Carol"))
    seat = model.seat
    assert seat is not None
    model.apply_event(ev.Departed(seat=seat, step=5, you=True))
    model.apply_event(ev.SeatOffline(seat))
    screen = "\n".join(render(model, 120, 40))
    assert "you left the table in round 1; the others play on" in screen
    assert (
        "You are offline" in screen and f"{('Ann', 'Bob', 'Carol')[seat]} is offline" not in screen
    )


def test_the_log_calls_bots_without_their_strength_unless_two_would_read_alike() -> None:
    names = SeatNames(("", "Mira (heuristic)", "Ada (heuristic)", "Ada (hard)"), you=0)
    line = "seat 1 bids; seat 2 and seat 3 pass; seat 0 ran out of time"
    assert names.log_text(line) == (
        "Mira bids; Ada (heuristic) and Ada (hard) pass; you ran out of time"
    )
    assert names.text("seat 1 bids") == "Mira (heuristic) bids"  # where seats are listed


def test_menu_options_call_bots_by_their_names_alone_as_the_log_does() -> None:
    """Issue 31: an option reads like the log ("to Ann", not "to Ann (heuristic)"); the
    table pane, which lists the seats, keeps the strength.  Plain mode's options alike."""
    from fairtable.client.plain import PlainSession
    from fairtable.client.room import menu_lines
    from fairtable.client.sodalis.model import ClientModel as SodalisModel
    from fairtable.engine.sodalis import SodalisConfig, new_game
    from tests.client import games

    game = new_game(SodalisConfig(4, 100))
    asked: list[Decision] = []
    games.play(
        game,
        5,
        [games_bot() for _ in range(4)],
        until=lambda g, r: isinstance(r, Decision) and bool(asked.append(r) or True),
    )
    d = asked[0]
    model = SodalisModel(lambda answer: None)
    names = ("Ann (heuristic)", "Bob (heuristic)", "Carol (heuristic)", "Dan (heuristic)")
    model.apply_event(ev.Seated(seat=d.seat, players=4, names=names))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
    raw = " ".join(label for label, _ in model.menu())
    mentioned = {int(n) for n in re.findall(r"seat (\d+)", raw)} - {d.seat}
    assert mentioned  # the game's own words name another seat
    shown = "".join(frag[1] for frag in menu_lines(model))
    said: list[str] = []
    PlainSession(model, said.append).say_decision()
    for text in (shown, "\n".join(said)):
        assert all(names[seat].split()[0] in text for seat in mentioned), text
        assert "(heuristic)" not in text, text


def test_headless_lines_call_our_own_seat_you_as_the_screen_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 31: a headless peer's lines (host/join --bot) named our seat by its name or number
    ("Waiting for ada", "Seat 0 is offline") where the screen says "you"; both now call it
    through client.seat_names alike."""
    from fairtable.client.netcli import _printer

    emit = _printer(False)
    emit(ev.Seated(seat=0, players=3, names=("ada", "Bob", "")))
    emit(ev.SeatWaiting(seat=0, seconds=5))
    emit(ev.SeatWaiting(seat=1, seconds=5))
    emit(ev.SeatOffline(seat=0))
    emit(ev.SeatOnline(seat=2))
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "The game starts: you are ada (seat 0 of 3)",
        "At the table: ada (seat 0), Bob (seat 1), seat 2",
        "Waiting for you (5 s)",
        "Waiting for Bob (5 s)",
        "You are offline",
        "Seat 2 is back online",
    ]
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=3, names=("ada", "Bob", "")))
    model.apply_event(ev.SeatOffline(seat=0))
    assert model.log[0] == lines[0] and model.log[1] == lines[1]
    assert model.names.text(model.log[-1]) == "You are offline"
