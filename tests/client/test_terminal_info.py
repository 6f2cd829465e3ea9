"""End to end in a real terminal (tmux, 80x24 and 120x40): ``info`` shows a card's whole text
in each game, a long menu says what it cannot show ("+N more below"), and the log scrolls
back (PgUp) to the first line of the game and forward again (PgDn).  Each game is seeded
(``play --seed``), so every run meets the same decisions."""

from __future__ import annotations

import contextlib
import shlex
import sys
from pathlib import Path

import pytest

from tests.client.tmux import asked, screen, session, tmux, wait_for


def play(game: str, tmp_path: Path, *extra: str) -> str:
    bots = 2 if game == "reign" else 1
    return (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli play {game} --bots {bots} "
        "--pace 0.05 --seed 1 "
        f"{' '.join(extra)} --data-dir {shlex.quote(str(tmp_path))}; echo EXITED; sleep 60"
    )


def keys(name: str, *typed: str) -> None:
    tmux("send-keys", "-t", name, *typed)


def fresh(now: str) -> bool:
    """A decision is asked and the last answer is not still on its way."""
    return asked(now) and "Sent; waiting" not in now


def answer(name: str, was: str) -> None:
    """Type ``#1`` at a screen asking (``was``) and poll until the screen changes (bounded:
    the same question asked again may leave it unchanged, so this gives up after 10 s)."""
    keys(name, "#1", "Enter")
    with contextlib.suppress(AssertionError):  # the next decision drew the very same screen
        wait_for(name, lambda s: s != was, 10, "the answer taken")


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_terminal_reign_info_shows_a_hand_cards_text_and_the_log_scrolls_to_its_start(
    tmp_path: Path, width: int, height: int
) -> None:
    with session(play("reign", tmp_path), width, height) as name:
        wait_for(name, asked, 60, "a Reign decision")
        keys(name, "info 1", "Enter")
        now = wait_for(name, lambda s: "(hand 1):" in s, 10, "the text of hand card 1")
        assert "military card" in now or "event" in now
        keys(name, "Escape")
        for _ in range(12):  # the bots' turns fill the log; answer until it scrolls
            now = wait_for(name, fresh, 60, "a Reign decision")
            if "earlier: PgUp" in now:
                break
            answer(name, now)
        assert "earlier: PgUp" in now, now
        for _ in range(30):
            if "The game starts: you are" in screen(name):
                break
            keys(name, "PPage")
            wait_for(name, lambda s, was=now: s != was, 5, "the log scrolled")
            now = screen(name)
        now = screen(name)
        assert "The game starts: you are" in now and "newer: PgDn" in now, now
        for _ in range(30):
            if "newer: PgDn" not in screen(name):
                break
            keys(name, "NPage")
            wait_for(name, lambda s, was=now: s != was, 5, "the log scrolled back")
            now = screen(name)
        assert "newer: PgDn" not in screen(name)
        lines = screen(name).splitlines()
        assert len(lines) <= height and all(len(line) <= width for line in lines)


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_terminal_sovereign_info_and_a_long_menu_says_what_is_below(
    tmp_path: Path, width: int, height: int
) -> None:
    with session(play("sovereign", tmp_path, "--round-limit 3"), width, height) as name:
        now = wait_for(name, asked, 60, "the mulligan")
        keys(name, "info 1", "Enter")
        now = wait_for(name, lambda s: "(hand 1):" in s, 10, "the text of hand card 1")
        assert "cost" in now
        keys(name, "keep", "Enter")
        for _ in range(40):  # answer until a forge menu is longer than 80x24's pane
            now = wait_for(name, lambda s: fresh(s) or "Game over" in s, 60, "a decision")
            if "more below" in now or " #10 " in now or "Game over" in now:
                break
            answer(name, now)
        if height == 24:
            assert "more below (Down, or type #N)" in now, now
        else:  # the taller screen uses its room: ten options and more
            assert " #10 " in now, now
        keys(name, "Down")
        now = wait_for(name, lambda s: ">#2 " in s, 5, "the highlight on #2")
        keys(name, "F2")
        wait_for(
            name,
            lambda s: "(in this option):" in s or "names no card" in s,
            5,
            "the highlighted option's card text",
        )


def test_terminal_sodalis_info_shows_a_champion(tmp_path: Path) -> None:
    with session(play("sodalis", tmp_path, "--round-limit 2")) as name:
        for _ in range(10):
            now = wait_for(name, fresh, 60, "a Sodalis decision")
            if "Decide (champion)" in now:
                break
            answer(name, now)
        keys(name, "info #1", "Enter")
        now = wait_for(name, lambda s: "(in this option): Champion" in s, 10, "the champion's text")
        assert "inertia" in now and "life" in now


def test_terminal_reign_a_bad_pick_is_refused_at_once_with_the_reason(tmp_path: Path) -> None:
    with session(play("reign", tmp_path)) as name:
        for _ in range(20):  # '#1' until this seat is asked its covert backing
            now = wait_for(name, lambda s: fresh(s) or "Game over" in s, 60, "a decision")
            if "Decide (covert)" in now:
                break
            answer(name, now)
        assert "Decide (covert)" in now, now
        keys(name, "1>9", "Enter")
        now = wait_for(
            name, lambda s: "Not allowed: there is no seat 9" in s, 10, "the bad pick refused"
        )
        assert "-> seat 9" not in now  # nothing was picked
