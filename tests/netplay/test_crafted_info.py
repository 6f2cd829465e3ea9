"""A crafted ``table.json`` whose fields hold the wrong shapes (issue 29, saved tables): a
start or a last-played time of another type, or a time past any clock, is refused where the
file is read -- ``resume --list`` lists the readable tables and skips it, ``audit`` says so in
one line -- instead of stopping whichever reader meets the value first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairtable.client.cli import main
from fairtable.netplay import Invite

INVITE = Invite("192.0.2.20", 4711, bytes(32), bytes(range(32)), bytes(32), "reign", 3).text()


def _folder(data_dir: Path, name: str, info: dict[str, object]) -> Path:
    folder = data_dir / "tables" / (name * 64)
    folder.mkdir(parents=True)
    (folder / "table.json").write_text(json.dumps(info))
    (folder / "log").write_bytes(b"")
    return folder


@pytest.mark.parametrize(
    "crafted",
    [{"last_played": "yesterday"}, {"last_played": 10**17}, {"start": 5}, {"seat": "one"}],
    ids=["time-text", "time-past-any-clock", "start-number", "seat-text"],
)
def test_resume_list_skips_a_table_json_of_the_wrong_shapes(
    crafted: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {"invite": INVITE, "role": "joiner", "status": "playing", "last_played": 1_700_000_000}
    _folder(tmp_path, "a", good)
    _folder(tmp_path, "b", {**good, **crafted})
    capsys.readouterr()
    code = main(["resume", "--list", "--data-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "unexpected error" not in out + err
    assert code == 0
    assert out.count("Reign") == 1, out


def test_audit_of_a_table_json_whose_start_is_a_number_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(
        tmp_path, "c", {"invite": INVITE, "role": "joiner", "status": "playing", "start": 5}
    )
    capsys.readouterr()
    code = main(["audit", str(folder)])
    out, err = capsys.readouterr()
    text = (out + err).strip()
    assert code == 1 and len(text.splitlines()) == 1 and "'start'" in text, text
