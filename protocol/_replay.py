"""A finished table replayed step by step from its signed log (``fairtable replay``).

:func:`replay_log` checks a log as :func:`~protocol.audit_log` does (every signature and
chain link first, then every commitment, proof, shuffle and decision through a spectator
:class:`~protocol.TableSession`) and keeps, after every engine step, what a spectator saw:
the step's public events, ``view(None)`` and the public state digest.  A log with a bad
entry or a hole in a feed is refused (:class:`ReplayError`, naming the line and the step
the game cannot pass); a game stopped by a verdict replays up to it, and its
:class:`Ending` says where and why.

Open hands: once the audit has opened every seat's deck key (the game finished and every
seat published its :class:`~protocol.AuditOpening`), :meth:`Replay.open_hands` reads every
card each seat held at every step.  Each key is first checked against the seat's published
key share, and each card is decrypted from the ciphertext the protocol verified on arrival
(the audit's own :func:`~protocol._audit.open_with_key`) and must be a card of its deck's
codebook; nothing unverified is shown.  Before the audit nothing hidden is readable here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import attrs

from fairtable.engine.errors import CardDataError, EngineError
from fairtable.engine.events import Event as GameEvent
from fairtable.engine.games import rules as game_rules
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision

from ._audit import open_with_key
from ._codec import encode
from ._errors import DecodeError, LocalProtocolError, RemoteProtocolError
from ._events import Event, StepApplied
from ._feed import Entry, FeedLog
from ._group import GroupError, base_mul
from ._part_keys import AuditPart
from ._session import TableSession
from ._table import TableSpec
from ._verdict_kinds import VerdictKind

__all__ = ["Ending", "EndingKind", "Replay", "ReplayError", "ReplayStep", "replay_log"]


class ReplayError(Exception):
    """A log that cannot be replayed (tampered, cut, or unreadable); the message says where,
    in one line, with the game step the replay cannot pass."""


@attrs.frozen
class ReplayStep:
    """One engine step as a spectator saw it."""

    index: int  # 0, 1, ... in the order the engine applied them
    serial: int  # the engine's request serial the step answered
    kind: str  # what was answered: a decision kind, or "chance", "deal", "reveal", ...
    seat: int | None  # the seat that decided (None: chance, cards, or several seats at once)
    seats: tuple[int, ...]  # every seat the answered request(s) named
    events: tuple[GameEvent, ...]  # the engine's public events (typed records)
    view: Any  # view(None) after the step
    digest: str  # the public state digest after the step
    held: dict[int, dict[Any, Any]] = attrs.field(eq=False, repr=False)  # ciphertexts held


class EndingKind(StrEnum):
    """How a replayed log ends; the value is the word a replay's export writes."""

    FINISHED = "finished"  # the game ended by its rules (the audit can open the hands)
    RESIGNED = "resigned"  # a seat gave the game up
    VERDICT = "verdict"  # the game was stopped by a verdict
    INCOMPLETE = "incomplete"  # the log stops before the game ends


@attrs.frozen
class Ending:
    """How the replayed log ends, and where (see :class:`EndingKind`)."""

    kind: EndingKind
    step: int  # the engine serial where it ended
    outcome: Outcome | None = None  # who won a finished game
    digest: str = ""
    seat: int | None = None  # the seat blamed (verdict) or that resigned
    reason: str = ""
    verdict: VerdictKind | None = None  # the verdict's kind (VERDICT only)


def _request_words(reqs: tuple[Any, ...]) -> tuple[str, int | None, tuple[int, ...]]:
    """(kind, deciding seat, seats named) of the requests a step answered."""
    if not reqs:
        return "start", None, ()
    first = reqs[0]
    seats = tuple(sorted({r.seat for r in reqs if isinstance(getattr(r, "seat", None), int)}))
    if isinstance(first, Decision):
        return first.kind, (first.seat if len(reqs) == 1 else None), seats
    return type(first).__name__.lower(), None, seats


class _Recorder(TableSession):
    """A spectator session that keeps a snapshot after every engine step."""

    def __init__(self, spec: TableSpec) -> None:
        self.recorded: list[ReplayStep] = []
        try:
            fresh = game_rules(spec.game).new_game(
                spec.seats, spec.round_limit, known=[], options=spec.game_options()
            )
            self._before: tuple[Any, ...] = tuple(fresh.pending())
        except (KeyError, EngineError, CardDataError, DecodeError):
            self._before = ()  # the session below refuses these settings in its own words
        super().__init__(spec, None)

    def record_digest(self, step: int) -> None:
        super().record_digest(step)
        self._snapshot(step, ())

    def emit(self, event: Event) -> None:
        super().emit(event)
        if isinstance(event, StepApplied):
            last = self.recorded[-1] if self.recorded else None
            if last is not None and last.serial == event.step and not last.events:
                self.recorded[-1] = attrs.evolve(last, events=tuple(event.events))
            else:  # events without a new step (none known today): a step of their own
                self._snapshot(event.step, tuple(event.events))

    def _snapshot(self, serial: int, events: tuple[GameEvent, ...]) -> None:
        kind, seat, seats = _request_words(self._before)
        held = {s: dict(h) for s, h in self.exchanges.cards.held.items()}
        self.recorded.append(
            ReplayStep(
                len(self.recorded),
                serial,
                kind,
                seat,
                seats,
                events,
                self.game.view(None),
                self.game.digest(),
                held,
            )
        )
        self._before = tuple(self.game.pending())


class Replay:
    """A replayed log: its steps, how it ended, and (once audited) every hidden card."""

    def __init__(self, spec: TableSpec, entries: list[bytes], session: _Recorder) -> None:
        self.spec = spec
        self.entries = entries
        self.steps = session.recorded
        self._cards = session.exchanges.cards
        self._secrets: dict[int, bytes] | None = None
        self._opened: dict[tuple[int, Any, bytes], str | None] = {}
        self.ending = _ending(session)
        if self.ending.kind is EndingKind.FINISHED:
            self._secrets = _opened_keys(session)

    @property
    def audited(self) -> bool:
        """Whether every deck key is open and checked (open hands can be shown)."""
        return self._secrets is not None

    def open_hands(self, index: int) -> dict[int, list[str]]:
        """Every seat's hidden cards after step ``index`` (in slot order), each decrypted with
        its holder's checked deck key into a card of its deck; a ciphertext that opens to no
        card is shown as ``"?"``.  ReplayError before the audit."""
        if self._secrets is None:
            raise ReplayError(
                "open hands need the audit: this game's deck keys were never "
                f"opened ({self.ending.kind})"
            )
        step = self.steps[index]
        out: dict[int, list[str]] = {}
        for seat in sorted(step.held):
            cards = []
            for slot, ct in sorted(step.held[seat].items()):
                key = (seat, slot, ct.to_bytes())
                if key not in self._opened:
                    self._opened[key] = open_with_key(
                        self._cards.point_card, ct, self._secrets[seat]
                    )
                card = self._opened[key]
                cards.append("?" if card is None else card)
            out[seat] = cards
        return out


def _opened_keys(session: TableSession) -> dict[int, bytes] | None:
    """Every seat's opened deck key, each checked against its published key share."""
    keys = session.exchanges.cards.keys
    secrets = {}
    for seat in session.seats:
        msg = session.parts.get((seat, AuditPart()))
        if msg is None:
            return None
        try:
            if base_mul(msg.deck_secret) != keys.get(seat, b""):
                return None
        except GroupError:
            return None
        secrets[seat] = msg.deck_secret
    return secrets


def _ending(session: TableSession) -> Ending:
    serial = session.game.serial
    if session.verdict is not None:
        v = session.verdict
        return Ending(
            EndingKind.VERDICT, serial, seat=v.seat, reason=f"{v.kind}: {v.reason}", verdict=v.kind
        )
    if session.resigned is not None:
        r = session.resigned
        return Ending(
            EndingKind.RESIGNED,
            r.step,
            digest=r.digest,
            seat=r.seat,
            reason=f"seat {r.seat} resigned",
        )
    if session.finished is not None:
        f = session.finished
        return Ending(EndingKind.FINISHED, serial, f.outcome, f.digest, reason=f.end)
    waiting = ", ".join(f"seat {s}" for s in sorted(session.waiting)) or "nobody"
    return Ending(
        EndingKind.INCOMPLETE,
        serial,
        reason=f"the log stops before the game ends (waiting for {waiting})",
    )


def _run(spec: TableSpec, entries: list[Entry]) -> _Recorder:
    try:
        session = _Recorder(spec)
    except (LocalProtocolError, DecodeError) as exc:  # settings no game starts with, or unreadable
        raise ReplayError(f"the table's settings cannot be replayed: {exc}") from None
    for seat in range(spec.seats):
        for entry in sorted((e for e in entries if e.seat == seat), key=lambda e: e.seq):
            session.receive(encode(entry))
    return session


def replay_log(spec: TableSpec, entries: list[bytes]) -> Replay:
    """Replay a whole table log (see the module docstring); ReplayError if it is refused."""
    try:
        feeds = FeedLog(spec.table_id, spec.roster())
    except RemoteProtocolError as exc:  # a seat's key that is no Ed25519 key
        raise ReplayError(f"the table's roster cannot be read: {exc}") from None
    good: list[Entry] = []
    refused = ""
    for number, data in enumerate(entries, start=2):
        try:
            entry = Entry.parse(data)
            feeds.add(entry)
        except RemoteProtocolError as exc:
            if not refused:  # the first bad line; the rest still tell how far the game gets
                who = f" (seat {exc.seat})" if exc.seat is not None else ""
                refused = f"line {number}{who}: {exc}"
            continue
        good.append(entry)
    if not refused:
        for seat in range(spec.seats):
            gaps = feeds.gaps(seat)
            if gaps:
                start, stop = gaps[0]
                refused = f"seat {seat}'s feed is missing entries {start} to {stop - 1}"
                break
    session = _run(spec, good)
    if refused:
        raise ReplayError(
            f"refused: {refused}; the game cannot be replayed past step {session.game.serial}"
        )
    return Replay(spec, entries, session)
