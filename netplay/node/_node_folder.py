"""A node's table folder: where its table lives on disk, and what its ``table.json`` says.

:class:`NodeFolder` owns one seat's folder (``<data_dir>/tables/<invite scope>``): finding
the hosted table to go on with (:func:`~netplay.storage._lifecycle.resumable_table`), the
port we had (and whether we may listen on another if it is taken), opening the folder (a
``resuming`` event if a game is under way), keeping the signed start on disk before the game
uses it (durable before visible), the public summary (round, whose turn, when last played)
while the game runs, and the status it ends with.  Every write of ``table.json`` is fsynced,
and a bot table changes whose turn it is every few milliseconds: so the summary is written
at once when the round changes, and otherwise at most once every :data:`SUMMARY_EVERY`
seconds -- a newer turn waits for the liveness task's next tick
(:meth:`NodeFolder.flush_summary`) or the end of the game.  The log of entries is the
folder's :class:`~netplay.storage._storage.LogFile`; the node appends to it.
"""

from __future__ import annotations

import time
from typing import Any

import fairtable.protocol as P

from .. import events as ev
from ..storage import (
    UNFINISHED,
    LogFile,
    StorageError,
    TableFolder,
    TableInfo,
    TableKind,
    TableRole,
    TableStatus,
    resumable_table,
    summary_of,
)
from ..table import Invite, TableStart
from ._node_parts import NodeConfig

__all__ = ["SUMMARY_EVERY", "NodeFolder"]

SUMMARY_EVERY = 1.0
"""Seconds between two writes of the summary (a later change waits for the next tick)."""


class NodeFolder:
    """One seat's table folder (none until :meth:`open`)."""

    def __init__(self, config: NodeConfig, *, hosting: bool, emit: ev.Emit) -> None:
        self.config = config
        self.hosting = hosting
        self.emit = emit
        self.folder: TableFolder | None = None
        self.log: LogFile | None = None
        self._summary: tuple[Any, ...] | None = None  # (round, turn) last kept in table.json
        self._summary_serial = -1
        self._summary_at = -1e9  # when (trio time) the summary was last written
        self._unsaved: dict[str, Any] | None = None  # a newer summary not written yet (fields)

    def resume_hosted(self, host_key: bytes, game: str, seats: int) -> Invite | None:
        """The table a host goes on with (none with ``fresh``): see :func:`resumable_table`;
        naming a table (``resume``) that is not an unfinished one of ours is an error."""
        config = self.config
        invite = None
        if not config.choice.fresh or config.choice.resume is not None:
            invite = resumable_table(
                config.data_dir,
                host_key,
                kind=config.choice.kind,
                game=game,
                seats=seats,
                resume=config.choice.resume,
            )
        if invite is None and config.choice.resume is not None:
            raise StorageError(
                f"table {config.choice.resume.hex()[:12]}: not an unfinished table of ours on disk"
            )
        return invite

    def listen_port(self, invite: Invite | None) -> int:
        """The port asked for; after a restart, the one we had (others dial it)."""
        if self.config.reach.listen_port:
            return self.config.reach.listen_port
        if invite is not None:
            folder = TableFolder(self.config.data_dir, "tables", invite.lobby_id)
            if folder.exists():
                return TableInfo.load(folder).port or 0
        return 0

    def may_move(self, invite: Invite | None) -> bool:
        """Whether we may listen on another port than :meth:`listen_port` if another socket
        holds that one: never when it was asked for, nor for a host's lobby (its invite
        names the port); a joiner, or a host whose table started, dials the others itself."""
        if self.config.reach.listen_port or invite is None:
            return False
        if not self.hosting:
            return True
        folder = TableFolder(self.config.data_dir, "tables", invite.lobby_id)
        return folder.exists() and TableInfo.load(folder).start is not None

    def open(self, invite: Invite, port: int) -> TableStart | None:
        """Find (or make) this table's folder; the start of a game already under way."""
        self.folder = folder = TableFolder(self.config.data_dir, "tables", invite.lobby_id)
        existed = folder.exists()
        info = TableInfo.load(folder) if existed else TableInfo()
        status = info.status or TableStatus.LOBBY
        if existed and status in UNFINISHED:
            created = info.created
            self.emit(
                ev.Resuming(
                    invite.lobby_id,
                    invite.game,
                    status,
                    folder.path.stat().st_mtime if created is None else created,
                    info.round,
                )
            )
        if not existed:
            kind = self.config.choice.kind if self.hosting else TableKind.JOIN
            info = info.but(kind=kind, created=int(time.time()))
        role = TableRole.HOST if self.hosting else TableRole.JOINER
        info = info.but(invite=invite.text(), role=role, status=status, port=port)
        info.save(folder)
        self.log = folder.log()
        if info.start is None:
            return None
        try:
            return P.decode_as(bytes.fromhex(info.start), TableStart)
        except (ValueError, P.DecodeError) as exc:
            raise self.unreadable(exc) from None

    def unreadable(self, exc: Exception) -> StorageError:
        assert self.folder is not None
        return StorageError(
            f"{self.folder.path}: the saved game cannot be read ({exc}); "
            "its files are kept as they are"
        )

    def keep_start(self, start: TableStart, seat: int) -> None:
        """Durable before visible: the start is on disk before the game uses it."""
        assert self.folder is not None
        info = TableInfo.load(self.folder)
        if info.start is None:
            info.but(start=P.encode(start).hex(), seat=seat, status=TableStatus.PLAYING).save(
                self.folder
            )

    def keep_summary(self, session: P.TableSession, now: float) -> None:
        """Keep the round and whose turn it is in ``table.json`` when they change (public
        facts only -- never a card), for ``fairtable resume`` to list without replaying: at
        once if the round changed or the last write was :data:`SUMMARY_EVERY` seconds ago or
        more (``now``, trio time), else at the next :meth:`flush_summary` or :meth:`finish`."""
        if self.folder is None or session.finished or session.verdict:
            return
        if session.game.serial == self._summary_serial:
            return  # the round and the turn change only with a step
        self._summary_serial = session.game.serial
        summary = summary_of(session.game)
        if summary == self._summary:
            return
        new_round = self._summary is None or summary[0] != self._summary[0]
        self._summary = summary
        turn = tuple(summary[1]) if isinstance(summary[1], list) else summary[1]
        self._unsaved = {"round": summary[0], "turn": turn, "last_played": int(time.time())}
        self.flush_summary(now, force=new_round)

    def flush_summary(self, now: float, *, force: bool = False) -> None:
        """Write the newest summary if one waits and the last write is old enough, or
        ``force`` (the liveness task calls this on every tick)."""
        if self._unsaved is None or self.folder is None:
            return
        if not force and now - self._summary_at < SUMMARY_EVERY:
            return
        self._summary_at = now
        info = TableInfo.load(self.folder).but(**self._unsaved)
        self._unsaved = None
        info.save(self.folder)

    def finish(
        self,
        status: str,
        *,
        resigned: int | None = None,
        clock: P.ClockEnd | None = None,
        notice: bytes | None = None,
    ) -> None:
        """The table ended (or never seated us): its status, and who resigned or which
        seat a clock ended it on, with the signed time notice (``notice``, its canonical
        bytes) that end rests on: ``fairtable audit`` takes the clock's end from it."""
        if self.folder is not None:
            # the newest summary, if it was still waiting
            info = TableInfo.load(self.folder).but(**(self._unsaved or {}), status=status)
            self._unsaved = None
            if resigned is not None:
                info = info.but(end="resigned", resigned=resigned)
            if clock is not None:
                info = info.but(end=str(clock.kind), flagged=clock.seat, end_step=clock.step)
                if notice is not None:
                    info = info.but(time_notice=notice.hex())
            info.save(self.folder)
