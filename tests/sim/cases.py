"""The cases the simulator's seeded tests stand for, each with a predicate that says whether a
run hits it, and the seed that does (``SEEDS``).

A seed names a run only for one version of the code: a protocol version that changes table
ids (every transcript hashes the table id) changes every run, and a test's seed may stop
hitting the case it was chosen for while still passing.  So each seeded test asserts
:func:`run_case`'s hits, and ``python -m tests.sim.find CASE`` finds a new seed in one
command (``--check`` says which seeds in ``SEEDS`` still hit their case).

A case has a cheap filter on the plan (``wants``: the cheat or fault it needs, drawn
without running anything), a probe that records where the case happened inside the real
code as it runs (``probe``), a predicate on the finished run (``seen``), and, for the finder
alone, when the run may stop early (``decided``: its case hit, or every honest seat ended).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import attrs

import fairtable.protocol as P
from fairtable.netplay import GameOver, Staying, Verdict
from fairtable.netplay.table import TableClock

from .plan import Fault, Plan, draw_plan
from .reverts import reverted
from .world import RunResult, World, run_plan

__all__ = ["CASES", "PLANS", "SEEDS", "Case", "run_case"]


@contextlib.contextmanager
def _nothing() -> Iterator[list[str]]:
    yield []


@contextlib.contextmanager
def _flood_blamed_as_we_decided() -> Iterator[list[str]]:
    """An honest seat blames a flood inside its own decision: the flood reached it while it
    owed that decision, which then left it waiting on the flooder alone (seed 1211)."""
    seen: list[str] = []
    original = P.TableSession.decide

    def decide(self: P.TableSession, answer: Any) -> None:
        before = self.verdict
        original(self, answer)
        verdict = self.verdict
        honest = type(self) is P.TableSession
        if honest and before is None and verdict is not None and verdict.kind == "flood":
            seen.append(f"seat {self.seat} blamed seat {verdict.seat} flood as it decided")

    P.TableSession.decide = decide  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        P.TableSession.decide = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _flag_kind_from_a_notice() -> Iterator[list[str]]:
    """A seat's own time flag ends the game with the kind of another seat's notice, not its
    own measure: one seat heard the staller's beats, another was cut off (seed 2182)."""
    seen: list[str] = []
    original = TableClock.agreed_kind

    def agreed_kind(self: TableClock, seat: int, step: int, kind: Any) -> Any:
        agreed = original(self, seat, step, kind)
        if agreed != kind:
            seen.append(f"seat {self.me} flagged seat {seat} {kind}, ended it {agreed}")
        return agreed

    TableClock.agreed_kind = agreed_kind  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        TableClock.agreed_kind = original  # type: ignore[method-assign]


def _stayed_and_was_needed(run: RunResult) -> list[str]:
    """A peer finished, said past its grace that it stays, and another finished after that."""
    found = []
    for peer in run.events:
        for over in run.when(peer, GameOver)[:1]:
            for stays in run.when(peer, Staying)[:1]:
                later = [q for q in run.events if q != peer and run.when(q, GameOver)[:1] > [stays]]
                if over < stays and later:
                    found.append(f"peer {peer} stayed at {stays:.1f} s for peer {later[0]}")
    return found


def _verdict_reached_a_peer_that_was_away(run: RunResult) -> list[str]:
    """A peer blamed, stayed; another peer was away then and reached the verdict later."""
    cheater = None if run.plan.cheat is None else run.plan.cheat[0]
    firsts = {peer: run.when(peer, Verdict)[:1] for peer in run.events if peer != cheater}
    found = []
    for peer, first in firsts.items():
        if not first or not run.when(peer, Staying):
            continue
        for other, later in firsts.items():
            if other != peer and later and later[0] > first[0] and run.was_away(other, first[0]):
                found.append(f"peer {other} was away at {first[0]:.1f} s, blamed at {later[0]:.1f}")
    return found


def _a_proof_passed_on(run: RunResult) -> list[str]:
    return [
        f"peer {peer}: {event.reason}"
        for peer, events in run.events.items()
        for event in events
        if isinstance(event, Verdict)
        and "a peer's proof" in event.reason
        and (run.plan.cheat is None or peer != run.plan.cheat[0])
    ]


def _fault(name: str) -> Callable[[RunResult], list[str]]:
    return lambda run: [f"{name} x{run.faults[name]}"] if run.faults[name] else []


def _cheat(kind: str) -> Callable[[Plan], bool]:
    return lambda plan: plan.cheat is not None and plan.cheat[1] == kind


def _cut_off(plan: Plan) -> bool:
    """A mesh with a link cut or a seat partitioned: one seat may hear another that a
    third cannot (through a relay every seat hears every seat)."""
    return not plan.relay and any(f.kind in ("cut", "partition", "sever") for f in plan.faults)


def _every_honest_seat_ended(world: World) -> bool:
    ended = (GameOver, Verdict)
    return all(
        bool(world.events[s]) and isinstance(world.events[s][-1], ended) and s not in world.down
        for s in world.honest()
    )


@attrs.frozen
class Case:
    what: str
    game: str  # the game its test plays ("all": the seed draws it)
    wants: Callable[[Plan], bool] = lambda plan: True
    probe: Callable[[], AbstractContextManager[list[str]]] = _nothing
    seen: Callable[[RunResult], list[str]] = lambda run: []
    orders: bool = False  # hit when the run's trace depends on its hash order
    revert: str | None = None  # hit only if this fix undone (reverts.py) breaks the run
    decided: Callable[[World], bool] | None = None  # the finder's early stop (with a hit)


CASES = {
    "flood-owing": Case(
        "a flood reached a seat while it owed a decision; it blames the flooder as it decides",
        "sovereign",
        wants=_cheat("flood"),
        probe=_flood_blamed_as_we_decided,
        revert="flood-decide",
        decided=_every_honest_seat_ended,
    ),
    "withheld-cut-off": Case(
        "a seat withholds a reveal; a seat cut off from it takes the kind of another's notice",
        "sovereign",
        wants=lambda plan: _cheat("withheld-reveal")(plan) and _cut_off(plan),
        probe=_flag_kind_from_a_notice,
        decided=_every_honest_seat_ended,
    ),
    "hash-order": Case(
        "the run's trace depends on the order netplay's sets of links and peers iterate in",
        "all",
        wants=lambda plan: plan.seats > 2,
        orders=True,
    ),
    "stays-needed": Case(
        "a finished seat stays past its grace, and another seat finishes after that",
        "reign",
        wants=lambda plan: plan.cheat is None and bool(plan.faults),
        seen=_stayed_and_was_needed,
    ),
    "verdict-while-away": Case(
        "a seat blames a replay while another is away; it stays, the other blames later",
        "reign",
        wants=_cheat("replay"),
        seen=_verdict_reached_a_peer_that_was_away,
    ),
    "proof-passed-on": Case(
        "an equivocation proof reaches a seat that held one version, from a peer",
        "sovereign",
        wants=_cheat("equivocation"),
        seen=_a_proof_passed_on,
    ),
    "fsync-overtaken": Case(
        "a crash armed before an fsync is overtaken by another crash",
        "reign",
        wants=lambda plan: plan.cheat is None and sum(f.kind == "crash" for f in plan.faults) > 1,
        seen=_fault("crash-before-fsync-overtaken"),
    ),
    "log-kept": Case(
        "a crashed seat's log keeps a record an earlier life read back from the disk",
        "sodalis",
        wants=lambda plan: plan.cheat is None and sum(f.kind == "crash" for f in plan.faults) > 1,
        seen=_fault("log-kept-from-an-earlier-life"),
    ),
}

SEEDS = {
    "hash-order": 75,
    "stays-needed": 146,
    "verdict-while-away": 1079,
    "proof-passed-on": 4645,
    "fsync-overtaken": 5264,
    "log-kept": 40870,
}
"""The seed each case's test plays (``python -m tests.sim.find CASE`` finds another).  The
finder's first ``hash-order`` seed since protocol version 9, 70, was the relay's nameplate
number drawn without a seed (now pinned: tests/sim/test_determinism.py), not the hash order;
seed 75 is the next."""

PLANS = {
    "flood-owing": Plan(
        2,
        "sovereign",
        3,
        False,
        cheat=(1, "flood"),
        faults=(Fault(6.0, "partition", 1, 700.0),),
        pace=2.0,
    ),
    "withheld-cut-off": Plan(
        1,
        "sovereign",
        3,
        False,
        cheat=(2, "withheld-reveal"),
        faults=(Fault(0.5, "sever", 1, 3000.0, other=2), Fault(300.0, "partition", 1, 400.0)),
    ),
}
"""Cases no drawn seed has reached since protocol version 9 (``flood-owing`` over seeds
206-5380, ``withheld-cut-off`` over 77-3781), built as a fault schedule of their own:

* ``flood-owing``: every bot answers 2 s after it is asked, so a seat owes its decision a
  while; the flooder (peer 1) floods, and is alone from 6 s on for longer than the abandon
  limit, so nothing arrives after a seat's decision.  Peer 2 owes a decision when the flood
  reaches it and blames it as it decides; with that fix undone it ends ``abandoned``.
* ``withheld-cut-off``: peer 2 withholds a reveal; peers 1 and 2 cannot reach each other
  (``sever``) and peer 1 is alone from 300 s to 700 s.  Peer 0 hears peer 2's beats and
  names it ``withheld-reveal`` at 601 s, and stays with its notice as the verdict's
  evidence; peer 1, back at 700 s, takes the notice (its own countdown is far from zero)
  and names peer 2 at its own flag (905 s) with the notice's kind, not its own
  ``abandoned``.  (Alone only until 500 s, peer 1 now hears peer 2's beats through peer 0,
  which stays, and flags the stall itself: it no longer needs the notice's kind.)"""


def run_case(name: str, seed: int | Plan, *, early: bool = False) -> tuple[RunResult, list[str]]:
    """Seed ``seed``'s run in case ``name``'s game (or a plan of its own: :data:`PLANS`),
    and where it hit the case (empty: it missed).  ``early`` lets the run stop once the case
    is decided (the finder's filter: the result's invariants are then moot)."""
    case = CASES[name]
    plan = seed if isinstance(seed, Plan) else draw_plan(seed, case.game)
    with case.probe() as probed:
        until = None
        if early and case.decided is not None:
            decided = case.decided
            until = lambda world: bool(probed) or decided(world)  # noqa: E731
        run = run_plan(plan, until=until)
    hits = [*probed, *case.seen(run)]
    if hits and case.revert is not None and not run.stopped_early:
        with reverted(case.revert):
            broken = run_plan(plan)
        if not broken.violations:
            return run, []  # the fix made no difference here: not the case
        hits.append(f"with {case.revert} reverted: {broken.violations[0]}")
    if case.orders:
        other = run_plan(plan, hash_order="reversed")
        if other.digest != run.digest:
            hits.append(f"trace {run.digest} hashed by birth, {other.digest} reversed")
    return run, hits
