"""Crafted saved tables (hostile peers, finding 9): a ``table.json`` nested thousands deep, or
a Reign table signed for two seats, are refused by ``audit`` and ``resume`` with one line --
no traceback -- and their files are left exactly as they were."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

import fairtable.protocol as P
from fairtable.client.cli import main
from fairtable.netplay import Invite
from fairtable.netplay.table._lobby import sign_start


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _folder(data_dir: Path, info: bytes) -> Path:
    folder = data_dir / "tables" / ("ab" * 32)
    folder.mkdir(parents=True)
    (folder / "table.json").write_bytes(info)
    (folder / "log").write_bytes(b"")
    return folder


def _one_line_refusal(capsys: pytest.CaptureFixture[str], code: int) -> str:
    out, err = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in out + err
    text = (err or out).strip()
    # one line -- or one audit verdict, its further rows indented (80 columns, issue 31)
    assert all(row.startswith("  ") for row in text.splitlines()[1:]), text
    return text


def _deep_info(tmp_path: Path) -> Path:
    return _folder(tmp_path, b'{"invite": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def _two_seat_reign(tmp_path: Path) -> Path:
    host = P.Identity.from_seed(bytes(range(32)))
    guest = P.Identity.from_seed(bytes(range(1, 33)))
    spec = P.TableSpec("reign", (host.public.key, guest.public.key), 60, os.urandom(32))
    invite = Invite("127.0.0.1", 4000, os.urandom(32), host.public.key, os.urandom(32), "reign", 2)
    start = sign_start(host, spec, (b"", b""), invite.lobby_id)
    info = (
        f'{{"invite": "{invite.text()}", "role": "joiner", "seat": 1, '
        f'"start": "{P.encode(start).hex()}", "status": "playing"}}'
    ).encode()
    return _folder(tmp_path, info)


@pytest.mark.parametrize("craft", [_deep_info, _two_seat_reign])
def test_hostile_peers_9_audit_of_a_crafted_table_is_one_line_and_writes_nothing(
    craft: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = craft(tmp_path)  # type: ignore[operator]
    before = _snapshot(folder)
    capsys.readouterr()
    text = _one_line_refusal(capsys, main(["audit", str(folder)]))
    assert str(folder) in text or "cannot" in text or "FAILED" in text
    assert _snapshot(folder) == before


@pytest.mark.parametrize("craft", [_deep_info, _two_seat_reign])
def test_hostile_peers_9_resume_skips_a_crafted_table_and_writes_nothing(
    craft: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = craft(tmp_path)  # type: ignore[operator]
    before = _snapshot(folder)
    capsys.readouterr()
    code = main(["resume", "--list", "--data-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code == 0
    assert _snapshot(folder) == before


def test_audit_answers_in_rows_of_80_columns_and_never_breaks_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31: ``fairtable audit ID --data-dir DIR`` printed its verdict in one line longer
    than 80 columns (the terminal folded it mid-word); it now breaks at spaces, further rows
    indented, and a path too long to share a row stands alone on its own row, whole."""
    folder = _two_seat_reign(tmp_path)
    capsys.readouterr()
    assert main(["audit", folder.name[:12], "--data-dir", str(tmp_path)]) == 1
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith(f"FAILED {folder.name[:12]}: ") and len(rows) > 1, rows
    assert all(len(row) <= 80 for row in rows), rows
    assert all(row.startswith("  ") and row[2] != " " for row in rows[1:]), rows
    assert main(["audit", str(folder)]) == 1
    whole = capsys.readouterr().out.splitlines()
    assert whole[:2] == ["FAILED", f"  {folder}"], whole  # the path whole, on a row of its own
    assert all(len(row) <= 80 for row in whole[2:]), whole
    said = " ".join(" ".join(whole[2:]).split())
    assert said == " ".join(" ".join(rows).split()).split(": ", 1)[1], (said, rows)
