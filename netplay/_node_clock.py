"""The table node's side of the table's clocks: the trio task and the two messages.

:class:`NodeClocks` is a base of :class:`~netplay._node.TableNode` holding only what runs
the sans-IO :class:`~netplay._clock.TableClock` over links: a task that beats our
presence every ``beat`` seconds, lets the clocks run and reports them (a ``clock`` event at
most once a second while something counts down, ``offline``/``online``, ``waiting``), and
the handlers of a presence beat and of a time notice.  When a clock ends the game the
screen hears it first (``abandoned``, then the ``verdict`` with its reason).  The rules
themselves are ``_clock``'s; the node owns links, the session and the log.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import trio

import protocol as P

from . import _events as ev
from ._clock import CameBack, Flagged, LongWait, Presence, TableClock, TimeNotice, WentOffline

if TYPE_CHECKING:
    from ._node_parts import NodeConfig, _Peer

__all__ = ["NodeClocks"]


class NodeClocks:
    """The clock half of a table node (a base class: it uses the node's own attributes)."""

    config: NodeConfig
    identity: P.Identity
    session: P.TableSession | None
    clock: TableClock | None
    done: trio.Event
    emit: Any
    _told_clock: set[int]

    if TYPE_CHECKING:
        def _broadcast(self, data: bytes, *, skip: _Peer | None = None) -> None: ...
        def _forward(self, data: bytes, author: bytes, source: _Peer) -> None: ...
        def _pump(self) -> None: ...
        def _catch_up(self, now: float) -> None: ...

    def _limits(self) -> P.TimeLimits:
        """The table's time limits from the host's settings (``clock``, ``abandon_after``)."""
        bank, increment = self.config.clock or (0.0, 0.0)
        return P.TimeLimits(round(bank * 1000), round(increment * 1000),
                            max(1, round(self.config.abandon_after * 1000)))

    async def _clock(self) -> None:
        """Beat our presence, catch up when stalled, let the clocks run and report them."""
        next_beat = told = 0.0
        count = 0
        while not self.done.is_set():
            await trio.sleep(0.25)
            session, clock = self.session, self.clock
            if (session is None or clock is None or session.verdict is not None
                    or session.finished is not None):
                continue
            now = trio.current_time()
            if now >= next_beat:  # the count is wall-clock ms: it keeps growing after a restart
                next_beat, count = now + self.config.beat, max(count + 1, time.time_ns() // 10**6)
                self._broadcast(P.encode(clock.my_beat(self.identity, count)))
            self._catch_up(now)
            self._tick(now)
            if session.verdict is not None:
                continue
            readings = clock.readings(now)
            if (readings or self._told_clock) and now - told >= 1.0:  # at most once a second
                told, self._told_clock = now, {int(r["seat"]) for r in readings}
                self.emit(ev.ClockReadings(readings))

    def _tick(self, now: float) -> None:
        session, clock = self.session, self.clock
        assert session is not None and clock is not None
        clock.observe(now, session.waiting, session.decisions_applied(), session.thinking())
        for event in clock.update(now):
            if isinstance(event, WentOffline | CameBack):
                self.emit(ev.SeatOffline(event.seat) if isinstance(event, WentOffline)
                          else ev.SeatOnline(event.seat))
            elif isinstance(event, LongWait):
                self.emit(ev.SeatWaiting(event.seat, event.seconds))
            elif isinstance(event, Flagged) and event.kind == "stalled":
                session.timeout(event.seat)  # as before clocks: timeout or withheld-reveal
                self._pump()
            elif isinstance(event, Flagged) and session.verdict is None:
                notice = clock.notice(self.identity, event, session.game.state.serial)
                self._broadcast(P.encode(notice))
                self._end_for_time(event.kind, event.seat, event.reason)

    def _end_for_time(self, kind: str, seat: int, reason: str) -> None:
        """A clock ends the game: the screen hears it at once, with the reason."""
        assert self.session is not None
        if kind == "abandoned":
            self.emit(ev.Abandoned(seat))
        self.session.stop_for_time(seat, kind, reason)
        self._pump()

    def _on_presence(self, peer: _Peer, data: bytes, msg: Presence) -> None:
        if (self.clock is not None and self.session is not None
                and self.clock.take_beat(msg, trio.current_time())):
            self._forward(data, self.session.spec.players[msg.seat], peer)

    def _on_notice(self, peer: _Peer, data: bytes, msg: TimeNotice) -> None:
        session, clock = self.session, self.clock
        if clock is None or session is None or session.verdict is not None:
            return
        now = trio.current_time()
        clock.observe(now, session.waiting, session.decisions_applied(), session.thinking())
        taken = clock.take_notice(msg, now, session.game.state.serial)
        if taken is None:
            return
        self._broadcast(data, skip=peer)
        if taken.accepted:
            self._end_for_time(msg.kind, msg.seat, taken.reason)
        else:  # not what our own clock says: show the claim, keep our clock
            self.emit(ev.TimeClaim(msg.by, msg.seat, msg.kind, taken.reason,
                                   None if taken.left is None else round(taken.left, 1)))
