"""An honest crash is never a cheat (hostile peers, finding 8): a seat killed at *every*
persistence point of the first rounds -- right after each record it writes to its log --
and restarted from what it wrote, goes on to the same end as everyone else, and nobody is
blamed.

The crash model is the node's: a seat's own entries are on disk before anyone sees them
(durable before visible), others' entries are logged as they arrive, and what is still in
memory -- entries not yet taken from ``outgoing()``, events not yet handled -- is lost."""

from __future__ import annotations

from collections import deque

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.client.games import bots_for
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.testing import peer_secrets

PLAYERS = 3
SEED = 21
VICTIM = 1
ROUND_LIMIT = 2


def _play(crash_at: int | None) -> tuple[list[P.TableSession], int]:
    """A whole table; the victim crashes right after its ``crash_at``-th log record (from 1)
    and restarts from its log.  Returns the sessions and how many records the victim wrote
    before the crash (or in all, without one)."""
    spec, sessions = PT.make_table(PLAYERS, SEED, game="reign", round_limit=ROUND_LIMIT)
    bots = [bots_for("reign")["random"](ChanceStream.from_int(s)) for s in range(PLAYERS)]
    disk: list[list[bytes]] = [[] for _ in range(PLAYERS)]
    queue: deque[tuple[int, bytes]] = deque()
    crashed = False

    def write(seat: int, data: bytes) -> None:
        nonlocal crashed
        disk[seat].append(data)
        if seat == VICTIM and not crashed and len(disk[seat]) == crash_at:
            crashed = True
            identity, secret = peer_secrets(SEED, VICTIM)
            old = sessions[VICTIM]
            old.outgoing()  # what it had not sent yet dies with it
            sessions[VICTIM] = P.TableSession(
                spec, VICTIM, identity, secret_seed=secret, saved=list(disk[VICTIM])
            )
            for other in range(PLAYERS):  # its links come back: everyone resends its feed
                if other != VICTIM:
                    for entry in sessions[other].entries():
                        queue.append((other, entry))

    for _ in range(400_000):
        moved = False
        for seat in range(PLAYERS):
            session = sessions[seat]
            while (event := session.next_event()) is not None:
                moved = True
                if isinstance(event, P.DecisionNeeded) and session.verdict is None:
                    session.decide(bots[seat].decide(event.view, event.decision))
                    if sessions[seat] is not session:
                        break
            for data in sessions[seat].outgoing():
                moved = True
                write(seat, data)
                queue.append((seat, data))
        if queue:
            sender, data = queue.popleft()
            for seat in range(PLAYERS):
                if seat != sender and sessions[seat].receive(data):
                    write(seat, data)
            continue
        if all(s.finished is not None or s.verdict is not None for s in sessions):
            break
        if not moved:
            break
    return sessions, len(disk[VICTIM])


def _first_rounds_records() -> int:
    sessions, records = _play(None)
    assert all(s.finished is not None for s in sessions)
    return records


FIRST_POINTS = 40  # the victim's first records: keys, shuffles, deals, round 0 and 1 chance


def test_the_table_has_that_many_persistence_points() -> None:
    assert _first_rounds_records() > FIRST_POINTS


@pytest.mark.parametrize("crash_at", range(1, FIRST_POINTS + 1))
def test_hostile_peers_8_a_seat_killed_after_any_record_resumes_and_nobody_is_blamed(
    crash_at: int,
) -> None:
    sessions, _ = _play(crash_at)
    verdicts = [s.verdict for s in sessions]
    assert verdicts == [None] * PLAYERS, [(v.seat, v.kind, v.reason) for v in verdicts if v]
    digests = {s.finished.digest for s in sessions if s.finished is not None}
    assert all(s.finished is not None for s in sessions) and len(digests) == 1
