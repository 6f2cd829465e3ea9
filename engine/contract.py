"""The engine contract: what every game object is to the layers above, and the mechanics
every game shares.

:class:`ContractGame` ``[State, View]`` is the one interface the protocol, netplay, the
client, the bots and the bench use on a game object -- they use nothing else of it:

==========================  ======================================================
``pending()``               the requests waiting for an answer
``apply(answer)``           apply one answer: the public events it caused (typed records,
                            :class:`~engine.events.Event`), or a typed
                            :class:`~engine.errors.EngineError` with nothing changed
``check(answer)``           raise what ``apply`` would raise; change nothing
``view(seat)``              what ``seat`` may see (``None``: a spectator) -- ``View``
``digest()``                hex SHA-256 of the public state and where play stands
``public()``                the public state as canonical JSON-shaped data
``over`` / ``outcome``      whether the game ended; who won (:class:`~engine.outcome.Outcome`,
                            ``None`` while it goes on) / ``end``: how it ended
``serial``                  the step number every protocol part names
``next_handle()``           the handle the next card named by handle gets
``secret_of(handle)``       a face-down card's identity, on an instance that knows it
``handover_cards(g, s)``    the cards seat ``g`` chose to hand to seat ``s``
``copy()``                  an independent copy (frozen card data shared)
``state``                   the game's state, a :class:`~engine.common_state.CommonState`
``can_depart(seat)``        whether the game can go on without ``seat`` now
``depart(seat)``            ``seat`` leaves for good: the public events it caused, or
                            :class:`~engine.errors.CannotDepart` with nothing changed
``departed``                the seats that left, sorted
``set_aside(seat)``         the handles of the face-down cards a departed seat left
                            behind, which the game never opens
==========================  ======================================================

A game subclasses it, gives ``view``, ``outcome`` and ``advance`` (run the flow until it
needs an answer), names its ``EVENT_PARSER`` (the :class:`~engine.events.EventParser` that
reads its stored event tuples back into records; the state logs records, and ``apply`` and
``depart`` return them as they were logged) and two tables: ``DECISIONS`` (answer class ->
the decision kind it answers, a check and an apply function) and ``GENERIC`` (answer class
-> the request class it answers, an optional check and a handler that checks completely
before it changes anything; without a check, ``check`` runs the handler on a copy).
Everything else has a default here, and these must behave the same in every game:

- ``pending()`` hides the seats whose simultaneous answer is already buffered;
- ``apply(answer)`` checks completely before changing anything, buffers simultaneous
  answers in any arrival order and applies them in seat order once all are in, and runs
  the game's flow on;
- ``check(answer)`` raises what ``apply`` would raise and changes nothing;
- the typed errors: ``GameOver``, ``WrongPhase``, ``WrongSeat``, ``MalformedAnswer``.

A game without face-down cards or hand-overs keeps the defaults of ``secret_of`` and
``handover_cards`` (they raise :class:`KeyError`).

**Departures** (issue 33).  A game that can go on when a seat leaves overrides
``can_depart`` and ``on_depart``; by default no seat can leave.  ``depart(seat)`` is the
same on every game: it refuses (:class:`~engine.errors.CannotDepart`, nothing changed)
unless ``can_depart(seat)``, records the seat in ``state.departed``, lets the game withdraw
whatever the seat was asked and has not answered (``on_depart``; a simultaneous answer of
the seat still buffered is dropped) and runs the flow on (``run_on``).  From then on
``pending()`` never asks anything of that seat nor opens a card it held hidden: a decision
the game's flow still asks of it is answered at once by the game's public rule
(``stand_in``, checked like any answer), its hidden cards are set aside face down.
"""

from __future__ import annotations

import abc
import copy as _copy
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Self, TypeVar

import attrs

from fairtable.engine.common_state import CommonState
from fairtable.engine.errors import CannotDepart, GameOver, MalformedAnswer, WrongPhase, WrongSeat
from fairtable.engine.events import Event, EventParser
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision, Request, Reveal

__all__ = ["Apply", "Check", "ContractGame", "Handler", "State", "View"]

State = TypeVar("State", bound=CommonState)
View = TypeVar("View")

Check = Callable[[Any, Decision, Any], None]
"""Checks a decision's answer against the state and the request (raises; changes nothing)."""
Apply = Callable[[Any, Decision, Any], None]
"""Applies a checked decision's answer to the state."""
Handler = Callable[[Any, Any], None]
"""Checks or applies the answer to a chance, shuffle, deal, flip, peek or reveal request."""


class ContractGame(abc.ABC, Generic[State, View]):
    """One game as one engine instance sees it; see the module docstring."""

    game: ClassVar[str]
    """The game's name in the registry (:func:`engine.games.rules`)."""
    EVENT_PARSER: ClassVar[EventParser]
    """Reads the game's stored event tuples back into its event records."""
    DECISIONS: ClassVar[Mapping[type, tuple[str, Check, Apply]]] = {}
    GENERIC: ClassVar[Mapping[type, tuple[type, Handler | None, Handler]]] = {}

    def __init__(self, state: State) -> None:
        self.state: State = state

    # -- what a game supplies ---------------------------------------------------------------
    @property
    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """Who won a finished game (``None`` while it goes on)."""

    @abc.abstractmethod
    def advance(self) -> None:
        """Run the game's flow until it needs an answer."""

    @abc.abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see: its own secrets and the public state (``None``: a
        spectator, the public state only).  Bots and screens read views, never the state."""

    def check_simultaneous(self, answer: Any) -> None:  # noqa: B027 -- optional hook
        """Extra checks of a simultaneous answer against those already buffered (none by
        default)."""

    def accepts(self, req: Decision, answer: Any) -> bool:
        """Whether ``answer``'s class answers decision ``req`` (by default: the decision kind
        ``DECISIONS`` names for it; a game whose kinds take several classes overrides)."""
        return self.DECISIONS[type(answer)][0] == req.kind

    def before_apply(self, req: Decision, answer: Any) -> None:  # noqa: B027 -- optional hook
        """Called just before a checked, one-seat answer is applied (nothing by default)."""

    def departure_allowed(self, seat: int) -> bool:
        """Whether this game can go on without ``seat`` (a whole number, not departed, the
        game not over) at this point; a seat that is no seat of the table cannot leave.  A
        game that supports departures overrides it; by default no seat can leave."""
        return False

    def on_depart(self, seat: int, *, revealing: bool = False) -> None:  # noqa: B027 -- optional hook
        """``seat`` (already in ``state.departed``) leaves: withdraw what it was asked and
        set aside what it held hidden; the flow runs on afterwards.  Only called when
        :meth:`departure_allowed` said yes.  ``revealing``: the pending
        :class:`~engine.requests.Reveal` is already under way and stays; the cards it names
        that ``seat`` placed are played, revealed with it, not set aside (:meth:`depart`)."""

    # -- the contract -----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.state.over)

    @property
    def end(self) -> str:
        """How the game ended, in the game's word (``"won"``, ``"round_limit"``, ...; ``""``
        while it goes on)."""
        return self.state.over or ""

    @property
    def serial(self) -> int:
        """The step number: how many groups of requests have been asked so far (every part
        the protocol exchanges names it)."""
        return self.state.serial

    def digest(self) -> str:
        """Hex SHA-256 of the public state and where play stands: identical on every peer
        after every step, whatever each instance knows."""
        return self.state.digest()

    def public(self) -> dict[str, Any]:
        """The public state, as canonical JSON-shaped data."""
        return self.state.public()

    def secret_of(self, handle: int) -> str:
        """The identity of the face-down card ``handle`` (:class:`KeyError` on an instance
        that does not know it, or in a game without face-down cards)."""
        raise KeyError(f"{self.game} has no face-down cards (handle {handle})")

    def handover_cards(self, giver: int, seat: int) -> tuple[str, ...]:
        """The cards seat ``giver`` chose to hand to seat ``seat`` (:class:`KeyError` on an
        instance that does not know them, or in a game without hand-overs)."""
        raise KeyError(f"{self.game} has no hand-overs")

    # -- departures ---------------------------------------------------------------------
    @property
    def departed(self) -> tuple[int, ...]:
        """The seats that left the game for good, sorted."""
        return self.state.departed

    def can_depart(self, seat: int) -> bool:
        """Whether the game can go on without ``seat`` at this point."""
        return (
            type(seat) is int
            and not self.over
            and seat not in self.state.departed
            and self.departure_allowed(seat)
        )

    def depart(self, seat: int, *, revealing: bool = False) -> tuple[Event, ...]:
        """``seat`` leaves the game for good at this step; returns the public events it
        caused.  :class:`~engine.errors.CannotDepart` (nothing changed) when
        :meth:`can_depart` says no.  Every peer applying it at the same step reaches the
        same digest.

        ``revealing`` (only while a :class:`~engine.requests.Reveal` is pending): that reveal
        is already under way -- the protocol put its cards into a pool beyond recall, mixed
        with the others' (docs/protocol.md §11.11) -- so it stays pending, and the cards it
        names that ``seat`` placed are played: revealed with it, not set aside."""
        if not self.can_depart(seat):
            raise CannotDepart(f"seat {seat!r} cannot leave this game now")
        if revealing and not any(isinstance(r, Reveal) for r in self.state.pending):
            raise CannotDepart("no reveal is under way")
        s = self.state
        mark = len(s.events)
        s.departed = tuple(sorted((*s.departed, seat)))
        if seat in s.buffered:
            del s.buffered[seat]
        self.on_depart(seat, revealing=revealing)
        self.withdraw_simultaneous(seat)
        self.run_on()
        return self._events_since(mark)

    def set_aside(self, seat: int) -> frozenset[int]:
        """The handles of the face-down cards departed seat ``seat`` left behind (placed by
        it and not yet opened, or held under a handle): the game never reveals, peeks at
        or hands over them.  Cards it held in hand without a handle are set aside too --
        all of them: the game never opens any card still held by a departed seat."""
        return frozenset()

    def withdraw_simultaneous(self, seat: int) -> None:
        """Drop ``seat``'s request from a pending simultaneous decision; when every seat
        still asked has answered, apply the buffered answers (in seat order)."""
        s = self.state
        if not any(isinstance(r, Decision) and r.simultaneous for r in s.pending):
            return
        s.pending = [r for r in s.pending if not (isinstance(r, Decision) and r.seat == seat)]
        if s.pending and len(s.buffered) == len(s.pending):
            self._flush_simultaneous()

    def copy(self) -> Self:
        """An independent copy; the frozen data the state names in ``SHARED`` is shared."""
        state = self.state
        memo = {id(getattr(state, name)): getattr(state, name) for name in state.SHARED}
        return type(self)(_copy.deepcopy(state, memo))

    def next_handle(self) -> int:
        """The handle the engine gives the next card it names by handle.  The protocol reads
        it around an answer: the handles given meanwhile name the cards a move placed face
        down (bound by its commitment) or a deal dealt (in slot order)."""
        return self.state.next_handle

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

    def apply(self, answer: Any) -> tuple[Event, ...]:
        """Apply one answer; returns the public events it caused, as records."""
        s = self.state
        if s.over:
            raise GameOver("the game is over")
        mark = len(s.events)
        generic = self.GENERIC.get(type(answer))
        if generic is not None:
            kind, _, handler = generic
            self._waiting_for(kind)
            handler(s, answer)  # checks completely before changing anything
            self.run_on()
            return self._events_since(mark)
        req, apply, answer = self._checked_decision(answer)
        if not self._decide(req, apply, answer):
            return ()
        self.run_on()
        return self._events_since(mark)

    def _events_since(self, mark: int) -> tuple[Event, ...]:
        """The records of the events logged from index ``mark`` of the state's log on."""
        return tuple(self.state.events[mark:])

    def _decide(self, req: Decision, apply: Apply, answer: Any) -> bool:
        """Take a checked decision; whether the flow may run on (not while a simultaneous
        decision still waits for other seats)."""
        s = self.state
        s.decisions += 1
        if req.simultaneous:
            s.buffered[answer.seat] = answer
            if len(s.buffered) < len(s.pending):
                return False
            self._flush_simultaneous()
        else:
            s.pending = []
            self.before_apply(req, answer)
            apply(s, req, answer)
        return True

    def run_on(self) -> None:
        """Run the flow until it needs an answer from outside: a decision asked of a seat
        that left is answered at once by the game's public rule (:meth:`stand_in`)."""
        self.advance()
        s = self.state
        if not s.departed:
            return
        while not self.over:
            req = next(
                (r for r in self.pending() if isinstance(r, Decision) and r.seat in s.departed),
                None,
            )
            if req is None:
                return
            checked, apply, answer = self._checked_decision(self.stand_in(req))
            if self._decide(checked, apply, answer):
                self.advance()
            # else: buffered; another seat that left may still owe its simultaneous answer

    def stand_in(self, decision: Decision) -> Any:
        """The answer a seat that left gives to ``decision``: a deterministic rule of the
        public state (a game whose flow can still ask a departed seat overrides it)."""
        raise AssertionError(f"{self.game} asked seat {decision.seat}, which left the game")

    def check(self, answer: Any) -> None:
        """Raise the error :meth:`apply` would raise for this answer; change nothing."""
        if self.over:
            raise GameOver("the game is over")
        generic = self.GENERIC.get(type(answer))
        if generic is not None:
            kind, check, handler = generic
            self._waiting_for(kind)
            if check is not None:
                check(self.state, answer)
            else:  # no check of its own: its handler checks before it changes, on a copy
                handler(self.copy().state, answer)
            return
        self._checked_decision(answer)

    def _waiting_for(self, kind: type) -> None:
        pending = self.state.pending
        if not pending or not isinstance(pending[0], kind):
            raise WrongPhase(f"the game is not waiting for a {kind.__name__.lower()}")

    def _checked_decision(self, answer: Any) -> tuple[Decision, Apply, Any]:
        """The decision ``answer`` answers, its apply function and the answer as the rules
        take it (for a decision taken on behalf of a seat that left: as that seat's)."""
        s = self.state
        rule = self.DECISIONS.get(type(answer))
        if rule is None:
            raise MalformedAnswer(f"{type(answer).__name__} is not an answer of this game")
        decision_kind, check, apply = rule
        seat = getattr(answer, "seat", None)
        if type(seat) is not int:
            raise MalformedAnswer("an answer names its seat as a whole number")
        req = None
        if seat not in s.buffered:
            for r in s.pending:
                if isinstance(r, Decision) and r.seat == seat:
                    req = r
                    break
        if req is None:
            if any(isinstance(r, Decision) and self.accepts(r, answer) for r in s.pending):
                raise WrongSeat(f"it is not seat {seat}'s turn to decide")
            raise WrongPhase(f"nobody is asked for a {decision_kind} decision now")
        if not self.accepts(req, answer):
            raise WrongPhase(f"seat {seat} is asked for a {req.kind} decision, not {decision_kind}")
        if req.behalf is not None:  # the rules take it as the move of the seat that left
            req = attrs.evolve(req, seat=req.behalf, behalf=None)
            answer = attrs.evolve(answer, seat=req.seat)
        check(s, req, answer)
        if req.simultaneous:
            self.check_simultaneous(answer)
        return req, apply, answer

    def _flush_simultaneous(self) -> None:
        """All simultaneous answers are in: apply them in seat order."""
        s = self.state
        requests = {r.seat: r for r in s.pending if isinstance(r, Decision)}
        answers, s.buffered, s.pending = dict(s.buffered), {}, []
        for seat in sorted(answers):
            _, _, apply = self.DECISIONS[type(answers[seat])]
            apply(s, requests[seat], answers[seat])
