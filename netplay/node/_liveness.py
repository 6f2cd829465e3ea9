"""A node's liveness: the table's clocks run over links, and catching up when stalled.

:class:`Liveness` runs the sans-IO :class:`~netplay.table._clock.TableClock` for one seat: a task
that beats our presence every ``beat`` seconds, asks every link again for what we lack
after 2 s without a new entry, lets the clocks run and reports them (a ``clock`` event at
most once a second while something counts down, ``offline``/``online``, ``waiting``), and
the handlers of a presence beat, of a time notice and of a starvation claim.  When a clock
ends the game the screen hears it first (``abandoned``, then the ``verdict`` with its
reason).  Beats carry our feed's head; short of entries a beat says exist, we claim to be
starved, and a stall -- or a flag for time, ours or a notice's -- that a fresh claim
excuses ends as ``starved``, naming nobody; the banks of seats a fresh claim excuses (all,
while we are starved) do not drain.  The
rules themselves are ``_clock``'s and ``_starved``'s; links are the mesh's, the session the
node's.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import trio

import fairtable.protocol as P

from .. import events as ev
from ..table import (
    CLAIM_AFTER,
    RESEND_MAX,
    CameBack,
    Flagged,
    LongWait,
    Presence,
    Starvation,
    Starved,
    TableClock,
    TimeFlag,
    TimeNotice,
    WentOffline,
    starved_reason,
)
from ._mesh import Mesh
from ._node_parts import NodeConfig, _Peer

__all__ = ["STALLED_AFTER", "Liveness"]

STALLED_AFTER = 2.0  # seconds without a new entry before we ask every link again


class Liveness:
    """One seat's clocks and presence (idle until the table starts: :meth:`attach`)."""

    def __init__(
        self,
        config: NodeConfig,
        identity: P.Identity,
        emit: ev.Emit,
        mesh: Mesh,
        *,
        pump: Callable[[], None],
        ask_missing: Callable[[_Peer], None],
        lobby: Callable[[], None] = lambda: None,
        tick: Callable[[float], None] = lambda now: None,
    ) -> None:
        """``lobby`` says again what forms the table (our join request, or the signed start):
        called every beat until every seat beat once (a lossy relay may have lost it);
        ``tick(now)`` is called every time the task wakes (the node writes a waiting
        ``table.json`` summary)."""
        self.config = config
        self.identity = identity
        self.emit = emit
        self.mesh = mesh
        self.pump = pump
        self.ask_missing = ask_missing
        self.lobby = lobby
        self.tick = tick
        self.session: P.TableSession | None = None
        self.clock: TableClock | None = None  # once seated: banks, presence, countdowns
        self.starvation: Starvation | None = None  # once seated: who lacks what
        self._claimed_at = -1e9  # when we last claimed to be starved
        self.progress_at = 0.0  # when a new entry last arrived
        self._told_clock: set[int] = set()  # the seats the last clock event showed
        self._vanished: set[int] = set()  # the seats we told the session vanished
        # the signed time notice our flag or an accepted one rests on: (the seat it names, it)
        self.time_notice: tuple[int, bytes] | None = None

    def attach(self, session: P.TableSession, now: float) -> None:
        spec = session.spec
        assert session.seat is not None
        self.session = session
        self.clock = TableClock(
            spec.time_limits(),
            spec.table_id,
            spec.players,
            session.seat,
            now,
            beat=self.config.pacing.beat,
            report_after=self.config.pacing.seat_timeout,
        )
        self.starvation = Starvation(
            spec.table_id, spec.players, session.seat, beat=self.config.pacing.beat
        )

    def observe(self, now: float) -> None:
        """Tell the clocks what the session waits for now."""
        session, clock = self.session, self.clock
        if session is not None and clock is not None:
            clock.observe(now, session.waiting, session.decisions_applied(), session.thinking())

    async def run(self, done: trio.Event) -> None:
        """Beat our presence, catch up when stalled, let the clocks run and report them."""
        next_beat = told = lobby_at = 0.0
        count = 0
        while not done.is_set():
            await trio.sleep(0.25)
            session, clock = self.session, self.clock
            now = trio.current_time()
            self.tick(now)
            if now - lobby_at >= self.config.pacing.beat and (
                clock is None or any(n < 0 for seat, n in clock.count.items() if seat != clock.me)
            ):
                lobby_at = now  # not everyone has shown it sits at our table yet
                self.lobby()
            if (
                session is None
                or clock is None
                or session.verdict is not None
                or session.finished is not None
            ):
                continue
            if now >= next_beat:  # the count is wall-clock ms: it keeps growing after a restart
                next_beat, count = (
                    now + self.config.pacing.beat,
                    max(count + 1, time.time_ns() // 10**6),
                )
                seat = session.seat  # a node's session always plays a seat
                head = 0 if seat is None else len(session.log.entries(seat))  # signed so far
                self.mesh.broadcast(P.encode(clock.my_beat(self.identity, count, head)))
            self._catch_up(now)
            self._claim_if_starved(now)
            self._end_if_starved_too_long(now)
            self._tick(now)
            if session.verdict is not None:
                continue
            readings = clock.readings(now)
            if (readings or self._told_clock) and now - told >= 1.0:  # at most once a second
                told, self._told_clock = now, {r.seat for r in readings}
                self.emit(ev.ClockReadings(readings))

    def _catch_up(self, now: float) -> None:
        """Stalled: ask every link again for what we lack."""
        if now - self.progress_at >= STALLED_AFTER:
            self.progress_at = now
            for peer in list(self.mesh.peers):
                self.ask_missing(peer)

    def _claim_if_starved(self, now: float) -> None:
        """Short of entries a beat says exist, for a while: say so, signed, every beat."""
        session, starvation = self.session, self.starvation
        assert session is not None and starvation is not None
        gone = session.departures.gone  # a seat that left or vanished: nothing more to wait for
        held = [
            (1 << 62) if seat in gone else len(session.log.entries(seat))
            for seat in range(session.spec.seats)
        ]
        direct = frozenset(
            session.spec.players.index(key)
            for key in self.mesh.player_keys()
            if key in session.spec.players
        )  # no relay between us and them
        lack = starvation.short(held, now, direct)
        if lack is not None and now - self._claimed_at >= self.config.pacing.beat:
            self._claimed_at = now
            count = max(1, time.time_ns() // 10**6)
            self.mesh.broadcast(starvation.claim(self.identity, *lack, count, now))

    def _end_if_starved_too_long(self, now: float) -> None:
        """A gap claimed for the abandon limit without a break ends the game ``starved``
        (where the table waits on decisions no stall rule would end it)."""
        session, starvation, clock = self.session, self.starvation, self.clock
        assert session is not None and starvation is not None and clock is not None
        heard = starvation.overdue(now, clock.limits.abandon_ms / 1000)
        if heard is not None and session.verdict is None:
            self._end_starved(heard.claim, heard.data)

    def _end_starved(self, claim: Starved, data: bytes) -> None:
        """End the game ``starved``, and send its evidence (the claim) on every link once
        more, so every honest peer holds it and ends alike."""
        assert self.session is not None
        self.session.starved(starved_reason(claim.by, claim.author), (data,))
        self.mesh.broadcast(data)
        self.pump()

    def _stalled(self, seat: int, now: float) -> None:
        """The stall rule would time ``seat`` out: unless a fresh starvation claim excuses it
        (ours, or its own), then the verdict is ``starved``, naming nobody."""
        session, starvation = self.session, self.starvation
        assert session is not None and starvation is not None
        heard = starvation.excuse(seat, now)
        if heard is not None:
            self._end_starved(heard.claim, heard.data)
            return
        session.timeout(seat)  # as before clocks: timeout or withheld-reveal
        self.pump()

    def _tick(self, now: float) -> None:
        session, clock, starvation = self.session, self.clock, self.starvation
        assert session is not None and clock is not None and starvation is not None
        self.observe(now)  # banks of seats proved starved do not drain (ours: none do)
        clock.pause(now, starvation.excused(now), credit=CLAIM_AFTER + self.config.pacing.beat)
        for event in clock.update(now):
            if isinstance(event, WentOffline | CameBack):
                self.emit(
                    ev.SeatOffline(event.seat)
                    if isinstance(event, WentOffline)
                    else ev.SeatOnline(event.seat)
                )
            elif isinstance(event, LongWait):
                self.emit(ev.SeatWaiting(event.seat, event.seconds))
            elif isinstance(event, Flagged) and session.verdict is None:
                step = session.game.serial
                flag = Flagged(clock.agreed_kind(event.seat, step, event.kind), event.seat)
                heard = starvation.excuse(flag.seat, now)
                if heard is not None:  # a seat proved starved is never flagged for time
                    self._end_starved(heard.claim, heard.data)
                    continue
                data = P.encode(clock.notice(self.identity, flag, step))
                self.time_notice = (flag.seat, data)
                self.mesh.broadcast(data)
                if flag.kind is TimeFlag.STALLED:
                    self._stalled(flag.seat, now)
                else:
                    self._end_for_time(flag.kind, flag.seat, flag.reason)

    def _end_for_time(self, kind: TimeFlag, seat: int, reason: str) -> None:
        """A clock ends the game: the screen hears it at once, with the reason -- unless the
        seat stayed offline past the abandon limit at a table whose rule is ``go-on``: then
        it has vanished, and we vote so (the session plays on once every other seat does)."""
        assert self.session is not None
        if kind is TimeFlag.ABANDONED and self._vanish(seat):
            self.pump()
            return
        if kind is TimeFlag.ABANDONED:
            self.emit(ev.Abandoned(seat))
        self.session.stop_for_time(seat, P.VerdictKind(kind), reason)
        self.pump()

    def _vanish(self, seat: int) -> bool:
        """Tell the session ``seat`` vanished, where the table's rule lets it play on
        (docs/protocol.md §11.11); whether it did."""
        assert self.session is not None
        if seat in self._vanished:  # our own flag and the others' notices: one vote
            return True
        if self.session.leavers is not P.Leavers.GO_ON:
            return False
        try:
            self.session.vanish(seat)
        except P.LocalProtocolError:  # two seats, or a seat already gone: the game ends
            return False
        self._vanished.add(seat)
        self.emit(ev.Vanishing(seat))
        return True

    def on_presence(self, peer: _Peer, data: bytes, msg: Presence) -> None:
        if (
            self.clock is not None
            and self.session is not None
            and self.clock.take_beat(msg, trio.current_time())
        ):
            assert self.starvation is not None
            self.starvation.note_beat(msg, data)
            self.mesh.forward(data, self.session.spec.players[msg.seat], peer)

    def on_starved(self, peer: _Peer, data: bytes, msg: Starved) -> None:
        """A seat's starvation claim: believed only if both signatures hold; passed on (even
        once our game stopped: a peer behind us may need it to end as we did), and the
        entries it names re-sent on every link (once per claimed gap)."""
        session, starvation = self.session, self.starvation
        if (
            session is None
            or starvation is None
            or not starvation.take(msg, data, trio.current_time())
        ):
            return
        self.mesh.broadcast(data, skip=peer)
        if session.verdict is not None or not starvation.to_resend(msg):
            return
        wanted = P.FeedRequest(msg.author, msg.have, msg.have + RESEND_MAX)
        entries = [P.encode(e) for e in session.log.serve(wanted, limit=RESEND_MAX)]
        if not entries:
            return
        for link in list(self.mesh.peers):
            for entry in entries:
                self.mesh.send(link, entry)

    def on_notice(self, peer: _Peer, data: bytes, msg: TimeNotice) -> None:
        session, clock = self.session, self.clock
        if clock is None or session is None or session.verdict is not None:
            return
        now = trio.current_time()
        self.observe(now)
        taken = clock.take_notice(msg, now, session.game.serial)
        if taken is None:
            return
        self.mesh.broadcast(data, skip=peer)
        if taken.accepted:
            self.time_notice = (msg.seat, data)
        heard = None if self.starvation is None else self.starvation.excuse(msg.seat, now)
        if taken.accepted and heard is not None:  # it proved it was starved: not its time
            self._end_starved(heard.claim, heard.data)
        elif taken.accepted and msg.flag is TimeFlag.STALLED:
            self._stalled(msg.seat, now)
        elif taken.accepted:
            self._end_for_time(msg.flag, msg.seat, taken.reason)
        else:  # not what our own clock says: show the claim, keep our clock
            self.emit(
                ev.TimeClaim(
                    msg.by,
                    msg.seat,
                    msg.flag,
                    taken.reason,
                    None if taken.left is None else round(taken.left, 1),
                )
            )
