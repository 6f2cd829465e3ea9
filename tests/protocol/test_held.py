"""A seated peer cannot make the others hold its junk (hostile peers, findings 4 and 7).

Every part a seat signs is charged to it until a pending step reads it; a seat that
makes a session hold more than its budget of unread bytes is blamed (``"flood"``), with
its own signed entry as evidence.  Entries ahead of a gap in a seat's feed are held only
up to a byte budget.  Honest games stay far below both.
"""

from __future__ import annotations

import os

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client.bots import RandomBot
from fairtable.engine.rng import ChanceStream
from fairtable.protocol import _held, _session
from fairtable.protocol.testing import GAP_BUDGET, SEAT_BUDGET, GapBudget, PartStore
from fairtable.protocol.wire import Note

NOTE = 16 * 1024  # the largest box a Note may carry


def _deliver(sessions: list[P.TableSession], sender: int, data: bytes) -> None:
    for seat, session in enumerate(sessions):
        if seat != sender:
            session.receive(data)


def _start(players: int = 3, seed: int = 7, waiting_on: int | None = 2) -> list[P.TableSession]:
    """A table where every entry made so far is delivered (it waits on a decision) -- of
    seat ``waiting_on`` alone: the first table from ``seed`` on that does (which seat the
    first decision falls to depends on every byte signed, the protocol version's too)."""
    for tried in range(seed, seed + 64):
        _, sessions = PT.make_table(players, tried, game="reign")
        moved = True
        while moved:
            moved = False
            for seat, session in enumerate(sessions):
                for data in session.outgoing():
                    moved = True
                    _deliver(sessions, seat, data)
        if waiting_on is None or all(s.waiting == {waiting_on} for s in sessions):
            return sessions
    raise AssertionError(f"no table from seed {seed} waits on seat {waiting_on} alone")


def _junk_notes(cheater: P.TableSession, first: int, count: int) -> tuple[bytes, int]:
    """One entry of the cheater's, signed, carrying ``count`` notes for far-off steps; and
    the bytes of those notes."""
    assert cheater.feed is not None
    parts = tuple(P.encode(Note(first + i, os.urandom(NOTE))) for i in range(count))
    return P.encode(cheater.feed.append(PW.Batch(parts))), sum(map(len, parts))


def test_a_part_is_charged_until_it_is_read() -> None:
    store = PartStore()
    move = PW.MovePart(3)
    store[(1, move)] = "a move"
    store.charge((1, move), 100)
    store.charge((1, move), 100)  # charged once
    assert store.unread[1] == 100 and store.charged(1) == [move]
    assert store.has((1, move)) and store.unread[1] == 100  # looking is not reading
    assert store.get((1, move)) == "a move"
    assert store.unread[1] == 0 and store.charged(1) == []


def test_a_seat_over_its_budget_is_named() -> None:
    store = PartStore()
    store.charge((2, PW.NotePart(99)), SEAT_BUDGET)
    assert store.over() == []
    store.charge((2, PW.NotePart(100)), 1)
    assert store.over() == [2]


def test_entries_ahead_of_a_gap_are_held_only_up_to_a_budget() -> None:
    gaps = GapBudget()
    step = 64 * 1024
    taken = [gaps.admit(1, seq, step) for seq in range(10, 10 + 2 * GAP_BUDGET // step)]
    assert taken.count(True) == GAP_BUDGET // step and gaps.held(1) == GAP_BUDGET
    gaps.filed(1, 10)
    assert gaps.admit(1, 999, step) and gaps.held(1) == GAP_BUDGET


def test_hostile_peers_7_a_seat_flooding_notes_for_far_off_steps_is_blamed() -> None:
    sessions = _start()  # every peer waits on seat 2's decision
    assert all(s.waiting == {2} for s in sessions)
    cheater = sessions[2]
    sent = 0
    for batch in range(40):  # 40 x 15 x 16 KiB: ~10 MiB, five times the budget
        data, size = _junk_notes(cheater, 10**6 + 15 * batch, 15)
        _deliver(sessions, 2, data)
        sent += size
        if sent <= SEAT_BUDGET:  # under the budget: nobody is blamed yet
            assert sessions[0].verdict is None
    for honest in (sessions[0], sessions[1]):
        verdict = honest.verdict
        assert verdict is not None and (verdict.seat, verdict.kind) == (2, "flood")
        assert verdict.evidence and P.decode(verdict.evidence[0]).seat == 2
        assert honest.parts.unread[2] <= SEAT_BUDGET + 15 * 3 * NOTE  # junk not kept on


def test_a_flood_is_not_blamed_while_the_table_waits_on_someone_else() -> None:
    """A peer still waiting on another seat might read more once that seat speaks: it does
    not blame yet (peers behind and ahead end with the same verdict) -- and it keeps no
    more than the budgets meanwhile."""
    sessions = _start()  # every peer waits on seat 2's decision; seat 1 floods
    cheater, honest = sessions[1], sessions[0]
    for batch in range(40):
        honest.receive(_junk_notes(cheater, 10**6 + 15 * batch, 15)[0])
    assert honest.verdict is None and honest.waiting == {2}
    assert honest.parts.unread[1] <= SEAT_BUDGET + 15 * 3 * NOTE
    assert honest.gaps.held(1) <= GAP_BUDGET  # the rest of the flood was refused


def test_hostile_peers_4_digests_for_far_off_steps_and_empty_entries_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budget = 32 * 1024  # the same rule with a small budget, so the flood is short
    monkeypatch.setattr(_held, "SEAT_BUDGET", budget)
    monkeypatch.setattr(_session, "SEAT_BUDGET", budget)
    sessions = _start()  # every peer waits on seat 2
    cheater, honest = sessions[2], sessions[0]
    assert cheater.feed is not None
    for step in range(budget // 40):  # far-off digest checks, ~100 bytes each
        parts = tuple(
            P.encode(PW.DigestCheck(10**6 + 20 * step + i, os.urandom(32))) for i in range(20)
        )
        honest.receive(P.encode(cheater.feed.append(PW.Batch(parts))))
        if honest.verdict is not None:
            break
    verdict = honest.verdict
    assert verdict is not None and (verdict.seat, verdict.kind) == (2, "flood")
    sessions = _start(seed=8, waiting_on=None)  # one seat is waited on: it floods, empty entries
    (waited,) = sessions[0].waiting
    cheater, honest = sessions[waited], sessions[(waited + 1) % len(sessions)]
    assert cheater.feed is not None
    for _ in range(budget):  # entries with no part at all
        honest.receive(P.encode(cheater.feed.append(PW.Batch(()))))
        if honest.verdict is not None:
            break
    verdict = honest.verdict
    assert verdict is not None and (verdict.seat, verdict.kind) == (waited, "flood")


def test_hostile_peers_7_entries_beyond_a_gap_are_not_all_kept() -> None:
    sessions = _start()
    cheater, honest = sessions[1], sessions[0]
    assert cheater.feed is not None
    cheater.feed.append(PW.Batch(()))  # seq 1, never sent: a gap
    kept = 0
    for batch in range(20):  # 20 x 15 x 16 KiB behind the gap
        kept += honest.receive(_junk_notes(cheater, 10**6 + 15 * batch, 15)[0])
    assert 0 < kept < 20 and honest.gaps.held(1) <= GAP_BUDGET
    assert honest.verdict is None  # nobody is blamed for what may be a slow path


def test_an_honest_game_stays_far_below_the_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    charge = PartStore.charge

    def watch(store: PartStore, key: tuple[int, str], size: int) -> None:
        charge(store, key, size)
        seen.append(max(store.unread.values()))

    monkeypatch.setattr(PartStore, "charge", watch)
    _, sessions = PT.make_table(3, 21, game="reign")
    bots = [RandomBot(ChanceStream.from_int(21).child(f"bot/{s}"), "reign") for s in range(3)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    assert all(s.finished is not None and s.verdict is None for s in sessions)
    assert seen and max(seen) < SEAT_BUDGET // 16
    assert all(s.gaps.held(seat) == 0 for s in sessions for seat in s.seats)


def test_a_flood_that_arrived_while_we_owed_a_decision_is_blamed_once_we_decided() -> None:
    """Sovereign seed 1211 of the simulator: the flood reached a seat while it owed its own
    decision (so it still waited on someone else: itself); its decision then left it waiting
    on the flooder alone, with no entry arriving after -- it must blame then, as the peers
    that got the flood later do, not wait for the abandon limit."""
    sessions = _start()  # every peer waits on seat 2's decision; seat 0 floods seat 2 only
    honest, cheater = sessions[2], sessions[0]
    for batch in range(12):  # ~2.8 MiB: over the budget
        honest.receive(_junk_notes(cheater, 10**6 + 15 * batch, 15)[0])
    assert honest.verdict is None and honest.waiting == {2}
    asked = None
    while (event := honest.next_event()) is not None:
        if isinstance(event, P.DecisionNeeded):
            asked = event
    assert asked is not None
    honest.decide(
        RandomBot(ChanceStream.from_int(7), honest.spec.game).decide(asked.view, asked.decision)
    )
    verdict = honest.verdict
    assert verdict is not None and (verdict.seat, verdict.kind) == (0, "flood")
