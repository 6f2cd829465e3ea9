"""The table session: one peer's sans-IO state machine for a whole game.

Feed it what arrives (:meth:`TableSession.receive`), the local seat's decisions
(:meth:`decide`) and time-out notices (:meth:`timeout`); take back the signed
entries to send (:meth:`outgoing`) and what happened (:meth:`next_event`).  It
never touches a socket or a clock.

Every peer runs the same engine (knowing only its own seat's secrets) and
turns each engine request into an exchange (see :mod:`protocol._exchanges`):
a seat's decision is a signed :class:`Move` (its secret part committed), chance
is joint randomness, a shuffle is every seat re-randomising and permuting the
mental-poker deck in turn, a deal is a private draw, a reveal opens
commitments and decrypts publicly.  Every part is checked on arrival; a
failure stops the session with a :class:`Verdict` naming the seat and carrying
the signed entries that prove it.  After the game every seat opens its deck key
and shuffles, and the session audits them.

A seat may give the game up with :meth:`TableSession.resign`: a signed :class:`Resign`
part in its feed, its last.  Every peer ends the game with it (:class:`GameResigned`) once
its own engine has reached the step the resignation names; no deck keys are opened after a
resignation (docs/protocol.md §11.8).  Where the game can go on without the seat, it
leaves instead (a :class:`Leave`, at its next decision) and the others play on
(:class:`SeatLeft`; :mod:`protocol._departures`, docs/protocol.md §11.10).  At a table whose
leavers rule is ``go-on``, every seat's key is dealt among the others at the start, and a seat
the caller says vanished (:meth:`TableSession.vanish`) is recovered by the others' vote
(:mod:`protocol._vanish`, docs/protocol.md §11.11); the methods that take a seat out are in
:mod:`protocol._session_departures`.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable
from typing import Any

from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import CardDataError, EngineError, IllegalReveal
from fairtable.engine.games import rules as game_rules
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream

from ._answers import AnswerCodec
from ._codec import decode, encode
from ._deck import DeckKey
from ._departures import Departures
from ._errors import DecodeError, EquivocationError, LocalProtocolError, RemoteProtocolError, blame
from ._events import (
    CardsSeen,
    DecisionNeeded,
    Event,
    GameFinished,
    GameResigned,
    SeatLeft,
    StepApplied,
    Verdict,
    VerdictReached,
)
from ._exchanges import Exchanges
from ._feed import Entry, EquivocationProof, Feed, FeedLog
from ._held import SEAT_BUDGET, GapBudget, PartStore
from ._messages import DigestCheck
from ._notes import NoteBox
from ._part_keys import (
    CommitPart,
    DigestPart,
    EntryPart,
    MovePart,
    NotePart,
    PartKey,
    RecoverPart,
    ResignPart,
    part_key,
)
from ._port import Port
from ._session_departures import SessionDepartures
from ._session_messages import Batch, Complaint, Leave, Note, Resign
from ._table import TableSpec
from ._vanish import VANISHING_PARTS, Vanishing
from ._verdict_kinds import VerdictKind

__all__ = [
    "CardsSeen",
    "DecisionNeeded",
    "GameFinished",
    "GameResigned",
    "SeatLeft",
    "StepApplied",
    "TableSession",
    "Verdict",
    "VerdictReached",
]


class TableSession(SessionDepartures):
    """One peer at one table: seat ``seat`` (``None``: a spectator or auditor)."""

    def __init__(
        self,
        spec: TableSpec,
        seat: int | None,
        identity: Any = None,
        *,
        secret_seed: bytes | None = None,
        saved: Iterable[bytes] = (),
    ) -> None:
        """``secret_seed`` (32 bytes, kept private on disk) fixes every secret this peer will
        ever use at this table; ``saved`` are the table log's entries from a previous run
        (ours included): the session replays them and carries on where it stopped."""
        try:
            self.rules = game_rules(spec.game)
        except KeyError as exc:
            raise LocalProtocolError(str(exc.args[0])) from None
        self.codec = AnswerCodec(self.rules)
        self.spec = spec
        self.table = spec.table_id
        self.seat = seat
        self.seats = tuple(range(spec.seats))
        self.roster = spec.roster()
        if seat is not None and (identity is None or identity.public.key != spec.players[seat]):
            raise LocalProtocolError("the identity does not hold this seat's key")
        try:
            self.game: ContractGame[Any, Any] = self.rules.new_game(
                spec.seats,
                spec.round_limit,
                known=[] if seat is None else [seat],
                options=spec.game_options(),
            )
            self.time_limits = spec.time_limits()
            self.leavers = spec.leavers()
        except (EngineError, CardDataError, DecodeError) as exc:
            raise LocalProtocolError(f"the table's settings cannot start a game: {exc}") from None
        self.log = FeedLog(self.table, self.roster)
        self.feed = Feed(identity, self.table, seat) if seat is not None else None
        seed = os.urandom(32) if secret_seed is None else secret_seed
        if len(seed) != 32:
            raise LocalProtocolError("a secret seed is 32 bytes")
        self._secrets = ChanceStream(seed)
        self.deck_key = DeckKey.generate(entropy=self.secret("deck-key", 64))
        self._notes = NoteBox(self.secret)
        self.verdict: Verdict | None = None
        self.finished: GameFinished | None = None
        self.resigned: GameResigned | None = None  # how the game ended, if a seat gave it up
        self.left: SeatLeft | None = None  # our own seat's departure, once it left
        self._leaving = False  # we asked to leave: at our next decision
        self._left_seq: dict[int, int] = {}  # seat -> the seq of the entry it left in
        self.parts = PartStore()  # charges each seat for what no pending step read yet
        self.gaps = GapBudget()  # each seat's entries held ahead of a gap in its feed
        self.complaints: list[tuple[int, PartKey]] = []  # (seat, part name) of every complaint
        self._origin: dict[tuple[int, PartKey], Entry] = {}
        self._cursor = {s: 0 for s in self.seats}
        self._out_parts: list[Any] = []
        self._published: set[PartKey] = set()
        self._outgoing: list[bytes] = []
        self._events: deque[Event] = deque()
        self._running = False
        self.waiting: set[int] = set()
        self._decided: tuple[int, dict[int, int]] = (0, dict.fromkeys(self.seats, 0))
        self.digests: dict[int, bytes] = {}
        # step -> seat -> its digest, for steps our engine has not reached yet
        self._peer_digests: dict[int, dict[int, bytes]] = {}
        self._digest_sent = -1
        self.messages_sent = 0
        self.bytes_sent = 0
        self.port = Port(self)
        self.exchanges = ex = Exchanges(self.port)
        self.departures = Departures(self.port, ex.cards, ex.chance, ex.decisions)
        self.vanishing = Vanishing(
            self.port,
            ex,
            self.departures,
            spec,
            identity,
            self._cursor.__getitem__,
            self._cut,
            self._vanished,
        )
        self._restore(list(saved))
        if seat is not None:
            self.publish(self.deck_key.key_share(self.table, seat, entropy=self.secret("key", 64)))
            deal = self.vanishing.our_deal()
            if deal is not None:
                self.publish(deal)
            self.exchanges.chance.round(0)  # pre-committed: even the first roll is one round
        self._settle()

    # -- inputs ------------------------------------------------------------------------------
    def receive(self, data: bytes) -> bool:
        """A framed feed entry from any link (any seat's, in any order, maybe again).

        Returns whether it was new to us (a peer forwards only new entries)."""
        if self.verdict is not None:
            return False
        try:
            entry = Entry.parse(data)
        except RemoteProtocolError:
            return False
        return self.receive_entry(entry)

    def receive_equivocation(self, proof: EquivocationProof) -> bool:
        """Another peer's proof that a seat signed two conflicting entries here (the evidence
        of its ``equivocation`` verdict, passed on to a seat that may never see both
        versions): checked from its bytes against this table and its roster, then our verdict
        too.  Returns whether it stopped us; a proof that is not one changes nothing."""
        header = proof.first.header
        if self.verdict is not None or header.table != self.table or header.seat not in self.roster:
            return False
        try:
            seat = proof.verify(self.roster[header.seat])
        except RemoteProtocolError:
            return False
        why = f"seat {seat} signed conflicting entries at seq {header.seq} (a peer's proof)"
        self._stop_equivocation(seat, why, proof)
        return True

    def _stop_equivocation(self, seat: int | None, reason: str, proof: EquivocationProof) -> None:
        """The ``equivocation`` verdict, its proof the evidence (checkable alone, §4.5)."""
        self._stop(Verdict(seat, VerdictKind.EQUIVOCATION, reason, (encode(proof),)))

    def receive_entry(self, entry: Entry) -> bool:
        """:meth:`receive` for an entry already decoded."""
        if self.verdict is not None:
            return False
        try:
            if entry.seat == self.seat:
                return False  # our own entry coming back: we already hold it
            if entry.seq > self._left_seq.get(entry.seat, entry.seq):
                return False  # the seat left: nothing after its leave counts, or is kept
            ahead = entry.seat in self._cursor and entry.seq > self._cursor[entry.seat]
            if (
                ahead
                and self.log.get(entry.seat, entry.seq) is None
                and not self.gaps.admit(entry.seat, entry.seq, len(entry.body))
            ):
                return False  # too much of this feed is already waiting on a gap
            new = self.log.add(entry)
        except EquivocationError as exc:
            self._stop_equivocation(exc.seat, str(exc), exc.proof)
            return True
        except RemoteProtocolError:
            return False  # unsigned or misaddressed noise: nobody can be blamed for it
        if new:
            self._settle()
        return new

    def decide(self, answer: Any) -> None:
        """The local seat's decision for the step it was asked (typed errors, nothing changes)."""
        if self.verdict is not None:
            raise LocalProtocolError("the table has stopped")
        if self.finished is not None:  # e.g. a seat resigned while we were deciding
            raise LocalProtocolError("the game is over")
        self.exchanges.decide(answer)
        self._settle()  # not only _run: once we wait on nobody else, a flooder is blamed now

    def timeout(self, seat: int) -> None:
        """The I/O layer reports ``seat`` silent past its deadline."""
        if self.verdict is None and seat in self.waiting and seat != self.seat:
            kind = (
                VerdictKind.WITHHELD_REVEAL
                if self.exchanges.waiting_for_reveal
                else VerdictKind.TIMEOUT
            )
            self._stop(Verdict(seat, kind, f"seat {seat} did not answer in time"))

    def stop_for_time(self, seat: int, kind: VerdictKind, reason: str) -> None:
        """The I/O layer's time rule ended the game (``kind`` ``OUT_OF_TIME``: the seat's
        clock ran out; ``ABANDONED``: it stayed offline while owed): a verdict naming it."""
        if self.verdict is None and self.finished is None and seat in self.seats:
            self._stop(Verdict(seat, kind, reason))

    def starved(self, reason: str, evidence: tuple[bytes, ...] = ()) -> None:
        """The I/O layer's liveness rule found a seat starved of entries that exist (a link
        or a relay dropped them; ``evidence``: its signed claim): a verdict naming nobody."""
        if self.verdict is None and self.finished is None:
            self._stop(Verdict(None, VerdictKind.STARVED, reason, evidence))

    def thinking(self) -> set[int]:
        """The seats the table waits on for a decision (a person may take their time), as
        opposed to a part their peer makes by itself (a shuffle, a share, a reveal)."""
        if self.verdict is not None or self.finished is not None or self.game.over:
            return set()
        k = self.game.serial
        return {
            r.seat
            for r in self.game.pending()
            if isinstance(r, Decision)
            and (r.seat, MovePart(k)) not in self.parts
            and (r.seat, CommitPart(f"simul:s{k}")) not in self.parts
        }

    def decisions_applied(self) -> dict[int, int]:
        """How many decisions of each seat the engine has applied (the same on every peer)."""
        applied = self.exchanges.applied
        if self._decided[0] != len(applied):  # only grows: recount when it did
            counts = dict.fromkeys(self.seats, 0)
            for seat, _step in applied:
                counts[seat] += 1
            self._decided = (len(applied), counts)
        return dict(self._decided[1])

    # -- outputs -----------------------------------------------------------------------------
    def outgoing(self) -> list[bytes]:
        """Signed entries to flood to every link (each once)."""
        out, self._outgoing = self._outgoing, []
        return out

    def next_event(self) -> Event | None:
        return self._events.popleft() if self._events else None

    def entries(self) -> list[bytes]:
        """The whole table log this peer holds, every seat's feed in order."""
        return [encode(e) for s in self.seats for e in self.log.entries(s)]

    # -- restart -----------------------------------------------------------------------------
    def _restore(self, saved: list[bytes]) -> None:
        """Take back a previous run's log: our own entries first, then everyone else's."""
        if not saved:
            return
        entries = [Entry.parse(data) for data in saved]
        own = sorted((e for e in entries if e.seat == self.seat), key=lambda e: e.seq)
        if own and self.feed is not None:
            self.feed = Feed.resume(self.feed.identity, self.table, self.feed.seat, own)
            for entry in own:
                self.log.add(entry)
                self._file(entry.seat, entry, own_entry=True)
            self._cursor[self.feed.seat] = self.feed.next_seq
        for entry in entries:
            if entry.seat != self.seat:
                try:
                    self.log.add(entry)
                except EquivocationError as exc:
                    self._stop_equivocation(exc.seat, str(exc), exc.proof)
                except RemoteProtocolError:
                    continue
        self._ingest()

    # -- used by the exchanges ---------------------------------------------------------------
    def secret(self, label: str, size: int) -> bytes:
        """``size`` secret bytes for one purpose, the same every time for this seed."""
        return self._secrets.child(label).take(size)

    def note(self, step: int, answer: Any) -> Note:
        """Our decision in full, encrypted to ourselves (see :class:`Note`)."""
        return self._notes.seal(step, answer)

    def read_note(self, step: int) -> Any:
        msg = self.parts.get((self.seat, NotePart(step))) if self.seat is not None else None
        return self.codec.decode_full(self._notes.open(step, msg))

    def publish(self, msg: Any) -> None:
        """Queue one of our parts for the next entry, and file it as already received."""
        key = part_key(msg)
        if self.seat is None or key in self._published:
            return
        self._published.add(key)
        self._out_parts.append(msg)
        self.parts[(self.seat, key)] = msg

    def part(self, seat: int, key: PartKey) -> Any:
        msg = self.parts.get((seat, key))
        if msg is None:
            self.waiting.add(seat)
        return msg

    def emit(self, event: Event) -> None:
        self._events.append(event)

    def evidence(self, *keys: tuple[int, PartKey]) -> tuple[bytes, ...]:
        return tuple(encode(self._origin[k]) for k in keys if k in self._origin)

    def record_digest(self, step: int) -> None:
        digest = bytes.fromhex(self.game.digest())
        self.digests[step] = digest
        for seat in self.seats:
            self.parts.release((seat, DigestPart(step)))
        for seat, theirs in self._peer_digests.pop(step, {}).items():
            if theirs != digest:
                raise blame(
                    seat,
                    VerdictKind.WRONG_DIGEST,
                    f"seat {seat}'s state digest after step {step} differs from ours",
                )

    # -- the machinery -----------------------------------------------------------------------
    def _settle(self) -> None:
        """File what arrived and run the exchanges, in turns, until nothing more moves; then
        blame a seat that still makes us hold more than its budget of unread bytes while we
        wait on nobody else."""
        while self.verdict is None:
            filed = self._ingest()
            self._run()
            if filed:
                continue
            under = False  # did a seat that waited over its budget get back under it?
            for seat in self.parts.over():
                self._forget_applied_notes(seat)
                under = under or self.parts.unread[seat] <= SEAT_BUDGET
            if not under:
                break
        # Blame only when nothing else can make the exchanges read more: we wait on nobody but
        # that seat.  A peer still waiting on others (lagging behind) keeps that seat's further
        # entries unfiled meanwhile, so every honest peer blames at the same point of its feed.
        over = (
            []
            if self.verdict is not None or self.finished is not None
            else [seat for seat in self.parts.over() if self.waiting <= {seat}]
        )
        if over:  # the lowest such seat: every peer that took the same entries names it
            seat = over[0]
            last = self.log.get(seat, self._cursor[seat] - 1)
            self._stop(
                Verdict(
                    seat,
                    VerdictKind.FLOOD,
                    f"seat {seat} sent {self.parts.unread[seat]} bytes no pending step needs",
                    (encode(last),) if last is not None else (),
                )
            )

    def _forget_applied_notes(self, seat: int) -> None:
        """A seat's notes for decisions already applied are its own restart record: owed."""
        applied = self.exchanges.applied
        for key in self.parts.charged(seat):
            if isinstance(key, NotePart) and (seat, key.step) in applied:
                self.parts.release((seat, key))

    def _ingest(self) -> bool:
        """File the parts of every newly contiguous entry, feed by feed (a seat over its
        unread budget waits until the exchanges took what they need); whether any was."""
        filed = False
        for seat in self.seats:
            if seat == self.seat:
                continue
            while (
                self.verdict is None
                and self.parts.unread.get(seat, 0) <= SEAT_BUDGET
                and not self.vanishing.holds_back(seat)
            ):
                entry = self.log.get(seat, self._cursor[seat])
                if entry is None:
                    break
                self._cursor[seat] += 1
                self.gaps.filed(seat, entry.seq)
                filed = True
                try:
                    self._file(seat, entry)
                except RemoteProtocolError as exc:
                    self._stop(Verdict(seat, exc.kind, exc.reason, (encode(entry),)))
        return filed

    def _file(self, seat: int, entry: Entry, *, own_entry: bool = False) -> None:
        try:
            batch = entry.message()
        except DecodeError as exc:
            raise DecodeError(str(exc), seat=seat) from None
        if not isinstance(batch, Batch):
            raise DecodeError("a feed entry carries a batch", seat=seat)
        held = 0  # parts this entry filed
        if entry.seq > self._left_seq.get(seat, entry.seq):
            return  # the seat left before this entry: nothing in it counts
        for raw in batch.parts:
            try:
                msg = decode(raw)
            except DecodeError as exc:
                raise DecodeError(str(exc), seat=seat) from None
            if isinstance(msg, DigestCheck):
                if own_entry:
                    self._digest_sent = max(self._digest_sent, msg.step)
                else:
                    if msg.step not in self.digests:  # held until we reach that step
                        self.parts.charge((seat, DigestPart(msg.step)), len(raw))
                    self._peer_digest(seat, msg)
                continue
            key = part_key(msg)
            if seat in self._left_seq or (self.finished is not None and isinstance(msg, Resign)):
                continue  # the seat left, or the game ended: this changes nothing
            if (seat, ResignPart()) in self.parts and self.finished is None:
                raise blame(
                    seat, VerdictKind.AFTER_RESIGNATION, f"seat {seat} sent {key} after it resigned"
                )
            if own_entry:
                self._published.add(key)
            if self.parts.has((seat, key)):
                raise blame(seat, VerdictKind.REPLAY, f"seat {seat} sent {key} twice")
            self.parts[(seat, key)] = msg
            self._origin[(seat, key)] = entry
            held += 1
            if not own_entry:
                self.parts.charge((seat, key), len(raw))
            if isinstance(msg, Complaint):
                self.complaints.append((seat, key))
            elif isinstance(msg, Resign):
                self.departures.resignations[seat] = msg.step
            elif isinstance(msg, VANISHING_PARTS):
                self.vanishing.filed(seat, msg)
                self.parts.release((seat, key))  # read: no step needs it again
            elif isinstance(key, RecoverPart):
                self.vanishing.recovery_filed(seat, key)
            elif isinstance(msg, Leave):
                self._left_seq[seat] = entry.seq
                if own_entry:
                    self._left(seat, msg.step)
                else:
                    self.departures.filed[seat] = msg.step
        if not held and not own_entry:  # an entry with nothing for any step: never needed
            self.parts.charge((seat, EntryPart(entry.seq)), len(entry.body))

    def _peer_digest(self, seat: int, msg: DigestCheck) -> None:
        mine = self.digests.get(msg.step)
        if mine is None:  # checked when our engine reaches that step (record_digest)
            self._peer_digests.setdefault(msg.step, {})[seat] = msg.digest
        elif mine != msg.digest:
            raise blame(
                seat,
                VerdictKind.WRONG_DIGEST,
                f"seat {seat}'s state digest after step {msg.step} differs from ours",
            )

    def _run(self) -> None:
        if self._running:
            return
        self._running = True
        try:
            while self.verdict is None and self.finished is None:
                self.waiting = set()
                if self._end_by_resignation():
                    break
                try:
                    gone = self.departures.apply()
                    if gone is not None:
                        for key in self.parts.charged(gone):
                            self.parts.release((gone, key))
                        continue
                    progressed = not self.vanishing.blocks() and self.exchanges.advance()
                    progressed = progressed or self.vanishing.stuck(self.waiting)
                except RemoteProtocolError as exc:
                    seat = exc.seat
                    keys = [(seat, k) for (s, k) in self._origin if s == seat]
                    self._stop(
                        Verdict(
                            seat,
                            exc.kind,
                            exc.reason,
                            self.evidence(*keys[-2:]) if seat is not None else (),
                        )
                    )
                    break
                except IllegalReveal as exc:
                    if exc.seat is not None:
                        self._stop(Verdict(exc.seat, VerdictKind.ILLEGAL_MOVE, str(exc)))
                        break
                    self.port.early_audit = str(exc)  # the deck is broken: audit now
                    continue
                except EngineError as exc:  # our own engine refused what the protocol proved
                    self._stop(Verdict(None, VerdictKind.ENGINE, str(exc)))
                    break
                if not progressed and not (self._leaving and self._leave_now()):
                    break
        finally:
            self._running = False
        self._flush()

    def _flush(self) -> None:
        if not self._out_parts or self.feed is None:
            return
        parts = list(self._out_parts)
        latest = max(self.digests) if self.digests else -1
        if latest > self._digest_sent:
            parts.append(DigestCheck(latest, self.digests[latest]))
            self._digest_sent = latest
        body = Batch(tuple(encode(p) for p in parts))
        entry = self.feed.append(body)
        self.log.add(entry)
        self._cursor[self.feed.seat] = entry.seq + 1
        data = encode(entry)
        self._outgoing.append(data)
        self.messages_sent += 1
        self.bytes_sent += len(data)
        self._out_parts = []

    def _stop(self, verdict: Verdict) -> None:
        if self.verdict is None:
            self.verdict = verdict
            self._events.append(VerdictReached(verdict))
