"""Benchmark vanishing in the table session (issue 33), three figures in one run.

Plain script, prints figures, asserts nothing::

    .venv/bin/python bench/vanish.py [--repeat 3] [--seed 7]

All seats run in this one process (``protocol.testing.make_table`` and ``run_table``, every
entry delivered to every seat); figures are CPU seconds (``time.process_time``), medians of
``--repeat`` runs.

* **table start, go-on vs end**: Reign tables of 3 to 6 seats from nothing to their first
  decision, summed over every seat: with ``leavers: go-on`` every seat also deals its key and
  takes every other seat's deal (issue's target: at most +20 %);
* **recovery, 6-seat Reign**: seat 5 goes silent at its third decision; from the moment the
  five others are told it vanished until every one of them applied the vanishing (votes,
  recovery shares for every deck card still face down, checks, combination, stripping):
  CPU summed over the five, and that sum over five -- each survivor does the same work on its
  own machine (issue's target: ready within 2 s of the abandon limit);
* **a whole game without departures, now vs before**: one 4-seat Reign game at an ``end``
  table, with the session as it is and with the vanishing hooks taken out of it (what the
  session did before vanishing was wired in; bytes and digests are the same either way)
  (issue's target: ±5 %); and, per decision, the game of that seed at a ``go-on`` table
  (another game: the rule is bound into the table id).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fairtable.protocol as P  # noqa: E402
import fairtable.protocol.testing as PT  # noqa: E402
from fairtable.client.games import bots_for  # noqa: E402
from fairtable.engine.canonical import canonical_bytes  # noqa: E402
from fairtable.engine.rng import ChanceStream  # noqa: E402
from fairtable.protocol import _vanish  # noqa: E402

GO_ON = canonical_bytes({"leavers": "go-on"})


def cpu(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def stopped(sessions: list[P.TableSession]) -> None:
    """Refuse a bench table that ended in a verdict: its figures would measure nothing."""
    for session in sessions:
        if session.verdict is not None:
            raise RuntimeError(f"the bench table stopped: {session.verdict}")


def unasked(seat: int, event: Any) -> Any:
    raise RuntimeError("the bench answers no decision here")


def table_start(seats: int, seed: int, options: bytes) -> None:
    """A table from nothing to its first decision asked (``run_table`` stops there)."""
    _, sessions = PT.make_table(seats, seed, game="reign", options=options)
    PT.run_table(sessions, unasked, until=lambda: any(s.thinking() for s in sessions))
    stopped(sessions)


def start_figures(repeat: int, seed: int) -> None:
    print("Table start to the first decision, Reign, CPU summed over seats")
    print(f"{'seats':>5} {'end':>9} {'go-on':>9} {'added':>7}")
    for n in range(3, 7):
        end = cpu(lambda n=n: table_start(n, seed + n, b""), repeat)  # type: ignore[misc]
        go_on = cpu(lambda n=n: table_start(n, seed + n, GO_ON), repeat)  # type: ignore[misc]
        print(f"{n:>5} {end:>8.3f}s {go_on:>8.3f}s {100 * (go_on / end - 1):>+6.1f}%")


def recovery_once(seed: int) -> float:
    """CPU seconds from telling the survivors that seat 5 vanished until all applied it."""
    seats, gone, at = 6, 5, 3
    _, sessions = PT.make_table(seats, seed, game="reign", options=GO_ON)
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(seats)]
    survivors = [s for s in sessions if s.seat != gone]
    told: list[float] = []  # when run_table first told a survivor that seat 5 vanished

    def timed(vanish: Callable[[int], None]) -> Callable[[int], None]:
        def tell(seat: int) -> None:
            told.append(time.process_time())
            vanish(seat)

        return tell

    for s in survivors:
        s.vanish = timed(s.vanish)  # type: ignore[method-assign]
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={gone: at},
        until=lambda: all(gone in s.vanishing.vanished for s in survivors),
    )
    end = time.process_time()
    stopped(sessions)
    if not told or not all(gone in s.vanishing.vanished for s in survivors):
        raise RuntimeError("the survivors did not recover seat 5's part")
    return end - told[0]


def recovery_figures(repeat: int, seed: int) -> None:
    total = statistics.median(recovery_once(seed + r) for r in range(repeat))
    print()
    print("Recovery: 6-seat Reign, seat 5 silent at its third decision, the five others told")
    print(f"  all five survivors, CPU summed:   {total:.3f}s")
    print(f"  one survivor's share (sum / 5):   {total / 5:.3f}s")


@contextmanager
def hooks_out() -> Iterator[None]:
    """The session with the vanishing hooks taken out: what it did before they existed."""
    saved = {name: getattr(_vanish.Vanishing, name) for name in ("blocks", "stuck", "holds_back")}
    _vanish.Vanishing.blocks = lambda self: False  # type: ignore[method-assign]
    _vanish.Vanishing.stuck = lambda self, waiting: False  # type: ignore[method-assign]
    _vanish.Vanishing.holds_back = lambda self, seat: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(_vanish.Vanishing, name, fn)


def whole_game(seed: int, options: bytes) -> tuple[str, int]:
    _, sessions = PT.make_table(4, seed, game="reign", round_limit=60, options=options)
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(4)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    finished = sessions[0].finished
    assert finished is not None
    return finished.digest, sum(sessions[0].decisions_applied().values())


def game_figures(repeat: int, seed: int) -> None:
    now, before, go_on = [], [], []
    for _ in range(repeat):  # interleaved, so a load change hits all three alike
        now.append(cpu(lambda: whole_game(seed, b""), 1))
        with hooks_out():
            before.append(cpu(lambda: whole_game(seed, b""), 1))
        go_on.append(cpu(lambda: whole_game(seed, GO_ON), 1))
    with hooks_out():
        same = whole_game(seed, b"")
    assert same == whole_game(seed, b"")
    a, b, c = (statistics.median(x) for x in (now, before, go_on))
    steps, other = whole_game(seed, b"")[1], whole_game(seed, GO_ON)[1]
    print()
    print(f"A whole 4-seat Reign game without departures (seed {seed}), CPU summed over seats")
    print(f"  end table, before (hooks out):  {b:.3f}s")
    print(f"  end table, now:                 {a:.3f}s ({100 * (a / b - 1):+.1f}%)")
    print(f"  per decision, end table, now:   {1000 * a / steps:.2f}ms ({steps} decisions)")
    print(
        f"  per decision, go-on table, now: {1000 * c / other:.2f}ms ({other} decisions: another"
        " game, the rule is bound into the table id)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    start_figures(args.repeat, args.seed)
    recovery_figures(args.repeat, args.seed)
    game_figures(args.repeat, args.seed)


if __name__ == "__main__":
    main()
