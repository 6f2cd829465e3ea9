"""A table's clocks, sans-IO: chess-clock banks, presence, offline countdowns, time notices.

The table's :class:`~protocol.TimeLimits` (bound into the table id, so every peer has the
same) say how long each seat may think and how long the table waits on a seat that is
offline.  Every peer keeps a :class:`TableClock` and feeds it plain ``now`` values
(seconds, any monotonic origin):

* **banks** -- a seat's bank drains while the table waits on it (it is in the session's
  ``waiting``) and gains the increment for each of its decisions applied (counted by the
  session, the same on every peer); at zero the seat has run out of time;
* **presence** -- each seated peer floods a signed :class:`Presence` beat every ``beat``
  seconds; a seat unheard for :data:`OFFLINE_BEATS` beats is offline (our own seat never
  is).  Table entries do not count: only beats say a seat's peer is there;
* **offline countdown** -- while the table waits on an offline seat a countdown of the
  table's abandon limit runs; it starts again from the full limit when the seat is heard
  again or no longer owed; at zero the game is abandoned by that seat;
* **stalling** -- a seat online that owes a part its peer makes by itself (a shuffle, a
  share, a reveal: not a decision, where a person may think) for the abandon limit is
  flagged ``stalled`` (the session's verdict: ``timeout`` or ``withheld-reveal``), as
  before clocks: a peer cannot hold a game hostage by beating but not revealing.  A seat
  unheard for more than :data:`QUIET_BEATS` beats is not flagged: it is not beating, so
  it may be gone, and it is offline within :data:`OFFLINE_BEATS` beats, where the offline
  countdown decides (``abandoned``, or a vanishing at a ``go-on`` table); heard again
  first, it is flagged at once.  Else an abandon limit shorter than those beats named a
  seat that died owing a part ``stalled``, never ``abandoned`` (issue 33);
* **agreement** -- the peer whose own measure first reaches zero floods a
  :class:`TimeNotice` signed with its seat key.  Another peer accepts it (and ends the game
  with the same verdict) only if it is about the step it is at and its own measure of that
  seat is within :data:`TOLERANCE` seconds of zero; otherwise it reports the claim and
  keeps its own clock -- but when its own flag for that seat at that step comes, it takes
  the kind of the first notice it holds (:meth:`TableClock.agreed_kind`): whether a seat
  is heard differs from peer to peer, so one peer may see a staller (``stalled``) where
  another sees a seat gone (``abandoned``); the first to flag decides the kind for all
  (seed 2182 of the simulator: one staller, two verdict kinds).  A peer keeps one notice
  per signing seat (its first; a seat that flags ends its game) and refuses the rest
  unread, and refuses a notice no peer could have measured (``stalled`` about a seat
  thinking over a decision, ``out-of-time`` without a clock): a refused notice is not
  passed on, not shown, and never sets the kind of a later flag.  The notice a clock's end
  rests on is kept with the saved game: it is what ``fairtable audit`` takes that end from
  (:meth:`TimeNotice.clock_notice`);
* **starvation** -- a seat excused by a fresh starvation claim (``_starved``) is
  paused (:meth:`~TableClock.pause`): its bank does not drain while the table waits on entries
  that did not arrive, and it gets back the wait just before its claim.

``update`` returns typed events for the node to act on; nothing here sleeps or sends.
"""

from __future__ import annotations

from enum import StrEnum

import attrs

from fairtable.protocol import (
    CLOCK_KINDS,
    BadSignature,
    ClockEnd,
    ClockNotice,
    Identity,
    PublicIdentity,
    TableId,
    TimeLimits,
    message,
    time_notice_bytes,
)
from fairtable.protocol.wire import blob, integer, label

__all__ = [
    "OFFLINE_BEATS",
    "QUIET_BEATS",
    "TOLERANCE",
    "TimeFlag",
    "CameBack",
    "ClockReading",
    "Flagged",
    "LongWait",
    "NoticeTaken",
    "Presence",
    "TableClock",
    "TimeNotice",
    "WentOffline",
    "presence_bytes",
]

OFFLINE_BEATS = 3
"""A seat unheard for this many beats is offline."""
QUIET_BEATS = 1.5
"""A seat unheard for more than this many beats is not flagged ``stalled``: it may be going
offline (then its countdown decides); heard again, it is flagged at once."""
TOLERANCE = 2.0
"""Seconds: a time notice is accepted if our own measure of that seat is at most this."""
PRESENCE_DOMAIN = b"fairtable/presence/v2\x00"


class TimeFlag(StrEnum):
    """What a seat's clock says of a seat it flags; the value is the word a time notice
    signs and carries (and, but for ``stalled``, the verdict's kind)."""

    OUT_OF_TIME = "out-of-time"  # its bank ran out
    ABANDONED = "abandoned"  # it stayed offline past the abandon limit
    STALLED = "stalled"  # online, but a part its peer makes by itself never came


def _time_flag(kind: str) -> TimeFlag:
    return TimeFlag(kind)


@attrs.frozen
class ClockReading:
    """What runs now for one owed seat: its bank left (None: no chess clock) and, while it
    is offline, how long until the table gives up on it (None: it is online)."""

    seat: int
    left: float | None
    offline: bool
    ends_in: float | None


@message("presence")
@attrs.frozen
class Presence:
    """Seat ``seat``'s peer is there; ``count`` grows with every beat (its wall clock, ms);
    ``head`` is how many entries of its own feed it has signed (so a seat that holds fewer
    knows it is missing some: see ``_starved``)."""

    seat: int = integer(hi=15)
    count: int = integer(hi=(1 << 53) - 1)
    head: int = integer(hi=(1 << 52))
    sig: bytes = blob(exact=64)


@message("time-notice")
@attrs.frozen
class TimeNotice:
    """Seat ``by`` says: at step ``step`` seat ``seat`` ran ``kind`` (a :class:`TimeFlag`'s
    word: :attr:`flag` once :meth:`TableClock.take_notice` took it)."""

    kind: str = label()
    seat: int = integer(hi=15)
    step: int = integer(hi=(1 << 52))
    by: int = integer(hi=15)
    sig: bytes = blob(exact=64)

    @property
    def flag(self) -> TimeFlag:
        """The kind as a :class:`TimeFlag` (ValueError for a word that is none)."""
        return TimeFlag(self.kind)

    def signed_by(self, table_id: TableId, players: tuple[bytes, ...]) -> bool:
        """Whether seat ``by`` of the table (``players``: its keys) signed this notice."""
        if self.by >= len(players) or self.kind not in set(TimeFlag):
            return False
        try:
            PublicIdentity(players[self.by]).verify(
                _notice_bytes(table_id, self.kind, self.seat, self.step, self.by),
                self.sig,
                seat=self.by,
            )
        except BadSignature:
            return False
        return True

    def clock_notice(self) -> ClockNotice | None:
        """This notice as the audit takes a clock's end (:class:`~protocol.ClockNotice`),
        or None for one that names no clock's end (``stalled``, or no flag's word)."""
        kind = next((k for k in CLOCK_KINDS if k.value == self.kind), None)
        if kind is None:
            return None
        return ClockNotice(ClockEnd(self.seat, self.step, kind), self.by, self.sig)


def presence_bytes(table_id: TableId, seat: int, count: int, head: int) -> bytes:
    """What a presence beat's signature covers."""
    return (
        PRESENCE_DOMAIN
        + table_id
        + bytes([seat])
        + count.to_bytes(8, "big")
        + head.to_bytes(8, "big")
    )


def _notice_bytes(table_id: TableId, kind: str, seat: int, step: int, by: int) -> bytes:
    """What a time notice's signature covers (the protocol's audit checks the same bytes)."""
    return time_notice_bytes(table_id, kind, seat, step, by)


def verdict_reason(kind: TimeFlag, seat: int) -> str:
    """The verdict's words, the same on every peer."""
    if kind is TimeFlag.OUT_OF_TIME:
        return f"seat {seat} ran out of time"
    if kind is TimeFlag.STALLED:
        return f"seat {seat} did not answer in time"
    return f"seat {seat} stayed offline too long"


@attrs.frozen
class Flagged:
    """Our own measure says seat ``seat`` is done, and how (:class:`TimeFlag`)."""

    kind: TimeFlag = attrs.field(converter=_time_flag)
    seat: int

    @property
    def reason(self) -> str:
        return verdict_reason(self.kind, self.seat)


@attrs.frozen
class WentOffline:
    seat: int


@attrs.frozen
class CameBack:
    seat: int


@attrs.frozen
class LongWait:
    """The table has waited ``seconds`` on seat ``seat`` (reported once per wait)."""

    seat: int
    seconds: int


@attrs.frozen
class NoticeTaken:
    """What a valid time notice from another seat came to: ``accepted`` ends the game;
    otherwise ``left`` is our own measure (seconds) that we keep to."""

    notice: TimeNotice
    accepted: bool
    left: float | None

    @property
    def reason(self) -> str:
        return verdict_reason(self.notice.flag, self.notice.seat)


ClockEvent = Flagged | WentOffline | CameBack | LongWait


class TableClock:
    """One peer's clocks for one table (seat ``me``, or None for a spectator)."""

    def __init__(
        self,
        limits: TimeLimits,
        table_id: TableId,
        players: tuple[bytes, ...],
        me: int | None,
        now: float,
        *,
        beat: float = 2.0,
        report_after: float = 10.0,
    ) -> None:
        self.limits, self.table_id, self.players, self.me = limits, table_id, players, me
        self.beat, self.report_after = beat, report_after
        seats = range(len(players))
        self.bank: dict[int, float] = {s: limits.bank_ms / 1000 for s in seats}
        self.decided: dict[int, int] = dict.fromkeys(seats, 0)
        self.heard: dict[int, float] = dict.fromkeys(seats, now)  # the start counts as heard
        self.count: dict[int, int] = dict.fromkeys(seats, -1)  # the last beat taken
        self.offline: set[int] = set()
        self.owed: set[int] = set()
        self.owed_since: dict[int, float] = {}
        self.countdown_since: dict[int, float] = {}
        self.stalled_since: dict[int, float] = {}
        self.thinking: set[int] = set()
        self._reported: set[int] = set()
        self._flagged: set[int] = set()
        self._notices: dict[int, TimeNotice] = {}  # by seat -> its first notice taken
        self.paused: frozenset[int] = frozenset()  # seats proved starved: banks do not drain
        self._at = now

    @property
    def has_clock(self) -> bool:
        return self.limits.bank_ms > 0

    # -- measuring ---------------------------------------------------------------------------
    def observe(
        self,
        now: float,
        waiting: set[int],
        decided: dict[int, int],
        thinking: set[int] | None = None,
    ) -> None:
        """The table now waits on ``waiting``, of which ``thinking`` for a decision (None:
        all of them); ``decided`` counts each seat's decisions applied so far.  Call
        whenever any may have changed."""
        self._drain(now)
        for seat, count in decided.items():
            if seat in self.decided and count > self.decided[seat]:
                self.bank[seat] += (count - self.decided[seat]) * self.limits.increment_ms / 1000
                self.decided[seat] = count
        for seat in set(self.owed_since) - waiting:
            del self.owed_since[seat]
            self._reported.discard(seat)
        for seat in waiting:
            self.owed_since.setdefault(seat, now)
        self.owed = set(waiting)
        self.thinking = self.owed if thinking is None else self.owed & thinking
        for seat in list(self.stalled_since):
            if seat not in self.owed or seat in self.thinking:
                del self.stalled_since[seat]
        for seat in self.owed - self.thinking - self.offline - {self.me}:
            self.stalled_since.setdefault(seat, now)

    def update(self, now: float) -> list[ClockEvent]:
        """Let time pass to ``now``: who went offline or came back, whom we flag."""
        self._drain(now)
        events: list[ClockEvent] = []
        for seat in range(len(self.players)):
            gone = seat != self.me and now - self.heard[seat] >= OFFLINE_BEATS * self.beat
            if gone and seat not in self.offline:
                self.offline.add(seat)
                events.append(WentOffline(seat))
            elif not gone and seat in self.offline:
                self.offline.discard(seat)
                events.append(CameBack(seat))
        for seat in list(self.countdown_since):
            if seat not in self.owed or seat not in self.offline:
                del self.countdown_since[seat]  # back, or no longer owed: it starts again
        for seat in list(self.stalled_since):
            if seat in self.offline:
                del self.stalled_since[seat]  # the offline countdown runs instead
        for seat in sorted(self.owed):
            if seat in self.offline:
                self.countdown_since.setdefault(seat, now)
            elif seat not in self.thinking and seat != self.me:
                self.stalled_since.setdefault(seat, now)
            since = self.owed_since.get(seat, now)
            if now - since >= self.report_after and seat not in self._reported | {self.me}:
                self._reported.add(seat)
                events.append(LongWait(seat, int(now - since)))
        abandon = self.limits.abandon_ms / 1000
        for seat in sorted(self.owed - self._flagged):
            left = self.left(seat, now)
            if left is not None and left <= 0:
                self._flagged.add(seat)
                events.append(Flagged(self._kind(seat, now), seat))
            elif (
                seat in self.stalled_since
                and now - self.stalled_since[seat] >= abandon
                and now - self.heard[seat] <= QUIET_BEATS * self.beat
            ):
                self._flagged.add(seat)
                events.append(Flagged(TimeFlag.STALLED, seat))
        return events

    def agreed_kind(self, seat: int, step: int, kind: TimeFlag) -> TimeFlag:
        """The kind our flag for ``seat`` at game step ``step`` ends the game with: the kind
        of the first notice taken from another seat about it at that step that some peer
        could have measured now (:meth:`_could_measure`: never ``stalled`` for a seat that
        thinks over a decision), else ``kind``."""
        for notice in self._notices.values():  # in the order taken
            if (notice.seat, notice.step) == (seat, step) and self._could_measure(notice):
                return notice.flag
        return kind

    def left(self, seat: int, now: float) -> float | None:
        """Seconds until our measure ends the game over ``seat`` (None: nothing runs)."""
        times = []
        if self.has_clock and seat in self.owed:
            times.append(self.bank[seat])
        if seat in self.countdown_since:
            times.append(self.limits.abandon_ms / 1000 - (now - self.countdown_since[seat]))
        return min(times) if times else None

    def readings(self, now: float) -> tuple[ClockReading, ...]:
        """What runs now, per owed seat: its bank left and, if offline, when the game ends."""
        self._drain(now)
        found: list[ClockReading] = []
        for seat in sorted(self.owed):
            bank = round(max(0.0, self.bank[seat]), 1) if self.has_clock else None
            ends = None
            if seat in self.countdown_since:
                ends = round(
                    max(0.0, self.limits.abandon_ms / 1000 - (now - self.countdown_since[seat])), 1
                )
            if bank is not None or ends is not None or seat in self.offline:
                found.append(ClockReading(seat, bank, seat in self.offline, ends))
        return tuple(found)

    def _kind(self, seat: int, now: float) -> TimeFlag:
        if seat in self.countdown_since and (
            not self.has_clock
            or self.limits.abandon_ms / 1000 - (now - self.countdown_since[seat]) <= self.bank[seat]
        ):
            return TimeFlag.ABANDONED
        return TimeFlag.OUT_OF_TIME

    def pause(self, now: float, seats: frozenset[int], credit: float) -> None:
        """The banks of ``seats`` stop draining from ``now`` (a starvation claim excuses
        them: the table waits on entries that did not arrive, not on their peers); a seat
        newly paused gets back what it drained in the last ``credit`` seconds (a seat
        claims only after it was short that long)."""
        self._drain(now)
        if self.has_clock:
            for seat in sorted(seats - self.paused):
                if seat in self.owed:
                    self.bank[seat] += min(credit, now - self.owed_since.get(seat, now))
        self.paused = seats

    def _drain(self, now: float) -> None:
        elapsed = max(0.0, now - self._at)
        self._at = max(self._at, now)
        if self.has_clock:
            for seat in self.owed - self.paused:
                self.bank[seat] -= elapsed

    # -- presence ----------------------------------------------------------------------------
    def my_beat(self, identity: Identity, count: int, head: int = 0) -> Presence:
        """Our own signed beat (``count``: larger than any before, e.g. wall-clock ms;
        ``head``: how many entries of our feed we have signed)."""
        assert self.me is not None
        return Presence(
            self.me, count, head, identity.sign(presence_bytes(self.table_id, self.me, count, head))
        )

    def take_beat(self, msg: Presence, now: float) -> bool:
        """A beat from another seat; False if it is not newer than the last or not signed
        by that seat (then it is not passed on)."""
        if msg.seat >= len(self.players) or msg.seat == self.me:
            return False
        if msg.count <= self.count[msg.seat]:
            return False
        try:
            PublicIdentity(self.players[msg.seat]).verify(
                presence_bytes(self.table_id, msg.seat, msg.count, msg.head), msg.sig, seat=msg.seat
            )
        except BadSignature:
            return False
        self.count[msg.seat] = msg.count
        self.heard[msg.seat] = now
        return True

    # -- agreeing ----------------------------------------------------------------------------
    def notice(self, identity: Identity, flag: Flagged, step: int) -> TimeNotice:
        """Our signed notice of a flag we raised at game step ``step``."""
        assert self.me is not None
        signed = _notice_bytes(self.table_id, flag.kind, flag.seat, step, self.me)
        return TimeNotice(flag.kind.value, flag.seat, step, self.me, identity.sign(signed))

    def take_notice(self, msg: TimeNotice, now: float, step: int) -> NoticeTaken | None:
        """Another seat's notice (we are at game step ``step``); None if it is refused:
        malformed, not signed by ``by``, not the first notice ``by`` signed that we took
        (a seat that flags ends its game, so an honest seat signs one: a peer keeps at most
        one notice per seat, whatever steps a flood names), or one no peer could have
        measured (:meth:`_could_measure`).  A refused notice changes nothing -- not the kind
        of a later flag of ours -- and is not passed on."""
        seats = len(self.players)
        if (
            msg.kind not in set(TimeFlag)
            or msg.by >= seats
            or msg.seat >= seats
            or msg.by == self.me
            or msg.by in self._notices
        ):
            return None  # a second notice of one seat is refused before its signature
        self._drain(now)
        if msg.step == step and not self._could_measure(msg):
            return None
        if not msg.signed_by(self.table_id, self.players):
            return None
        self._notices[msg.by] = msg
        abandon = self.limits.abandon_ms / 1000
        if msg.flag is TimeFlag.OUT_OF_TIME:
            left = self.bank[msg.seat] if self.has_clock and msg.seat in self.owed else None
        elif msg.flag is TimeFlag.STALLED:  # our own stall measure, or the offline countdown
            since = self.stalled_since.get(msg.seat, self.countdown_since.get(msg.seat))
            left = None if since is None else abandon - (now - since)
        else:
            left = None
            if msg.seat in self.countdown_since:
                left = self.limits.abandon_ms / 1000 - (now - self.countdown_since[msg.seat])
        accepted = step == msg.step and left is not None and left <= TOLERANCE
        return NoticeTaken(msg, accepted, left)

    def _could_measure(self, msg: TimeNotice) -> bool:
        """Whether some peer could have flagged what ``msg`` says, judged at the step we are
        at now (call it only for a notice about that step): ``out-of-time`` only where the
        table has a clock; ``stalled`` never for a seat that thinks over a decision (a
        person may: only a part its peer makes by itself stalls); a seat flags itself only
        for its own bank (it never measures its own presence or stall)."""
        if msg.flag is TimeFlag.OUT_OF_TIME:
            return self.has_clock
        if msg.by == msg.seat:
            return False
        return msg.flag is not TimeFlag.STALLED or msg.seat not in self.thinking
