"""The client's words show who left the game (issue 33): the log line of a departure and the
table pane's mark beside the seat -- one word, "(out)", in every game's pane (issue 31: the
panes said "(left)" of a seat that vanished, where the log says "is out of the game")."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from fairtable.engine.events import Departed
from fairtable.engine.games import rules


def test_reign_log_line_says_who_left_and_that_its_cards_stay_hidden() -> None:
    from fairtable.client.reign.words import describe_public_event

    assert describe_public_event(Departed(2, 5), 0) == (
        "seat 2 is out of the game: 5 cards set aside face down, never to be shown"
    )
    assert describe_public_event(Departed(0, 1), 0) == (
        "you are out of the game: 1 card set aside face down, never to be shown"
    )


def test_reign_table_pane_marks_a_seat_that_left() -> None:
    from fairtable.client.reign.panes import table_lines

    game = rules("reign").new_game(4)
    game.depart(3)
    model = SimpleNamespace(view=game.view(0), seat=0, status="", invite=None)
    text = "".join(t for _, t in table_lines(model))
    rows = {line.split(":")[0].strip(" *"): line for line in text.splitlines()}
    assert rows["seat 3"].endswith(" (out)") and not rows["seat 2"].endswith("(out)")


def test_sovereign_board_marks_a_seat_that_left_and_its_neighbours_close_up() -> None:
    from fairtable.client.sovereign.panes import neighbours, seat_block, summary_row

    game = rules("sovereign").new_game(4)
    game.depart(1)
    view = game.view(0)
    assert neighbours(view, 0) == [2, 3] == game.state.neighbours(0)
    text = "".join(t for _, t in summary_row(view, 1, "seat 1"))
    assert text.splitlines()[0].endswith(" (out)")
    assert "(out)" not in "".join(t for _, t in summary_row(view, 2, "seat 2"))
    assert "(out)" not in "".join(t for _, t in seat_block(view, 1, "seat 1", 41))


def test_sovereign_log_line_says_who_left() -> None:
    from fairtable.client.sovereign.model import ClientModel
    from fairtable.client.sovereign.words import describe_event

    game = rules("sovereign").new_game(3)
    game.depart(2)
    model = ClientModel()
    model.seat = 0
    line = describe_event(Departed(2, 0), model, game.view(0))
    assert line == "seat 2 is out of the game: no card set aside face down, never to be shown"


def test_sodalis_log_line_says_who_plays_the_champion_from_now_on() -> None:
    from fairtable.client.sodalis.words import describe_event

    game = rules("sodalis").new_game(4)
    team = game.state.members(game.state.team_of(1))
    keeper = next(s for s in team if s != 1)
    game.depart(1)
    view = game.view(keeper)
    line = describe_event(Departed(1, 0), keeper, None, view)
    assert line == "seat 1 is out of the game: you play its champion from now on"
    other = next(s for s in range(4) if s not in team)
    line = describe_event(Departed(1, 0), other, None, game.view(other))
    assert line == f"seat 1 is out of the game: seat {keeper} plays its champion from now on"


def test_sodalis_keeper_sees_the_champion_it_plays_and_who_left() -> None:
    from fairtable.client.sodalis.model import ClientModel
    from fairtable.client.sodalis.panes import side_lines
    from fairtable.engine.requests import Decision
    from fairtable.engine.sodalis.choices import legal_answers
    from fairtable.netplay import events as ev
    from tests.engine.sodalis.test_sodalis_depart import until_turn_of

    game = rules("sodalis").new_game(4)
    until_turn_of(game, 1)
    game.depart(1)
    d = game.pending()[0]
    assert isinstance(d, Decision) and d.behalf == 1
    keeper = d.seat
    model = ClientModel()
    model.apply_event(ev.Seated(seat=keeper, players=4))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(keeper)))
    text = "".join(t for _, t in side_lines(model))
    assert "seat 1" in text and " (out)" in text
    seats = game.view(None).table.seats
    mine = {game.state.catalog.face(c).name for c in seats[keeper].spread}
    theirs = [game.state.catalog.face(c).name for c in seats[1].spread]
    assert all(name in text for name in theirs)
    assert not any(name in text for name in mine - set(theirs))
    menu = model.menu()  # the moves offered are the champion's that left, as the rules list
    assert {a for _, a in menu} == set(legal_answers(game.view(keeper), d))


def test_a_vanished_seats_log_lines_agree_with_the_audit() -> None:
    """The game's line says how the seat is out of the game, not how it went; the departure's
    own line says it vanished, as the audit does ("seat 2 vanished at step 41")."""
    from fairtable.client.lifecycle import departed_line
    from fairtable.client.reign.words import describe_public_event
    from fairtable.netplay import events as ev

    game_line = describe_public_event(Departed(2, 5), 0)
    assert game_line is not None and "left" not in game_line and "vanished" not in game_line
    assert "vanished" in departed_line(ev.Departed(2, 41, False, True))
    assert "left" in departed_line(ev.Departed(2, 41, False, False))


def test_every_games_pane_marks_a_departed_seat_with_the_one_word_the_log_uses() -> None:
    """Issue 31: the public view does not say whether a seat left or vanished, so every pane
    says "(out)", from client.departures, as the log's "is out of the game" does."""
    from fairtable.client.departures import OUT_MARK, out_mark, out_of_the_game

    assert out_mark(2, (2,)) == OUT_MARK == " (out)"
    assert out_mark(1, (2,)) == "" == out_mark(1, ())
    assert "out of the game" in out_of_the_game("seat 2")
    for game in ("reign", "sovereign", "sodalis"):
        source = (Path(__file__).parents[2] / "client" / game / "panes.py").read_text()
        assert '" (left)"' not in source and "(vanished)" not in source and "out_mark(" in source
