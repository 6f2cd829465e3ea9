"""A seat that left a table that plays on follows the rest, as a spectator.

A seat that left (docs/protocol.md §11.10) signs nothing more and its session is over
(``end = "left"``), so its node stops.  From then on it may see what any spectator sees, and
:func:`follow_rest` shows it exactly that: a spectator session of its own (seat None, holding
none of the seat's secrets, :func:`~netplay.node._watch.watch_table`) follows the table
through the seats still at it -- each link pinned to the seat key the host's signed start
names, the seats that left never dialled -- or through the relay at a relay table.  Only what
comes after our own departure is passed on: the screen has the rest already.

A host without a relay is where spectators watched, and its invite names its address: it
goes on serving them there, from what it follows (:class:`~netplay.links.Watchers`, bounded
as ever; spectators only, every other link refused), so the spectators already watching
reconnect and the invite still lets others watch.  The table's seats do no more work than
for any spectator, and nothing the follower sends them is read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import trio

import fairtable.protocol as P

from ..links import Link, LinkReason, LinkRole, Watchers, serve_links
from ..table import Invite, TableStart
from ._node_parts import Reach
from ._watch import WatchRefused, watch_table

__all__ = ["follow_rest"]

LINGER = 5.0  # seconds, at the end, for the spectators we serve to take the last entries
PATIENCE = 60.0  # seconds with no seat answering before we stop (the table is likely gone)


async def follow_rest(
    invite: Invite,
    start: TableStart,
    seat: int,
    away: Collection[int],
    on_event: Callable[[Any, P.TableSession], None],
    *,
    identity: P.Identity,
    reach: Reach,
    serve_at: int | None = None,
    on_names: Callable[[tuple[str, ...]], None] = lambda names: None,
    on_retry: Callable[[str, str, int, float], None] | None = None,
    patience: float = PATIENCE,
) -> P.TableSession:
    """Follow the table whose seat ``seat`` we left until its game ends; its spectator
    session (:class:`~netplay.node._watch.WatchRefused` once no place at the table has
    answered for ``patience`` seconds: its seats are gone, the game most likely over).
    ``away``: the seats that left (ours among them); ``on_event`` hears each event of the
    spectator session after our own departure; ``serve_at``: the port we served the table on
    as its host, where spectators are served again (None: serve nobody)."""
    watchers: Watchers | None = None
    held: list[P.TableSession] = []  # the spectator session, once it took an entry
    after = False  # our own departure has been replayed: what follows is news

    def catch_up() -> list[bytes]:
        return [P.encode(start), *(held[0].entries() if held else ())]

    def took(data: bytes, session: P.TableSession) -> None:
        if not held:
            held.append(session)
        if watchers is not None:
            watchers.forward(data)

    def said(event: Any, session: P.TableSession) -> None:
        nonlocal after
        if after:
            on_event(event, session)
        elif isinstance(event, P.SeatLeft) and event.seat == seat:
            after = True

    refused: WatchRefused | None = None  # raised out of the nursery as itself, not a group
    async with trio.open_nursery() as nursery:
        if serve_at is not None:
            watchers = Watchers(catch_up)
            try:
                await nursery.start(_serve, serve_at, watchers, invite, identity, reach)
            except OSError:  # our old port is taken by now: we follow, serving nobody
                watchers = None
        try:
            session = await watch_table(
                invite,
                said,
                identity=P.Identity.generate(),  # a throwaway key, as any spectator's
                via=reach.via,
                via_key=reach.via_key,
                on_names=on_names,
                on_retry=on_retry,
                start=start,
                away=away,
                on_entry=took,
                patience=patience,
            )
        except WatchRefused as exc:
            refused = exc
        else:
            if watchers is not None:  # spectators close their links once they have the end
                with trio.move_on_after(LINGER):
                    await watchers.until(lambda watching: watching == 0)
        nursery.cancel_scope.cancel()
    if refused is not None:
        raise refused
    return session


async def _serve(
    port: int,
    watchers: Watchers,
    invite: Invite,
    identity: P.Identity,
    reach: Reach,
    *,
    task_status: Any = trio.TASK_STATUS_IGNORED,
) -> None:
    """Spectators of the table at our old address, under our host key (the invite pins it);
    any other link is refused."""

    def secrets_for(scope: bytes) -> bytes | None:
        return invite.secret if scope == invite.lobby_id else None

    async def adopt(link: Link) -> None:
        if link.info.role is not LinkRole.OBSERVER:
            await link.aclose(LinkReason.NOT_AUTHORISED)
            return
        await watchers.adopt(link)

    await serve_links(
        port,
        adopt,
        identity=identity,
        secrets_for=secrets_for,
        authorize=lambda info: info.role is LinkRole.OBSERVER and reach.spectators,
        host=reach.listen_host,
        task_status=task_status,
    )
