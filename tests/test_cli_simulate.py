"""``fairtable simulate``: the command a user runs, its output and its errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairtable.client.cli import main

FIELDS = {"game", "players", "seed", "winner", "rounds", "decisions", "digest"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fairtable.client.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_simulate_json_prints_one_line_per_game_with_the_promised_fields() -> None:
    done = run("simulate", "reign", "--players", "4", "--games", "3", "--seed", "5", "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    games = [json.loads(line) for line in lines]
    for index, game in enumerate(games):
        assert set(game) >= FIELDS
        assert game["game"] == "reign" and game["players"] == 4 and game["seed"] == 5 + index
        assert game["winner"] is None or 0 <= game["winner"] < 4
        assert len(game["digest"]) == 64 and int(game["digest"], 16) >= 0


def test_simulate_the_same_command_prints_the_same_bytes() -> None:
    args = (
        "simulate",
        "reign",
        "--players",
        "6",
        "--games",
        "4",
        "--seed",
        "11",
        "--json",
        "--bots",
        "heuristic,random,random,heuristic,random,random",
    )
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout


def test_simulate_game_i_is_replayed_alone_with_seed_plus_i() -> None:
    many = run("simulate", "reign", "--players", "3", "--games", "3", "--seed", "20", "--json")
    alone = run("simulate", "reign", "--players", "3", "--games", "1", "--seed", "22", "--json")
    assert many.stdout.splitlines()[2] == alone.stdout.strip()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "2"], "3 to 7 players"),
        (["--players", "4", "--bots", "random,random"], "names 2 bots but the table has 4"),
        (["--players", "3", "--bots", "random,genius,random"], "unknown bot 'genius'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--players", "3", "--bots", "search:fast,random,random"], "search:fast: give seconds"),
        (["--players", "3", "--bots", "search:-1,random,random"], "(0 < s <= 600)"),
        (["--players", "3", "--bots", "heuristic:2,random,random"], "unknown bot 'heuristic:2'"),
        (["--seed", "-1"], "--seed must be a non-negative"),
        (["--depart", "1@2"], "--depart needs --crypto"),
        (["--crypto", "--depart", "1@two"], "write SEAT@DECISION"),
        (["--crypto", "--depart", "1@2:gone"], "':leave' (on purpose) or ':vanish'"),
        (["--crypto", "--depart", "1@2", "--depart", "1@3:vanish"], "a seat leaves once"),
        (["--crypto", "--players", "4", "--depart", "4@1"], "from 0 to 3"),
        (["--crypto", "--depart", "1@0"], "at its decision 1 or later"),
    ],
)
def test_simulate_bad_arguments_get_a_clear_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "reign", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_simulate_text_output_names_each_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "reign", "--players", "5", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1: seed 1,") and "winner" in out[0]
    assert out[-1].startswith("wins -- ")


def test_simulate_sodalis_names_the_winning_team_with_and_without_crypto(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bots = "heuristic,random,heuristic,random"
    assert (
        main(["simulate", "sodalis", "--players", "4", "--games", "2", "--bots", bots, "--json"])
        == 0
    )
    games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [g["game"] for g in games] == ["sodalis", "sodalis"]
    assert all(g["winner"] in ("dawn", "dusk", None) for g in games)
    assert all(set(g["tributes"]) == {"dawn", "dusk"} for g in games)
    assert (
        main(
            [
                "simulate",
                "sodalis",
                "--players",
                "2",
                "--crypto",
                "--json",
                "--bots",
                "heuristic,random",
                "--log",
                str(tmp_path),
            ]
        )
        == 0
    )
    crypto = json.loads(capsys.readouterr().out)
    assert crypto["crypto"] and crypto["winner"] in ("dawn", "dusk", None)
    assert crypto["messages"] > 0 and len(crypto["digest"]) == 64
    assert main(["audit", str(tmp_path / "sodalis-seed0-seat0.log")]) == 0
    verdict = " ".join(capsys.readouterr().out.split())  # rows of 80 columns, joined
    assert verdict.startswith("OK ") and ("team " in verdict or "nobody" in verdict)


def test_simulate_sodalis_refuses_odd_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "sodalis", "--players", "3"]) == 2
    assert "Sodalis is for 2, 4 or 6 players" in capsys.readouterr().err


def test_simulate_takes_a_search_bot_with_its_seconds_a_decision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "simulate",
                "reign",
                "--players",
                "3",
                "--seed",
                "2",
                "--bots",
                "search:0.01,heuristic,random",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("game 1: seed 2")


def test_simulate_crypto_depart_names_the_seat_that_left_and_the_others_finish(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Reign, 4 seats: seat 1 leaves at its third decision; the others end on one digest."""
    args = ["simulate", "reign", "--players", "4", "--crypto", "--depart", "1@3:leave", "--json"]
    assert main(args) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["departed"] == [1]
    assert "verdict" not in line and line["end"] == "won" and len(line["digest"]) == 64


def test_simulate_crypto_depart_vanish_names_the_seat_that_vanished_and_the_others_finish(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Reign, 4 seats: seat 1 goes silent for good at its third decision; the table's rule
    is go-on, so the others recover its part and end on one digest."""
    args = ["simulate", "reign", "--players", "4", "--crypto", "--depart", "1@3:vanish", "--json"]
    assert main(args) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["departed"] == [1] and line["vanished"] == [1]
    assert "verdict" not in line and line["end"] == "won" and len(line["digest"]) == 64
