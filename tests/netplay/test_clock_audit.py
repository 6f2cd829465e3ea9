"""``fairtable audit`` of a game a clock ended: the log stops where the game waited for the
seat whose time ran out, and every seat's copy keeps how its clock ended the game, so the
audit says what the game is -- ended by the clock at that step, no winner -- and not
FAILED (issue 31, new-user run N3).  A kept clock end that does not fit the log changes
nothing: the log still stops before the game ends."""

from __future__ import annotations

from pathlib import Path

import pytest
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.client.cli import main
from fairtable.netplay import SeatClock, saved_table
from tests.netplay.test_clock_tables import ClockTable


async def test_a_game_the_clock_ended_audits_as_ended_by_it_on_every_seat(
    tmp_path: Path, autojump_clock: MockClock, capsys: pytest.CaptureFixture[str]
) -> None:
    table = ClockTable(tmp_path, clock=SeatClock(6.0, 2.0), abandon=60.0)
    await table.play_to_the_end()
    person = table.person
    folders = [node.folder.path for node in table.nodes if node.folder is not None]
    assert len(folders) == len(table.nodes)
    capsys.readouterr()
    for folder in folders:
        assert main(["audit", str(folder)]) == 0, folder
        out = " ".join(capsys.readouterr().out.split())
        assert out.startswith("OK"), out
        assert "by the clock" in out and "ran out of time (no winner" in out, out
        saved = saved_table(folder)
        assert saved.clock_end is not None and saved.clock_end.seat == person
        other = P.ClockEnd((person + 1) % len(folders), saved.clock_end.step, saved.clock_end.kind)
        later = P.ClockEnd(person, saved.clock_end.step + 1, saved.clock_end.kind)
        for wrong in (other, later, None):
            result = P.audit_log(saved.spec, saved.entries, wrong)
            assert not result.ok and "before the game ends" in result.summary
