"""The spectator's screen (``fairtable watch`` without ``--json``), without a terminal: a
spectator session fed a whole game's log tells the players' screen only ``view(None)``
steps and the ending a player is told; every game's panes say nothing is "yours" when
nobody is the viewer; the screen has no prompt and no menu, and ``q`` quits it."""

from __future__ import annotations

from typing import Any

import pytest

import fairtable.protocol as P
from fairtable.client.games import client_game
from fairtable.client.watch_screen import spectator_events, spectator_model
from fairtable.netplay import Invite
from fairtable.netplay import events as ev
from tests.client.replay_tables import SEATS, played
from tests.client.screen import render, run_keys


def _invite(game: str) -> Invite:
    return Invite(
        "127.0.0.1", 1, bytes(32), P.Identity.generate().public.key, bytes(32), game, SEATS[game]
    )


def _watched(game: str) -> tuple[Any, list[list[str]], list[ev.NodeEvent]]:
    """The spectator model after the whole game, each step's pane text, the events told."""
    spec, sessions = played(game)
    session = P.TableSession(spec, None)
    model = spectator_model(_invite(game))
    told: list[ev.NodeEvent] = []
    panes: list[list[str]] = []
    table, side = client_game(game).panes(model)
    for entry in sessions[0].entries():
        session.receive(entry)
        while (event := session.next_event()) is not None:
            for node_event in spectator_events(event, session):
                if isinstance(node_event, ev.ViewChanged):
                    assert node_event.view == session.game.view(None)  # never a seat's
                told.append(node_event)
                model.apply_event(node_event)
                panes.append(["".join(t for _, t in table(41)), "".join(t for _, t in side(38))])
    assert session.finished is not None
    return model, panes, told


@pytest.mark.parametrize("game", ["reign", "sovereign", "sodalis"])
def test_spectator_screen_shows_the_public_view_and_the_players_ending(game: str) -> None:
    model, panes, told = _watched(game)
    kinds = {type(e) for e in told}
    assert kinds <= {ev.ViewChanged, ev.GameOver, ev.Resigned, ev.Verdict}
    assert isinstance(told[-1], ev.GameOver)
    assert model.over.startswith("Game over") and "you win" not in model.over
    assert model.decision is None and model.seat is None
    assert "keeps nothing" in model.message  # not "the game is saved": nothing was
    for table, side in panes:
        assert "your" not in (table + side).lower(), table + side
        # nobody's Artifact is "own" or "foe" to a spectator (Sodalis's legend names teams)
        assert " own Artifact" not in table and " foe Artifact" not in table, table
        if game == "sodalis":  # issue 31: "* Dawn Artifac" was cut without a marker
            assert "* Dawn Artif." in table and "o Dusk Artif." in table, table
            rows = table.split("\n")
            assert all(len(row) <= 40 for row in rows), table  # the pane's 41 columns at 80


def test_reign_replay_side_pane_no_longer_says_your_hand() -> None:
    from fairtable.client.replay import model_for

    spec, sessions = played("reign")
    session = P.TableSession(spec, None)
    for entry in sessions[0].entries()[:40]:
        session.receive(entry)
    model = model_for("reign")  # the replay's model: no seat, not a live spectator
    model.view = session.game.view(None)
    _, side = client_game("reign").panes(model)
    text = "".join(t for _, t in side(38))
    assert "Your hand" not in text and "hidden" in text


def test_spectator_screen_has_no_prompt_and_q_quits() -> None:
    model, _, _ = _watched("reign")
    shown = render(model)
    assert any("a spectator: nothing to answer" in line for line in shown)
    assert not any(line.startswith("> ") for line in shown)
    assert any("Spectating" in line and "q quit" in line for line in shown)
    assert any("Game over" in line for line in shown)
    run_keys(model, "q")  # ends (bounded by run_keys' 10 s)


def test_spectator_keys_overlay_lists_only_what_a_spectator_can_do() -> None:
    from fairtable.client.keys import screen_keys

    model = spectator_model(_invite("reign"))
    keys = dict(screen_keys(model))
    assert set(keys) == {"?", "PgUp", "i", "q / Ctrl-Q"}  # i: the invite, for others
    assert "stop watching" in keys["q / Ctrl-Q"]


def test_a_table_that_will_not_be_watched_ends_the_spectator_screen_saying_why() -> None:
    model = spectator_model(_invite("sodalis"))
    model.apply_event(ev.Refused("the table will not let us watch: not authorised"))
    assert model.over == "Cannot watch this table: the table will not let us watch: not authorised"
    assert "No seat" not in "\n".join(model.log) and "keeps nothing" in model.message


def test_a_sovereign_spectators_side_pane_shows_the_public_table() -> None:
    """Issue 31: not only "Spectating": each seat's hand and deck counts and forge progress,
    as anyone sees them."""
    _model, panes, _told = _watched("sovereign")
    sides = [side for _table, side in panes if "seat 0: hand" in side]
    assert sides, panes[-1]
    for side in sides:
        assert side.startswith("Spectating: the public table\n")
        for seat in range(SEATS["sovereign"]):
            assert f"seat {seat}: hand " in side and ", deck " in side
        assert "forge progress" in side
    assert any("Echoes:" in side or "scrap:" in side for side in sides)


@pytest.mark.parametrize("game", ["reign", "sovereign"])
def test_a_spectator_is_told_who_wins_a_two_seat_game_on_a_resignation(game: str) -> None:
    """A spectator's screen says who wins when a seat resigns, as the players' do."""
    invite = Invite("127.0.0.1", 1, bytes(32), P.Identity.generate().public.key, bytes(32), game, 2)
    model = spectator_model(invite)
    model.apply_event(ev.Resigned(1, 9, False))
    assert model.over == "seat 1 resigned - the game is over; seat 0 wins"


def test_a_sodalis_spectator_is_told_which_team_wins_on_a_resignation() -> None:
    spec, sessions = played("sodalis")
    session = P.TableSession(spec, None)
    model = spectator_model(_invite("sodalis"))
    player = client_game("sodalis").model()
    player.seat, player.players = 0, SEATS["sodalis"]
    for entry in sessions[0].entries()[:40]:
        session.receive(entry)
        while (event := session.next_event()) is not None:
            for node_event in spectator_events(event, session):
                model.apply_event(node_event)
                if isinstance(node_event, ev.ViewChanged):
                    player.view = node_event.view
    model.apply_event(ev.Resigned(1, 40, False))
    winner = player.resign_result(1).removesuffix(" - you win!")
    assert winner.startswith("team ") and model.over.endswith(f"game is over; {winner}")


def _rule(shown: list[str]) -> int:
    return next(i for i, row in enumerate(shown) if row.startswith("--"))


@pytest.mark.parametrize("game", ["reign", "sovereign", "sodalis"])
def test_a_spectators_log_keeps_this_turn_and_takes_the_panes_empty_rows(game: str) -> None:
    """Issue 31, N7: a spectator's log mark is where the table's turn began; the log takes
    every row the upper panes leave empty at 80x24 (the game's end: none is left empty)."""
    spec, sessions = played(game)
    session = P.TableSession(spec, None)
    model = spectator_model(_invite(game))
    marks = set()
    for entry in sessions[0].entries():
        session.receive(entry)
        while (event := session.next_event()) is not None:
            for node_event in spectator_events(event, session):
                turn = model.turn()
                model.apply_event(node_event)
                if model.turn() != turn and isinstance(node_event, ev.ViewChanged):
                    assert model.log_mark <= len(model.log)  # this step's lines after it
                    marks.add(model.log_mark)
    assert len(marks) > 3  # the mark moved at each turn
    shown = render(model)
    upper = shown[: _rule(shown)]
    assert upper and not any(row.replace("|", "").strip() == "" for row in upper), shown
