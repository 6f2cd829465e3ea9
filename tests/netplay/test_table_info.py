"""``table.json`` is one typed record, :class:`netplay.TableInfo`, owned by netplay: it writes
the bytes a peer has always written, reads every file a peer wrote before (keys it does not
know kept as they were), refuses a file that is no table description with one typed error,
and is the only way table.json is read or written (the client never sets one of its keys)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fairtable.netplay import (
    Invite,
    StorageError,
    TableFolder,
    TableInfo,
    TableInfoError,
    TableKind,
    TableRole,
    keep_bots,
    set_aside,
)
from fairtable.netplay.storage import resumable_table

ROOT = Path(__file__).parents[2]

PLAYING = {
    "bot_specs": ["hard", "search:0.5"],
    "bots": 2,
    "created": 1_764_600_000,
    "invite": "an invite's text",
    "kind": "play",
    "last_played": 1_764_600_321,
    "port": 40123,
    "role": "host",
    "round": 3,
    "seat": 0,
    "start": "ab01",
    "status": "playing",
    "turn": [1, 2],
}


def _as_written(info: dict[str, object]) -> bytes:
    """The bytes of a table.json as peers wrote it before it was a record."""
    return json.dumps(info, sort_keys=True, indent=1).encode("utf-8")


@pytest.mark.parametrize(
    "raw",
    [
        PLAYING,
        {**PLAYING, "status": "finished", "end": "resigned", "resigned": 1, "turn": "over"},
        {"invite": "x", "role": "joiner", "status": "lobby", "port": 0},
        {"invite": "x", "role": "host", "status": "lobby", "created": 1_700_000_000, "x": [1]},
    ],
    ids=["playing", "resigned", "lobby", "unknown-key"],
)
def test_a_table_json_reads_into_the_record_and_writes_the_same_bytes(
    raw: dict[str, object],
) -> None:
    info = TableInfo.parse(_as_written(raw), "table.json")
    assert info.encode() == _as_written(raw)
    assert TableInfo.parse(info.encode(), "table.json") == info
    assert type(info.role) is TableRole and info.hosted == (raw["role"] == "host")


def test_an_old_file_loads_and_keeps_what_this_version_does_not_know(tmp_path: Path) -> None:
    old: dict[str, object] = {"invite": "x", "role": "host", "status": "playing", "notes": [1]}
    folder = TableFolder.at(tmp_path)
    folder.info_path.write_bytes(_as_written(old))
    info = TableInfo.load(folder)
    assert info.kind is None and info.hosted and info.unfinished  # made before kinds were kept
    info.but(last_played=1_764_600_000).save(folder)
    assert json.loads(folder.info_path.read_bytes()) == {**old, "last_played": 1_764_600_000}


@pytest.mark.parametrize("kind", list(TableKind))
def test_a_folder_written_before_kinds_were_typed_loads_and_resumes_as_it_was(
    kind: TableKind, tmp_path: Path
) -> None:
    """The bytes a peer wrote when ``kind`` was a plain word read into the typed kind, and
    write back the same bytes; a host going on with a table of that kind finds it."""
    host_key = os.urandom(32)
    invite = Invite("127.0.0.1", 4000, os.urandom(32), host_key, os.urandom(32), "reign", 3)
    written = json.dumps(
        {
            "created": 1,
            "invite": invite.text(),
            "kind": str(kind),
            "role": "host",
            "status": "playing",
        },
        sort_keys=True,
        indent=1,
    ).encode()
    folder = TableFolder(tmp_path, "tables", invite.lobby_id)
    folder.path.mkdir(parents=True)
    folder.info_path.write_bytes(written)
    info = TableInfo.load(folder)
    assert info.kind is kind and info.unfinished
    assert info.encode() == written
    for other in TableKind:
        found = resumable_table(tmp_path, host_key, kind=other, game="reign", seats=3)
        assert found == (invite if other is kind else None)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"[1, 2]", "not a table description"),
        (b'{"port": "80"}', "its 'port' is not a whole number"),
        (b'{"turn": [1, "two"]}', "its 'turn' is not a list of seats or a word"),
        (b'{"round": true}', "its 'round' is not a whole number"),
        (b'{"bot_specs": ["hard", 2]}', "its 'bot_specs' is not a list of words"),
        (b'{"last_played": -5}', "its 'last_played' is not a time"),
        (b'{"kind": "lan"}', "its 'kind' is not one of the words play, host or join"),
        (b'{"role": "guest"}', "its 'role' is not one of the words host or joiner"),
        (b'{"role": 1}', "its 'role' is not one of the words host or joiner"),
        (b'{"invite": "x"', "cannot be read"),
    ],
)
def test_a_file_that_is_no_table_description_is_one_typed_error(
    data: bytes, said: str, tmp_path: Path
) -> None:
    folder = TableFolder.at(tmp_path)
    folder.info_path.write_bytes(data)
    with pytest.raises(TableInfoError) as err:
        TableInfo.load(folder)
    assert isinstance(err.value, StorageError)  # every reader that skips unreadable folders
    assert str(err.value).startswith(f"{folder.info_path}: ") and said in str(err.value)


def test_bots_and_setting_aside_go_through_netplay(tmp_path: Path) -> None:
    folder = TableFolder.at(tmp_path)
    TableInfo(invite="x", role="host", status="lobby").save(folder)
    keep_bots(folder, ("hard", "easy"))
    kept = TableInfo.load(folder)
    assert (kept.bots, kept.bot_specs) == (2, ("hard", "easy"))
    assert set_aside(folder, "never reached")
    assert TableInfo.load(folder).status == "never reached"
    started = TableInfo(invite="x", role="host", status="playing", start="ab")
    started.save(folder)
    assert not set_aside(folder, "given up") and TableInfo.load(folder) == started


def test_only_netplay_reads_or_writes_table_json_and_the_client_sets_no_key() -> None:
    for path in sorted((ROOT / "client").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert 'table.json").write' not in text and "info_path" not in text, path
        assert "TableInfo(" not in text and ".but(" not in text and ".save(" not in text, path
    for path in sorted((ROOT / "netplay").rglob("*.py")):
        if path.name != "_table_info.py":
            assert "json.dumps(info" not in path.read_text(encoding="utf-8"), path
