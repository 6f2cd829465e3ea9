"""A saved table named in a command: by its path, or by the first characters of its id.

A table a peer keeps lives in ``DATA_DIR/tables/<id>`` (a second window's seat in
``DATA_DIR/seats/N/tables/<id>``, a relay's in ``DATA_DIR/relay/<id>``); the id is 64 hex
digits, so the path is longer than an 80-column row and a screen that shows it folds it,
and a mouse copy carries the fold.  ``fairtable audit`` and ``fairtable replay`` therefore
also take the id's first characters (:data:`SHORT_ID` of them is what the screens show,
which fits any row): :func:`check_words` is the command a screen prints, :func:`table_path`
finds the folder again.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from fairtable.client.errors import FileRefused
from fairtable.netplay import DEFAULT_DATA_DIR, relay_table_id

__all__ = ["LEAST_ID", "SHORT_ID", "check_words", "table_path"]

SHORT_ID = 12
"""Hex digits of a table's id a screen shows (48 bits: no two tables of one player meet)."""
LEAST_ID = 6
"""Hex digits of a table's id a command takes at least."""

_ID = re.compile(r"[0-9a-f]{64}")
_PREFIX = re.compile(r"[0-9a-fA-F]+")


def _account(folder: Path) -> Path | None:
    """The data directory a table folder belongs to, or None if it is not one's."""
    parent = folder.parent
    if not _ID.fullmatch(folder.name) or parent.name not in ("tables", "relay"):
        return None
    if parent.name == "tables" and parent.parent.parent.name == "seats":
        return parent.parent.parent.parent  # DATA_DIR/seats/N/tables/<id>
    return parent.parent


def check_words(path: str, command: str = "audit") -> str:
    """The shortest command that names the saved table at ``path``: ``fairtable audit
    3c8d499dd74a`` (with ``--data-dir`` when the table is not in the default data
    directory); the whole path when it is not a table folder of a data directory."""
    folder = Path(path)
    account = _account(folder)
    if account is None:
        return f"fairtable {command} {shlex.quote(path)}"
    where = "" if account == DEFAULT_DATA_DIR else f" --data-dir {shlex.quote(str(account))}"
    return f"fairtable {command} {folder.name[:SHORT_ID]}{where}"


def _tables(data_dir: Path) -> list[tuple[str, Path]]:
    """Every table folder of ``data_dir`` with the id a screen names it by, the account's
    own seat first, then its further windows' seats in order, then a relay's copies (a
    relay files a table under its relay scope: its id is read from the host's signed start
    in it, and the folder's own name is kept too)."""
    found: list[tuple[str, Path]] = []
    for path in sorted(data_dir.glob("tables/*")):
        found.append((path.name, path))
    seats = data_dir.glob("seats/*/tables/*")
    for path in sorted(seats, key=lambda p: (_number(p.parent.parent.name), p.name)):
        found.append((path.name, path))
    for path in sorted(data_dir.glob("relay/*")):
        table_id = relay_table_id(path) if _ID.fullmatch(path.name) else None
        found += [(table_id, path)] if table_id is not None else []
        found.append((path.name, path))
    return [(name, path) for name, path in found if _ID.fullmatch(name) and path.is_dir()]


def _number(text: str) -> int:
    return int(text) if text.isdigit() else 1 << 30


def table_path(text: str, data_dir: Path | None) -> Path:
    """What ``audit`` / ``replay`` were given: a path as it is, or -- when no such file
    exists and ``text`` is the start of a table id (:data:`LEAST_ID` hex digits or more)
    -- the table folder of ``data_dir`` (default: the per-user one) whose id starts so;
    :class:`FileRefused` when none does, or the ids of several do.  Copies of one table in
    several folders (two seats of one account, a relay's) are one game: the first copy of
    :func:`_tables`' order is the one named."""
    path = Path(text)
    if path.exists() or not _PREFIX.fullmatch(text) or len(text) < LEAST_ID:
        return path
    folder = data_dir or DEFAULT_DATA_DIR
    found = [(name, p) for name, p in _tables(folder) if name.startswith(text.lower())]
    if not found:
        raise FileRefused(
            f"no file {text} here, and no saved table whose id starts {text} in {folder}"
        )
    ids = sorted({name for name, _p in found})
    if len(ids) > 1:
        listed = ", ".join(i[:SHORT_ID] for i in ids[:4]) + (", ..." if len(ids) > 4 else "")
        raise FileRefused(
            f"{len(ids)} saved tables' ids start {text}: {listed}; give more of the id"
        )
    return found[0][1]
