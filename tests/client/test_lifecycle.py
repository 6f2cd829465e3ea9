"""Resuming and resigning as a person sees them: the lines said, the resume list, the
'resign' command in all three games' models, and ``fairtable resume --resign N`` on a game
kept on disk (its bots over loopback)."""

from __future__ import annotations

import calendar
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

import fairtable.protocol as P
from fairtable.client import cli
from fairtable.client.bots import RandomBot
from fairtable.client.lifecycle import game_line, resigned_line, resume_line
from fairtable.client.netcli import describe
from fairtable.client.play import model_for, unfinished_games
from fairtable.client.seats import bot_node
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import (
    Invite,
    LobbyId,
    NodeConfig,
    Pacing,
    ResignRequest,
    TableChoice,
    TableFolder,
    TableInfo,
    TableKind,
    TableNode,
    keep_bots,
    saved_table,
)
from fairtable.netplay import events as ev
from tests.netplay.said import Told

GAMES = ["reign", "sodalis", "sovereign"]
EVENING = calendar.timegm((2026, 12, 1, 21, 40, 0, 0, 0, 0))  # 1 Dec 21:40 UTC


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def seated(game: str, sent: list[Any], seat: int = 1) -> Any:
    model = model_for(game)
    model.submit = sent.append
    model.apply_event(ev.Seated(seat=seat, players=3))
    return model


@pytest.mark.parametrize("game", GAMES)
def test_resign_asks_first_and_yes_sends_the_resignation(game: str) -> None:
    sent: list[Any] = []
    model = seated(game, sent)
    model.command("resign")
    assert (
        model.message
        == "Resign (the others play on if the game can, else it ends)? Type 'yes' to confirm."
        and sent == []
    )  # no view yet (the game is being set up): both outcomes are said
    model.command("yes")
    assert sent == [ResignRequest()]


@pytest.mark.parametrize(
    ("game", "seats", "seat", "asked"),
    [
        ("sovereign", 2, 1, "Resign? The game ends and seat 0 wins."),
        ("sodalis", 2, 0, "Resign? The game ends and team Dusk wins."),
        ("sovereign", 3, 2, "Resign? The others play on without you."),
        ("reign", 3, 0, "Resign? The others play on without you."),
        ("sodalis", 4, 3, "Resign? The others play on without you."),
    ],
)
def test_the_resign_question_says_what_resigning_does_at_this_table(
    game: str, seats: int, seat: int, asked: str
) -> None:
    """S10 of the new-user run: a two-seat game said "the others play on if the game
    allows" and ended; the question now says what will happen, from the public view."""
    truth = rules(game).new_game(seats)
    model = model_for(game)
    model.apply_event(ev.Seated(seat=seat, players=seats))
    model.apply_event(ev.ViewChanged(view=truth.view(seat)))
    model.command("resign")
    assert model.message == f"{asked} Type 'yes' to confirm."


def test_the_resign_question_once_the_game_cannot_go_on_without_us() -> None:
    """Reign at three seats goes on without one seat, not two: once a seat left, the next
    to resign ends the game (no winner is named at a table of three)."""
    truth = rules("reign").new_game(3)
    truth.depart(1)
    model = model_for("reign")
    model.apply_event(ev.Seated(seat=0, players=3))
    model.apply_event(ev.ViewChanged(view=truth.view(0)))
    model.command("resign")
    assert model.message == "Resign? The game ends, with no winner named. Type 'yes' to confirm."


@pytest.mark.parametrize("game", GAMES)
def test_anything_but_yes_after_resign_goes_on_and_sends_nothing(game: str) -> None:
    sent: list[Any] = []
    model = seated(game, sent)
    model.command("resign")
    model.command("#1")
    assert sent == [] and model.message == "Not resigned: the game goes on."
    model.command("yes")  # no longer confirming anything
    assert sent == []


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_shows_the_resignation_and_help_tells_how(game: str) -> None:
    sent: list[Any] = []
    model = seated(game, sent)
    assert "'resign' gives the game up" in model.help_text()
    assert "resign" in model.completions()
    model.apply_event(ev.Resigned(seat=2, step=40, you=False))
    assert model.over == "seat 2 resigned - the game is over; no winner is named"
    assert model.over in model.status and model.log[-1] == model.over
    model.command("resign")
    assert model.message == model.over and sent == []


def test_resign_before_the_game_starts_says_there_is_nothing_to_resign() -> None:
    model = model_for("reign")
    sent: list[Any] = []
    model.submit = sent.append
    model.command("resign")
    assert "nothing to resign" in model.message and sent == []


def test_the_resume_line_names_the_game_its_date_and_round(utc: None) -> None:
    event = ev.Resuming(
        lobby_id=LobbyId(b"\xab"), game="reign", started=EVENING, status="playing", round=4
    )
    assert resume_line(event) == "Resuming your Reign game of 1 Dec 21:40, round 4"
    lobby = attrs.evolve(event, status="lobby", round=None, game="sodalis")
    assert resume_line(lobby) == "Resuming your Sodalis game of 1 Dec 21:40, in the lobby"
    resigned = ev.Resigned(seat=0, step=7, you=True)
    assert resigned_line(resigned) == "you resigned - the game is over"
    # the headless text output says the same
    assert describe(event) == "Resuming your Reign game of 1 Dec 21:40, round 4"
    assert describe(ev.Resigned(seat=2, step=9, you=False)) == (
        "seat 2 resigned - the game is over"
    )


def _folder(data_dir: Path, game: str, seats: int, **info: Any) -> Invite:
    import os

    invite = Invite("127.0.0.1", 4000, os.urandom(32), bytes(32), os.urandom(32), game, seats)
    TableInfo(invite=invite.text(), role="host", **info).save(
        TableFolder(data_dir, "tables", invite.lobby_id)
    )
    return invite


def test_a_resignation_says_who_wins_in_a_two_seat_game_and_which_team_in_sodalis() -> None:
    model = model_for("sovereign")
    model.apply_event(ev.Seated(seat=0, players=2))
    model.apply_event(ev.Resigned(seat=1, step=9, you=False))
    assert model.over == "seat 1 resigned - the game is over; you win"
    from tests.client.test_sodalis_model import first_turn
    from tests.client.test_sodalis_model import model_for as sodalis_model

    game, d = first_turn()
    model, _ = sodalis_model(game, d)
    teams = [s["team"] for s in model.view.public["seats"]]
    foe = next(s for s, t in enumerate(teams) if t != teams[model.seat])
    model.apply_event(ev.Resigned(seat=foe, step=9, you=False))
    assert model.over.endswith(f"; team {teams[model.seat].title()} wins - you win!")


def test_the_resume_list_gives_game_seats_date_round_and_whose_turn(
    tmp_path: Path, utc: None, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(
        tmp_path,
        "reign",
        3,
        kind=TableKind.PLAY,
        status="playing",
        seat=0,
        round=4,
        turn=[0],
        last_played=EVENING,
    )
    _folder(
        tmp_path,
        "sodalis",
        4,
        kind=TableKind.HOST,
        status="playing",
        seat=0,
        round=2,
        turn=[1, 3],
        last_played=EVENING - 3600,
    )
    _folder(
        tmp_path, "sovereign", 2, kind=TableKind.HOST, status="lobby", last_played=EVENING - 7200
    )
    _folder(
        tmp_path,
        "reign",
        5,
        kind=TableKind.HOST,
        status="finished",
        seat=0,
        round=9,
        last_played=EVENING + 60,
    )
    assert cli.main(["resume", "--list", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [  # 80 columns, broken at words
        "1. Reign, 3 seats, last played 1 Dec 21:40, round 4, your turn (against bots",
        "  here)",
        "2. Sodalis, 4 seats, last played 1 Dec 20:40, round 2, seat 1, seat 3 to decide",
        "  (you host)",
        "3. Sovereign, 2 seats, last played 1 Dec 19:40, lobby (you host)",
    ]


def test_the_resume_list_shows_a_second_seat_kept_in_a_seat_folder(
    tmp_path: Path, utc: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second window of this account joined the table it hosts: that seat's game is kept
    under seats/1 and listed with the folder it is played from."""
    invite = _folder(
        tmp_path,
        "reign",
        3,
        kind=TableKind.HOST,
        status="playing",
        seat=0,
        round=2,
        turn=[1],
        last_played=EVENING,
    )
    TableInfo(
        invite=invite.text(),
        role="joiner",
        kind=TableKind.JOIN,
        status="playing",
        seat=1,
        round=2,
        turn=[1],
        last_played=EVENING - 60,
    ).save(TableFolder(tmp_path / "seats" / "1", "tables", invite.lobby_id))
    assert cli.main(["resume", "--list", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1. Reign, 3 seats, last played 1 Dec 21:40, round 2, seat 1's turn (you host)",
        "2. Reign, 3 seats, last played 1 Dec 21:39, round 2, your turn (you joined)",
    ]
    assert [g.data_dir for g in unfinished_games(tmp_path)] == [
        tmp_path,
        tmp_path / "seats" / "1",
    ]


def test_the_resume_list_shows_an_old_folder_without_a_summary(tmp_path: Path) -> None:
    _folder(tmp_path, "reign", 3, status="playing", seat=1)  # no kind, round or turn
    (game,) = unfinished_games(tmp_path)
    line = game_line(1, game.info, "reign", 3)
    assert line.startswith("1. Reign, 3 seats, last played ") and "turn unknown" in line


def _play_a_little(data_dir: Path) -> Invite:
    """A 'play' table against two bots, stopped after some steps (as if the screen quit)."""

    async def main() -> Invite:
        told = Told()
        identity = P.Identity.from_seed(bytes(range(32)))
        (data_dir / "identity.key").write_bytes(identity.seed)
        node = TableNode(
            NodeConfig(
                data_dir=data_dir, pacing=Pacing(pace=0.02), choice=TableChoice(kind=TableKind.PLAY)
            ),
            identity,
            seats=3,
            game="reign",
            decider=told.deciding(
                lambda event: RandomBot(ChanceStream.from_int(event.step), "reign").decide(
                    event.view, event.decision
                )
            ),
        )
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                invite = await nursery.start(node.run)
                keep_bots(node.folder, ("heuristic", "heuristic"))  # type: ignore[arg-type]
                for index in range(2):
                    nursery.start_soon(bot_node(data_dir, index, invite, 0.02).run)
                await told.until(
                    lambda: node.session is not None and node.session.game.state.serial >= 10
                )
                nursery.cancel_scope.cancel()
        return invite

    return trio.run(main)


def test_resume_resign_gives_up_a_game_on_disk_and_every_seat_sees_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    invite = _play_a_little(tmp_path)
    assert len(unfinished_games(tmp_path)) == 1
    assert cli.main(["resume", "--resign", "1", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "you resigned - the game is over" in out
    assert unfinished_games(tmp_path) == []
    folders = [tmp_path / "tables" / invite.lobby_id.hex()] + [
        tmp_path / "bots" / invite.lobby_id.hex() / str(i) / "tables" / invite.lobby_id.hex()
        for i in range(2)
    ]
    for folder in folders:
        info = json.loads((folder / "table.json").read_text())
        assert (info["status"], info.get("end"), info.get("resigned")) == (
            "finished",
            "resigned",
            0,
        ), folder
        saved = saved_table(folder)
        result = P.audit_log(saved.spec, saved.entries)
        assert result.ok and result.resigned == 0 and "seat 0 resigned at step" in result.summary
    capsys.readouterr()
    assert cli.main(["audit", str(folders[1]), "--json"]) == 0
    audited = json.loads(capsys.readouterr().out)
    assert audited["ok"] and audited["resigned"] == 0 and audited["winner"] is None


def test_resume_resign_of_a_table_that_never_started_gives_it_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path, "reign", 3, kind=TableKind.HOST, status="lobby")
    assert cli.main(["resume", "--resign", "1", "--data-dir", str(tmp_path)]) == 0
    assert "never started" in capsys.readouterr().out
    assert unfinished_games(tmp_path) == []


def test_resume_resign_of_a_number_not_listed_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path, "reign", 3, kind=TableKind.HOST, status="lobby")
    assert cli.main(["resume", "--resign", "2", "--data-dir", str(tmp_path)]) == 2
    assert "choose a game from 1 to 1" in capsys.readouterr().err
    assert len(unfinished_games(tmp_path)) == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_resumed_screen_says_so_in_place_of_the_first_your_move(game: str, utc: None) -> None:
    model = model_for(game)
    model.apply_event(
        ev.Resuming(
            lobby_id=LobbyId(b"\xab"), game=game, started=EVENING, status="playing", round=3
        )
    )
    model.apply_event(ev.Seated(seat=0, players=2))
    said = resume_line(
        ev.Resuming(
            lobby_id=LobbyId(b"\xab"), game=game, started=EVENING, status="playing", round=3
        )
    )
    assert model.message == said and said in model.log
    assert model.your_move("bid") == said  # the first decision's message is the notice, once
    assert model.your_move("bid") == ""  # the status line says whose move it is, once
