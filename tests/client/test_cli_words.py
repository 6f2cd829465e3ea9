"""The command line's words outside the game screen (issue 31, S5/S7/S12): a mistyped code
word names the nearest ones, printed lines are folded at words to the terminal's width, the
resume list names a player's turn by the player's name, a team is spelled as the screen
spells it, and a closed port is "connection refused", not "unreachable"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import attrs
import pytest
import trio

from fairtable.client import cli
from fairtable.client.lifecycle import game_line
from fairtable.client.netcli import describe
from fairtable.client.text_rows import fold, terminal_width
from fairtable.engine.outcome import Outcome
from fairtable.engine.sodalis.team import Team
from fairtable.netplay import (
    Invite,
    JoinCode,
    JoinCodeError,
    NodeConfig,
    ReachFailure,
    TableInfo,
    saved_names,
    watch_table,
)
from fairtable.netplay import events as ev
from fairtable.netplay.lan._codewords import WORDS, nearest_words
from tests.client.test_bad_starts import closed_port, invite_to
from tests.netplay.test_tables import Table


def test_a_mistyped_code_word_is_refused_with_the_nearest_code_words() -> None:
    with pytest.raises(JoinCodeError, match=r"^'sandbox' is not a code word: did you mean "):
        JoinCode.parse("7-amber-falcon-orbit-sandbox")
    assert "sandbar" in nearest_words("sandbox")
    assert nearest_words("elevatr") == ("elevator",)  # a letter left out
    assert "amber" in nearest_words("ambre")  # two letters swapped: one edit
    assert nearest_words("qqqqqqq") == ()  # nothing close: no guess
    with pytest.raises(JoinCodeError, match=r"is not a code word \(check the spelling\)$"):
        JoinCode.parse("7-amber-falcon-orbit-qqqqqqq")
    assert all(word not in nearest_words(word) for word in WORDS[:50])  # never itself


def test_a_mistyped_code_word_offers_every_word_at_the_nearest_distance() -> None:
    """A new user typed 'grave' for 'gravy' and was offered 'brave', 'grape' and 'gravel'
    only: the list was cut at three though five words are one letter away."""
    assert nearest_words("grave") == ("brave", "grape", "gravel", "gravy", "grove")
    with pytest.raises(JoinCodeError) as refused:
        JoinCode.parse("41-create-braid-sausage-grave")
    assert str(refused.value) == (
        "'grave' is not a code word: did you mean 'brave', 'grape', 'gravel', 'gravy' or 'grove'?"
    )
    assert len(nearest_words("lare")) == 5  # more than a handful that near: a handful


def test_a_code_given_on_the_command_line_still_ends_join_with_the_error(
    tmp_path: Path,
) -> None:
    """Scripts: the error and exit code 2, at once, in one line (stderr is no terminal)."""
    done = subprocess.run(
        [sys.executable, "-m", "fairtable.client.cli", "join", "7-amber-falcon-orbit-sandbox"]
        + ["--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "fairtable: not a join code: 'sandbox' is not a code word: did you mean 'sandbar'?"
    ]


def test_printed_lines_fold_at_words_and_keep_what_is_copied_whole() -> None:
    assert terminal_width() == 80  # pytest's stdout is no terminal
    line = (
        "  sovereign at 127.0.0.1:38413, 1 of 2 seats free, host Ada (random) (key 7518a1e9), "
        "code 93-...; if a player vanishes, the game ends"
    )
    rows = fold(line).split("\n")
    assert all(len(row) <= 80 for row in rows) and rows[1].startswith("    ")
    assert " ".join(" ".join(rows).split()) == " ".join(line.split())  # no word broken
    path = "/home/ada/.local/share/fairtable/tables/" + "c" * 64
    said = fold(f"fairtable: cannot use {path}: a file is in the way").split("\n")
    assert said == ["fairtable: cannot use", f"  {path}:", "  a file is in the way"]
    command = "  fairtable watch 'fairtable://" + "x" * 120 + "'"
    assert fold(command) == command  # a command to type stays one line, to be copied
    assert fold("short\n  lines stay") == "short\n  lines stay"
    hint = "fairtable: " + "word " * 12 + "(see 'fairtable simulate --help')"
    assert fold(hint).split("\n")[-1] == "  'fairtable simulate --help')"  # quoted: one piece


def test_the_relay_start_line_gives_its_key_a_line_of_its_own() -> None:
    key = "k" * 43
    text = describe(ev.RelayOpen(port=17777, tables=3, dropped=0, key=key))
    assert text.split("\n") == [
        "Relay listening on port 17777 (3 tables on disk); hosts pin it with:",
        f"  --via-key {key}",
    ]


def test_a_team_is_spelled_as_the_screen_spells_it() -> None:
    """The audit says "winner team Dawn" (it words the outcome so), as the screen does."""
    won = Outcome.of_team(Team.DAWN, (0, 2))
    assert Team.DAWN.display == "Dawn" and won.words() == "team Dawn"
    assert won.plain() == "dawn"  # what logs and JSON lines write stays as it was
    result = {"seed": 1, "winner": "dusk", "rounds": 3, "decisions": 9, "digest": "d" * 16}
    assert "winner team Dusk" in cli._describe(0, result, ["random", "random"])  # noqa: SLF001


async def test_the_resume_list_names_the_player_whose_turn_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A joined seat's resume line says "Ann's turn" (the name its table's signed start
    gives), not "seat 0's turn"."""

    class Named(Table):
        def config(self, index: int, via: tuple[str, int] | None) -> NodeConfig:
            return attrs.evolve(super().config(index, via), name=("Ann", "Bob", "Cyd")[index])

    table = Named(tmp_path, 3, via_relay=False, round_limit=1)
    with trio.fail_after(120):
        await table.play()
    joiner = table.nodes[1].folder
    assert joiner is not None
    info = TableInfo.load(joiner)
    names = saved_names(info)  # seats are taken in the order joiners come: the host's is 0
    assert names[0] == "Ann" and sorted(names) == ["Ann", "Bob", "Cyd"]
    waiting = info.but(status="playing", round=2, turn=(0,), kind="join")
    line = game_line(1, waiting, "reign", 3, names=names)
    assert "Ann's turn" in line and "seat 0" not in line, line
    waiting.save(joiner)
    data_dir = joiner.path.parent.parent  # <data dir>/tables/<id>
    assert cli.main(["resume", "--list", "--data-dir", str(data_dir)]) == 0
    listed = capsys.readouterr().out
    assert "Ann's turn (you joined)" in listed, listed
    assert all(len(row) <= 80 for row in listed.splitlines())
    both = info.but(status="playing", round=2, turn=(0, 1, 2), seat=1)
    assert f"Ann, you, {names[2]} to decide" in game_line(1, both, "reign", 3, names=names)
    assert saved_names(TableInfo()) == ()  # never started: no names, no error


async def test_watching_a_closed_port_says_connection_refused() -> None:
    """Nothing listens there: "connection refused", a typed reason, not "unreachable"."""
    heard: list[str] = []
    invite = Invite.parse(invite_to(closed_port()))
    with trio.fail_after(30):
        with trio.CancelScope() as watching:

            def retried(address: str, why: str, attempt: int, delay: float) -> None:
                heard.append(why)
                if attempt >= 2:
                    watching.cancel()

            await watch_table(invite, lambda event, session: None, on_retry=retried)
    assert len(heard) >= 2
    assert all(why == ReachFailure.REFUSED == "connection refused" for why in heard)
