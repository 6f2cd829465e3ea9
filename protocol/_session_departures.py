"""The ways a seat goes at a table session: resigning, leaving, vanishing (issue 33).

This module owns the :class:`TableSession` methods that end the game for a seat or take a
seat out of it while the others play on: :meth:`~SessionDepartures.resign` (a resignation,
or a leave where the game goes on, docs/protocol.md §11.8 and §11.10),
:meth:`~SessionDepartures.vanish` (the table agreed a seat is gone for good, §11.11) and the
endings they lead to.  The checks and the cryptography are in :mod:`protocol._departures`
and :mod:`protocol._vanish`; the session mixes this class in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from fairtable.engine.contract import ContractGame
from fairtable.engine.outcome import Outcome

from ._departures import Departures
from ._errors import LocalProtocolError
from ._events import Event, GameFinished, GameResigned, SeatLeft, Verdict
from ._feed import FeedLog
from ._held import PartStore
from ._port import Port
from ._session_messages import Leave
from ._vanish import Vanishing

__all__ = ["SessionDepartures"]


class SessionDepartures:
    """Resigning, leaving and vanishing, for :class:`~protocol.TableSession`."""

    seat: int | None
    game: ContractGame[Any, Any]
    port: Port
    departures: Departures
    vanishing: Vanishing
    verdict: Verdict | None
    finished: GameFinished | None
    resigned: GameResigned | None
    left: SeatLeft | None
    waiting: set[int]
    log: FeedLog
    parts: PartStore
    _leaving: bool
    _left_seq: dict[int, int]
    _events: deque[Event]
    # the session's own methods these call (declared here, defined by TableSession)
    publish: Callable[[Any], None]
    _run: Callable[[], None]
    _settle: Callable[[], None]

    def resign(self, *, leave: bool = True) -> None:
        """Give the game up for our seat: a signed :class:`Resign` every peer will see --
        or, where the game can go on without us (and ``leave``), leave at our next decision
        (a :class:`Leave`; at once if we owe one now) and let the others play on.

        Raises LocalProtocolError (changing nothing) if we hold no seat or the game is over."""
        if self.seat is None:
            raise LocalProtocolError("only a seat can resign")
        if self.verdict is not None or self.finished is not None or self.game.over:
            raise LocalProtocolError("the game is already over")
        self._leaving = leave and self.port.can_depart(self.seat)
        if not self._leaving:
            self.publish(self.departures.resign())
        self._run()

    def _leave_now(self) -> bool:
        """We asked to leave: leave if we owe a decision now (or resign, if the game can no
        longer go on without us); whether we did either."""
        parts = self.departures.leave()
        for part in parts:
            self.publish(part)
        if parts and isinstance(parts[-1], Leave):
            self._left(self.seat, parts[-1].step)
        self._leaving = not parts
        return bool(parts)

    def vanish(self, seat: int) -> None:
        """The table agreed that ``seat`` is gone for good (at a table whose rule is
        ``Leavers.GO_ON``; netplay: the seat stayed offline past the abandon limit while the
        table waited on it).  Call it on every survivor's session, once, instead of
        :meth:`stop_for_time`; it may be called early, before our engine waits on the seat.

        Once our engine waits on nothing but ``seat``, we vote (a ``vanish`` part, with our
        recovery shares where the table can recover) and file no more of the seat's entries.
        When every other seat still playing cast the same vote, every peer applies it at the
        same step: ``SeatLeft(seat, step, digest, vanished=True)`` and the game goes on, or
        the game ends there (``GameResigned(..., vanished=True)``), or -- where the seat owed
        the reveal of what it committed to -- a ``withheld-reveal`` verdict naming it
        (docs/protocol.md §11.11).  A vote is void if another peer filed more of the seat's
        feed (it answers ``present``): the seat was not gone at that step.  The call is
        then forgotten: the caller calls again if the seat is still gone by its rule (it may
        call at every check while the rule holds; a call changes nothing while our vote about
        the seat stands).

        Raises LocalProtocolError (nothing changed) at a table whose rule is ``END``, or for
        our own seat or a seat no longer playing."""
        if self.verdict is None and self.finished is None:
            self.vanishing.vanish(seat)
            self._settle()

    def _cut(self, seat: int, seen: int) -> None:
        """Nothing of ``seat``'s feed from its entry ``seen`` on counts, or is kept."""
        self._left_seq[seat] = seen - 1
        self.log.cut(seat, seen)
        for key in self.parts.charged(seat):
            self.parts.release((seat, key))

    def _vanished(self, seat: int, step: int) -> None:
        self.resigned = GameResigned(seat, step, self.game.digest(), vanished=True)
        self._end(self.resigned, "vanished")

    def _left(self, me: Any, step: int) -> None:
        self.left = SeatLeft(me, step, self.game.digest())
        self._end(self.left, "left")

    def _end(self, event: SeatLeft | GameResigned, end: str) -> None:
        """The game is over for us with no winner (we left, or a seat resigned)."""
        self.finished = GameFinished(Outcome.nobody(), event.digest, end)
        self.waiting = set()
        self._events.append(event)

    def _end_by_resignation(self) -> bool:
        """End the game if a seat resigned at a step our engine has reached."""
        found = self.departures.resigned(self.game.serial)
        if found is not None:
            self.resigned = GameResigned(*found, self.game.digest())
            self._end(self.resigned, "resigned")
        return found is not None
