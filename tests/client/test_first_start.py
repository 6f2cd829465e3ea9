"""What a newcomer sees first (issue 31, N18): bare ``fairtable`` prints a short start --
the commands to begin with -- and exits 0, and ``fairtable --help`` lists ``play`` first."""

from __future__ import annotations

import pytest

from fairtable.client import cli
from fairtable.client.arguments import build_parser
from fairtable.engine.games import game_names


def test_bare_fairtable_prints_the_commands_to_start_with_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main([]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    for command in ("fairtable play GAME", "fairtable host GAME", "fairtable join"):
        assert command in out, out
    assert "fairtable rules" in out and "fairtable --help" in out, out
    assert all(name in out for name in game_names()) and "required" not in out
    assert all(len(line) <= 80 for line in out.splitlines()), out


def test_help_lists_play_first_and_the_bench_commands_last() -> None:
    listed = [
        line.split()[0]
        for line in build_parser().format_help().split("COMMAND\n", 1)[1].splitlines()
        if line.startswith("    ") and not line.startswith("     ")
    ]
    assert listed[0] == "play", listed
    assert listed.index("simulate") > listed.index("join"), listed
