"""``fairtable replay`` in a real terminal (tmux at 80x24, :mod:`tests.client.tmux`): step
forward and back through a finished game of each game, by step, round and ``g N``, and
open hands showing the card a seat privately drew at the step it drew it."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fairtable.client.reign.words import card_label
from fairtable.engine.reign import events as E
from fairtable.protocol import replay_log
from tests.client import tmux as term
from tests.client.replay_tables import log_file, played

session = term.session  # 80x24, the floor the console is built for


def wait_for(name: str, seen: Callable[[str], bool], what: str, seconds: float = 60) -> str:
    return term.wait_for(name, seen, seconds, what, joined=True)


def keys(name: str, *typed: str) -> None:
    term.tmux("send-keys", "-t", name, *typed)


@pytest.mark.parametrize("game", ["reign", "sovereign", "sodalis"])
def test_replay_steps_back_and_forth(game: str, tmp_path: Path) -> None:
    spec, _ = played(game)
    path = log_file(tmp_path, game)
    replay = replay_log(spec, played(game)[1][0].entries())
    total = len(replay.steps)
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli replay {shlex.quote(str(path))}"
        "; echo EXITED; sleep 60"
    )
    with session(command) as name:
        wait_for(name, lambda s: f"step 1/{total} " in s, "the first step")
        keys(name, "Right")
        keys(name, "Right")
        keys(name, "Right")
        wait_for(name, lambda s: f"step 4/{total} " in s, "three steps on")
        keys(name, "Left")
        wait_for(name, lambda s: f"step 3/{total} " in s, "one step back")
        keys(name, "End")
        end = wait_for(name, lambda s: f"step {total}/{total} " in s, "the last step")
        assert "game over at step" in end  # the ending is said where it happened
        rows = term.screen(name).rstrip("\n").split("\n")
        prompt = max(i for i, row in enumerate(rows) if row.startswith(">"))
        said = " ".join(row.strip() for row in rows[prompt - 4 : prompt])
        assert "-- game over at step" in said, rows  # the message, never cut (issue 31)
        assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), rows
        keys(name, "PageUp")
        back = wait_for(name, lambda s: f"step {total}/{total} " not in s, "a round back")
        rnd = replay.steps[-1].view.public.get("round")
        assert f", round {rnd}" in back.splitlines()[0]  # the first step of the last round
        keys(name, "Home")
        wait_for(name, lambda s: f"step 1/{total} " in s, "the first step again")
        keys(name, "PageDown")
        wait_for(name, lambda s: f"step 1/{total} " not in s, "a round on")
        keys(name, "g 5", "Enter")
        wait_for(name, lambda s: f"step 5/{total} " in s, "g 5")
        keys(name, "q")
        wait_for(name, lambda s: "EXITED" in s, "the replay to quit")


def test_open_hands_show_a_drawn_card_at_its_step(tmp_path: Path) -> None:
    spec, sessions = played("reign")
    path = log_file(tmp_path, "reign")
    replay = replay_log(spec, sessions[0].entries())
    draw = next(
        i
        for i, st in enumerate(replay.steps)
        if i
        and st.kind == "deal"
        and any(isinstance(e, E.Draw) for e in st.events)
        and st.seats == (1,)
    )
    before, after = replay.open_hands(draw - 1)[1], replay.open_hands(draw)[1]
    card = next(c for c in after if c not in before)
    total = len(replay.steps)
    command = (
        f"{shlex.quote(sys.executable)} -m fairtable.client.cli replay {shlex.quote(str(path))}"
        "; echo EXITED; sleep 60"
    )
    with session(command) as name:
        wait_for(name, lambda s: f"step 1/{total} " in s, "the first step")
        keys(name, f"g {draw}", "Enter")  # the step before the draw (steps count from 1)
        wait_for(name, lambda s: f"step {draw}/{total} " in s, "the step before the draw")
        label = card_label(card)  # open hands name cards as the game's screen does
        keys(name, "o")
        shown = wait_for(name, lambda s: "OPEN HANDS" in s, "open hands")
        held = shown.count(label)  # other copies of the card may be held already
        keys(name, "Right")
        shown = wait_for(name, lambda s: f"step {draw + 1}/{total} " in s, "the draw")
        assert shown.count(label) > held and "Open hands (verified)" in shown
        assert card not in shown  # never the internal id
        keys(name, "o")
        hidden = wait_for(name, lambda s: "OPEN HANDS" not in s, "open hands off")
        assert "Open hands" not in hidden
        keys(name, "q")
        wait_for(name, lambda s: "EXITED" in s, "the replay to quit")
