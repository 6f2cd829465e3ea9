"""An in-memory table: several sessions passing entries to each other, no sockets.

Used by ``fairtable simulate --crypto`` and the protocol tests.  Every entry a
session emits is delivered to every other session (a full mesh), in a
deterministic order; when nothing is in flight and nobody can progress, every
session is told that the seats it waits for timed out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from fairtable.engine.rng import ChanceStream

from ._events import DecisionNeeded, Verdict
from ._identity import Identity
from ._session import TableSession
from ._table import TableSpec

Decider = Callable[[int, DecisionNeeded[Any]], Any]


@attrs.define
class TableRun:
    sessions: list[TableSession]
    messages: int = 0
    bytes: int = 0
    timeouts: int = 0
    gone: list[int] = attrs.field(factory=list)  # seats that went silent for good


def peer_secrets(seed: int, seat: int) -> tuple[Identity, bytes]:
    """Seat ``seat``'s identity and secret seed at a table made by :func:`make_table`."""
    root = ChanceStream.from_int(seed)
    return (
        Identity.from_seed(root.child(f"identity/{seat}").take(32)),
        root.child(f"peer/{seat}").take(32),
    )


def make_table(
    players: int,
    seed: int,
    *,
    game: str,
    round_limit: int = 60,
    session_class: Callable[..., TableSession] = TableSession,
    cheaters: Sequence[int] = (),
    options: bytes = b"",
) -> tuple[TableSpec, list[TableSession]]:
    """A table of ``players`` seats whose keys and randomness all come from ``seed``
    (``options``: the table options' canonical JSON, e.g. the leavers rule)."""
    root = ChanceStream.from_int(seed)
    identities = [peer_secrets(seed, s)[0] for s in range(players)]
    spec = TableSpec(
        game,
        tuple(i.public.key for i in identities),
        round_limit,
        root.child("table").take(32),
        options,
    )
    sessions = []
    for seat, identity in enumerate(identities):
        cls = session_class if seat in cheaters else TableSession
        sessions.append(cls(spec, seat, identity, secret_seed=peer_secrets(seed, seat)[1]))
    return spec, sessions


def run_table(
    sessions: list[TableSession],
    decide: Decider,
    *,
    max_rounds: int = 200_000,
    departures: Mapping[int, int] | None = None,
    vanishings: Mapping[int, int] | None = None,
    silenced: Mapping[int, int] | None = None,
    until: Callable[[], bool] | None = None,
) -> TableRun:
    """Deliver messages and decisions until every session finished or stopped, or until
    ``until()`` holds (checked before every delivery: a benchmark stops at a moment of the
    game, e.g. the first decision asked, with nothing of what follows done).

    ``departures``: seat -> n, the seat resigns when it is asked its n-th decision (1: its
    first) instead of answering it (where the game goes on without it, it leaves).
    ``vanishings``: seat -> n, the seat goes silent for good when it is asked its n-th
    decision (0: it is silent already); once nobody can move, every other session is told
    it vanished (:meth:`TableSession.vanish`) instead of timing it out.  ``silenced``:
    seat -> n, the same once the seat has sent n entries (at any moment of any exchange), but
    only once the table has agreed on any seat gone before it (one at a time)."""
    run = TableRun(sessions)
    queue: deque[tuple[int, bytes]] = deque()
    asked = dict.fromkeys(range(len(sessions)), 0)
    leave_at = dict(departures or {})
    vanish_at = dict(vanishings or {})
    gone = run.gone  # gone silent, in that order
    gone += [seat for seat, n in vanish_at.items() if n == 0]
    sent = dict.fromkeys(range(len(sessions)), 0)
    silence_at = dict(silenced or {})

    def settled() -> bool:
        """Whether every seat gone silent so far is out of every live seat's game (a seat
        goes silent one at a time: a second once the table agreed on the first)."""
        return all(
            lost not in s.port.seats or s.finished is not None or s.verdict is not None
            for seat, s in enumerate(sessions)
            if seat not in gone
            for lost in gone
        )

    def collect() -> bool:
        moved = False
        for seat, session in enumerate(sessions):
            if seat in gone:
                continue
            while (event := session.next_event()) is not None:
                moved = True
                if (
                    isinstance(event, DecisionNeeded)
                    and session.verdict is None
                    and session.finished is None
                ):
                    asked[seat] += 1
                    if vanish_at.get(seat) == asked[seat]:
                        gone.append(seat)
                        break
                    if leave_at.get(seat) == asked[seat]:
                        session.resign()
                    else:
                        session.decide(decide(seat, event))
            for data in session.outgoing():
                if sent[seat] >= silence_at.get(seat, sent[seat] + 1) and settled():
                    gone.append(seat)  # what it would send now never leaves it
                    break
                sent[seat] += 1
                moved = True
                run.messages += 1
                run.bytes += len(data)
                queue.append((seat, data))
        return moved

    for _ in range(max_rounds):
        if until is not None and until():
            return run
        moved = collect()
        if queue:
            sender, data = queue.popleft()
            for seat, session in enumerate(sessions):
                if seat != sender and seat not in gone:
                    session.receive(data)
            continue
        live = [s for seat, s in enumerate(sessions) if seat not in gone]
        if all(s.finished is not None or s.verdict is not None for s in live):
            return run
        if moved:
            continue
        if _tell_vanished(sessions, gone):
            continue
        # Nothing in flight, nobody can move: the seats being waited for are silent.
        before = [s.verdict for s in sessions]
        for session in live:
            if session.verdict is None and session.finished is None:
                for seat in sorted(session.waiting):
                    session.timeout(seat)
        run.timeouts += 1
        if [s.verdict for s in sessions] == before:
            return run  # only silent seats are left unfinished (a cheater waiting on itself)
    raise RuntimeError("the table did not finish")


def verdicts(sessions: list[TableSession]) -> list[Verdict | None]:
    return [s.verdict for s in sessions]


def _tell_vanished(sessions: list[TableSession], gone: list[int]) -> bool:
    """Tell every live session that the seats gone silent vanished (once, and again after a
    vote about one was void, as netplay's abandon rule would); whether any was told."""
    moved = False
    for seat, session in enumerate(sessions):
        if seat in gone or session.verdict is not None or session.finished is not None:
            continue
        for lost in gone:
            if lost in session.port.seats and lost not in session.vanishing.asked:
                session.vanish(lost)  # again if a vote about it was void: still gone
                moved = True
    return moved
