"""``python -m tests.sim.find``: a seed whose simulated run hits a named case (tests/sim/cases.py).

    python -m tests.sim.find flood-owing               # the first seed from 0 that hits it
    python -m tests.sim.find flood-owing --from 5000   # ... from seed 5000
    python -m tests.sim.find --check                   # which seeds in SEEDS (and PLANS) hit
    python -m tests.sim.find --check hash-order        # ... this case's seed (exit status)

Candidates are filtered on their plan first (drawn, not run: a flood case needs a flooding
seat); a case with a probe inside the code stops a candidate's run as soon as it is decided
(hit, or every honest seat ended).  A hit is then run whole and kept only if it keeps every
invariant; the line to put in ``cases.SEEDS`` is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .cases import CASES, PLANS, SEEDS, run_case
from .plan import draw_plan


def find(name: str, first: int, tries: int) -> int | None:
    case = CASES[name]
    began, ran = time.monotonic(), 0
    for seed in range(first, first + tries):
        if not case.wants(draw_plan(seed, case.game)):
            continue
        ran += 1
        run, hits = run_case(name, seed, early=True)
        if not hits:
            print(f"miss seed {seed} ({run.sim_seconds:.0f} simulated s)", flush=True)
            continue
        whole, hits = (run, hits) if not run.stopped_early else run_case(name, seed)
        if not hits or whole.violations:
            print(f"hit  seed {seed} early, but whole: {hits or 'missed'} {whole.violations}")
            continue
        print(f"hit  seed {seed}: {'; '.join(hits)}")
        print(f"{ran} runs, {time.monotonic() - began:.0f} s; in tests/sim/cases.py SEEDS:")
        print(f'    "{name}": {seed},')
        return seed
    print(f"no seed in {first}..{first + tries - 1} hits {name} ({ran} runs)")
    return None


def check(names: list[str]) -> int:
    stale = 0
    for name in names:
        seed = SEEDS.get(name, PLANS.get(name))
        if seed is None:
            continue
        run, hits = run_case(name, seed)
        ok = hits and not run.violations
        stale += not ok
        what = f"seed {seed}" if isinstance(seed, int) else f"plan ({seed.text()})"
        print(f"{'hits' if ok else 'STALE'} {name} {what}: {hits or run.violations}")
        if not ok and isinstance(seed, int):
            print(f"  re-find: python -m tests.sim.find {name} --from {seed + 1}", flush=True)
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.sim.find", description=__doc__)
    parser.add_argument("case", nargs="?", choices=sorted(CASES))
    parser.add_argument("--from", dest="first", type=int, default=0, help="the first seed tried")
    parser.add_argument("--tries", type=int, default=20_000, help="seeds drawn at most")
    parser.add_argument("--check", action="store_true", help="do the seeds in SEEDS still hit?")
    args = parser.parse_args(argv)
    if args.check:
        return check([args.case] if args.case else [*SEEDS, *PLANS])
    if args.case is None:
        parser.error("name a case, or --check")
    return 0 if find(args.case, args.first, args.tries) is not None else 1


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":  # as python -m tests.sim: one seed, one run
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, "-m", "tests.sim.find", *sys.argv[1:]])
    sys.exit(main())
