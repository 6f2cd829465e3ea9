"""How a node leaves its table: the farewell it says and when it may go.

A finished seat may hold the last entries another seat lacks (in a mesh nobody else has
them), so it says farewell and stays, answering catch-up requests, until every seat has said
one -- or until the table's abandon limit, past which the others would end the game without
it anyway; then its spectators are sent what they were given (within the grace period).  A
seat stopped by a verdict with evidence -- or by a verdict for time, whose evidence is the
signed time notice it rests on -- sends that evidence on every link and stays the same way,
so the others reach the same verdict.  :class:`Departure` is the part of
:class:`~netplay.node._node.TableNode` that does this; the node holds the state it reads.
"""

from __future__ import annotations

import trio

import fairtable.protocol as P

from .. import events as ev
from ..links import Watchers
from ..table import Farewells, TimeNotice
from ._liveness import Liveness
from ._mesh import Mesh
from ._node_folder import NodeFolder
from ._node_parts import NodeConfig

VERDICT_FAREWELL = "verdict"  # the digest a seat stopped by a proved verdict says farewell with


class Departure:
    """The leaving half of a table node (mixed into :class:`~netplay.node._node.TableNode`)."""

    config: NodeConfig
    identity: P.Identity
    emit: ev.Emit
    session: P.TableSession | None
    done: trio.Event
    farewells: Farewells | None
    mesh: Mesh
    watchers: Watchers
    files: NodeFolder
    liveness: Liveness
    _everyone_finished: trio.Event
    _farewells_held: list[bytes]
    _evidence_held: list[bytes]

    async def _leave(self) -> None:
        """Go once nobody can need anything from us any more -- every seat said farewell
        and our queues are sent -- or after the grace period (a verdict without evidence,
        a game that never finished).

        A seat that finished may hold the last entries another seat lacks (a link cut or
        slow at the end: nobody else has them in a mesh), so it waits for every farewell,
        still answering catch-up requests, up to the table's abandon limit -- past which
        the others would end the game without it anyway.  Leaving earlier (as it did after
        the grace period) got it blamed ``abandoned`` by honest seats that never finished.
        A seat stopped by a verdict with evidence stays the same way (:meth:`_proved`)."""
        finished = self.session is not None and (
            self.session.finished is not None or self._proved() is not None
        )
        linger = self._linger(finished)
        with trio.move_on_after(linger):
            if not finished:
                await trio.sleep_forever()  # let the last entries reach the others
            quiet = min(self.config.pacing.grace, linger)
            with trio.move_on_after(quiet):  # the farewells of a table at ease: milliseconds
                await self._everyone_finished.wait()
            if not self._everyone_finished.is_set():
                self._say_staying(round(linger - quiet))
                await self._everyone_finished.wait()
            await self.mesh.drain()
        with trio.move_on_after(self.config.pacing.grace):  # spectators get the last entries
            await self.watchers.drain()

    def _say_staying(self, seconds: int) -> None:
        """Tell the player why we have not gone: who may lack the last moves, for how long."""
        if self.farewells is not None:
            self.emit(ev.Staying(self.farewells.missing(self._excused()), seconds))

    def _proved(self) -> P.Verdict | None:
        """Our session's verdict if it names a seat and carries evidence -- the entries that
        prove it, or the signed time notice it rests on: the others reach it too once they
        hold that, which we may be the last to hold (seed 3558 of the simulator: a peer that
        left 1 s after blaming a replay left a partitioned honest peer to time the cheater
        out instead, a second verdict; ``PLANS["withheld-cut-off"]``: the same with a withheld
        reveal, named ``abandoned`` by the peer that was away)."""
        verdict = None if self.session is None else self.session.verdict
        if verdict is None or verdict.seat is None:
            return None
        if not verdict.evidence and not self._verdict_notice(verdict):
            return None
        return verdict

    def _verdict_notice(self, verdict: P.Verdict) -> tuple[bytes, ...]:
        """The time notice a verdict without evidence rests on (ours, or one we accepted), as
        its evidence: a peer that was away takes its kind when its own flag comes."""
        notice = self.liveness.time_notice
        if verdict.evidence or notice is None or notice[0] != verdict.seat:
            return ()
        return (notice[1],)

    def _all_said(self) -> bool:
        """Every seat that can say farewell has: all of them, or after a verdict with
        evidence every seat but the one it blames; never the seats that left the game.  A
        seat that left itself waits for nobody: its last entry is out once its links drain,
        and each peer that has it floods it on (docs/protocol.md §11.10)."""
        if self.farewells is None:
            return False
        if self.session is not None and self.session.left is not None:
            return True
        return self.farewells.everyone_but(self._excused())

    def _excused(self) -> frozenset[int]:
        """The seats whose farewell we do not wait for: the seat our proved verdict names,
        the seats that left (or vanished) while the others played on, and a seat whose
        vanishing ended the game."""
        gone = set() if self.session is None else set(self.session.departures.gone)
        ended_by = None if self.session is None else self.session.resigned
        if ended_by is not None and ended_by.vanished:
            gone.add(ended_by.seat)
        blamed = self._blamed()
        return frozenset(gone if blamed is None else {*gone, blamed})

    def _blamed(self) -> int | None:
        """The seat our proved verdict names (it will say no farewell), if there is one."""
        proved = self._proved()
        return None if proved is None else proved.seat

    def _linger(self, finished: bool) -> float:
        """How long :meth:`_leave` may wait: the grace period, or for a seat that finished
        the table's abandon limit (if longer)."""
        if not finished or self.liveness.clock is None:
            return self.config.pacing.grace
        return max(self.config.pacing.grace, self.liveness.clock.limits.abandon_ms / 1000)

    def _ended(self, status: str, resigned: int | None, digest: str | None) -> None:
        """The game ended (a verdict, a resignation, a finish); a finished seat says farewell,
        and so does one whose verdict carries evidence, which it also sends on every link
        (and every new one) so the others reach the same verdict."""
        self._finish(status, resigned=resigned)
        proved = self._proved()
        if proved is not None and self.session is not None and self.session.seat is not None:
            self._evidence_held = list(proved.evidence or self._verdict_notice(proved))
            for data in self._evidence_held:
                self.mesh.broadcast(data)
            digest = VERDICT_FAREWELL
        if digest is not None:
            self._farewell(digest)

    def _farewell(self, digest: str) -> None:
        session = self.session
        assert self.farewells is not None and session is not None and session.seat is not None
        data = P.encode(self.farewells.make(self.identity, session.seat, digest))
        self._farewells_held.append(data)
        self.mesh.broadcast(data)
        if self._all_said():
            self._everyone_finished.set()

    def _finish(self, status: str, *, resigned: int | None = None) -> None:
        clock = None if self.session is None else P.ClockEnd.of(self.session)
        self.files.finish(status, resigned=resigned, clock=clock, notice=self._clock_notice(clock))
        self.done.set()

    def _clock_notice(self, clock: P.ClockEnd | None) -> bytes | None:
        """The signed time notice a clock's end rests on (ours, or one we accepted), kept
        with the game for ``fairtable audit``; None if it does not say that end."""
        held = self.liveness.time_notice
        if clock is None or held is None:
            return None
        found = P.decode_as(held[1], TimeNotice).clock_notice()
        return held[1] if found is not None and found.end == clock else None
