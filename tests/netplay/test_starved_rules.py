"""Starvation claims without sockets (``netplay.table._starved``): who may claim, what a claim
must prove, when it excuses a stall -- and what a lying seat cannot get from one."""

from __future__ import annotations

import attrs

import fairtable.protocol as P
from fairtable.netplay.table._clock import TableClock
from fairtable.netplay.table._starved import CLAIM_AFTER, FRESH_BEATS, Starvation, Starved

IDS = [P.Identity.generate() for _ in range(3)]
PLAYERS = tuple(i.public.key for i in IDS)
TABLE = bytes(range(32))
BEAT = 1.0


def beat_of(seat: int, head: int, count: int = 1, signer: int | None = None) -> bytes:
    clock = TableClock(P.TimeLimits(0, 0, 1000), TABLE, PLAYERS, seat, 0.0)
    return P.encode(clock.my_beat(IDS[seat if signer is None else signer], count, head))


def view(me: int) -> Starvation:
    return Starvation(TABLE, PLAYERS, me, beat=BEAT)


def claim_by(by: int, author: int, have: int, head: int, count: int = 10) -> tuple[Starved, bytes]:
    """Seat ``by``'s claim, signed, made the way a node makes it (from a beat it took)."""
    mine = view(by)
    data = beat_of(author, head)
    mine.note_beat(P.decode(data), data)  # type: ignore[arg-type]
    encoded = mine.claim(IDS[by], author, have, count, 0.0)
    return P.decode(encoded), encoded  # type: ignore[return-value]


def test_a_seat_is_short_only_of_entries_a_beat_says_exist_and_claims_after_a_while() -> None:
    s = view(2)
    data = beat_of(1, head=5)
    s.note_beat(P.decode(data), data)  # type: ignore[arg-type]
    assert s.short([0, 5, 0], 0.0) is None  # we hold all five
    assert s.short([0, 3, 0], 1.0) is None  # short, but only just
    assert s.short([0, 3, 0], 1.0 + CLAIM_AFTER) == (1, 3)
    assert s.short([0, 4, 0], 1.0 + CLAIM_AFTER) is None  # one came: the wait starts again
    assert s.short([0, 4, 0], 2.0 + 2 * CLAIM_AFTER) == (1, 4)
    direct = frozenset({1})  # linked to seat 1 directly: it withholds them, we are not starved
    assert s.short([0, 4, 0], 3.0 + 3 * CLAIM_AFTER, direct) is None


def test_a_valid_claim_is_taken_once_and_excuses_the_claimers_stall_while_fresh() -> None:
    s = view(0)
    msg, data = claim_by(2, author=1, have=3, head=5)
    assert s.take(msg, data, 0.0)
    assert not s.take(msg, data, 0.1)  # a replay is not new
    heard = s.excuse(2, 0.5)
    assert heard is not None and heard.data == data
    assert s.excuse(1, 0.5) is None  # it excuses only the seat that claimed
    assert s.excuse(2, FRESH_BEATS * BEAT + 0.1) is None  # stale: it stopped claiming


def test_a_claim_that_proves_nothing_is_refused() -> None:
    s = view(0)
    msg, data = claim_by(2, author=1, have=3, head=5)
    forged = attrs.evolve(msg, have=2)  # the signature no longer covers it
    assert not s.take(forged, P.encode(forged), 0.0)
    _, no_more = claim_by(2, author=1, have=5, head=5)  # the beat says nothing is missing
    assert not s.take(P.decode(no_more), no_more, 0.0)  # type: ignore[arg-type]
    foreign = beat_of(1, head=9, signer=2)  # seat 2 signing a beat for seat 1
    fake = attrs.evolve(msg, beat=foreign)
    assert not s.take(fake, P.encode(fake), 0.0)
    mine, ours = claim_by(0, author=1, have=0, head=5)
    assert not s.take(mine, ours, 0.0)  # our own claim coming back
    assert s.excuse(2, 0.0) is None


def test_a_peer_that_fed_the_claimer_directly_ends_as_the_peers_that_could_not() -> None:
    """Leftover a: what a peer did over its own links (re-sent the claimed entries to the
    claimer directly) proves nothing to another peer, so it must not change its verdict:
    every peer holding the same claims excuses and ends alike, at every moment."""
    fed, other = view(0), view(1)
    for step in range(8):
        msg, data = claim_by(2, author=1, have=3, head=5, count=10 + step)
        assert fed.take(msg, data, float(step)) and other.take(msg, data, float(step))
        if step == 0:
            assert fed.to_resend(msg) and not fed.to_resend(msg)  # one re-send per gap
            # fed re-sends seat 1's entries to seat 2 over a direct link here; other cannot
        for now in (step + 0.0, step + 0.5):
            assert (fed.excuse(2, now) is None) == (other.excuse(2, now) is None), now
            assert (fed.overdue(now, 4.0) is None) == (other.overdue(now, 4.0) is None), now
    assert fed.excuse(2, 7.5) is not None and fed.overdue(7.5, 4.0) is not None


def test_our_own_fresh_claim_excuses_whichever_seat_we_wait_on() -> None:
    s = view(2)
    data = beat_of(1, head=5)
    s.note_beat(P.decode(data), data)  # type: ignore[arg-type]
    s.claim(IDS[2], 1, 3, 10, 0.0)
    assert s.excuse(1, 0.5) is not None and s.excuse(0, 0.5) is not None
    assert s.excuse(1, FRESH_BEATS * BEAT + 0.1) is None


def test_a_gap_claimed_without_a_break_for_the_abandon_limit_ends_the_game_naming_nobody() -> None:
    """Where no stall rule runs (the table waits on decisions, no clock), the same gap
    claimed, fresh all along, for the abandon limit is overdue -- at the claimer and at a
    peer alike; a break (stale) starts the wait again."""
    limit = 10.0
    peer, me = view(0), view(2)
    data = beat_of(1, head=5)
    me.note_beat(P.decode(data), data)  # type: ignore[arg-type]
    t, count = 0.0, 10
    while t <= limit:
        me.claim(IDS[2], 1, 3, count, t)
        msg, encoded = claim_by(2, author=1, have=3, head=5, count=count)
        assert peer.take(msg, encoded, t)
        assert (me.overdue(t, limit) is None) == (t < limit)
        assert (peer.overdue(t, limit) is None) == (t < limit)
        t, count = t + BEAT, count + 1
    heard = peer.overdue(limit, limit)
    assert heard is not None and (heard.claim.by, heard.claim.author) == (2, 1)
    later = limit + FRESH_BEATS * BEAT + 1.0  # it stopped claiming: stale, and the wait restarts
    assert peer.overdue(later, limit) is None
    msg, encoded = claim_by(2, author=1, have=3, head=5, count=count)
    assert peer.take(msg, encoded, later) and peer.overdue(later, limit) is None
    msg, encoded = claim_by(2, author=1, have=4, head=6, count=count + 1)  # then silence
    assert peer.take(msg, encoded, later + 0.5) and peer.overdue(later + 0.5 + limit, limit) is None


def test_the_seats_whose_banks_pause_are_the_fresh_claimers_or_all_when_we_are_starved() -> None:
    peer, me = view(0), view(2)
    assert peer.excused(0.0) == frozenset()
    msg, data = claim_by(2, author=1, have=3, head=5)
    assert peer.take(msg, data, 0.0)
    assert peer.excused(0.5) == {2}
    assert peer.excused(FRESH_BEATS * BEAT + 0.1) == frozenset()  # stale
    beat = beat_of(1, head=5)
    me.note_beat(P.decode(beat), beat)  # type: ignore[arg-type]
    me.claim(IDS[2], 1, 3, 10, 0.0)
    assert me.excused(0.5) == {0, 1, 2}  # we wait on entries we lack: nobody's time runs


def test_a_liar_changing_its_claimed_gap_every_beat_is_still_overdue_after_the_limit() -> None:
    """Banks pause while a seat is excused, so the starvation rule must end a game a liar
    holds: claims fresh without a break end it after the abandon limit whatever gap each
    names (alternating ``have`` or authors is no progress a peer can see)."""
    limit = 10.0
    peer = view(0)
    t, count = 0.0, 10
    while t <= limit:
        author, have = (1, 3 + int(t) % 2) if int(t) % 3 else (0, 1)
        msg, encoded = claim_by(2, author=author, have=have, head=5, count=count)
        assert peer.take(msg, encoded, t)
        assert (peer.overdue(t, limit) is None) == (t < limit), t
        t, count = t + BEAT, count + 1


def test_claims_naming_a_new_gap_each_time_keep_one_record_and_resend_once_a_beat() -> None:
    """Issue 29: a seat claims, every time anew (a new ``have`` in each, its count growing),
    to lack entries a colluding author's beat says exist.  Each claimed gap was kept for
    ever and each made us re-send up to 64 entries on every link; now we keep the last
    gap re-sent per (claimer, author) and re-send for a pair at most once a beat."""
    s = view(0)
    resent = 0
    claims = 3_000
    for n in range(claims):
        msg, data = claim_by(2, author=1, have=n, head=10**6, count=10 + n)
        assert s.take(msg, data, n / 1000)  # 3 s of claims, a thousand a second
        resent += s.to_resend(msg)
    assert len(s.resent) == 1 and 1 <= resent <= 1 + claims / 1000 / BEAT, resent
