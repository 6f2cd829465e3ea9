"""Starvation, sans-IO: a seat that lacks entries it knows exist says so, signed, and a
time-out never names a seat that proved it.

Every presence beat carries its seat's feed head (how many entries that seat has signed,
under the beat's signature).  A seat whose log holds fewer entries of seat A than A's
latest beat says is short of them; still short of the same entries :data:`CLAIM_AFTER`
seconds later (its node asked every link again meanwhile) it is *starved*, and floods a
signed :class:`Starved` claim -- "I hold ``have`` entries of seat A" -- with A's own signed
beat inside as the proof that more exist; again every beat while it stays starved.  Every
peer checks both signatures before it believes or passes on a claim, and on a new claim
re-sends the named entries it holds (at most :data:`RESEND_MAX`, once per claimed gap and
at most once a beat per claimer and author) on every link it has.

The liveness rule (:meth:`Starvation.excuse`): where the stall rule would time a seat out,
a fresh claim (heard within :data:`FRESH_BEATS` beats) makes the verdict ``starved``: it
names no seat; its reason names the starved seat and whose entries it lacked (a link or a
relay between them dropped them); the claim is the evidence.  The starved seat itself,
whose stall rule would name the seat it waits on, holds its own fresh claim and so ends
with the same verdict, with the same words.  Where no stall rule runs (the table waits on
decisions, which a person may take any time over, and no bank drains: there is no clock,
or the seats it waits on are excused), a seat's claims, fresh without a break for the
abandon limit (whatever gap each names: a seat that gets its entries stops claiming), end
the game ``starved`` alike (:meth:`Starvation.overdue`) at the starved seat and at every
peer that hears them.

Honest peers end alike (convergence): a verdict rests only on what every peer can check --
signed beats and signed claims, flooded to all and passed on even after a peer's game
stopped, and the claim that ended a game is sent once more on every link with its verdict
-- never on what one peer did over its own links: a peer that re-sent the claimed entries
to the claimer over a direct link knows they were there to read, but cannot show it to
anyone, so it excuses and ends exactly as a peer behind a relay does.

What a lying seat can do with a false claim (or a false head in its beats): only what a
dropping relay could do -- end the game ``starved``, naming nobody, once, after the abandon
limit or at a stall (never stall it forever, never frame a seat).  Nobody can prove that a
seat received an entry (there are no signed receipts), so this is the best a verdict can
do; the threat model says so.
"""

from __future__ import annotations

import hashlib

import attrs

from fairtable.protocol import (
    BadSignature,
    DecodeError,
    Identity,
    PublicIdentity,
    TableId,
    decode,
    encode,
    message,
)
from fairtable.protocol.wire import blob, integer

from ._clock import OFFLINE_BEATS, Presence, presence_bytes

__all__ = ["CLAIM_AFTER", "FRESH_BEATS", "RESEND_MAX", "Starvation", "Starved", "starved_reason"]

STARVED_DOMAIN = b"fairtable/starved/v1\x00"
CLAIM_AFTER = 2.0  # seconds short of the same entries before we claim to be starved
RESEND_MAX = 64  # entries a peer re-sends for one claimed gap
FRESH_BEATS = OFFLINE_BEATS + 1  # a claim heard within this many beats is fresh


@message("starved")
@attrs.frozen
class Starved:
    """Seat ``by`` holds only ``have`` entries of seat ``author``'s feed, and ``beat`` (that
    author's own signed presence beat, encoded) says it signed more; ``count`` grows with
    every claim (the claimer's wall clock, ms)."""

    by: int = integer(hi=15)
    author: int = integer(hi=15)
    have: int = integer(hi=(1 << 52))
    count: int = integer(hi=(1 << 53) - 1)
    beat: bytes = blob(max_len=1024)
    sig: bytes = blob(exact=64)


def _claim_bytes(
    table_id: TableId, by: int, author: int, have: int, count: int, beat: bytes
) -> bytes:
    return (
        STARVED_DOMAIN
        + table_id
        + bytes([by, author])
        + have.to_bytes(8, "big")
        + count.to_bytes(8, "big")
        + hashlib.sha256(beat).digest()
    )


def starved_reason(by: int, author: int) -> str:
    """The ``starved`` verdict's words, the same on every peer."""
    return (
        f"seat {by} was starved of seat {author}'s entries (a link or relay dropped them, "
        f"or seat {author} never sent them)"
    )


@attrs.define
class _Heard:
    claim: Starved
    data: bytes
    at: float
    since: float = 0.0  # when this seat's claims began (fresh all along, any gap)


class Starvation:
    """One seat's view of who is starved (``me``: our seat)."""

    def __init__(
        self, table_id: TableId, players: tuple[bytes, ...], me: int, *, beat: float
    ) -> None:
        self.table_id, self.players, self.me, self.beat = table_id, players, me, beat
        self.beats: dict[int, tuple[Presence, bytes]] = {}  # each seat's latest beat, encoded
        self.claims: dict[int, _Heard] = {}  # each seat's latest claim (ours too)
        # (by, author) -> the gap (have) we last re-sent for that pair, and when
        self.resent: dict[tuple[int, int], tuple[int, float]] = {}
        self._short: tuple[int, int, float] | None = None  # (author, have, since)

    # -- what we lack -------------------------------------------------------------------
    def note_beat(self, msg: Presence, data: bytes) -> None:
        """A beat the clock took (its signature checked): its head is the latest we know."""
        self.beats[msg.seat] = (msg, data)

    def short(
        self, held: list[int], now: float, direct: frozenset[int] = frozenset()
    ) -> tuple[int, int] | None:
        """The first seat whose beat says it signed more than the ``held[seat]`` entries we
        hold, with how many we hold -- once we have been short of them for CLAIM_AFTER s.
        Never a seat in ``direct`` (we hold a direct link to it: nobody between can drop its
        entries, so it withholds them, and the stall rule names it)."""
        lack = next(
            (
                (seat, held[seat])
                for seat, (beat, _) in sorted(self.beats.items())
                if seat != self.me and seat not in direct and beat.head > held[seat]
            ),
            None,
        )
        if lack is None:
            self._short = None
            return None
        if self._short is None or self._short[:2] != lack:
            self._short = (*lack, now)
        return lack if now - self._short[2] >= CLAIM_AFTER else None

    def claim(self, identity: Identity, author: int, have: int, count: int, now: float) -> bytes:
        """Our signed claim (encoded), kept as our own latest."""
        beat = self.beats[author][1]
        sig = identity.sign(_claim_bytes(self.table_id, self.me, author, have, count, beat))
        claim = Starved(self.me, author, have, count, beat, sig)
        data = encode(claim)
        self._keep(claim, data, now)
        return data

    def _keep(self, claim: Starved, data: bytes, now: float) -> None:
        """Keep seat ``claim.by``'s latest claim, and since when it has claimed without a
        break (whatever gap each claim names: a seat that gets entries stops claiming, and
        one that names a new gap every beat must not hold the table for ever)."""
        last = self.claims.get(claim.by)
        still = last is not None and now - last.at <= FRESH_BEATS * self.beat
        self.claims[claim.by] = _Heard(claim, data, now, last.since if still and last else now)

    # -- claims from others ---------------------------------------------------------------
    def take(self, msg: Starved, data: bytes, now: float) -> bool:
        """Another seat's claim; False if it is not new, not signed by its seat, or its beat
        is not the author's own saying more than ``have`` (then it is not passed on)."""
        seats = len(self.players)
        if msg.by >= seats or msg.author >= seats or msg.by in (msg.author, self.me):
            return False
        last = self.claims.get(msg.by)
        if last is not None and msg.count <= last.claim.count:
            return False
        try:
            beat = decode(msg.beat)
            if not isinstance(beat, Presence) or beat.seat != msg.author or beat.head <= msg.have:
                return False
            PublicIdentity(self.players[msg.author]).verify(
                presence_bytes(self.table_id, beat.seat, beat.count, beat.head),
                beat.sig,
                seat=msg.author,
            )
            PublicIdentity(self.players[msg.by]).verify(
                _claim_bytes(self.table_id, msg.by, msg.author, msg.have, msg.count, msg.beat),
                msg.sig,
                seat=msg.by,
            )
        except (DecodeError, BadSignature):
            return False
        self._keep(msg, data, now)
        return True

    def to_resend(self, msg: Starved) -> bool:
        """Whether to re-send the gap this claim (just taken) names: not the gap we last
        re-sent for its (claimer, author) pair, and at most once a beat for a pair (a
        claimer naming a new gap in every claim gets no more).  One record per pair."""
        key = (msg.by, msg.author)
        heard = self.claims.get(msg.by)
        now = 0.0 if heard is None else heard.at
        last = self.resent.get(key)
        if last is not None and (last[0] == msg.have or now - last[1] < self.beat):
            return False
        self.resent[key] = (msg.have, now)
        return True

    # -- the liveness rule ----------------------------------------------------------------
    def excuse(self, seat: int, now: float) -> _Heard | None:
        """The fresh claim that keeps a stall of ``seat`` from naming it: our own (we are
        starved: the wait may be ours), else ``seat``'s."""
        fresh = FRESH_BEATS * self.beat
        mine = self.claims.get(self.me)
        if mine is not None and now - mine.at <= fresh:
            return mine
        heard = self.claims.get(seat)
        if heard is None or now - heard.at > fresh:
            return None
        return heard

    def excused(self, now: float) -> frozenset[int]:
        """The seats whose time must not run now (their banks pause): every seat while we
        hold a fresh claim of our own (what we wait on did not reach us), else the seats
        whose own claim is fresh."""
        fresh = FRESH_BEATS * self.beat
        mine = self.claims.get(self.me)
        if mine is not None and now - mine.at <= fresh:
            return frozenset(range(len(self.players)))
        return frozenset(by for by, heard in self.claims.items() if now - heard.at <= fresh)

    def overdue(self, now: float, limit: float) -> _Heard | None:
        """A fresh claim (ours first, then by seat) whose seat has claimed for ``limit``
        seconds (the abandon limit) without a break: the entries never arrived, so
        the game ends ``starved`` even where no stall rule runs (the table waits on
        decisions: a person may think, and with no clock nobody is timed out)."""
        fresh = FRESH_BEATS * self.beat
        for by in [self.me, *sorted(set(self.claims) - {self.me})]:
            heard = self.claims.get(by)
            if heard is not None and now - heard.at <= fresh and now - heard.since >= limit:
                return heard
        return None
