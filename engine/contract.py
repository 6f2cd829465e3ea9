"""The engine contract's mechanics that every game shares: dispatching answers.

A game object subclasses :class:`ContractGame` and names two tables: ``DECISIONS``
(answer class -> the decision kind it answers, a check and an apply function) and
``GENERIC`` (answer class -> the request class it answers, an optional check and a
handler).  This class then owns what must behave the same in every game:

- ``pending()`` hides the seats whose simultaneous answer is already buffered;
- ``apply(answer)`` checks completely before changing anything, buffers simultaneous
  answers in any arrival order and applies them in seat order once all are in, and runs
  the game's flow on;
- ``check(answer)`` raises what ``apply`` would raise and changes nothing;
- the typed errors: ``GameOver``, ``WrongPhase``, ``WrongSeat``, ``MalformedAnswer``.

The state object must have ``pending`` (list of requests), ``buffered`` (seat -> answer),
``events`` (list), ``decisions`` (int) and ``next_handle`` (int: the handle the next card
placed face down or dealt under a handle gets; :meth:`ContractGame.next_handle`).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engine.errors import GameOver, MalformedAnswer, WrongPhase, WrongSeat
from engine.outcome import Outcome
from engine.requests import Decision, Request

Check = Callable[[Any, Decision, Any], None]
Apply = Callable[[Any, Decision, Any], None]


class ContractGame(abc.ABC):
    """Answer dispatch for one game; subclasses give the tables and the flow."""

    DECISIONS: ClassVar[Mapping[type, tuple[str, Check, Apply]]] = {}
    GENERIC: ClassVar[
        Mapping[type, tuple[type, Callable[[Any, Any], None] | None, Callable[[Any, Any], None]]]
    ] = {}

    state: Any

    # -- what a game supplies ---------------------------------------------------------------
    @property
    @abc.abstractmethod
    def over(self) -> bool:
        """Whether the game has ended."""

    @property
    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """Who won a finished game (``None`` while it goes on)."""

    @abc.abstractmethod
    def advance(self) -> None:
        """Run the game's flow until it needs an answer."""

    def check_simultaneous(self, answer: Any) -> None:  # noqa: B027 -- optional hook
        """Extra checks of a simultaneous answer against those already buffered (none by
        default)."""

    def accepts(self, req: Decision, answer: Any) -> bool:
        """Whether ``answer``'s class answers decision ``req`` (by default: the decision kind
        ``DECISIONS`` names for it; a game whose kinds take several classes overrides)."""
        return self.DECISIONS[type(answer)][0] == req.kind

    def before_apply(self, req: Decision, answer: Any) -> None:  # noqa: B027 -- optional hook
        """Called just before a checked, one-seat answer is applied (nothing by default)."""

    # -- the contract -----------------------------------------------------------------------
    def next_handle(self) -> int:
        """The handle the engine gives the next card it names by handle.  The protocol reads
        it around an answer: the handles given meanwhile name the cards a move placed face
        down (bound by its commitment) or a deal dealt (in slot order)."""
        return int(self.state.next_handle)

    def pending(self) -> tuple[Request, ...]:
        """The requests waiting for an answer (several seats for a simultaneous decision;
        a seat whose answer is buffered is no longer listed)."""
        s = self.state
        if not s.buffered:
            return tuple(s.pending)
        return tuple(
            r
            for r in s.pending
            if not (isinstance(r, Decision) and r.simultaneous and r.seat in s.buffered)
        )

    def apply(self, answer: Any) -> list[tuple[Any, ...]]:
        """Apply one answer; returns the public events it caused."""
        s = self.state
        if self.over:
            raise GameOver("the game is over")
        mark = len(s.events)
        generic = self.GENERIC.get(type(answer))
        if generic is not None:
            kind, _, handler = generic
            self._waiting_for(kind)
            handler(s, answer)  # checks completely before changing anything
            self.advance()
            done: list[tuple[Any, ...]] = s.events[mark:]
            return done
        req, apply = self._checked_decision(answer)
        seat = answer.seat
        s.decisions += 1
        if req.simultaneous:
            s.buffered[seat] = answer
            if len(s.buffered) < len(s.pending):
                return []
            self._flush_simultaneous()
        else:
            s.pending = []
            self.before_apply(req, answer)
            apply(s, req, answer)
        self.advance()
        events: list[tuple[Any, ...]] = s.events[mark:]
        return events

    def check(self, answer: Any) -> None:
        """Raise the error :meth:`apply` would raise for this answer; change nothing."""
        if self.over:
            raise GameOver("the game is over")
        generic = self.GENERIC.get(type(answer))
        if generic is not None:
            kind, check, _ = generic
            if check is not None:
                self._waiting_for(kind)
                check(self.state, answer)
                return
        self._checked_decision(answer)

    def _waiting_for(self, kind: type) -> None:
        pending = self.state.pending
        if not pending or not isinstance(pending[0], kind):
            raise WrongPhase(f"the game is not waiting for a {kind.__name__.lower()}")

    def _checked_decision(self, answer: Any) -> tuple[Decision, Apply]:
        s = self.state
        rule = self.DECISIONS.get(type(answer))
        if rule is None:
            raise MalformedAnswer(f"{type(answer).__name__} is not an answer of this game")
        decision_kind, check, apply = rule
        seat = getattr(answer, "seat", None)
        if type(seat) is not int:
            raise MalformedAnswer("an answer names its seat as a whole number")
        req = next(
            (
                r
                for r in s.pending
                if isinstance(r, Decision) and r.seat == seat and seat not in s.buffered
            ),
            None,
        )
        if req is None:
            if any(isinstance(r, Decision) and self.accepts(r, answer) for r in s.pending):
                raise WrongSeat(f"it is not seat {seat}'s turn to decide")
            raise WrongPhase(f"nobody is asked for a {decision_kind} decision now")
        if not self.accepts(req, answer):
            raise WrongPhase(f"seat {seat} is asked for a {req.kind} decision, not {decision_kind}")
        check(s, req, answer)
        if req.simultaneous:
            self.check_simultaneous(answer)
        return req, apply

    def _flush_simultaneous(self) -> None:
        """All simultaneous answers are in: apply them in seat order."""
        s = self.state
        requests = {r.seat: r for r in s.pending if isinstance(r, Decision)}
        answers, s.buffered, s.pending = dict(s.buffered), {}, []
        for seat in sorted(answers):
            _, _, apply = self.DECISIONS[type(answers[seat])]
            apply(s, requests[seat], answers[seat])
