"""A spectator's side of ``fairtable watch``: follow a table's signed feeds, seatless.

:func:`watch_table` links to the table's host as an ``observer`` (holding the invite, as a
joiner does, but taking no seat and signing nothing), checks the host's signed start against
the invite, and feeds every entry it is sent into a spectator
:class:`~protocol.TableSession` (seat None), which checks each one as a seat would.  The
host sends the whole log first (catch-up from the start), then each new entry (live; see
:mod:`netplay.links._watchers`).  What the session says (public steps, the verdict, the end) goes
to ``on_event``; the spectator only ever sees ``view(None)``.

Every seated peer serves spectators as its host does, so once the spectator holds the start
it watches through any seat still at the table: a dropped link, or a place that cannot be
reached, moves on to the next of the host and the seats the start gives an address for (each
link pinned to the key the start names for that seat; a seat that left is never dialled),
and the new link's catch-up repeats nothing (entries already held are ignored).  A seat that
left the table follows the rest this way (``start``, ``away``: :mod:`netplay.node._follow`).

With ``via`` the spectator links to a relay instead (``fairtable watch INVITE --via RELAY``):
it proves the relay token (as a joiner through the relay does), pinned to ``via_key`` or the
invite's relay key, and the relay serves it from what it holds (:mod:`netplay.relay._relay`).  It
trusts the relay for delivery only: a start is followed only if the invite's host signed it
for the invite's table (any other is skipped), and every entry is checked by the session.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

import attrs
import trio

import fairtable.protocol as P

from ..links import LinkClosed, LinkReason, LinkRole, connect, unreachable_event
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
from ._node_links import seat_address

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
_FIRST_DELAY, _MOST_DELAY = 0.1, 1.0  # seconds between tries: doubled after each failure


class WatchRefused(Exception):
    """The host will not let us watch (the table refuses spectators, or it is full)."""


@attrs.frozen
class _Place:
    """Where the spectator can link: an address and the key it must show there."""

    address: tuple[str, int]
    key: bytes | None


class _Follower:
    """One spectator's state: the places it may link to, the session once the start is
    checked, and the refusals so far (see :func:`watch_table`)."""

    def __init__(
        self,
        invite: Invite,
        via: tuple[str, int] | None,
        via_key: bytes | None,
        away: Collection[int],
        on_names: Callable[[tuple[str, ...]], None],
    ) -> None:
        self.invite, self.via, self.on_names = invite, via, on_names
        self.relay_key = via_key or invite.relay_key
        self.away = set(away)  # seats never dialled: they left the table
        self.start: TableStart | None = None
        self.session: P.TableSession | None = None
        self.refused: dict[_Place, str] = {}  # places that refuse us for good, and why
        self.turn = 0  # the place tried next, counted over :meth:`places`

    def places(self) -> list[_Place]:
        """The relay; else the host and, once the start is held, each seat it gives an
        address for (never a seat that left, nor a place that refused us)."""
        if self.via is not None:
            found = [_Place(self.via, self.relay_key)]
        else:
            found = [] if 0 in self.away else [_Place(self.invite.address, self.invite.host_key)]
            if self.start is not None and self.session is not None:
                players = self.session.spec.players
                for seat, raw in enumerate(self.start.addresses):
                    address = seat_address(raw) if seat and seat not in self.away else None
                    if address is not None:
                        found.append(_Place(address, players[seat]))
        return [place for place in found if place not in self.refused]

    def take_start(self, start: TableStart) -> str | None:
        """The host's signed start: the session begins (the reason we cannot follow the
        table, if one; None for a start that is not this table's, which is skipped)."""
        try:
            spec = verify_start(self.invite.host_key, start, self.invite.lobby_id)
        except (P.RemoteProtocolError, P.DecodeError):
            return None  # not the host's start of this table: passed on by a relay or filed
            # by a stranger; the real one may follow
        if spec.leavers() is not self.invite.leavers:  # not what the invite says
            return (
                "the table's start and its invite disagree on what happens "
                f"when a player vanishes ({spec.leavers()} and {self.invite.leavers})"
            )
        try:
            self.session = P.TableSession(spec, None)
        except (P.LocalProtocolError, P.RemoteProtocolError) as exc:
            return str(exc)  # the host's own start, but no game: its settings or its roster
        self.start = start
        self.on_names(start_names(start, spec))
        return None


async def watch_table(
    invite: Invite,
    on_event: Callable[[Any, P.TableSession], None],
    *,
    identity: P.Identity | None = None,
    via: tuple[str, int] | None = None,
    via_key: bytes | None = None,
    on_names: Callable[[tuple[str, ...]], None] = lambda names: None,
    on_retry: Callable[[str, str, int, float], None] | None = None,
    start: TableStart | None = None,
    away: Collection[int] = (),
    on_entry: Callable[[bytes, P.TableSession], None] = lambda data, session: None,
    patience: float | None = None,
) -> P.TableSession:
    """Follow the table until its game ends (finished, resigned or a verdict); the session.
    ``via``: through the relay at that address (pinned to ``via_key``, else to the invite's
    relay key, else unpinned as ``join --via`` is).  ``on_names`` hears the players' names
    (each checked against its seat's key) once the host's start is checked; ``on_retry``
    (address, why, attempt, delay) about every failed try to reach a place (the next is
    tried).  ``start``: the table's signed start, already held (checked as one received);
    ``away``: seats never to link to; ``on_entry``: each entry the session took, as sent, and
    the session; ``patience``: seconds without a word from any place after which we stop
    (:class:`WatchRefused`; None: we try for ever, as ``fairtable watch`` does)."""
    me = identity or P.Identity.generate()  # a throwaway key: a spectator signs nothing
    scope: bytes = invite.lobby_id  # a link's scope: the lobby id, or the relay's scope
    secret, greeting = invite.secret, None
    if via is not None:
        token = relay_token(invite)
        scope, secret = relay_scope(token), RELAY_SECRET
        greeting = P.encode(Subscribe(token, LinkRole.OBSERVER.value))
    follower = _Follower(invite, via, via_key, away, on_names)
    refused = None if start is None else follower.take_start(start)
    failures, delay, rng = 0, _FIRST_DELAY, random.Random()
    heard_at = trio.current_time()  # when a place last sent us something

    while refused is None:
        if patience is not None and trio.current_time() - heard_at > patience:
            refused = f"no place at the table has answered for {round(patience)} s"
            break
        places = follower.places()
        if not places:
            refused = next(iter(follower.refused.values()), "no place serves the table")
            break
        place = places[follower.turn % len(places)]
        async with trio.open_nursery() as nursery:
            try:
                link = await connect(
                    nursery,
                    *place.address,
                    identity=me,
                    scope=scope,
                    secret=secret,
                    role=LinkRole.OBSERVER,
                    expect_key=place.key,
                )
            except LinkClosed as exc:
                if exc.reason in _NEVER:
                    follower.refused[place] = exc.reason
                    continue
                failures += 1
                wait = delay * (0.5 + 0.5 * rng.random())
                if on_retry is not None:  # why in words: refused (nothing listens) or unreachable
                    said = unreachable_event(place.address, exc, failures, wait)
                    on_retry(said.address, said.why, failures, wait)
                follower.turn += 1
                await trio.sleep(wait)
                delay = min(_MOST_DELAY, delay * 2)
                continue
            heard = False  # the place sent something: a drop then is tried again at once
            try:
                if greeting is not None:
                    await link.send(greeting)
                while True:
                    data = await link.receive()
                    heard_at = trio.current_time()
                    if not heard:
                        heard, failures, delay = True, 0, _FIRST_DELAY
                    try:
                        msg = P.decode(data)
                    except P.DecodeError:
                        continue
                    if isinstance(msg, TableStart) and follower.session is None:
                        refused = follower.take_start(msg)
                        if refused is not None:
                            nursery.cancel_scope.cancel()
                            break
                    elif isinstance(msg, P.Entry) and (session := follower.session) is not None:
                        if session.receive_entry(msg):
                            on_entry(data, session)
                        while (event := session.next_event()) is not None:
                            if isinstance(event, P.SeatLeft):
                                follower.away.add(event.seat)
                            on_event(event, session)
                        if session.finished is not None or session.verdict is not None:
                            await link.aclose(LinkReason.DONE)
                            return session
            except LinkClosed as exc:
                if exc.reason in _NEVER:
                    follower.refused[place] = exc.reason  # e.g. a relay's "too many spectators"
                elif exc.why is LinkReason.NOT_STARTED:
                    await trio.sleep(0.2)  # asked again soon: the lobby is still filling
                else:  # the place went away: the next one (at once after news from it)
                    follower.turn += 1
                    if not heard:
                        await trio.sleep(delay * (0.5 + 0.5 * rng.random()))
                        delay = min(_MOST_DELAY, delay * 2)
    raise WatchRefused(refused)
