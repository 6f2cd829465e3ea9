"""Twin runs for the size tests: two bot games from one seed that differ only in one seat's
secret choice (docs/protocol.md §11.9), and the pairs of entries whose public parts agree.

Used by ``tests/protocol/test_sizes.py`` (entry sizes) and ``tests/netplay/test_frame_sizes.py``
(the frames carrying those entries over a real link).
"""

from __future__ import annotations

import contextlib
import itertools
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import attrs

import fairtable.protocol as P
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client.games import bots_for
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.wire import Move, Note

Swap = Callable[[int, P.DecisionNeeded, Any], Any]


class _Stop(Exception):
    """Raised by a decider to end a run early (the part of the game a test needs is over)."""


def play(
    game: str, players: int, seed: int, *, swap: Swap | None = None, stop_after: int | None = None
) -> list[P.TableSession]:
    """A bot game over the in-memory harness; ``swap(seat, event, answer)`` may replace a
    bot's answer; the run ends once ``stop_after`` decisions were made."""
    _, sessions = PT.make_table(
        players, seed, game=game, round_limit=rules(game).default_round_limit
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(players)]
    made = [0]

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        if stop_after is not None and made[0] >= stop_after:
            raise _Stop
        made[0] += 1
        answer = bots[seat].decide(event.view, event.decision)
        return swap(seat, event, answer) if swap is not None else answer

    with contextlib.suppress(_Stop):
        PT.run_table(sessions, decide)
    return sessions


def feeds(session: P.TableSession) -> dict[int, list[tuple[bytes, list[Any]]]]:
    """Every seat's feed as this peer holds it: (entry bytes, decoded parts) in order."""
    out: dict[int, list[tuple[bytes, list[Any]]]] = defaultdict(list)
    for data in session.entries():
        entry = P.Entry.parse(data)
        batch: Any = entry.message()
        out[entry.header.seat].append((data, [P.decode(raw) for raw in batch.parts]))
    return out


def public(part: Any) -> Any:
    """What of a part the observer may compare between the two runs: everything but the
    secret's own carriers (a note's box, a commitment's digest)."""
    if isinstance(part, Note):
        return ("note", part.step)
    if isinstance(part, PW.Commit):
        return ("commit", part.purpose)
    if isinstance(part, Move):
        return P.encode(attrs.evolve(part, commit=b"\0" * len(part.commit)))
    return P.encode(part)


def alternative(game: str, event: P.DecisionNeeded, answer: Any) -> Any | None:
    """Another legal answer with the same public part (any other answer for a simultaneous
    decision: nothing of it is public before the reveal), the one whose full encoding differs
    most in length from ``answer``'s; None if every such answer has its length."""
    game_rules = rules(game)
    if not event.decision.simultaneous and not game_rules.secret_cards(answer):
        return None
    public_part = game_rules.public_part(answer)

    def full(a: Any) -> int:
        return len(canonical_bytes({"type": type(a).__name__, **attrs.asdict(a)}))

    legal = itertools.islice(game_rules.legal_answers(event.view, event.decision), 5000)
    others = [
        a
        for a in legal
        if a != answer
        and (event.decision.simultaneous or game_rules.public_part(a) == public_part)
        and full(a) != full(answer)
    ]
    return max(others, key=lambda a: (abs(full(a) - full(answer)), repr(a))) if others else None


@attrs.frozen
class Twins:
    """Entries of two runs, paired per seat while their public parts agree."""

    swapped: dict[str, Any]  # the secret choice changed: step, seat, decision kind
    pairs: list[tuple[int, bytes, bytes]]  # (seat, run A's entry, run B's entry)


def twin_runs(game: str, players: int, seed: int, *, stop_after: int = 120) -> Twins:
    """Run the game twice; in the second run, the first decision offering another secret
    choice of a different length gets that choice.  Each seat's entries are paired up to the
    first pair whose public parts differ (a reveal, or what followed it)."""
    swapped: dict[str, Any] = {}

    def swap(seat: int, event: P.DecisionNeeded, answer: Any) -> Any:
        if swapped:
            return answer
        other = alternative(game, event, answer)
        if other is None:
            return answer
        swapped.update(step=event.step, seat=seat, kind=event.decision.kind)
        return other

    runs = [
        play(game, players, seed, stop_after=stop_after),
        play(game, players, seed, swap=swap, stop_after=stop_after),
    ]
    a, b = (feeds(run[0]) for run in runs)
    pairs = []
    for seat in sorted(a):
        for (data_a, parts_a), (data_b, parts_b) in zip(a[seat], b.get(seat, []), strict=False):
            if [public(p) for p in parts_a] != [public(p) for p in parts_b]:
                break
            pairs.append((seat, data_a, data_b))
    return Twins(swapped, pairs)


TWIN_GAMES = [("reign", 4, 11), ("sodalis", 4, 3), ("sovereign", 2, 0)]
"""(game, seats, seed) whose runs offer a secret choice of a different length early."""
