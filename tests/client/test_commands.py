"""The keyboard commands' edges: resume with nothing to resume, join without an invite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fairtable.client.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_resume_with_no_unfinished_game_says_so(tmp_path: Path) -> None:
    done = run("resume", "--data-dir", str(tmp_path))
    assert done.returncode == 0 and "No unfinished games." in done.stdout


def test_join_without_an_invite_asks_for_one_and_refuses_nothing_given(tmp_path: Path) -> None:
    done = run("join", "--data-dir", str(tmp_path), stdin="")
    assert done.returncode == 2
    assert "no invite given" in done.stderr


def test_join_with_a_broken_invite_is_refused_clearly(tmp_path: Path) -> None:
    done = run("join", "fairtable://nowhere", "--data-dir", str(tmp_path))
    assert done.returncode == 2 and "not an invite" in done.stderr


def test_join_with_neither_an_invite_nor_a_code_says_what_each_looks_like(
    tmp_path: Path,
) -> None:
    done = run("join", "nonsense-code", "--data-dir", str(tmp_path))
    assert done.returncode == 2
    assert "neither an invite nor a join code" in done.stderr
    assert "an invite starts with fairtable://" in done.stderr
    assert "a join code is a number and four words, like 7-amber-" in done.stderr
    assert max(len(line) for line in done.stderr.splitlines()) <= 80  # fits a terminal


def test_play_needs_two_to_six_bots(tmp_path: Path) -> None:
    done = run("play", "reign", "--bots", "1", "--data-dir", str(tmp_path))
    assert done.returncode == 2 and "--bots 2 to 6" in done.stderr


def test_a_deck_file_that_breaks_the_deck_building_rules_is_refused_clearly(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "deck.toml"
    bad.write_text('leader = "md-tribune-castra"\ncards = ["ww-sentinels"]\nechoes = []\n')
    for command in (
        ("play", "sovereign", "--bots", "1"),
        ("host", "sovereign", "--seats", "2", "--bot", "random", "--no-announce"),
    ):
        done = run(*command, "--deck", str(bad), "--data-dir", str(tmp_path / "data"))
        assert done.returncode == 1, done.stderr  # a bad file: exit 1
        assert "deck.toml" in done.stderr and "30" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_deck_for_a_game_without_custom_decks_is_refused(tmp_path: Path) -> None:
    done = run(
        "host",
        "reign",
        "--seats",
        "3",
        "--bot",
        "random",
        "--no-announce",
        "--deck",
        str(tmp_path / "x.toml"),
        "--data-dir",
        str(tmp_path),
    )
    assert done.returncode == 2 and "no custom decks" in done.stderr
