"""The decoder fuzz campaign: ``python -m tests.fuzz [--inputs N] [--seed S] [--target NAME]``.

Feeds every decoder that takes bytes from outside ``N`` generated inputs (mutations of its
corpus, deterministic from the seed) and prints, per target, how many inputs ended in each
typed error or were accepted, the rate, and every finding: an exception that is not the
decoder's typed error, or a property an accepted input broke.  Each finding prints the command
that replays it alone (``--replay TARGET:SEED:INDEX``) and its input is written under
``tests/fuzz/findings/``.  Exit code 1 when anything was found.

``python -m tests.fuzz corpus`` makes the corpus again from a real game (``corpus untrusted``:
only the seeds of the targets in ``untrusted_targets``).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
import traceback
from pathlib import Path

from .targets import TARGETS, Target

FINDINGS = Path(__file__).parent / "findings"


def input_at(target: Target, corpus: list[bytes], seed: int, index: int) -> bytes:
    """Input ``index`` of a run with ``seed``: each input has its own generator, so any one can
    be made again without the ones before it."""
    rng = random.Random(f"{target.name}:{seed}:{index}")
    return target.next_input(rng, corpus)


def _finding(target: Target, exc: Exception, replay: str) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (
        f"{target.name}: {type(exc).__name__}: {str(exc)[:120]} at "
        f"{Path(where.filename).name}:{where.lineno}; replay: {replay}"
    )


def campaign(target: Target, inputs: int, seed: int, *, out=sys.stdout) -> list[str]:
    corpus = target.corpus()
    outcomes: collections.Counter[str] = collections.Counter()
    findings: list[str] = []
    started = time.perf_counter()
    for i, data in enumerate(corpus):  # the seeds themselves first
        try:
            outcomes["seed:" + target.outcome(data)] += 1
        except Exception as exc:  # noqa: BLE001 -- a finding is any other exception
            outcomes["FINDING"] += 1
            findings.append(_finding(target, exc, f"the corpus file {target.name}/{i:03d}"))
    for index in range(inputs):
        data = input_at(target, corpus, seed, index)
        try:
            outcomes[target.outcome(data)] += 1
        except Exception as exc:  # noqa: BLE001 -- a finding is any other exception
            outcomes["FINDING"] += 1
            findings.append(
                _finding(target, exc, f"python -m tests.fuzz --replay {target.name}:{seed}:{index}")
            )
            FINDINGS.mkdir(exist_ok=True)
            (FINDINGS / f"{target.name}-{seed}-{index}").write_bytes(data)
    for line in findings[:5]:
        print("  " + line, file=out)
    elapsed = time.perf_counter() - started
    shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    print(
        f"{target.name:14} {inputs:>9} inputs  {elapsed:7.1f} s  "
        f"{inputs / max(elapsed, 1e-9):8.0f}/s  findings {len(findings)}  [{shown}]",
        file=out,
        flush=True,
    )
    return findings


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["corpus"]:
        from .corpus_make import make, make_untrusted

        make_untrusted() if argv[1:] == ["untrusted"] else make()
        print("corpus written under tests/fuzz/corpus/")
        return 0
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", action="append", choices=sorted(TARGETS))
    parser.add_argument("--replay", metavar="TARGET:SEED:INDEX")
    args = parser.parse_args(argv)
    if args.replay:
        name, seed, index = args.replay.rsplit(":", 2)
        target = TARGETS[name]
        data = input_at(target, target.corpus(), int(seed), int(index))
        print(f"input ({len(data)} bytes): {data[:300]!r}")
        print("outcome:", target.outcome(data))  # raises the finding, with its traceback
        return 0
    names = args.target or sorted(TARGETS)
    found: list[str] = []
    print(f"fuzz campaign: seed {args.seed}, {args.inputs} inputs per target")
    for name in names:
        found += campaign(TARGETS[name], args.inputs, args.seed)
    print(f"{len(found)} finding(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
