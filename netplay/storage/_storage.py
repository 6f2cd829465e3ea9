"""What a peer keeps on disk: its identity, and per table its secrets and its log.

Layout under the data directory (``platformdirs.user_data_dir("fairtable")``
unless ``--data-dir`` says otherwise)::

    identity.key                 the player's Ed25519 seed (mode 0600)
    tables/<table>/table.json    the invite, our seat, the table spec once agreed
    tables/<table>/secret.seed   the seed every secret of ours at this table derives from (0600)
    tables/<table>/log           every feed entry we hold, append-only
    relay/<table>/log            (a relay) every entry it forwarded

A log is a sequence of records ``length (4 bytes, big-endian) || CRC-32 of the
payload (4 bytes) || payload``.  Our own entries are written and fsynced
before they are sent (durable before visible), so a restarted peer never signs
two different entries with one sequence number.  A torn or corrupt last
record -- a crash mid-write -- is detected on load and cut off.
"""

from __future__ import annotations

import os
import tempfile
import zlib
from pathlib import Path

import platformdirs

from fairtable.protocol import TableId

from ..table import LobbyId

__all__ = ["DEFAULT_DATA_DIR", "LogFile", "StorageError", "TableFolder", "load_identity_seed"]

DEFAULT_DATA_DIR = Path(platformdirs.user_data_dir("fairtable"))
_HEADER = 8
MAX_RECORD = 2 << 20


class StorageError(Exception):
    """The data directory cannot be used; the message says which file and why."""


def _temp_beside(path: Path, data: bytes) -> Path:
    """A new file next to ``path`` holding ``data`` (mode 0600, fsynced), under a name no
    other process or thread can be using at the same time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.write(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(name)
        raise
    os.close(fd)
    return Path(name)


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step: a reader sees the old bytes or the new."""
    tmp = _temp_beside(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _create_private(path: Path, data: bytes) -> bytes:
    """Make ``path`` hold ``data`` unless it exists already; the bytes on disk either way.

    The file appears whole or not at all (hard-linked from a full temporary file), and
    when several processes make it at once the first one wins: each of them then goes on
    with what is on disk, never with bytes that were not saved."""
    tmp = _temp_beside(path, data)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return path.read_bytes()
    finally:
        tmp.unlink(missing_ok=True)
    return data


def _seed_file(path: Path, what: str) -> bytes:
    """32 secret bytes kept in ``path`` (mode 0600), made on first use."""
    try:
        seed = path.read_bytes() if path.exists() else _create_private(path, os.urandom(32))
    except OSError as exc:
        raise StorageError(f"{path}: {exc.strerror}") from None
    if len(seed) != 32:
        raise StorageError(f"{path}: not {what} (expected 32 bytes)")
    return seed


def claim_table(data_dir: Path, table_id: TableId, lobby_id: LobbyId) -> None:
    """Record, before we sign anything at table ``table_id``, that we play it from the folder
    of lobby ``lobby_id`` -- and refuse if we already play it from another one.  One
    table, one folder, one log: so no restart, replay or second lobby can ever make us sign
    a second, different entry at a position we signed before (an equivocation)."""
    path = data_dir / "played" / table_id.hex()
    try:
        ours = lobby_id.hex().encode()
        held = path.read_bytes() if path.exists() else _create_private(path, ours)
        if held != ours:
            raise StorageError(
                f"table {table_id.hex()[:16]} is already played from "
                f"{data_dir / 'tables' / held.decode(errors='replace').strip()}; "
                "refusing to play it from a second folder"
            )
    except OSError as exc:
        raise StorageError(f"{path}: {exc.strerror}") from None


def load_identity_seed(data_dir: Path) -> bytes:
    """The player's identity seed, made on first use."""
    return _seed_file(data_dir / "identity.key", "an identity key")


def parse_records(data: bytes) -> tuple[list[bytes], int]:
    """The whole records at the start of a log's bytes, and where they end (a torn or
    corrupt record, and everything after it, is not read)."""
    out, pos = [], 0
    while pos + _HEADER <= len(data):
        size = int.from_bytes(data[pos : pos + 4], "big")
        crc = int.from_bytes(data[pos + 4 : pos + 8], "big")
        payload = data[pos + _HEADER : pos + _HEADER + size]
        if size > MAX_RECORD or len(payload) < size or zlib.crc32(payload) != crc:
            break
        out.append(payload)
        pos += _HEADER + size
    return out, pos


class LogFile:
    """An append-only file of length-prefixed, checksummed records."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.dropped = 0  # bytes of a torn tail cut off on open
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.records = self._load()
            self._file = open(path, "ab")  # noqa: SIM115 -- kept open for appends
        except OSError as exc:
            raise StorageError(f"{path}: {exc.strerror}") from None

    def _load(self) -> list[bytes]:
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        out, pos = parse_records(data)
        if pos < len(data):  # a torn or corrupt tail: cut it off
            self.dropped = len(data) - pos
            with open(self.path, "r+b") as f:
                f.truncate(pos)
                f.flush()
                os.fsync(f.fileno())
        return out

    def append(self, payload: bytes, *, durable: bool) -> None:
        """Append one record; ``durable`` waits until it is on disk."""
        record = len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big")
        try:
            self._file.write(record + payload)
            self._file.flush()
            if durable:
                os.fsync(self._file.fileno())
        except OSError as exc:
            raise StorageError(f"{self.path}: {exc.strerror}") from None
        self.records.append(payload)

    def close(self) -> None:
        self._file.close()


class TableFolder:
    """One table's folder: its settings, our secret seed and the log."""

    def __init__(self, data_dir: Path, kind: str, table: LobbyId) -> None:
        self.path = data_dir / kind / table.hex()

    @classmethod
    def at(cls, path: Path) -> TableFolder:
        """The table folder at ``path`` (``<data dir>/<kind>/<lobby id, hex>``)."""
        folder = cls.__new__(cls)
        folder.path = path
        return folder

    def exists(self) -> bool:
        return self.info_path.exists()

    @property
    def info_path(self) -> Path:
        """Its ``table.json`` (read and written as a :class:`~netplay._table_info.TableInfo`)."""
        return self.path / "table.json"

    def secret_seed(self) -> bytes:
        return _seed_file(self.path / "secret.seed", "a secret seed")

    def log(self) -> LogFile:
        return LogFile(self.path / "log")
