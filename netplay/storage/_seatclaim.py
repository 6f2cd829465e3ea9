"""Which folder a joining seat plays from, held for as long as it plays.

One account (one data directory) may take several seats at one table -- a second window
joining the table the first one hosts, or two windows joining a friend's.  Each seat needs
its own key, its own table folder and its own listening port, and no two processes may ever
play one seat's folder at once (both would sign entries at the same positions: an
equivocation).  :func:`claim_seat` picks the folder: the data directory itself, else
``<data dir>/seats/1``, ``seats/2``, ... -- the first one that is not the table's host (its
key is the invite's host key, or it hosts this table) and that no running process holds.
It holds that folder with an operating-system lock on ``<folder>/locks/<invite scope>``,
released when the claim is closed or the process ends (a crash included), so running the
same ``join`` again after a crash or a quit goes on with the seat it had.  A game reopened
from disk (``fairtable resume``, hosted or joined) holds that same lock with
:func:`hold_game`, and :func:`game_open_elsewhere` tells whether another window has it.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import fairtable.protocol as P

from ..table import Invite, LobbyId
from ._storage import StorageError, TableFolder, load_identity_seed
from ._table_info import TableInfo

__all__ = [
    "MAX_SEATS_HERE",
    "GameOpenElsewhere",
    "SeatClaim",
    "claim_seat",
    "game_open_elsewhere",
    "hold_game",
]

MAX_SEATS_HERE = 16
"""How many seats of one table one data directory may hold at once."""

try:
    import fcntl
except ImportError:  # pragma: no cover -- Windows: msvcrt's byte-range lock instead
    fcntl = None  # type: ignore[assignment]


class GameOpenElsewhere(StorageError):
    """The game is already open in another window (another process holds its folder)."""


class SeatClaim:
    """A seat's folder, locked until :meth:`close` (or the end of the process)."""

    def __init__(self, data_dir: Path, fd: int) -> None:
        self.data_dir = data_dir
        self._fd: int | None = fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases its lock
            self._fd = None

    def __enter__(self) -> SeatClaim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lock(path: Path) -> int | None:
    """An open, locked file at ``path``; None if another process holds it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StorageError(f"{path}: {exc.strerror}") from None
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        os.close(fd)
        return None
    return fd


def _hosts(folder: Path, invite: Invite) -> bool:
    """Whether the seat kept in ``folder`` is this table's host."""
    if (folder / "identity.key").exists():
        key = P.Identity.from_seed(load_identity_seed(folder)).public.key
        if key == invite.host_key:
            return True
    table = TableFolder(folder, "tables", invite.lobby_id)
    if table.exists():
        with contextlib.suppress(StorageError):  # unreadable: opening it will say so
            return TableInfo.load(table).hosted
    return False


def claim_seat(data_dir: Path, invite: Invite) -> SeatClaim:
    """The folder a seat joining ``invite``'s table plays from, locked: see the module's
    docstring.  :class:`StorageError` if every one of :data:`MAX_SEATS_HERE` is taken."""
    for number in range(MAX_SEATS_HERE + 1):
        folder = data_dir if number == 0 else data_dir / "seats" / str(number)
        if _hosts(folder, invite):
            continue
        fd = _lock(folder / "locks" / invite.lobby_id.hex())
        if fd is not None:
            return SeatClaim(folder, fd)
    raise StorageError(
        f"{data_dir}: {MAX_SEATS_HERE} seats of this table are already played from here"
    )


def _game_lock(folder: Path, lobby_id: LobbyId) -> Path:
    return folder / "locks" / lobby_id.hex()


def hold_game(folder: Path, lobby_id: LobbyId) -> SeatClaim:
    """Hold the game of table ``lobby_id`` kept in ``folder`` (a data directory or a seat
    folder) for as long as this window plays it; :class:`GameOpenElsewhere` if another
    process (or another claim in this one) holds it already."""
    fd = _lock(_game_lock(folder, lobby_id))
    if fd is None:
        raise GameOpenElsewhere("this game is already open in another window")
    return SeatClaim(folder, fd)


def game_open_elsewhere(folder: Path, lobby_id: LobbyId) -> bool:
    """Whether another window holds the game of table ``lobby_id`` kept in ``folder`` (it
    makes no file: a lock file nobody ever made is held by nobody)."""
    if not _game_lock(folder, lobby_id).exists():
        return False
    try:
        hold_game(folder, lobby_id).close()
    except GameOpenElsewhere:
        return True
    return False
