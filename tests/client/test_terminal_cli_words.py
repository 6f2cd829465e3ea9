"""End to end in real terminals (tmux, 80 columns): the command line's words outside the
game screen (issue 31, S5/S7/S12).

A line the terminal had to fold shows up as a difference between the screen read as it is
and read with folded lines joined again (``tmux capture-pane -J``): every test below checks
that there is none, so each line was broken at words by fairtable itself."""

from __future__ import annotations

import contextlib
import re
import shlex
import tempfile
from pathlib import Path

from tests.client.test_bad_starts import closed_port, invite_to
from tests.client.test_lifecycle import _folder
from tests.client.test_terminal_leaving import _free_udp_port
from tests.client.test_terminal_network import FAIRTABLE, command
from tests.client.tmux import screen, session, tmux, wait_for

CODE = re.compile(r"Friends on this LAN: fairtable join (\d+(?:-[a-z]+){4})")


def _bare(args: str) -> str:
    """A fairtable command that keeps nothing (no data directory), for a tmux session."""
    return f"{FAIRTABLE} {args}; echo EXITED $?; sleep 120"


def _unfolded(name: str) -> str:
    """The screen, checked to hold no line the terminal folded."""
    now = [row.rstrip() for row in screen(name).splitlines()]
    joined = [row.rstrip() for row in screen(name, joined=True).splitlines()]
    assert now == joined, "a line ran over 80 columns:\n" + "\n".join(joined)
    return "\n".join(now)


def test_terminal_a_mistyped_code_word_at_bare_join_is_said_and_asked_again(
    tmp_path: Path,
) -> None:
    """S5/S7: bare ``join`` lists the LAN's tables at 80 columns; a code with a word that is
    no code word is answered with the nearest words and the question again, the list still
    on screen; the right code then seats the player.  ``tables`` lists the table at 80
    columns too."""
    lan = _free_udp_port()
    announce = f"--announce-address 127.255.255.255 --discovery-port {lan}"
    with contextlib.ExitStack() as stack:
        host = stack.enter_context(
            session(
                command(
                    f"host sovereign --seats 2 --bot random --listen-host 127.0.0.1 {announce}",
                    tmp_path / "host",
                )
            )
        )
        opened = wait_for(host, lambda s: CODE.search(s) is not None, 60, "the code", joined=True)
        found = CODE.search(opened)
        assert found is not None
        code = found.group(1)
        number, *words = code.split("-")
        typo = "-".join([number, *words[:-1], words[-1] + "q"])

        listen = f"tables --discovery-port {lan} --seconds 5"  # 2 s between announcements
        tables = stack.enter_context(session(_bare(listen)))
        listed = wait_for(tables, lambda s: "EXITED" in s, 30, "the tables")
        assert f"code {number}-..." in " ".join(listed.split()) and "EXITED 0" in listed
        _unfolded(tables)

        join = stack.enter_context(
            session(command(f"join --discovery-port {lan}", tmp_path / "join"))
        )
        asked = wait_for(join, lambda s: "Join code or invite" in s, 30, "the question")
        assert f"code {number}-..." in " ".join(asked.split())  # the LAN's table, listed
        tmux("send-keys", "-t", join, typo, "Enter")
        again = wait_for(
            join, lambda s: s.count("Join code or invite") == 2, 30, "the question again"
        )
        said = " ".join(again.split())
        assert f"'{words[-1]}q' is not a code word: did you mean" in said, again
        assert "Type it again, or q to leave." in said and "EXITED" not in again
        assert f"code {number}-..." in said  # the list is still there
        _unfolded(join)
        tmux("send-keys", "-t", join, code, "Enter")
        wait_for(join, lambda s: "Echoes to win" in s, 60, "the table's screen")
        tmux("send-keys", "-t", join, "q", "Enter")
        left = wait_for(join, lambda s: "EXITED" in s, 30, "leaving the screen")
        assert "EXITED 0" in left and "fairtable:" not in left, left


def test_terminal_an_error_is_folded_at_words_with_its_path_whole() -> None:
    """The one-line error of a command, on a terminal: broken at spaces to 80 columns, the
    path on a row of its own, whole; exit code 2 as ever."""
    with tempfile.TemporaryDirectory(dir="/tmp") as short:  # a path that fits a row
        in_the_way = Path(short) / "a-file-where-the-data-directory-should-be"
        in_the_way.write_text("a file, not a folder")
        folder = shlex.quote(str(in_the_way))
        run = f"{FAIRTABLE} play reign --bots 2 --data-dir {folder}; echo EXITED $?; sleep 60"
        with session(run) as name:
            now = wait_for(name, lambda s: "EXITED" in s, 30, "the error")
            assert "EXITED 2" in now
            rows = [row.strip() for row in _unfolded(name).splitlines()]
    assert len(f"fairtable: cannot use the data directory {in_the_way}:") > 80
    assert rows[:3] == [
        "fairtable: cannot use the data directory",
        f"{in_the_way}:",  # a row of its own, whole
        "a file is in the way",
    ]


def test_terminal_the_relay_line_and_the_resume_list_keep_to_80_columns(tmp_path: Path) -> None:
    """S7: the relay's first line gives ``--via-key KEY`` a line of its own, whole, and its
    Ctrl-C line keeps to 80 columns; the resume list breaks its lines at words."""
    with session(command("relay --port 0 --listen-host 127.0.0.1", tmp_path / "relay")) as name:
        started = wait_for(name, lambda s: "--via-key" in s, 30, "the relay's key")
        key_line = next(row for row in started.splitlines() if "--via-key" in row)
        assert re.fullmatch(r"  --via-key \S{20,}", key_line.rstrip()), started
        tmux("send-keys", "-t", name, "C-c")
        stopped = wait_for(name, lambda s: "EXITED" in s, 30, "the relay stopping")
        assert "Relay stopped." in stopped
        _unfolded(name)
    for game, seats, turn in (("reign", 3, [1]), ("sodalis", 4, [1, 3])):
        _folder(tmp_path / "data", game, seats, kind="host", status="playing", seat=0, round=2)
        _folder(tmp_path / "data", game, seats, kind="play", status="playing", seat=0, turn=turn)
    with session(command("resume --list", tmp_path / "data")) as name:
        listed = wait_for(name, lambda s: "EXITED" in s, 30, "the resume list")
        assert "EXITED 0" in listed and "(against bots here)" in " ".join(listed.split())
        _unfolded(name)


def test_terminal_watching_a_closed_port_says_connection_refused() -> None:
    """S12: nothing listens at the invite's port: the status line says "connection refused"
    (as the README says), not "unreachable"."""
    invite = shlex.quote(invite_to(closed_port()))
    with session(_bare(f"watch {invite}")) as name:
        shown = wait_for(name, lambda s: "retrying... (attempt" in s, 30, "the retries")
        assert "connection refused; retrying... (attempt" in shown, shown
        assert "unreachable" not in shown
        tmux("send-keys", "-t", name, "q", "Enter")
        wait_for(name, lambda s: "EXITED 0" in s, 30, "leaving the watch screen")


def test_terminal_argparse_refusals_and_help_keep_to_80_columns() -> None:
    """argparse's own refusal (its list of choices runs over 80 columns) is folded at words
    on a terminal like every other error, and the help never breaks a word at a hyphen."""
    with session(_bare("simulate reign --cheat nope")) as name:
        now = wait_for(name, lambda s: "EXITED" in s, 30, "the refusal")
        assert "EXITED 2" in now
        shown = _unfolded(name)
        assert any(row.strip() == "'fairtable simulate --help')" for row in shown.splitlines())
        said = " ".join(shown.split())
        assert "fairtable: argument --cheat: invalid choice: 'nope'" in said
        assert "'invalid-point'" in said and "(see 'fairtable simulate --help')" in said
    with session(_bare("simulate --help"), height=60) as name:
        wait_for(name, lambda s: "EXITED 0" in s, 30, "the help")
        shown = _unfolded(name)
        assert "invalid-point" in shown and "invalid-\n" not in shown


def test_terminal_ctrl_c_after_a_mistyped_code_leaves_without_an_error(tmp_path: Path) -> None:
    """S5: after a refused answer the question is asked again, and Ctrl-C there leaves as
    ``q`` does: "Nothing joined.", no error, exit code 0."""
    lan = _free_udp_port()  # a LAN where nobody announces a table
    with session(command(f"join --discovery-port {lan}", tmp_path)) as name:
        wait_for(name, lambda s: "Join code or invite" in s, 30, "the question")
        tmux("send-keys", "-t", name, "7-amber-falcon-orbit-sandbox", "Enter")
        again = wait_for(name, lambda s: s.count("Join code or invite") == 2, 30, "it again")
        assert "did you mean 'sandbar'?" in again, again
        tmux("send-keys", "-t", name, "C-c")
        left = wait_for(name, lambda s: "EXITED" in s, 30, "leaving")
        assert "Nothing joined." in left and "EXITED 0" in left, left
        assert "fairtable:" not in left and "Traceback" not in left
        _unfolded(name)


def test_terminal_an_invite_pasted_with_its_line_breaks_at_bare_join_is_read_whole(
    tmp_path: Path,
) -> None:
    """A mouse copy of a wrapped invite comes to the question a line at a time: the lines
    that follow are asked for and joined until the invite reads, and the join goes on (to a
    table that is not there: its screen says so, and quitting keeps nothing)."""
    invite = invite_to(closed_port())
    lines = [invite[:70], invite[70:140], invite[140:]]
    with session(command(f"join --discovery-port {_free_udp_port()}", tmp_path)) as name:
        wait_for(name, lambda s: "Join code or invite" in s, 30, "the question")
        for line in lines:
            tmux("send-keys", "-t", name, "-l", "--", line)  # a piece may start with -
            tmux("send-keys", "-t", name, "Enter")
        wait_for(name, lambda s: "connection refused" in s, 30, "the join screen")
        tmux("send-keys", "-t", name, "q", "Enter")
        left = wait_for(name, lambda s: "EXITED" in s, 30, "leaving")
    assert "EXITED 0" in left and "fairtable: " not in left, left  # no error
    assert left.count("the invite goes on") == 2 and "never reached" in left, left


def test_terminal_a_number_not_in_the_resume_list_is_said_and_asked_again(
    tmp_path: Path,
) -> None:
    """As at join's question: "Resume which game?" answered with no game of the list says so
    and asks again (the list still above); ``q`` then leaves without an error."""
    _folder(tmp_path, "reign", 3, kind="play", status="playing", seat=0, round=2, turn=[0])
    with session(command("resume", tmp_path)) as name:
        wait_for(name, lambda s: "Resume which game?" in s, 30, "the question")
        tmux("send-keys", "-t", name, "7", "Enter")
        again = wait_for(name, lambda s: s.count("Resume which game?") == 2, 30, "it again")
        assert "There is no game '7' in the list: type a number from 1 to 1, or q." in again
        assert "1. Reign, 3 seats" in again and "EXITED" not in again
        tmux("send-keys", "-t", name, "q", "Enter")
        left = wait_for(name, lambda s: "EXITED" in s, 30, "leaving")
        assert "Nothing resumed." in left and "EXITED 0" in left, left
        _unfolded(name)
