"""``python -m tests.sim``: seeded whole-table runs, their faults, and every violation.

    python -m tests.sim --seeds 100 --game all      # seeds 0..99
    python -m tests.sim --seed 17 --game reign      # one run, replayed exactly (with its plan)

Each failing run prints the one line that replays it.  The summary gives the runs, the
faults injected by kind, the violations, and a digest of all the runs' traces.
``--relay-drop`` lets plans draw a relay that drops one seat's entries (issue 14's finding
6; since net14 every honest seat ends ``starved``); ``--revert chance-nonce`` puts back the
bug session 4 fixed (the chance commitment's nonce from fresh randomness) to show the
simulator finds it.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import sys
import time
from collections import Counter

from .plan import GAMES, draw_plan
from .reverts import REVERTS, reverted
from .world import run_plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.sim", description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="how many runs (seeds from --first)")
    parser.add_argument("--first", type=int, default=0, help="the first seed of --seeds")
    parser.add_argument("--seed", type=int, help="one run of this seed (printed in full)")
    parser.add_argument("--game", choices=("all", *GAMES), default="all")
    parser.add_argument(
        "--relay-drop",
        action="store_true",
        help="let the seed draw a relay that drops a seat's entries",
    )
    parser.add_argument("--revert", choices=sorted(REVERTS), help="put a fixed bug back")
    parser.add_argument("--quiet", action="store_true", help="only failures and the summary")
    args = parser.parse_args(argv)
    seeds = [args.seed] if args.seed is not None else range(args.first, args.first + args.seeds)
    runs, bad, faults, kinds = 0, 0, Counter[str](), Counter[str]()
    traces = hashlib.sha256()
    began = time.monotonic()
    with reverted(args.revert), contextlib.suppress(KeyboardInterrupt):  # ^C: the summary so far
        for seed in seeds:
            plan = draw_plan(seed, args.game, relay_drop=args.relay_drop)
            started = time.monotonic()
            result = run_plan(plan)
            runs += 1
            faults.update(result.faults)
            traces.update(result.digest.encode())
            ends = sorted({" ".join(o.split()[::2]) for o in result.outcomes.values()})
            line = (
                f"seed {seed} {plan.game}: {'/'.join(ends)}, trace {result.digest}, "
                f"{result.sim_seconds:.1f} simulated s, {time.monotonic() - started:.1f} s"
            )
            if args.seed is not None:
                print(plan.text())
                for seat, outcome in sorted(result.outcomes.items()):
                    print(f"  seat {seat}: {outcome}")
            if result.violations:
                bad += 1
                print(f"FAIL {line}")
                for violation in result.violations:
                    kinds[violation.split(":")[0]] += 1
                    print(f"  {violation}")
                flags = (" --relay-drop" if args.relay_drop else "") + (
                    f" --revert {args.revert}" if args.revert else ""
                )
                print(f"  replay: {result.replay()}{flags}")
            elif not args.quiet or args.seed is not None:
                print(f"ok   {line}")
            sys.stdout.flush()
    print(
        f"runs {runs}, failing {bad}, {time.monotonic() - began:.0f} s; "
        f"all traces {traces.hexdigest()[:16]}"
    )
    print("faults: " + (", ".join(f"{k} {n}" for k, n in sorted(faults.items())) or "none"))
    print("violations: " + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"))
    return 1 if bad else 0


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":  # one seed, one run: in every process alike
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, "-m", "tests.sim", *sys.argv[1:]])
    sys.exit(main())
