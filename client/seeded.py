"""``fairtable play --seed N``: a table whose every key and every secret come from ``N``,
played in this process, for tests and for replaying a game between bots.

The seats are the protocol's own sessions, passing their signed entries to each other in
memory (``protocol.testing.make_table``: the same table ``simulate --crypto`` plays): the
deck shuffles, draws and joint randomness are the protocol's, but the secrets behind them
are drawn from ``N``, and so are the bots' choices (seat ``s``'s bot from the stream
``bot/s`` of ``N``, as ``simulate`` seeds them).  So the same seed and the same answers at
this terminal give the same game, whatever the timing: the engine applies simultaneous
answers in one order whatever order they arrive in.

Nothing of it is secret from anyone who knows ``N``, so it never goes on a network: only
``play`` takes ``--seed`` (``host`` and ``join`` do not), the table has no sockets, and
nothing is kept on disk (there is nothing to resume).  A bot that thinks against the clock
(a search bot: ``easy``, ``normal``, ``hard``) would make the game depend on the machine's
speed, so it is refused here.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import attrs
import trio

import fairtable.protocol as P
from fairtable.client.bot_seats import bot_name
from fairtable.client.ending import TYPE_QUIT
from fairtable.client.games import bot_maker
from fairtable.client.help_parts import Help
from fairtable.client.search import STRENGTHS, SearchBot
from fairtable.client.watch_screen import spectator_events
from fairtable.engine.errors import EngineError
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import ResignRequest
from fairtable.netplay import events as ev
from fairtable.protocol.testing import make_table

__all__ = [
    "LEAVE_UNKEPT",
    "NOT_KEPT",
    "UNKEPT",
    "SeededTable",
    "keep_nothing",
    "seeded_bots_refusal",
]

NOT_KEPT = "A seeded game is not kept: 'fairtable play ... --seed N' plays it again."
"""Said when the screen of a seeded game closes before its end."""

LEAVE_UNKEPT: Help = (
    TYPE_QUIT,
    " to leave. A seeded game is not kept: 'play ... --seed N' plays it again.",
)
"""What the screen says at the end of a seeded game, for the words of a game kept on disk."""

UNKEPT = "a seeded game is not kept"
"""What the keys and the help say leaving does, for "the game is kept"."""


def keep_nothing(model: Any) -> None:
    """Tell ``model`` (a screen model) that its game is kept nowhere: its end, its keys and
    its help say so, not that leaving keeps it."""
    model.leave = LEAVE_UNKEPT
    model.unkept = UNKEPT


Network = Callable[
    [trio.MemorySendChannel[ev.NodeEvent], trio.MemoryReceiveChannel[Any]], Awaitable[None]
]


def seeded_bots_refusal(game: str, specs: Sequence[str]) -> str | None:
    """Why ``specs`` cannot play a seeded game (a bot that thinks against the clock), or
    None."""
    for spec in specs:
        if spec in STRENGTHS or spec.partition(":")[0] == SearchBot.kind:
            return (
                f"--seed: the bot {spec!r} thinks against the clock, so the same seed would "
                "not give the same game; use heuristic or random bots"
            )
    return None


@attrs.define
class _Due:
    """A bot's answer, handed to its session ``at`` (trio time): bots think ``pace``
    seconds, as at a table on the network."""

    at: float
    seat: int
    answer: Any


@attrs.define
class SeededTable:
    """The seeded table of ``play --seed``: our seat 0 on the screen, the bots at the others.
    Call :meth:`network` for the screen's network side."""

    game: str
    seed: int
    bots: tuple[str, ...]
    pace: float = 0.0
    round_limit: int | None = None
    name: str = ""

    def network(self) -> Network:
        """The screen's network side: it plays the table until our seat is out of the game
        (the game ended), telling the screen what a table node would -- after we left a
        game that goes on, the rest as a spectator is told it, to its end."""

        async def main(
            to_screen: trio.MemorySendChannel[ev.NodeEvent],
            answers: trio.MemoryReceiveChannel[Any],
        ) -> None:
            await _Run(self).play(to_screen, answers)

        return main


class _Run:
    """One seeded table being played (see :class:`SeededTable`)."""

    def __init__(self, table: SeededTable) -> None:
        game = table.game
        limit = table.round_limit
        if limit is None:
            limit = rules(game).default_round_limit
        self.spec, self.sessions = make_table(
            len(table.bots) + 1, table.seed, game=game, round_limit=limit
        )
        root = ChanceStream.from_int(table.seed)
        self.bots = {
            seat: bot_maker(game, spec)(root.child(f"bot/{seat}"))
            for seat, spec in enumerate(table.bots, start=1)
        }
        self.names = (table.name, *(bot_name(i, spec) for i, spec in enumerate(table.bots)))
        self.pace = table.pace
        self.told: list[ev.NodeEvent] = []  # for the screen, once the table has settled
        self.due: list[_Due] = []
        self.queue: list[tuple[int, bytes]] = []
        self.waiting: list[int] | None = None
        self.out = False  # our seat is out of the game: the screen is told all there is
        self.watched: int | None = None  # we left: the seat whose session tells us the rest
        self.after = False  # the watched seat has taken our leave: what it says is news

    def emit(self, event: ev.NodeEvent) -> None:
        self.told.append(event)

    async def play(
        self,
        to_screen: trio.MemorySendChannel[ev.NodeEvent],
        answers: trio.MemoryReceiveChannel[Any],
    ) -> None:
        me = self.sessions[0]
        self.emit(
            ev.Seated(
                0,
                self.spec.seats,
                self.spec.table_id,
                clock=self.spec.time_limits(),
                names=self.names,
                leavers=self.spec.leavers(),
            )
        )
        while True:
            self._settle()
            told, self.told = self.told, []
            for event in told:  # at the screen's pace: it reads each of them
                await to_screen.send(event)
            if self.out:
                return
            ready = [d for d in self.due if d.at <= trio.current_time()]
            for due in ready:
                self.due.remove(due)
                session = self.sessions[due.seat]
                if session.finished is None and session.verdict is None:
                    session.decide(due.answer)
            if ready:
                continue
            with trio.move_on_at(min((d.at for d in self.due), default=math.inf)):
                self._answer(me, await answers.receive())

    def _answer(self, me: P.TableSession, answer: Any) -> None:
        """The person's answer (or resignation), as a table node takes it."""
        try:
            if isinstance(answer, ResignRequest):
                me.resign(leave=answer.leave)
                return
            me.decide(answer)
        except (EngineError, P.LocalProtocolError) as exc:
            self.emit(ev.AnswerRefused(getattr(exc, "reason", str(exc))))
            return
        self.emit(ev.Answered())

    def _settle(self) -> None:
        """Hand every entry to every other seat and every event to its reader, until nothing
        moves but what waits on a person or on a bot's pace."""
        moved = True
        while moved:
            moved = False
            for seat, session in enumerate(self.sessions):
                while (event := session.next_event()) is not None:
                    moved = True
                    if seat == 0:
                        self._tell(session, event)
                    else:
                        self._bot(seat, session, event)
                    if seat == self.watched:
                        self._follow(session, event)
                for data in session.outgoing():
                    moved = True
                    self.queue.append((seat, data))
            queue, self.queue = self.queue, []
            for sender, data in queue:
                for seat, session in enumerate(self.sessions):
                    if seat != sender:
                        session.receive(data)
        me = self.sessions[0]
        waiting = sorted(me.waiting - {0})
        if waiting != self.waiting and not self.out:
            self.waiting = waiting
            self.emit(ev.WaitingFor(waiting))

    def _bot(self, seat: int, session: P.TableSession, event: Any) -> None:
        if (
            isinstance(event, P.DecisionNeeded)
            and session.finished is None
            and session.verdict is None
        ):
            answer = self.bots[seat].decide(event.view, event.decision)
            self.due.append(_Due(trio.current_time() + self.pace, seat, answer))

    def _follow(self, session: P.TableSession, event: Any) -> None:
        """After our leave: the watched seat's events, told as a spectator is told them
        (``view(None)``: client.watch_screen), from the one after its taking our leave."""
        if not self.after:
            self.after = isinstance(event, P.SeatLeft) and event.seat == 0
            return
        for told in spectator_events(event, session):
            self.emit(told)
        if session.finished is not None or session.verdict is not None:
            self.out = True

    def _tell(self, me: P.TableSession, event: Any) -> None:
        """Our seat's event, told to the screen as a table node tells it."""
        if isinstance(event, P.DecisionNeeded) and me.finished is None:
            self.emit(ev.DecisionAsked(event.decision, event.view))
        elif isinstance(event, P.StepApplied):
            view = event.view if event.view is not None else me.game.view(0)
            self.emit(ev.ViewChanged(view, event.events))
        elif isinstance(event, P.CardsSeen):
            self.emit(ev.CardsShown(event.cards, event.why))
        elif isinstance(event, P.VerdictReached):
            v = event.verdict
            self.emit(ev.Verdict(v.seat, v.kind, v.reason))
            self.out = True
        elif isinstance(event, P.SeatLeft):
            self.emit(ev.Departed(event.seat, event.step, event.seat == 0, event.vanished))
            if event.seat == 0:  # the rest as a spectator sees it, from a seat at the table
                gone = me.departures.gone
                self.watched = min(s for s in range(1, self.spec.seats) if s not in gone)
        elif isinstance(event, P.GameResigned):
            self.emit(ev.Resigned(event.seat, event.step, event.seat == 0, event.vanished))
            self.out = True
        elif isinstance(event, P.GameFinished):
            self.emit(ev.GameOver(event.outcome, event.digest, event.end))
            self.out = True
