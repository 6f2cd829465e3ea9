"""``python -m tests.sim.vanishings``: a seeded campaign of seats vanishing at any moment.

    python -m tests.sim.vanishings --seeds 200            # seeds 0..199
    python -m tests.sim.vanishings --seed 17              # one run, with its plan
    python -m tests.sim.vanishings --find Roll/withheld   # a seed for the CI sample

Each run is an in-memory table (the protocol's own harness, no sockets) whose leavers rule is
``go-on``: one seat -- or two, one after the other -- goes silent for good after sending a
number of entries drawn from the seed over the whole game (:func:`silence_point`, up to
:data:`TYPICAL`), so it may vanish during a shuffle, in the middle of an exchange, while
owing a reveal, at a decision, in the last round; once nobody can move, every other seat is told
it vanished (``TableSession.vanish``), as netplay does past the abandon limit.  Every run is
held to the issue's invariants (issue 33):

* every survivor ends alike: one digest and a real ending (a game finished, or ended
  ``vanished`` where it cannot recover) -- or one verdict naming the seat that vanished owing
  the reveal of what it committed to (``withheld-reveal``), which is the only sound end there
  (docs/protocol.md §11.11);
* no honest seat is blamed, and nothing ends in a time-out: the vote, not a timer, decides;
* no seat that vanished has a card it held opened: no recovery share is ever made for one;
* the audit accepts a survivor's log.

The summary counts the runs by what the vanished seat owed when the table agreed (the
request pending, per game), by how the run ended, and by where in the run it was agreed
(a run that ends ``vanished`` ends at its last vanishing: 100%).  The netplay campaign
(``python -m tests.sim``) plays real nodes; vanishing reaches it once netplay calls
``vanish`` at the abandon limit.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
from fairtable.client.games import bots_for
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.wire import LEAVERS_KEY, Batch, Leavers, RecoveryShares

__all__ = ["VanishPlan", "VanishRun", "draw_vanish_plan", "run_vanish_plan"]

GO_ON = canonical_bytes({LEAVERS_KEY: Leavers.GO_ON.value})
SEATS = {"reign": (3, 5), "sovereign": (3, 4), "sodalis": (4, 4)}
TYPICAL = {
    ("reign", 3): 41,
    ("reign", 4): 56,
    ("reign", 5): 95,
    ("sovereign", 3): 190,
    ("sovereign", 4): 340,
    ("sodalis", 4): 235,
}
"""About the entries a seat sends in a whole game at a ``go-on`` table nobody leaves, where
silence points are drawn up to: the median of every seat of seeds 0-11 for Reign at 3 and 4
seats, of seeds 0-2 for the others (``python -m tests.sim.vanishings --typical N`` measures
it over seeds 0..N-1)."""


@attrs.frozen
class VanishPlan:
    seed: int
    game: str
    seats: int
    silenced: tuple[tuple[int, int], ...]  # (seat, entries it sends before it goes silent)

    def text(self) -> str:
        gone = ", ".join(f"seat {s} silent after {n} entries" for s, n in self.silenced)
        return f"seed {self.seed} {self.game} {self.seats} seats; {gone}"


@attrs.define
class VanishRun:
    plan: VanishPlan
    ending: str
    owed: list[str]  # what each vanished seat owed when the table agreed ("Shuffle/recover")
    violations: list[str]
    steps: list[int] = attrs.field(factory=list)  # the game step each vanishing was agreed at
    last: int = 0  # the game's last step (the witness's, at its end)
    silent: int = 0  # how many seats went silent (0: the game ended before the drawn point)

    def where(self) -> list[int]:
        """Where in the game each vanishing was agreed, in percent of its steps."""
        return [100 * k // max(self.last, 1) for k in self.steps]


def silence_point(rng: random.Random, typical: int) -> int:
    """How many entries a seat sends before it goes silent, over a whole game of about
    ``typical`` entries a seat: half the draws log-uniform (dense where a game is dense in
    exchanges: its first shuffles, deals and decisions), half uniform (its late rounds, a
    breach's reveal, the audit); a draw past the game's end vanishes nobody."""
    if rng.random() < 0.5:
        return max(1, round(math.exp(rng.uniform(0.0, math.log(typical)))))
    return rng.randint(1, typical)


def draw_vanish_plan(seed: int, game: str = "all") -> VanishPlan:
    rng = random.Random(f"fairtable-sim/vanish/{seed}")
    drawn = rng.choice(sorted(SEATS))
    game = drawn if game == "all" else game
    seats = rng.randint(*SEATS[game])
    twice = rng.random() < 0.3
    who = rng.sample(range(seats), 2 if twice else 1)
    first = silence_point(rng, TYPICAL[game, seats])
    silenced = [(who[0], first)]
    if twice:
        silenced.append((who[1], first + rng.randint(0, 12)))  # the second, soon after
    return VanishPlan(seed, game, seats, tuple(silenced))


def _recovery_shares(session: P.TableSession, seats: Sequence[int]) -> set[bytes]:
    out: set[bytes] = set()
    for seat in seats:
        for entry in session.log.entries(seat):
            batch = entry.message()
            assert isinstance(batch, Batch)
            for raw in batch.parts:
                msg = P.decode(raw)
                if isinstance(msg, RecoveryShares):
                    out.update(s.share for s in msg.shares)
    return out


def random_bots(game: str, seats: int, seed: int) -> Callable[[int, Any], Any]:
    """Every seat's decisions, by a random bot seeded from the run's seed."""
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(seats)]
    return lambda seat, event: bots[seat].decide(event.view, event.decision)


def run_vanish_plan(plan: VanishPlan) -> VanishRun:
    spec, sessions = PT.make_table(plan.seats, plan.seed, game=plan.game, options=GO_ON)
    run = PT.run_table(
        sessions, random_bots(plan.game, plan.seats, plan.seed), silenced=dict(plan.silenced)
    )
    violations: list[str] = []
    gone = set(run.gone)  # a seat whose game ended before its silence is a survivor
    survivors = [s for s in sessions if s.seat not in gone]
    endings: set[str] = set()
    for s in survivors:
        if s.verdict is not None:
            v = s.verdict
            endings.add(f"verdict {v.seat} {v.kind}")
            if v.seat not in gone:
                violations.append(f"honest seat blamed: seat {s.seat} names {v.seat} {v.kind}")
            elif v.kind is not P.VerdictKind.WITHHELD_REVEAL or "vanished" not in v.reason:
                violations.append(f"not the vote's verdict: seat {s.seat}: {v.kind} {v.reason}")
        elif s.finished is not None:
            endings.add(f"{s.finished.end} {s.finished.digest[:16]}")
        else:
            violations.append(f"stuck: seat {s.seat} neither finished nor stopped")
    if len(endings) != 1:
        violations.append(f"the survivors disagree: {sorted(endings)}")
    witness = survivors[0]
    recovered = _recovery_shares(witness, [s.seat for s in survivors if s.seat is not None])
    for s in survivors:
        escrow = s.vanishing.escrow
        for d in s.vanishing.vanished:
            for ct in s.exchanges.cards.held[d].values():
                if escrow is not None and PC.mul(escrow.pieces[d].secret, ct.a) in recovered:
                    violations.append(f"a card seat {d} held was recovered by seat {s.seat}")
    if witness.finished is not None and not violations:
        result = P.audit_log(spec, witness.entries())
        if not result.ok:
            violations.append(f"the audit refuses seat {witness.seat}'s log: {result.summary}")
    applied = witness.vanishing.applied
    owed = [f"{kind}/{rule.value}" for _d, _k, rule, kind in applied]
    ending = sorted(endings)[0].split()[0] if endings else "none"
    steps = [k for _d, k, _rule, _kind in applied]
    return VanishRun(plan, ending, owed, violations, steps, witness.port.step, len(gone))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.sim.vanishings")
    parser.add_argument("--seeds", type=int, default=20, help="how many runs (from --first)")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, help="one run of this seed, with its plan")
    parser.add_argument("--game", choices=("all", *sorted(SEATS)), default="all")
    parser.add_argument(
        "--typical", type=int, metavar="N", help="measure TYPICAL over N seeds, play nothing else"
    )
    parser.add_argument(
        "--find",
        metavar="OWED",
        help="the first seed from --first (of --game) whose vanished seat owed OWED "
        "(e.g. Reveal/withheld), keeping every invariant: a CI sample seed",
    )
    args = parser.parse_args(argv)
    seeds = [args.seed] if args.seed is not None else range(args.first, args.first + args.seeds)
    if args.typical:
        return typical(args.typical, args.game)
    if args.find:
        return find(args.find, args.game, seeds)
    owed: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    where: Counter[str] = Counter()
    bad = unsilenced = 0
    for seed in seeds:
        run = run_vanish_plan(draw_vanish_plan(seed, args.game))
        owed.update(f"{run.plan.game} {kind}" for kind in run.owed)
        endings[run.ending] += 1
        where.update(f"{20 * (p // 20)}-{20 * (p // 20) + 20}%" for p in run.where())
        unsilenced += run.silent == 0
        status = "FAIL" if run.violations else "ok  "
        at = ", ".join(f"step {k} of {run.last}" for k in run.steps)
        print(
            f"{status} {run.plan.text()}: {run.ending}; owed {', '.join(run.owed) or '-'}"
            + (f" at {at}" if at else "")
        )
        for violation in run.violations:
            print(f"  {violation}")
        bad += bool(run.violations)
        sys.stdout.flush()
    runs = len(list(seeds))
    print(f"runs {runs}, failing {bad}")
    print("owed when agreed: " + ", ".join(f"{k} {n}" for k, n in sorted(owed.items())))
    print("endings: " + ", ".join(f"{k} {n}" for k, n in sorted(endings.items())))
    print("agreed at: " + ", ".join(f"{k} {n}" for k, n in sorted(where.items())))
    print(f"the game ended before the drawn silence: {unsilenced}")
    return 1 if bad else 0


def find(owed: str, game: str, seeds: Sequence[int]) -> int:
    """Print the first of ``seeds`` whose vanished seat owed ``owed`` and whose run keeps
    every invariant, as a line of tests/sim/test_vanishings.py's ``SAMPLE``."""
    for seed in seeds:
        run = run_vanish_plan(draw_vanish_plan(seed, game))
        if owed in run.owed and not run.violations:
            print(f"{run.plan.text()}; agreed at {run.where()}% of the game")
            print(f'    {seed}: ("{run.ending}", {run.owed!r}),'.replace("'", '"'))
            return 0
        print(f"miss seed {seed} {run.plan.game}: owed {', '.join(run.owed) or '-'}", flush=True)
    print(f"no seed owed {owed}")
    return 1


def typical(count: int, game: str) -> int:
    """Print the median entries a seat sends in a whole game nobody leaves, seeds
    0..count-1, for every table size drawn (what :data:`TYPICAL` holds)."""
    for g, seats in sorted(TYPICAL):
        if game not in ("all", g):
            continue
        sent = []
        for seed in range(count):
            spec, sessions = PT.make_table(seats, seed, game=g, options=GO_ON)
            PT.run_table(sessions, random_bots(g, seats, seed))
            sent += [len(list(s.log.entries(seat))) for seat, s in enumerate(sessions)]
        print(f"{g} {seats} seats: median {statistics.median(sent)}, {min(sent)}-{max(sent)}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
