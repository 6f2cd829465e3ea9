"""Small things an evening of play at 80x24 showed (issue 31): F1 does not repeat the help
cut to one line, the relay's Ctrl-C does not speak of a game."""

from __future__ import annotations

from typing import Any

import pytest

from fairtable.client.app import build_application
from fairtable.client.errors import UsageError
from fairtable.client.help_parts import on_screen
from fairtable.client.netcli import stopped_line
from fairtable.client.options import HostOptions, JoinOptions, RelayOptions, parse
from fairtable.client.screen_model import HELP_SHOWN
from tests.client.screen import render, run_keys
from tests.client.test_screen import decision_model


def test_f1_shows_the_help_in_its_pane_and_a_short_line_under_it() -> None:
    model, _, _ = decision_model()
    run_keys(model, "\x1bOP" + "\x11")  # F1, Ctrl-Q
    assert model.show_help and model.message_parts == HELP_SHOWN
    screen = render(model)
    assert any(row.endswith(on_screen(HELP_SHOWN)) for row in screen)  # beside the status
    first = model.help_text().split("\n")[0][:60]
    assert sum(first in row for row in screen) == 1  # the help's start is shown once
    assert build_application(model) is not None


def test_the_relays_ctrl_c_speaks_of_its_tables_not_of_a_game() -> None:
    relay = parse(["relay", "--data-dir", "r"])
    host = parse(["host", "reign", "--seats", "3"])
    join = parse(["join", "7-amber-ant"])
    assert isinstance(relay, RelayOptions) and isinstance(host, HostOptions)
    assert isinstance(join, JoinOptions)
    assert "game" not in stopped_line(relay) and "tables it holds" in stopped_line(relay)
    for peer in (host, join):
        assert stopped_line(peer) == "Stopped. The game is kept; run the same command to resume."


def test_the_keys_overlay_covers_the_board_and_marks_where_it_ends() -> None:
    model, _, _ = decision_model()
    model.show_keys = True
    screen = render(model)
    top = screen.index("Keys here (? or Esc closes)")
    end = next(i for i in range(top, len(screen)) if screen[i] == "-" * 80)
    assert all("|" not in row for row in screen[top:end]), screen  # no board beside it


def test_a_refused_link_is_not_said_twice_before_the_tables_clear_refusal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from fairtable.client.netcli import _printer
    from fairtable.netplay import events as ev

    emit = _printer(False)
    emit(ev.LinkRefused("not authorised"))
    emit(ev.Refused("this invite is not for this table"))
    assert capsys.readouterr().out == "Refused: this invite is not for this table\n"
    emit(ev.LinkRefused("busy"))  # no clearer line follows: it is said
    emit(ev.Joining("fairtable://x"))
    assert capsys.readouterr().out.splitlines()[:2] == [
        "Link refused: busy",
        "Joining the table...",
    ]


def test_a_seated_player_is_told_whom_the_setting_up_waits_for() -> None:
    from fairtable.client.reign.model import ClientModel
    from fairtable.netplay import events as ev

    model = ClientModel()
    model.apply_event(ev.LobbyUpdate(seated=4, seats=4))
    model.apply_event(ev.Seated(seat=0, players=4))
    assert model.status == "The game starts: shuffling and dealing..."
    model.apply_event(ev.WaitingFor(seats=[2, 3]))
    assert model.status == "Setting up the game: waiting for seat 2, seat 3"


def test_a_join_that_never_reached_its_table_keeps_nothing_listed(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    from fairtable.client import play
    from fairtable.netplay import Invite, TableFolder, TableInfo
    from fairtable.netplay import events as ev

    invite = Invite("127.0.0.1", 9, os.urandom(32), bytes(32), os.urandom(32), "reign", 3)
    folder = TableFolder(tmp_path, "tables", invite.lobby_id)
    TableInfo(invite=invite.text(), role="joiner", status="lobby").save(folder)
    assert len(play.unfinished_games(tmp_path)) == 1

    def screen(model, network) -> None:  # the player quits while the table cannot be reached
        model.apply_event(ev.FolderKnown(str(folder.path)))
        model.apply_event(
            ev.Unreachable(address="127.0.0.1:9", why="refused", attempt=3, retry_in=1.0)
        )

    monkeypatch.setattr(play, "_run_screen", screen)
    monkeypatch.setattr(play, "require_terminal", lambda command, instead: None)
    monkeypatch.setattr(play, "_resolve", lambda text, port, data_dir: invite)
    options = parse(["join", invite.text(), "--data-dir", str(tmp_path)])
    assert isinstance(options, JoinOptions) and play.join_screen(options) == 0
    out = capsys.readouterr().out
    assert "never reached" in out and "Game kept" not in out
    assert play.unfinished_games(tmp_path) == []


def test_sovereign_card_text_says_what_an_echo_scores_and_health_in_words() -> None:
    from fairtable.client.sovereign.info import DEFS, card_text

    echo = next(k for k, d in DEFS.items() if d.type == "echo" and not d.text)
    assert "Scores 1 Echo when revealed from your forge" in card_text(echo)
    assert "No further text" not in card_text(echo)
    unit = next(k for k, d in DEFS.items() if d.type == "unit" and d.talents and d.drones)
    d = DEFS[unit]
    assert (
        f"health up to {d.talents} talent{'s' if d.talents != 1 else ''} + {d.drones} "
        f"drone{'s' if d.drones != 1 else ''} (citizens placed on it)"
    ) in card_text(unit)


def test_sodalis_marks_the_highlighted_move_on_the_map() -> None:
    from fairtable.engine.sodalis.answers import Step
    from fairtable.engine.sodalis.arena import standard_arena
    from tests.client.test_sodalis_screen import turn_model

    model = turn_model()[0]
    menu = model.menu()
    move = next(i for i, (_, answer) in enumerate(menu) if isinstance(answer, Step))
    model.highlight = move
    to = menu[move][1].to
    row, col = standard_arena().text_position((to[0], to[1]))
    screen = render(model)
    arena = screen[1:8]  # under the title
    assert arena[row][col // 2] == "@", "\n".join(screen)  # a cell per two text columns
    assert sum(line.split("|")[0].count("@") for line in arena) == 1
    assert any("map: N = #N, @ = this" in line for line in screen)
    # the options name spaces by coordinates; the title says which the '@' is
    assert screen[0].split("|")[0].rstrip().endswith(f"@ ({to[0]},{to[1]})"), screen[0]
    # every other option's space shows its option number (issue 31: the map never showed
    # the coordinates the options name)
    for _, answer in menu[:9]:
        if isinstance(answer, Step) and answer.to != to:
            r, c = standard_arena().text_position((answer.to[0], answer.to[1]))
            first = next(
                n for n, (_, a) in enumerate(menu, 1) if isinstance(a, Step) and a.to == answer.to
            )
            assert arena[r][c // 2] == str(first), "\n".join(screen)
    cast = next(i for i, (_, answer) in enumerate(menu) if not isinstance(answer, Step))
    model.highlight = cast
    assert not any("@" in line.split("|")[0] for line in render(model)[:8])


def test_sovereign_skip_passes_every_priority_window_after_the_usual_pause() -> None:
    from fairtable.client.auto_pass import AutoPass
    from fairtable.client.sovereign.model import ClientModel
    from fairtable.engine.sovereign import answers as A
    from tests.client.test_sovereign_model import model_for
    from tests.client.test_sovereign_model import play as run

    found: list[Any] = []

    def grab(game: Any, d: Any) -> None:
        if d.kind == "window" and not found:
            model, _ = model_for(game, d)
            if any(not isinstance(a, A.Pass) for _, a in model.menu()):
                found.append((game.copy(), d))

    run(["heuristic", "heuristic"], 3, on_decision=grab, round_limit=8)
    assert found, "no window with a reflex to play in the seeded game"
    model, sent = model_for(*found[0])
    assert isinstance(model, ClientModel) and model.only_answer() is None  # a choice to make
    model.command("skip")
    assert model.skip_windows and "passed for you" in model.message
    assert len(model.message) <= 80  # the message line at 80x24
    assert model.decision_line().endswith("passing for you shortly ('skip' is on)")
    auto = AutoPass(model)
    auto.tick(100.0)
    assert not auto.tick(100.5) and sent == []  # never at once: the usual pause first
    assert auto.tick(109.0) and sent == [A.Pass(found[0][1].seat)]
    assert "'skip' is on" in model.message
    model.command("skip")
    assert not model.skip_windows and model.only_answer() is None
    assert "'skip' is on" not in model.decision_line()
    assert "'skip' passes every window" in model.help_text()


def test_join_with_a_code_the_host_no_longer_answers_goes_on_with_the_table_it_led_to(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    import trio

    from fairtable.client import seats
    from fairtable.netplay import Invite, TableFolder, TableInfo

    invite = Invite("127.0.0.1", 9, os.urandom(32), bytes(32), os.urandom(32), "reign", 3)
    seat_dir = tmp_path / "seats" / "1"  # a second seat of this account
    seats.keep_code(seat_dir, invite, "7-amber-ant-ant-ant")
    seats.keep_code(seat_dir, invite, "fairtable://not-a-code")  # an invite: nothing kept
    folder = TableFolder(seat_dir, "tables", invite.lobby_id)
    TableInfo(invite=invite.text(), role="joiner", status="playing").save(folder)

    async def retired(text: str, port: int, *_relay: object) -> Invite:
        raise UsageError("no table on the LAN answers this code")

    monkeypatch.setattr(seats, "invite_from", retired)
    found = trio.run(seats.invite_or_saved, "7-amber-ant-ant-ant", 1, tmp_path)
    assert found == invite
    with pytest.raises(UsageError, match="answers this code"):
        trio.run(seats.invite_or_saved, "8-amber-ant-ant-ant", 1, tmp_path)
    TableInfo(invite=invite.text(), role="joiner", status="finished").save(folder)
    with pytest.raises(UsageError):  # a finished game is not gone on with
        trio.run(seats.invite_or_saved, "7-amber-ant-ant-ant", 1, tmp_path)


def test_sodalis_help_explains_the_champion_lines_flags() -> None:
    from tests.client.test_sodalis_screen import turn_model

    model = turn_model()[0]
    assert "Si sight" in model.help_text() and "C confused, S slowed" in model.help_text()


@pytest.mark.parametrize("game", ["reign", "sodalis", "sovereign"])
def test_the_status_line_says_an_answer_is_being_sent_not_your_move(game: str) -> None:
    from fairtable.client.screen_model import SENDING
    from fairtable.netplay import events as ev
    from tests.client.test_ending import asked

    model, sent = asked(game)
    assert "your move" in model.status
    model.command("#1")
    assert len(sent) == 1
    assert SENDING in model.status and "your move" not in model.status, model.status
    assert any(SENDING in row for row in render(model))
    model.apply_event(ev.AnswerRefused(reason="not now"))  # not taken: our move again
    assert "your move" in model.status and SENDING not in model.status
    model.command("#1")
    model.answered()  # taken: no longer ours
    assert SENDING not in model.status and "your move" not in model.status, model.status


def test_sodalis_marks_the_highlighted_placement_on_the_map() -> None:
    """A highlighted placement is marked '@' on the map, as a highlighted move is."""
    from fairtable.engine.sodalis.answers import Place
    from fairtable.engine.sodalis.arena import standard_arena
    from fairtable.engine.sodalis.decisions import SodalisDecisionKind
    from tests.client.test_sodalis_model import model_for, play

    found: list[Any] = []

    def grab(game: Any, d: Any) -> None:
        if d.kind == SodalisDecisionKind.PLACE and not found:
            found.append((game.copy(), d))

    play(4, 1, ["random"] * 4, round_limit=3, on_decision=grab)
    model = model_for(*found[0])[0]
    menu = model.menu()
    places = [i for i, (_, answer) in enumerate(menu) if isinstance(answer, Place)]
    assert len(places) > 1
    for i in places:
        model.highlight = i
        space = menu[i][1].space
        row, col = standard_arena().text_position((space[0], space[1]))
        screen = render(model)
        arena = screen[1:8]
        assert arena[row][col // 2] == "@", "\n".join(screen)
        assert sum(line.split("|")[0].count("@") for line in arena) == 1
        assert screen[0].split("|")[0].rstrip().endswith(f"@ ({space[0]},{space[1]})")
        assert any("map: N = #N, @ = this" in line for line in screen)
