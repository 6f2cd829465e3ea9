"""``fairtable resume --resign N``: give up a game kept on disk.

The game is reopened without a screen -- our node (and, for a game against bots here,
the bots' nodes) from the saved logs -- and our seat signs a resignation at once; it
floods to every seat that can be reached and the table is marked finished.  Seats that
are not reachable now take it from any seat that has it.  A table still in its lobby has
no game to sign anything in: it is only marked given up, and no longer listed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.bot_seats import saved_bot_specs
from fairtable.client.errors import UsageError
from fairtable.client.lifecycle import UnfinishedGame, departed_line, resigned_line
from fairtable.client.seats import bot_node
from fairtable.client.text_rows import fold
from fairtable.netplay import (
    NodeConfig,
    Pacing,
    Reach,
    StorageError,
    TableChoice,
    TableFolder,
    TableNode,
    load_identity_seed,
    set_aside,
)
from fairtable.netplay import events as ev

__all__ = ["ResignError", "resign_saved"]

REACH_SECONDS = 10.0
"""How long we stay online for the other seats to take the resignation."""


class ResignError(UsageError):
    """The game cannot be given up; the message says why."""


def resign_saved(data_dir: Path, kept: UnfinishedGame, *, reach: float = REACH_SECONDS) -> int:
    """Give up ``kept`` (an entry of :func:`client.play.unfinished_games`)."""
    invite, info = kept.invite, kept.info
    folder = TableFolder(data_dir, "tables", invite.lobby_id)
    if info.start is None:
        set_aside(folder, "given up")
        print(
            "The table never started, so there is no game to resign: it is given up and "
            "no longer listed."
        )
        return 0
    lines: list[str] = []
    problem: Exception | None = None
    try:
        trio.run(_resign_online, data_dir, kept, reach, lines)
    except* (StorageError, ResignError) as group:
        problem = group.exceptions[0]
    if problem is not None:
        raise ResignError(str(problem))
    for line in lines:
        print(fold(line))
    return 0 if any(line.startswith(("seat ", "you ")) for line in lines) else 1


async def _resign_online(
    data_dir: Path, kept: UnfinishedGame, reach: float, lines: list[str]
) -> None:
    invite, hosting = kept.invite, kept.hosted
    try:
        identity = P.Identity.from_seed(load_identity_seed(data_dir))
    except StorageError as exc:
        raise ResignError(str(exc)) from None

    def emit(event: ev.NodeEvent) -> None:
        if isinstance(event, ev.Resigned):
            lines.append(resigned_line(event))
        elif isinstance(event, ev.Departed) and event.you:
            lines.append(departed_line(event))
        elif isinstance(event, ev.AnswerRefused | ev.Refused | ev.Verdict):
            lines.append(f"Not resigned: {event.reason}")

    config = NodeConfig(
        data_dir=data_dir,
        reach=Reach(listen_host="127.0.0.1"),
        pacing=Pacing(grace=reach),
        choice=TableChoice(resign=True, resume=invite.lobby_id if hosting else None),
    )
    node = TableNode(
        config,
        identity,
        invite=None if hosting else invite,
        seats=invite.seats,
        game=invite.game,
        emit=emit,
    )
    with trio.move_on_after(reach + 5.0):
        async with trio.open_nursery() as nursery:

            async def ours(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
                await node.run(task_status=task_status)  # until every seat saw it, or `reach`
                nursery.cancel_scope.cancel()

            table_invite = await nursery.start(ours)
            specs = saved_bot_specs(kept.info, invite.game) if hosting else ()
            for index, spec in enumerate(specs):  # our bots take it too
                nursery.start_soon(bot_node(data_dir, index, table_invite, 0.0, spec).run)
    if node.farewells is not None and not node.farewells.everyone:
        missing = [s for s in range(invite.seats) if s not in node.farewells.said]
        lines.append(
            "Not reached yet: "
            + ", ".join(f"seat {s}" for s in missing)
            + " (they take the resignation from any seat that has it)."
        )
