"""``fairtable play --seed N`` (client.seeded): the same seed and the same answers give the
same game -- the very game ``simulate --crypto`` plays with that seed when our seat answers
as its heuristic bot would -- and only ``play`` takes a seed, with bots that do not think
against the clock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from fairtable.client.errors import UsageError
from fairtable.client.games import bot_maker
from fairtable.client.options import parse
from fairtable.client.seeded import SeededTable
from fairtable.client.simulate import run_crypto_game
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import ResignRequest
from fairtable.netplay import events as ev


def _played(game: str, seed: int, bots: int, *, resign: bool = False) -> list[Any]:
    """The events a screen is told at a seeded table where our seat answers as the heuristic
    bot seeded as ``simulate`` seeds seat 0 (or, ``resign``, gives up at its first move)."""
    table = SeededTable(game, seed, ("heuristic",) * bots, pace=0.0, name="me")
    me = bot_maker(game, "heuristic")(ChanceStream.from_int(seed).child("bot/0"))
    told: list[Any] = []

    async def main() -> None:
        to_screen, screen = trio.open_memory_channel[ev.NodeEvent](0)
        answer_in, answers = trio.open_memory_channel[Any](16)
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(table.network(), to_screen, answers)
                async for event in screen:
                    told.append(event)
                    if isinstance(event, ev.DecisionAsked):
                        answer = (
                            ResignRequest() if resign else me.decide(event.view, event.decision)
                        )
                        await answer_in.send(answer)
                    if isinstance(event, (ev.GameOver, ev.Resigned, ev.Verdict)):
                        break

    trio.run(main)
    return told


def _steps(told: list[Any]) -> list[Any]:
    return [
        tuple(e.as_tuple() for e in event.events)
        for event in told
        if isinstance(event, ev.ViewChanged)
    ]


@pytest.mark.parametrize("game, bots", [("reign", 2), ("sovereign", 1)])
def test_seeded_play_is_simulate_crypto_game_of_the_same_seed(game: str, bots: int) -> None:
    told = _played(game, 7, bots)
    over = [event for event in told if isinstance(event, ev.GameOver)]
    assert len(over) == 1, told[-3:]
    result, _ = run_crypto_game(game, bots + 1, 7, ["heuristic"] * (bots + 1))
    assert over[0].digest == result["digest"]
    assert told[0] == ev.Seated(
        0,
        bots + 1,
        told[0].table_id,
        clock=told[0].clock,
        names=("me", "Ada (heuristic)", "Blaise (heuristic)", "Cyra (heuristic)")[: bots + 1],
        leavers=told[0].leavers,
    )
    again = _played(game, 7, bots)
    assert _steps(again) == _steps(told)
    other = _played(game, 8, bots)
    assert _steps(other) != _steps(told)


def test_seeded_play_resigned_ends_the_screen_side() -> None:
    """Reign at three seats goes on without us: the screen is told the rest as a spectator
    is (the public view, no hand, nothing asked), to the game's end (issue 31)."""
    told = _played("reign", 3, 2, resign=True)
    (left,) = [i for i, e in enumerate(told) if isinstance(e, ev.Departed) and e.you]
    rest = told[left + 1 :]
    assert isinstance(rest[-1], ev.GameOver), rest[-1]
    views = [e.view for e in rest if isinstance(e, ev.ViewChanged)]
    assert views and all(v.seat is None and v.hand == () for v in views)
    assert not any(isinstance(e, (ev.DecisionAsked, ev.CardsShown)) for e in rest)
    assert not any(isinstance(e, ev.Departed) and e.seat == 0 for e in rest)  # said once


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--bots", "hard,heuristic"], "thinks against the clock"),
        (["--bots", "heuristic,search:0.5"], "thinks against the clock"),
        (["--clock", "10m"], "without --clock"),
    ],
)
def test_seeded_play_refuses_what_would_not_repeat(argv: list[str], said: str) -> None:
    with pytest.raises(UsageError, match=said):
        parse(["play", "reign", "--seed", "3", *argv])


def test_only_play_takes_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse(["play", "reign", "--seed", "3"]).seed == 3  # type: ignore[union-attr]
    assert parse(["play", "reign"]).seed is None  # type: ignore[union-attr]
    for argv in (["host", "reign", "--seats", "2"], ["join", "ABC"]):
        with pytest.raises(SystemExit):
            parse([*argv, "--seed", "3"])
        assert "unrecognized arguments: --seed" in capsys.readouterr().err


def test_a_seeded_game_never_says_it_is_saved(tmp_path: Path) -> None:
    """A seeded game is kept nowhere: its end says so, and how to play it again, instead of
    "The game is saved" (plain lines, typed ``1`` at every decision)."""
    command = [sys.executable, "-m", "fairtable.client.cli", "play", "reign", "--bots", "2"]
    command += ["--seed", "3", "--pace", "0", "--plain", "--data-dir", str(tmp_path)]
    done = subprocess.run(command, input="1\n" * 400, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert "Game over:" in done.stdout, done.stdout[-2000:]
    assert "A seeded game is not kept" in done.stdout
    assert "saved" not in done.stdout.lower(), done.stdout[-2000:]
    assert not (tmp_path / "tables").exists()  # nothing kept
