"""The table's clocks without sockets: banks, increments, flags, presence, offline countdowns,
time notices and their tolerance, and the time limits bound into the table spec."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

import fairtable.protocol as P
from fairtable.engine.canonical import canonical_bytes
from fairtable.netplay.table import ClockReading
from fairtable.netplay.table._clock import (
    OFFLINE_BEATS,
    TOLERANCE,
    CameBack,
    Flagged,
    LongWait,
    Presence,
    TableClock,
    TimeNotice,
    WentOffline,
)
from fairtable.protocol import wire as W

IDS = [P.Identity.generate() for _ in range(3)]
PLAYERS = tuple(i.public.key for i in IDS)
TABLE = bytes(range(32))


def clock(
    me: int = 0,
    bank_ms: int = 10_000,
    increment_ms: int = 2_000,
    abandon_ms: int = 30_000,
    beat: float = 2.0,
) -> TableClock:
    return TableClock(
        P.TimeLimits(bank_ms, increment_ms, abandon_ms),
        TABLE,
        PLAYERS,
        me,
        0.0,
        beat=beat,
        report_after=5.0,
    )


def heard_all(c: TableClock, now: float) -> None:
    for seat in range(3):
        if seat != c.me:
            c.heard[seat] = now


def test_a_bank_drains_only_while_the_table_waits_on_that_seat() -> None:
    c = clock()
    c.observe(0.0, {1}, {})
    c.observe(3.0, {2}, {})  # seat 1 owed for 3 s, then seat 2
    heard_all(c, 4.0)
    c.update(4.0)
    assert c.bank[1] == pytest.approx(7.0)
    assert c.bank[2] == pytest.approx(9.0)
    assert c.bank[0] == pytest.approx(10.0)
    assert c.readings(4.0) == (ClockReading(2, left=9.0, offline=False, ends_in=None),)


def test_each_applied_decision_adds_the_increment_once() -> None:
    c = clock()
    c.observe(0.0, {1}, {1: 0})
    c.observe(4.0, set(), {1: 1})
    c.observe(5.0, set(), {1: 1})  # the same count again adds nothing
    assert c.bank[1] == pytest.approx(10.0 - 4.0 + 2.0)
    c.observe(6.0, set(), {1: 3})
    assert c.bank[1] == pytest.approx(12.0)


def test_a_seat_whose_bank_reaches_zero_is_flagged_once_as_out_of_time() -> None:
    c = clock()
    c.observe(0.0, {2}, {})
    heard_all(c, 9.9)
    assert not [e for e in c.update(9.9) if isinstance(e, Flagged)]
    heard_all(c, 10.0)
    flags = [e for e in c.update(10.0) if isinstance(e, Flagged)]
    assert flags == [Flagged("out-of-time", 2)]
    assert flags[0].reason == "seat 2 ran out of time"
    heard_all(c, 11.0)
    assert not [e for e in c.update(11.0) if isinstance(e, Flagged)]


def test_our_own_seat_runs_out_of_time_too() -> None:
    c = clock(me=1)
    c.observe(0.0, {1}, {})
    heard_all(c, 10.5)
    assert Flagged("out-of-time", 1) in c.update(10.5)


def test_without_a_clock_a_seat_online_but_thinking_is_never_flagged() -> None:
    c = clock(bank_ms=0)
    c.observe(0.0, {1}, {})
    events = []
    for tick in range(1, 400):
        heard_all(c, tick)
        events += c.update(float(tick))
    assert not [e for e in events if isinstance(e, Flagged | WentOffline)]
    assert [e for e in events if isinstance(e, LongWait)] == [LongWait(1, 5)]
    assert c.readings(400.0) == ()


def test_an_offline_owed_seat_runs_the_countdown_and_is_abandoned_at_zero() -> None:
    c = clock(bank_ms=0, abandon_ms=30_000)
    c.observe(0.0, {1}, {})
    c.heard[2] = 100.0
    assert WentOffline(1) not in c.update(OFFLINE_BEATS * 2.0 - 0.1)
    assert WentOffline(1) in c.update(6.0)
    assert c.readings(16.0) == (ClockReading(1, left=None, offline=True, ends_in=20.0),)
    assert not [e for e in c.update(35.9) if isinstance(e, Flagged)]
    flags = [e for e in c.update(36.0) if isinstance(e, Flagged)]
    assert flags == [Flagged("abandoned", 1)]


def test_a_seat_offline_but_not_owed_runs_no_countdown() -> None:
    c = clock(bank_ms=0, abandon_ms=1_000)
    c.observe(0.0, {2}, {})
    c.heard[2] = 1000.0
    assert WentOffline(1) in c.update(10.0)
    assert not [e for e in c.update(100.0) if isinstance(e, Flagged)]
    assert c.readings(100.0) == ()


def test_the_countdown_starts_again_when_the_seat_comes_back() -> None:
    c = clock(bank_ms=0, abandon_ms=30_000)
    c.observe(0.0, {1}, {})
    c.heard[2] = 1000.0
    c.update(6.0)
    c.update(30.0)  # 24 s of the countdown gone
    beat = TableClock(c.limits, TABLE, PLAYERS, 1, 0.0).my_beat(IDS[1], 1)
    assert c.take_beat(beat, 30.0)
    assert CameBack(1) in c.update(30.5)
    assert c.readings(31.0) == ()  # nothing runs for it any more
    assert WentOffline(1) in c.update(36.0)
    assert c.readings(50.0)[0].ends_in == 16.0  # the full 30 s again from 36
    assert not [e for e in c.update(65.0) if isinstance(e, Flagged)]


def test_beats_must_be_signed_by_the_seat_and_newer_than_the_last() -> None:
    c = clock()
    other = TableClock(c.limits, TABLE, PLAYERS, 2, 0.0)
    assert c.take_beat(other.my_beat(IDS[2], 5), 1.0)
    assert not c.take_beat(other.my_beat(IDS[2], 5), 2.0)  # a replay
    assert not c.take_beat(other.my_beat(IDS[2], 4), 2.0)  # older
    forged = Presence(1, 9, 0, IDS[2].sign(b"not the beat"))
    assert not c.take_beat(forged, 2.0)
    wrong_key = TableClock(c.limits, TABLE, PLAYERS, 2, 0.0).my_beat(IDS[2], 7)
    assert not c.take_beat(Presence(1, 7, 0, wrong_key.sig), 2.0)  # seat 2 signing for seat 1
    assert c.heard[2] == 1.0 and c.heard[1] == 0.0


def test_a_notice_is_accepted_only_within_the_tolerance_and_at_the_same_step() -> None:
    notifier, judge = clock(me=0), clock(me=1)
    for c in (notifier, judge):
        c.observe(0.0, {2}, {})
        heard_all(c, 10.0)
    flag = next(e for e in notifier.update(10.0) if isinstance(e, Flagged))
    notice = notifier.notice(IDS[0], flag, step=7)
    taken = judge.take_notice(notice, 10.0 - TOLERANCE + 0.5, step=7)
    assert taken is not None and taken.accepted and taken.reason == "seat 2 ran out of time"
    assert judge.take_notice(notice, 10.0, step=7) is None  # the same notice again
    behind = clock(me=2)
    behind.observe(0.0, {2}, {})
    taken = behind.take_notice(notice, 10.0, step=6)  # another step: not accepted
    assert taken is not None and not taken.accepted
    early = clock(me=1)
    early.observe(0.0, {2}, {})
    taken = early.take_notice(notice, 10.0 - TOLERANCE - 1.0, step=7)
    assert taken is not None and not taken.accepted
    assert taken.left == pytest.approx(TOLERANCE + 1.0)


def test_a_notice_not_signed_by_its_author_is_ignored() -> None:
    judge = clock(me=1)
    judge.observe(0.0, {2}, {})
    notifier = clock(me=0)
    notice = notifier.notice(IDS[2], Flagged("out-of-time", 2), step=0)  # wrong key for seat 0
    assert judge.take_notice(notice, 11.0, step=0) is None
    bad = TimeNotice("resigned", 2, 0, 0, bytes(64))
    assert judge.take_notice(bad, 11.0, step=0) is None


def test_an_abandon_notice_is_refused_by_a_peer_that_still_hears_the_seat() -> None:
    judge = clock(me=1, bank_ms=0, abandon_ms=5_000)
    judge.observe(0.0, {2}, {})
    heard_all(judge, 20.0)
    judge.update(20.0)
    notice = clock(me=0).notice(IDS[0], Flagged("abandoned", 2), step=3)
    taken = judge.take_notice(notice, 20.0, step=3)
    assert taken is not None and not taken.accepted and taken.left is None


def test_time_limits_are_bound_into_the_table_id_and_never_reach_the_game() -> None:
    limits = P.TimeLimits(600_000, 5_000, 120_000)
    options = canonical_bytes({P.TIME_LIMITS_KEY: limits.option()})
    spec = P.TableSpec("reign", PLAYERS, 60, bytes(32), options)
    assert spec.time_limits() == limits
    assert spec.game_options() == ()
    other = P.TableSpec(
        "reign",
        PLAYERS,
        60,
        bytes(32),
        canonical_bytes({P.TIME_LIMITS_KEY: P.TimeLimits(1000, 0).option()}),
    )
    assert other.table_id != spec.table_id
    plain = P.TableSpec("reign", PLAYERS, 60, bytes(32))
    assert plain.time_limits() == P.TimeLimits(0, 0, 120_000)


@pytest.mark.parametrize(
    "value",
    [
        {"bank_ms": 1},
        {"abandon_ms": 0, "bank_ms": 0, "increment_ms": 0},
        {"abandon_ms": 1, "bank_ms": -5, "increment_ms": 0},
        {"abandon_ms": 1, "bank_ms": True, "increment_ms": 0},
        "10m",
    ],
)
def test_bad_time_limits_cannot_start_a_session(value: object) -> None:
    spec = P.TableSpec("reign", PLAYERS, 60, bytes(32), canonical_bytes({P.TIME_LIMITS_KEY: value}))
    with pytest.raises(P.LocalProtocolError, match="cannot start"):
        P.TableSession(spec, 0, IDS[0])


def test_the_leavers_rule_is_bound_into_the_table_id_and_never_reaches_the_game() -> None:
    go_on = P.TableSpec("reign", PLAYERS, 60, bytes(32), canonical_bytes({W.LEAVERS_KEY: "go-on"}))
    end = P.TableSpec("reign", PLAYERS, 60, bytes(32), canonical_bytes({W.LEAVERS_KEY: "end"}))
    plain = P.TableSpec("reign", PLAYERS, 60, bytes(32))
    assert (go_on.leavers(), end.leavers(), plain.leavers()) == (
        W.Leavers.GO_ON,
        W.Leavers.END,
        W.Leavers.END,
    )
    assert go_on.game_options() == end.game_options() == ()
    assert len({go_on.table_id, end.table_id, plain.table_id}) == 3
    assert P.TableSession(go_on, 0, IDS[0]).leavers is W.Leavers.GO_ON


@pytest.mark.parametrize("value", ["go_on", "GO-ON", "", 1, None, ["go-on"], {"go-on": 1}])
def test_a_bad_leavers_rule_cannot_start_a_session(value: object) -> None:
    spec = P.TableSpec("reign", PLAYERS, 60, bytes(32), canonical_bytes({W.LEAVERS_KEY: value}))
    with pytest.raises(P.LocalProtocolError, match="cannot start.*leavers"):
        P.TableSession(spec, 0, IDS[0])


def test_an_online_seat_owing_a_part_its_peer_makes_by_itself_is_flagged_as_stalled() -> None:
    c = clock(bank_ms=0, abandon_ms=30_000)
    c.observe(0.0, {1, 2}, {}, thinking={2})  # seat 1 owes a reveal, seat 2 a decision
    flags = []
    for tick in range(1, 100):
        heard_all(c, tick)
        flags += [e for e in c.update(float(tick)) if isinstance(e, Flagged)]
    assert flags == [Flagged("stalled", 1)]  # at 30 s; seat 2 thinks for ever
    assert flags[0].reason == "seat 1 did not answer in time"


def test_a_seat_gone_quiet_owing_a_part_is_not_stalled_but_offline_when_the_limit_is_short() -> (
    None
):
    """Issue 33: a seat that dies owing a part its peer makes by itself, at a table whose
    abandon limit (5 s) is shorter than the 3 beats (6 s) before it counts as offline, was
    flagged ``stalled`` at 5 s (a ``timeout``/``withheld-reveal`` verdict, never a vanishing
    at a ``go-on`` table).  A seat unheard for more than a beat and a half is not stalling:
    the flag waits, the seat goes offline at 6 s and its countdown ends it ``abandoned``."""
    c = clock(bank_ms=0, abandon_ms=5_000)
    c.observe(0.0, {1}, {}, thinking=set())  # seat 1 owes a reveal; its last beat was at 0
    c.heard[2] = 1000.0
    flags = [e for t in range(1, 11) for e in c.update(float(t)) if isinstance(e, Flagged)]
    assert flags == [] and 1 in c.offline
    assert [e for e in c.update(11.0) if isinstance(e, Flagged)] == [Flagged("abandoned", 1)]


def test_a_quiet_staller_heard_again_is_flagged_stalled_at_once() -> None:
    c = clock(bank_ms=0, abandon_ms=5_000)
    c.observe(0.0, {1}, {}, thinking=set())
    c.heard[2] = 1000.0
    assert not [e for e in c.update(5.0) if isinstance(e, Flagged)]  # quiet since 0: it waits
    heard_all(c, 5.5)  # its beat after all: it is online, and owed its part 5.5 s
    assert [e for e in c.update(5.5) if isinstance(e, Flagged)] == [Flagged("stalled", 1)]


def test_the_stall_count_starts_again_when_the_seat_owes_a_decision_in_between() -> None:
    c = clock(bank_ms=0, abandon_ms=30_000)
    c.observe(0.0, {1}, {}, thinking=set())
    heard_all(c, 20.0)
    c.update(20.0)
    c.observe(20.0, {1}, {}, thinking={1})  # its part came; now a decision
    heard_all(c, 25.0)
    c.update(25.0)
    c.observe(25.0, {1}, {1: 1}, thinking=set())  # decided; owes a part again
    heard_all(c, 54.0)
    assert not [e for e in c.update(54.0) if isinstance(e, Flagged)]
    heard_all(c, 55.0)
    assert Flagged("stalled", 1) in c.update(55.0)


def test_our_own_seat_is_never_flagged_as_stalled_nor_reported_as_waited_for() -> None:
    c = clock(me=1, bank_ms=0, abandon_ms=1_000)
    c.observe(0.0, {1}, {}, thinking=set())
    heard_all(c, 50.0)
    assert c.update(50.0) == []


def test_a_seat_proved_starved_keeps_its_bank_and_gets_back_the_wait_before_its_claim() -> None:
    """Leftover b: while a seat is excused (a fresh starvation claim), its bank does not
    drain -- it waits on entries it proved it lacks -- and it gets back the time it drained
    in the ``credit`` seconds before (a claim comes only after a while short)."""
    c = clock(bank_ms=5_000)
    c.observe(0.0, {2}, {})
    c.update(1.0)
    heard_all(c, 3.0)
    c.pause(3.0, frozenset({2}), credit=2.0)  # its claim: short since 1.0 at least
    assert c.bank[2] == pytest.approx(4.0)  # the 2 s before the claim came back
    for t in range(4, 30):
        heard_all(c, float(t))
        assert not [e for e in c.update(float(t)) if isinstance(e, Flagged)]
        c.pause(float(t), frozenset({2}), credit=2.0)  # still excused: no credit again
    assert c.bank[2] == pytest.approx(4.0)
    c.pause(30.0, frozenset(), credit=2.0)  # it got them: its bank runs again
    heard_all(c, 33.9)
    assert not [e for e in c.update(33.9) if isinstance(e, Flagged)]
    heard_all(c, 34.0)
    assert [e for e in c.update(34.0) if isinstance(e, Flagged)] == [Flagged("out-of-time", 2)]


def test_the_first_notice_decides_the_kind_for_a_peer_that_measured_otherwise() -> None:
    """Seed 2182 of the simulator: seat 2 withheld a reveal; seat 0 heard its beats and
    named it ``stalled`` (withheld-reveal); seat 1 heard nobody once seat 0 left and named it
    ``abandoned``.  Seat 1 kept its own clock when seat 0's notice came (its measure was
    far from zero), but its own flag at that step now takes the notice's kind."""
    hearing, deaf = clock(me=0, bank_ms=0), clock(me=1, bank_ms=0)
    for c in (hearing, deaf):
        c.observe(0.0, {2}, {}, thinking=set())
    first: list[Flagged] = []
    for tick in range(1, 31):
        heard_all(hearing, float(tick))
        first += [e for e in hearing.update(float(tick)) if isinstance(e, Flagged)]
        assert not [e for e in deaf.update(float(tick)) if isinstance(e, Flagged)]
    assert first == [Flagged("stalled", 2)] and 2 in deaf.offline
    taken = deaf.take_notice(hearing.notice(IDS[0], first[0], 7), 30.0, 7)
    assert taken is not None and not taken.accepted  # its countdown started at 6 s
    later = [e for t in range(31, 40) for e in deaf.update(float(t)) if isinstance(e, Flagged)]
    assert later == [Flagged("abandoned", 2)]
    assert deaf.agreed_kind(2, 7, "abandoned") == "stalled"
    assert deaf.agreed_kind(2, 8, "abandoned") == "abandoned"  # another step: its own


def test_a_stalled_notice_is_accepted_by_a_peer_whose_own_measure_is_as_far() -> None:
    a, b = clock(me=0, bank_ms=0), clock(me=1, bank_ms=0)
    for c in (a, b):
        c.observe(0.0, {2}, {}, thinking=set())
    flags: list[Flagged] = []
    for tick in range(1, 31):
        for c in (a, b):
            heard_all(c, float(tick))
        flags += [e for e in a.update(float(tick)) if isinstance(e, Flagged)]
    taken = b.take_notice(a.notice(IDS[0], flags[0], 3), 30.0, 3)
    assert taken is not None and taken.accepted and taken.notice.kind == "stalled"


NOTICE_FLOOD = 24_000


def test_a_seated_peers_notices_for_far_off_steps_are_kept_once_and_refused_after() -> None:
    """Issue 29: a seat signs 24,000 time notices for steps nobody reaches.  Each was kept
    for ever (and passed on, and shown as a ``time_claim``); now a peer keeps one notice per
    signing seat -- its first -- and refuses the rest unread: nothing kept, nothing passed on,
    nothing shown.  Memory stays flat."""
    judge = clock(me=0)
    judge.observe(0.0, {2}, {})
    signer = clock(me=1)
    notices = [
        signer.notice(IDS[1], Flagged("out-of-time", 2), step=10**6 + n)
        for n in range(NOTICE_FLOOD)
    ]
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        taken = [judge.take_notice(notice, 1.0, step=3) for notice in notices]
        grown = sum(
            s.size_diff
            for s in tracemalloc.take_snapshot().compare_to(before, "filename")
            if Path(s.traceback[0].filename).parts[-2:] == ("netplay", "_clock.py")
        )
    finally:
        tracemalloc.stop()
    kept = [t for t in taken if t is not None]
    assert len(kept) == 1 and kept[0].notice == notices[0] and not kept[0].accepted
    assert grown < 16 * 1024, grown  # one notice, not 24,000 (~12 MiB before)
    other = clock(me=2).notice(IDS[2], Flagged("out-of-time", 2), step=10**6)
    assert judge.take_notice(other, 1.0, step=3) is not None  # another seat's first still counts


def test_a_refused_stalled_notice_never_sets_the_kind_of_our_own_out_of_time_flag() -> None:
    """Issue 29: seat 1 signs a ``stalled`` notice about seat 2 while seat 2 thinks over a
    decision (no peer can have measured a stall: a decision is never a stall), at our step
    and at one we have not reached.  Refused, it changes nothing: when seat 2's bank runs out
    we name it ``out-of-time``, not ``timeout``/``withheld-reveal``."""
    judge = clock(me=0)
    judge.observe(0.0, {2}, {}, thinking={2})
    liar = clock(me=1)
    now_notice = liar.notice(IDS[1], Flagged("stalled", 2), step=7)
    refused = judge.take_notice(now_notice, 1.0, step=7)
    ahead = liar.notice(IDS[1], Flagged("stalled", 2), step=8)  # a step we have not reached
    judge.take_notice(ahead, 1.0, step=7)
    flags = []
    for tick in range(2, 12):
        heard_all(judge, float(tick))
        flags += [e for e in judge.update(float(tick)) if isinstance(e, Flagged)]
    assert flags == [Flagged("out-of-time", 2)]
    assert judge.agreed_kind(2, 7, "out-of-time") == "out-of-time"
    judge.observe(12.0, {2}, {}, thinking={2})  # at step 8 it thinks again
    assert judge.agreed_kind(2, 8, "out-of-time") == "out-of-time"
    assert refused is None  # not passed on, not shown


def test_a_notice_no_peer_could_have_measured_is_refused() -> None:
    """``out-of-time`` at a table without a clock, and a seat flagging itself for anything
    but its own bank: refused, nothing kept (the signer's one notice is still to come)."""
    judge = clock(me=0, bank_ms=0)
    judge.observe(0.0, {2}, {}, thinking=set())
    signer = clock(me=1)
    assert judge.take_notice(signer.notice(IDS[1], Flagged("out-of-time", 2), 3), 1.0, 3) is None
    assert judge.take_notice(signer.notice(IDS[1], Flagged("stalled", 1), 3), 1.0, 3) is None
    taken = judge.take_notice(signer.notice(IDS[1], Flagged("stalled", 2), 3), 1.0, 3)
    assert taken is not None and not taken.accepted
