"""A table's life on disk: which folder a host goes on with, and the public summary kept
in its ``table.json`` (:class:`~netplay._table_info.TableInfo`) for the resume list.

The summary is the round and whose turn it is (the seats whose decision the game waits for,
or :data:`~netplay.storage.TURN_OVER`): only public facts, never a card, a hand or a
secret.  Folders made before kinds were kept have no ``kind``; a host never picks one up
by itself (it may be either kind): ``fairtable resume`` names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairtable.engine.requests import Decision

from ..table import Invite, LobbyId
from ._seatclaim import game_open_elsewhere
from ._storage import TableFolder
from ._table_info import TURN_OVER, UNFINISHED, TableInfo, TableKind

__all__ = ["UNFINISHED", "resumable_table", "summary_of"]


def resumable_table(
    data_dir: Path,
    host_key: bytes,
    *,
    kind: TableKind,
    game: str,
    seats: int,
    resume: LobbyId | None = None,
) -> Invite | None:
    """The invite of the table a host goes on with: exactly ``resume`` (its lobby id) if
    given, else the newest unfinished table it hosts of this ``kind``, ``game`` and ``seats``
    that no other window plays (a second ``host`` of one account opens a table of its own);
    None for a new table."""
    root = data_dir / "tables"
    if not root.is_dir():
        return None
    for path in sorted(root.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            info = TableInfo.load(TableFolder.at(path))
            invite = info.parsed_invite()
        except Exception:  # noqa: BLE001 -- a folder we cannot read is not ours to resume
            continue
        if resume is not None:
            chosen = invite.lobby_id == resume
        else:
            chosen = info.kind is kind and invite.game == game and invite.seats == seats
            chosen = chosen and not game_open_elsewhere(data_dir, invite.lobby_id)
        if chosen and info.hosted and info.unfinished and invite.host_key == host_key:
            return invite
    return None


def summary_of(game: Any) -> tuple[Any, list[int] | str]:
    """The round and whose turn it is (the seats a decision is awaited from), public only."""
    if game.over:
        return game.public().get("round"), TURN_OVER
    turn = sorted({r.seat for r in game.pending() if isinstance(r, Decision)})
    return game.public().get("round"), turn
