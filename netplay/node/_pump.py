"""Pumping a node's sans-IO session: what it says to send, to decide and to report.

:class:`SessionPump` carries out what the :class:`~protocol.TableSession` asks after every
message: our own new entries go to disk (fsynced: durable before visible) and then to every
link; each session event becomes a node event for the client (a decision, a view, the
cards we saw, the end of the game); a bot answers (at once, or ``pace`` seconds later; a
:class:`Thinker` -- a search bot -- thinks in a worker thread, off the event loop, and is
told to stop when the table stops); a person's answers arrive through the ``answers``
channel (or a :class:`ResignRequest`).
With ``stats`` it also keeps when each step was decided and applied, for bench/netplay.py.
What the game's end means for the node (the folder's status, the farewell) is ``ended``'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import attrs
import trio

import fairtable.protocol as P
from fairtable.engine.errors import EngineError
from fairtable.engine.requests import Decision

from .. import events as ev
from ._node_parts import NodeConfig

__all__ = ["Decider", "ResignRequest", "SessionPump", "Thinker"]

Decider = Callable[[P.DecisionNeeded[Any]], Any]


@runtime_checkable
class Thinker(Protocol):
    """A decider that thinks a while (a search bot).  It runs in a worker thread, so the
    node -- and a screen in the same process -- goes on meanwhile; it may report its
    progress from that thread with ``trio.from_thread``.  When the table stops while it
    thinks, ``cancel`` (called from the event loop) asks it to answer at once; that answer
    is dropped."""

    def __call__(self, event: P.DecisionNeeded[Any]) -> Any: ...

    def cancel(self) -> None: ...


@attrs.frozen
class ResignRequest:
    """Sent through a node's ``answers`` channel: the person gives the game up -- leaving,
    where the game can go on without the seat (``leave``; docs/protocol.md §11.10)."""

    leave: bool = True


class SessionPump:
    """Drives one seat's session (none until the table starts: :meth:`attach`)."""

    def __init__(
        self,
        config: NodeConfig,
        emit: ev.Emit,
        *,
        decider: Decider | None,
        send_own: Callable[[bytes], None],
        ended: Callable[[str, int | None, str | None], None],
        after: Callable[[P.TableSession], None],
        stopped: trio.Event,
        left: Callable[[int], None] = lambda seat: None,
    ) -> None:
        """``send_own`` logs and sends one of our entries; ``ended(status, resigned seat,
        final digest)`` ends the table; ``after`` runs once the session has nothing more;
        once ``stopped`` is set (the table is done), paced bots answer no more."""
        self.config = config
        self.emit = emit
        self.decider = decider
        self.send_own = send_own
        self.ended = ended
        self.after = after
        self.left = left  # another seat left the game for good: stop dialling it
        self.session: P.TableSession | None = None
        self.nursery: trio.Nursery | None = None  # for paced bots; set by the node
        self.stopped = stopped
        self._told_waiting: list[int] = []
        self._decided: dict[int, tuple[float, str]] = {}  # step -> when we answered, what
        self._applied: dict[int, float] = {}  # step -> when our engine moved past it
        self._serial = 0

    def attach(self, session: P.TableSession) -> None:
        self.session = session

    def pump(self) -> None:
        """Carry out what the session says: send, decide, report."""
        session = self.session
        if session is None:
            return
        while True:
            serial = session.game.serial
            if serial != self._serial:
                now = time.monotonic()
                for step in range(self._serial, serial):
                    self._applied.setdefault(step, now)
                self._serial = serial
            for data in session.outgoing():
                self.send_own(data)
            event = session.next_event()
            if event is None:
                break
            self._on_event(session, event)
        self.after(session)
        if self.config.ui_events:
            waiting = sorted(session.waiting - {session.seat})
            if waiting != self._told_waiting:
                self._told_waiting = waiting
                self.emit(ev.WaitingFor(waiting))

    def _on_event(self, session: P.TableSession, event: Any) -> None:
        ui = self.config.ui_events
        if isinstance(event, P.DecisionNeeded) and not ui and session.finished is None:
            asked = {r.seat for r in session.game.pending() if isinstance(r, Decision)}
            self.emit(ev.Asked(event.step, asked == {session.seat}))
        if isinstance(event, P.DecisionNeeded) and session.finished is not None:
            pass  # asked, then we left (or the game ended) before answering
        elif isinstance(event, P.DecisionNeeded) and self.decider is not None:
            thinker = isinstance(self.decider, Thinker)
            if (self.config.pacing.pace > 0 or thinker) and self.nursery is not None:
                self.nursery.start_soon(self._decide_later, event)
            else:
                self._decided[event.step] = (time.monotonic(), event.decision.kind)
                session.decide(self.decider(event))
        elif isinstance(event, P.DecisionNeeded) and ui:
            self.emit(ev.DecisionAsked(event.decision, event.view))
        elif isinstance(event, P.StepApplied) and ui:
            view = event.view if event.view is not None else session.game.view(session.seat)
            self.emit(ev.ViewChanged(view, event.events))
        elif isinstance(event, P.StepApplied):
            self.emit(ev.StepDone(event.step))
        elif isinstance(event, P.CardsSeen) and ui:
            self.emit(ev.CardsShown(event.cards, event.why))
        elif isinstance(event, P.VerdictReached):
            v = event.verdict
            self.emit(ev.Verdict(v.seat, v.kind, v.reason))
            self.ended("verdict", None, None)
        elif isinstance(event, P.SeatLeft):
            you = event.seat == session.seat
            self.emit(ev.Departed(event.seat, event.step, you, event.vanished))
            if you:
                self.ended("left", None, event.digest)
            else:
                self.left(event.seat)
        elif isinstance(event, P.GameResigned):
            you = event.seat == session.seat
            self.emit(ev.Resigned(event.seat, event.step, you, event.vanished))
            self.ended("finished", event.seat, event.digest)
        elif isinstance(event, P.GameFinished):
            stats = None
            if self.config.stats:
                stats = ev.GameStats(
                    at=time.monotonic(),
                    messages=session.messages_sent,
                    bytes=session.bytes_sent,
                    decided=tuple((k, when, kind) for k, (when, kind) in self._decided.items()),
                    applied=tuple(self._applied.items()),
                )
            self.emit(ev.GameOver(event.outcome, event.digest, event.end, stats))
            self.ended("finished", None, event.digest)

    async def _decide_later(self, event: P.DecisionNeeded[Any]) -> None:
        """A paced bot's answer goes out ``pace`` seconds after the question, however long
        the bot thought (when it thinks less than that): how long a seat takes must not tell
        what it holds (docs/protocol.md §11.9)."""
        due = trio.current_time() + self.config.pacing.pace
        await trio.sleep(0)  # answer after the step that asked has been handled
        if self.session is None or self.decider is None or self.stopped.is_set():
            return
        answer = await self._think(self.decider, event)
        await trio.sleep_until(due)
        if self.session is not None and self.session.finished is None and not self.stopped.is_set():
            self.session.decide(answer)
            self.pump()

    @staticmethod
    async def _think(decider: Decider, event: P.DecisionNeeded[Any]) -> Any:
        """The decider's answer; a :class:`Thinker`'s from a worker thread (cancelled: it is
        told to stop, and its thread left to finish on its own)."""
        if not isinstance(decider, Thinker):
            return decider(event)
        try:
            return await trio.to_thread.run_sync(decider, event, abandon_on_cancel=True)
        except trio.Cancelled:
            decider.cancel()
            raise

    async def take_answers(self, answers: trio.MemoryReceiveChannel[Any]) -> None:
        """A person's answers, as the screen sends them."""
        async for answer in answers:
            if isinstance(answer, ResignRequest):
                self.resign(leave=answer.leave)
                continue
            session = self.session
            if session is None:
                continue
            try:
                session.decide(answer)
            except (EngineError, P.LocalProtocolError) as exc:
                self.emit(ev.AnswerRefused(getattr(exc, "reason", str(exc))))
                continue
            self.emit(ev.Answered())
            self.pump()

    def resign(self, *, leave: bool = True) -> None:
        """Give the game up for our seat -- leaving where the game goes on without it (a
        refusal -- the game is over -- is reported)."""
        session = self.session
        if session is None:
            self.emit(ev.AnswerRefused("the game has not started"))
            return
        try:
            session.resign(leave=leave)
        except P.LocalProtocolError as exc:
            self.emit(ev.AnswerRefused(str(exc)))
            return
        self.pump()
