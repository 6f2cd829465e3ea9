"""``fairtable audit`` on what peers keep on disk: every seat's table folder and the relay's
check out after a finished game over sockets; a damaged log fails, and auditing writes
nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import trio

from fairtable.client.cli import main
from tests.netplay.test_tables import Table


@pytest.fixture
async def finished_relay_table(tmp_path: Path) -> Table:
    table = Table(tmp_path, 3, via_relay=True)
    with trio.fail_after(120):
        await table.play()
    return table


def _folders(table: Table) -> list[Path]:
    seats = [node.folder.path for node in table.nodes if node.folder is not None]
    relay = sorted((table.tmp / "relay" / "relay").iterdir())
    return [*seats, *relay]


async def test_audit_every_peers_saved_table_checks_out(
    finished_relay_table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    folders = _folders(finished_relay_table)
    capsys.readouterr()
    assert len(folders) == 4  # three seats and the relay
    digest = finished_relay_table.results()[0]["digest"]
    for folder in folders:
        for path in (folder, folder / "log"):
            assert main(["audit", str(path), "--json"]) == 0, path
            out = capsys.readouterr().out
            assert '"ok": true' in out and digest in out


async def test_audit_a_damaged_log_fails_and_changes_nothing(
    finished_relay_table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seat = _folders(finished_relay_table)[1]
    copy = tmp_path / "copy"
    shutil.copytree(seat, copy)
    log = copy / "log"
    data = bytearray(log.read_bytes())
    data[len(data) // 2] ^= 0x01  # a flipped bit: that record and the rest cannot be read
    log.write_bytes(bytes(data))
    before = log.read_bytes()
    capsys.readouterr()
    assert main(["audit", str(copy)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAILED") and "damaged record on left unread" in out
    assert log.read_bytes() == before  # the audit read it, and only read it


async def test_audit_names_what_is_not_a_saved_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(tmp_path)]) == 1  # a file it cannot use: exit 1
    assert "not a saved table" in capsys.readouterr().err
    (tmp_path / "log").write_bytes(b"")
    assert main(["audit", str(tmp_path)]) == 1  # a log but no table start anywhere
    assert "no signed table start" in capsys.readouterr().err


async def test_audit_finds_the_relays_copy_by_the_id_the_seats_screens_show(
    finished_relay_table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    """The relay files a table under its relay scope, not the id a seat's screen prints:
    ``audit ID --data-dir`` the relay's finds it by the id in the host's signed start (issue
    31, N19)."""
    seat = _folders(finished_relay_table)[0]
    relay_dir = finished_relay_table.tmp / "relay"
    capsys.readouterr()
    assert main(["audit", seat.name[:12], "--data-dir", str(relay_dir), "--json"]) == 0
    assert '"ok": true' in capsys.readouterr().out


async def test_two_seats_of_one_account_are_one_game_audited_by_its_id(
    finished_relay_table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two windows of one account keep one table twice (``tables/ID`` and
    ``seats/1/tables/ID``): its id names one game, not two tables (issue 31, N5)."""
    first, second = _folders(finished_relay_table)[:2]
    account = tmp_path / "account"
    shutil.copytree(first, account / "tables" / first.name)
    shutil.copytree(second, account / "seats" / "1" / "tables" / first.name)
    capsys.readouterr()
    assert main(["audit", first.name[:12], "--data-dir", str(account)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {first.name[:12]}")
    assert (
        main(
            ["replay", first.name[:12], "--data-dir", str(account), "--export", str(tmp_path / "x")]
        )
        == 0
    )
