"""Reading a table a peer keeps on disk, for ``fairtable audit``: read-only, any peer.

A seat keeps ``tables/<id>/table.json`` (with the host's signed start) and ``log``; a relay
keeps ``relay/<id>/log``, where the host's signed start is among the lobby messages it
forwarded.  :func:`saved_table` finds the table's spec -- checking the host's signature --
and the feed entries, without writing anything: a torn last record is left where it is and
not read.  A game a clock ended also has the signed time notices it was kept with (a seat's
``table.json`` keeps the one its verdict rests on, a relay's log those it passed on), which
the audit checks; a seat's ``end``/``flagged``/``end_step`` is only what it claims.
"""

from __future__ import annotations

from pathlib import Path

import fairtable.protocol as P

from ..table import InviteError, TableStart, TimeNotice, start_names, verify_start
from ._storage import StorageError, TableFolder, parse_records
from ._table_info import TableInfo

__all__ = ["SavedTable", "relay_table_id", "saved_names", "saved_table", "signed_start"]


class SavedTable:
    """A saved table: its spec, its feed entries, and how many bytes of a torn tail were
    left unread."""

    def __init__(
        self, spec: P.TableSpec, entries: list[bytes], torn: int, names: tuple[str, ...] = ()
    ) -> None:
        self.spec, self.entries, self.torn = spec, entries, torn
        self.names = names  # each seat's player name from the start, checked ("": none)
        self.notices: tuple[P.ClockNotice, ...] = ()  # signed words that a clock ended it
        self.clock_end: P.ClockEnd | None = None  # how a clock ended it, as the seat claims


def saved_table(path: Path) -> SavedTable:
    """The table in ``path`` -- a seat's or a relay's table folder, or the ``log`` in it."""
    folder = path.parent if path.name == "log" else path
    log = folder / "log"
    try:
        data = log.read_bytes()
    except OSError as exc:
        raise StorageError(f"{path}: not a saved table ({log}: {exc.strerror})") from None
    records, end = parse_records(data)
    seat_folder = TableFolder.at(folder)
    notices: list[TimeNotice] = []
    if seat_folder.exists():
        (spec, start), entries = _seat_table(seat_folder), records
    else:
        spec, start, entries = _relay_table(folder, records, notices)
    saved = SavedTable(spec, entries, len(data) - end, start_names(start, spec))
    if seat_folder.exists():
        info = TableInfo.load(seat_folder)
        saved.clock_end = _clock_end(info)
        notices += _kept_notice(info, seat_folder)
    saved.notices = tuple(n for n in (msg.clock_notice() for msg in notices) if n is not None)
    return saved


def _clock_end(info: TableInfo) -> P.ClockEnd | None:
    """How a clock ended a seat's table, as its ``table.json`` claims (unsigned), or None."""
    kind = next((k for k in P.CLOCK_KINDS if info.end == k.value), None)
    if kind is None or info.flagged is None or info.end_step is None:
        return None
    return P.ClockEnd(info.flagged, info.end_step, kind)


def _kept_notice(info: TableInfo, folder: TableFolder) -> list[TimeNotice]:
    """The signed time notice a seat's ``table.json`` keeps (none, or one);
    :class:`StorageError` if it is no time notice."""
    if info.time_notice is None:
        return []
    try:
        return [P.decode_as(bytes.fromhex(info.time_notice), TimeNotice)]
    except (ValueError, P.DecodeError) as exc:
        raise StorageError(
            f"{folder.info_path}: its time_notice is no time notice ({exc})"
        ) from None


def _seat_table(folder: TableFolder) -> tuple[P.TableSpec, TableStart]:
    info_path = folder.info_path
    info = TableInfo.load(folder)  # StorageError if it cannot be read
    try:
        invite = info.parsed_invite()
        raw = info.start
        if raw is None:
            raise StorageError(f"{info_path}: the table never started")
        start = P.decode_as(bytes.fromhex(raw), TableStart)
        return verify_start(invite.host_key, start, invite.lobby_id), start
    except StorageError:
        raise
    except (
        ValueError,
        KeyError,
        TypeError,
        InviteError,
        P.DecodeError,
        P.RemoteProtocolError,
    ) as exc:
        raise StorageError(f"{info_path}: not a readable table ({exc})") from None


def saved_names(info: TableInfo) -> tuple[str, ...]:
    """Each seat's player name (``""``: none) as the host's signed start in a seat's
    ``table.json`` gives them, each checked against its seat's key -- without reading the
    log; () for a table that never started or whose start cannot be read."""
    if info.start is None:
        return ()
    try:
        invite = info.parsed_invite()
        start = P.decode_as(bytes.fromhex(info.start), TableStart)
        return start_names(start, verify_start(invite.host_key, start, invite.lobby_id))
    except (ValueError, KeyError, TypeError, InviteError, P.DecodeError, P.RemoteProtocolError):
        return ()


def _relay_table(
    folder: Path, records: list[bytes], notices: list[TimeNotice]
) -> tuple[P.TableSpec, TableStart, list[bytes]]:
    """The spec, start and entries of a relay's log; the time notices in it go to
    ``notices``."""
    spec, start, entries = None, None, []
    for data in records:
        try:
            msg = P.decode(data)
        except P.DecodeError:
            continue
        if isinstance(msg, P.Entry):
            entries.append(data)
        elif isinstance(msg, TimeNotice):
            notices.append(msg)
        elif isinstance(msg, TableStart) and spec is None:
            spec, start = signed_start(msg), msg
    if spec is None or start is None:
        raise StorageError(
            f"{folder}: no signed table start in it (not a table, or it never started)"
        )
    return spec, start, entries


def relay_table_id(folder: Path) -> str | None:
    """The id (hex) of the table a relay's ``folder`` keeps -- the one a seat's folder is
    named by and its screen shows, which is the invite's scope in the host's signed start
    (the relay files the table under the hash of its relay token instead); None if the
    folder holds no signed start or cannot be read."""
    try:
        records, _end = parse_records((folder / "log").read_bytes())
    except (OSError, StorageError):
        return None
    for data in records:
        try:
            msg = P.decode(data)
        except P.DecodeError:
            continue
        if isinstance(msg, TableStart) and signed_start(msg) is not None:
            return msg.scope.hex()
    return None


def signed_start(start: TableStart) -> P.TableSpec | None:
    """The spec of a table start its host signed, or None.  The host sits at seat 0: its key
    must have signed the start (a relay cannot check the invite scope, it never learns it)."""
    try:
        claimed = P.decode_as(start.spec, P.TableSpec)
        return verify_start(claimed.players[0], start, None)
    except (P.DecodeError, P.RemoteProtocolError, IndexError):
        return None
