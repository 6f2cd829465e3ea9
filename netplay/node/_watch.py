"""A spectator's side of ``fairtable watch``: follow a table's signed feeds, seatless.

:func:`watch_table` links to the table's host as an ``observer`` (holding the invite, as a
joiner does, but taking no seat and signing nothing), checks the host's signed start against
the invite, and feeds every entry it is sent into a spectator
:class:`~protocol.TableSession` (seat None), which checks each one as a seat would.  The
host sends the whole log first (catch-up from the start), then each new entry (live; see
:mod:`netplay.links._watchers`).  What the session says (public steps, the verdict, the end) goes
to ``on_event``; the spectator only ever sees ``view(None)``.  A dropped link is dialled
again (the host sends the log again; entries already held are ignored).

With ``via`` the spectator links to a relay instead (``fairtable watch INVITE --via RELAY``):
it proves the relay token (as a joiner through the relay does), pinned to ``via_key`` or the
invite's relay key, and the relay serves it from what it holds (:mod:`netplay.relay._relay`).  It
trusts the relay for delivery only: a start is followed only if the invite's host signed it
for the invite's table (any other is skipped), and every entry is checked by the session.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import trio

import fairtable.protocol as P

from ..links import LinkClosed, LinkReason, LinkRole, connect_with_backoff, unreachable_event
from ..relay import RELAY_REFUSALS
from ..table import (
    RELAY_SECRET,
    Invite,
    Subscribe,
    TableStart,
    relay_scope,
    relay_token,
    start_names,
    verify_start,
)

__all__ = ["WatchRefused", "watch_table"]

_NEVER = frozenset(
    {
        LinkReason.VERSION,
        LinkReason.INVITE,
        LinkReason.NOT_AUTHORISED,
        LinkReason.TOO_MANY_SPECTATORS,
        *RELAY_REFUSALS,
    }
)


class WatchRefused(Exception):
    """The host will not let us watch (the table refuses spectators, or it is full)."""


async def watch_table(
    invite: Invite,
    on_event: Callable[[Any, P.TableSession], None],
    *,
    identity: P.Identity | None = None,
    via: tuple[str, int] | None = None,
    via_key: bytes | None = None,
    on_names: Callable[[tuple[str, ...]], None] = lambda names: None,
    on_retry: Callable[[str, str, int, float], None] | None = None,
) -> P.TableSession:
    """Follow the table until its game ends (finished, resigned or a verdict); the session.
    ``via``: through the relay at that address (pinned to ``via_key``, else to the invite's
    relay key, else unpinned as ``join --via`` is).  ``on_names`` hears the players' names
    (each checked against its seat's key) once the host's start is checked; ``on_retry``
    (address, why, attempt, delay) about every failed try to reach it (it is retried)."""
    me = identity or P.Identity.generate()  # a throwaway key: a spectator signs nothing
    scope: bytes = invite.lobby_id  # a link's scope: the lobby id, or the relay's scope
    address, secret = (invite.host, invite.port), invite.secret
    key: bytes | None = invite.host_key
    greeting = None
    if via is not None:
        token = relay_token(invite)
        address, scope, secret = via, relay_scope(token), RELAY_SECRET
        key = via_key or invite.relay_key
        greeting = P.encode(Subscribe(token, LinkRole.OBSERVER.value))
    session: P.TableSession | None = None
    refused: str | None = None
    failures = 0

    def retried(error: LinkClosed, delay: float) -> None:
        nonlocal failures
        failures += 1
        if on_retry is not None:  # why in words: refused (nothing listens) or unreachable
            said = unreachable_event(address, error, failures, delay)
            on_retry(said.address, said.why, failures, delay)

    while refused is None:
        async with trio.open_nursery() as nursery:
            try:
                link = await connect_with_backoff(
                    nursery,
                    address[0],
                    address[1],
                    identity=me,
                    scope=scope,
                    secret=secret,
                    role=LinkRole.OBSERVER,
                    rng=random.Random(),
                    expect_key=key,
                    max_delay=1.0,
                    fatal=_NEVER,
                    on_retry=retried,
                )
            except LinkClosed as exc:
                refused = exc.reason  # said outside the nursery: one plain error
                continue
            try:
                if greeting is not None:
                    await link.send(greeting)
                while True:
                    data = await link.receive()
                    try:
                        msg = P.decode(data)
                    except P.DecodeError:
                        continue
                    if isinstance(msg, TableStart) and session is None:
                        try:
                            spec = verify_start(invite.host_key, msg, invite.lobby_id)
                        except (P.RemoteProtocolError, P.DecodeError):
                            continue  # not the host's start of this table: passed on by
                            # a relay or filed by a stranger; the real one may follow
                        if spec.leavers() is not invite.leavers:  # not what the invite says
                            refused = (
                                "the table's start and its invite disagree on what happens "
                                f"when a player vanishes ({spec.leavers()} and {invite.leavers})"
                            )
                            nursery.cancel_scope.cancel()
                            break
                        try:
                            session = P.TableSession(spec, None)
                        except (P.LocalProtocolError, P.RemoteProtocolError) as exc:
                            # the host's own start, but no game: its settings or its roster
                            refused = str(exc)  # said outside the nursery: one plain error
                            nursery.cancel_scope.cancel()
                            break
                        on_names(start_names(msg, spec))
                    elif isinstance(msg, P.Entry) and session is not None:
                        session.receive_entry(msg)
                        while (event := session.next_event()) is not None:
                            on_event(event, session)
                        if session.finished is not None or session.verdict is not None:
                            await link.aclose(LinkReason.DONE)
                            return session
            except LinkClosed as exc:
                if exc.reason in _NEVER:
                    refused = exc.reason  # e.g. a relay's "too many spectators"
                elif exc.why is LinkReason.NOT_STARTED:
                    await trio.sleep(0.2)  # asked again soon: the lobby is still filling
    raise WatchRefused(refused)
