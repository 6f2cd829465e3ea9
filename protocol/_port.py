"""The one interface between the table session and its exchanges.

An exchange (decisions, chance, piles, held cards, reveals, the audit) never sees the
session: it gets a :class:`Port`, which lets it

- **publish** one of our parts (``publish_once``: build it only if it is not out yet), and
  **read** a seat's part (``part`` notes the seat as
  waited on when it is missing; ``stored``/``holds`` only look);
- take a **secret** of ours (deterministic from the secret seed) and our deck key;
- **emit** an event for the caller;
- **ask the game**: the step, the pending requests, a view, a trial check, and ``apply``
  (which turns an engine refusal into a blame, records the digest, emits ``StepApplied``);
- **blame** a seat by raising :class:`~protocol.RemoteProtocolError` (see
  :func:`protocol._errors.blame`), which the session turns into a verdict.

It also carries the two flags the exchanges share with the session: ``waiting_for_reveal``
(a time-out now is a withheld reveal) and ``early_audit`` (why the deck is known broken:
everyone opens now).  The session is reached through :class:`Host`, a structural type, so
this module imports nothing of the session's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import EngineError, IllegalReveal
from fairtable.engine.games import AnyGameRules
from fairtable.engine.requests import Decision, Request

from ._errors import blame
from ._events import Event, GameFinished, StepApplied
from ._part_keys import PartKey
from ._verdict_kinds import VerdictKind

__all__ = ["Host", "Port"]


class Host(Protocol):
    """What the port needs of the session (``TableSession`` has it)."""

    table: Any
    seat: int | None
    seats: tuple[int, ...]
    game: ContractGame[Any, Any]
    rules: AnyGameRules
    codec: Any
    deck_key: Any
    parts: Any
    complaints: list[tuple[int, PartKey]]
    finished: GameFinished | None

    def publish(self, msg: Any) -> None: ...
    def part(self, seat: int, key: PartKey) -> Any: ...
    def secret(self, label: str, size: int) -> bytes: ...
    def emit(self, event: Event) -> None: ...
    def note(self, step: int, answer: Any) -> Any: ...
    def read_note(self, step: int) -> Any: ...
    def record_digest(self, step: int) -> None: ...


class Port:
    """One session as its exchanges see it."""

    def __init__(self, host: Host) -> None:
        self._host = host
        self.table = host.table
        self.me: int | None = host.seat
        self.seats: tuple[int, ...] = host.seats
        self.codec = host.codec
        self.rules = host.rules
        self.deck_key = host.deck_key
        self.complaints = host.complaints  # (seat, part name) of every complaint filed
        self._game = host.game
        self._parts = host.parts
        self.waiting_for_reveal = False
        self.early_audit = ""

    # -- parts ------------------------------------------------------------------------------
    def publish(self, msg: Any) -> None:
        self._host.publish(msg)

    def publish_once(self, key: PartKey, make: Callable[[int], Any]) -> None:
        """Publish the part ``make(our seat)`` builds, filed as ``key``, unless ours is filed
        already (a spectator publishes nothing).

        An exchange runs again on every pass while other seats' parts come in, and our parts
        are deterministic (from our secret seed): building one again could only give the
        same part, after its multiplications and proofs."""
        if self.me is not None and not self.holds(self.me, key):
            self._host.publish(make(self.me))

    def part(self, seat: int, key: PartKey) -> Any:
        """Seat ``seat``'s part ``key``, or None (and the seat is waited on)."""
        return self._host.part(seat, key)

    def stored(self, seat: int, key: PartKey) -> Any:
        """Seat ``seat``'s part ``key`` if filed, without waiting on the seat."""
        return self._parts.get((seat, key))

    def holds(self, seat: int, key: PartKey) -> bool:
        return (seat, key) in self._parts

    def secret(self, label: str, size: int) -> bytes:
        return self._host.secret(label, size)

    def note(self, step: int, answer: Any) -> Any:
        return self._host.note(step, answer)

    def read_note(self, step: int) -> Any:
        return self._host.read_note(step)

    def emit(self, event: Event) -> None:
        self._host.emit(event)

    # -- the game ---------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """The engine's request serial: the step every part of this exchange names."""
        return self._game.serial

    def digest(self) -> str:
        return str(self._game.digest())

    @property
    def over(self) -> bool:
        return bool(self._game.over)

    def pending(self) -> tuple[Request, ...]:
        return tuple(self._game.pending())

    def deciding_seats(self) -> list[int]:
        """Every seat asked for the pending decision, those already buffered included, but a
        seat that left (the engine answers for it, docs/protocol.md §11.10)."""
        pending = self._game.state.pending
        return sorted(r.seat for r in pending if isinstance(r, Decision) and r.seat in self.seats)

    def view(self, seat: int) -> Any:
        return self._game.view(seat)

    def check(self, answer: Any) -> None:
        self._game.check(answer)

    def next_handle(self) -> int:
        return int(self._game.next_handle())

    def audit_cards(self, cards: dict[int, str]) -> tuple[int, str] | None:
        """The game's judgement of the cards still face down at the audit (None: fine)."""
        judge = self.rules.audit_cards
        return None if judge is None else judge(self._game, cards)

    @property
    def judges_hidden_cards(self) -> bool:
        return self.rules.audit_cards is not None

    def apply(self, answer: Any, seat: int | None = None) -> None:
        """Apply an answer to our engine; a refusal blames ``seat`` (if any)."""
        game = self._game
        step = self.step
        try:
            events = game.apply(answer)
        except EngineError as exc:
            culprit = exc.seat if isinstance(exc, IllegalReveal) else None
            culprit = seat if culprit is None else culprit
            if culprit is None:
                # Cards the protocol proved (a deal, a reveal) that the rules say cannot be:
                # the deck itself was tampered with.  Everyone opens; the audit names who.
                self.early_audit = str(exc)
                return
            raise blame(culprit, VerdictKind.ILLEGAL_MOVE, str(exc)) from None
        if game.over or self.step != step:
            self._host.record_digest(step)
        if events:
            view = None if self.me is None else game.view(self.me)
            self.emit(StepApplied(step, tuple(events), view))

    def can_depart(self, seat: int) -> bool:
        """Whether the game can go on without ``seat`` now (the engine's rule)."""
        return bool(self._game.can_depart(seat))

    def depart(self, seat: int, *, revealing: bool = False) -> None:
        """``seat`` leaves the game for good at this step (every check passed): the engine
        takes it out; recorded like an applied answer (digest, ``StepApplied``).
        ``revealing``: the pending reveal's pools are complete, so it stays (§11.11)."""
        game = self._game
        step = self.step
        events = game.depart(seat, revealing=revealing)
        if game.over or self.step != step:
            self._host.record_digest(step)
        if events:
            view = None if self.me is None else game.view(self.me)
            self.emit(StepApplied(step, tuple(events), view))

    def finish(self) -> None:
        """The audit passed: the game is finished, for the caller to read."""
        game = self._game
        outcome = game.outcome
        assert outcome is not None, "the audit runs on a finished game"
        self._host.finished = GameFinished(outcome, game.digest(), game.end)
        self.emit(self._host.finished)
