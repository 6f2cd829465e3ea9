"""The search bot's strength against the heuristic bot, over seeded games with seats rotated.

Plays ``--games`` seeded games of each budget: one search bot (``search:SECONDS``) and
heuristic bots in the other seats, the search bot's seat rotating game by game (so the
first-player draw cannot flatter it).  Prints, per budget, its wins with a 95% Wilson
interval, its mean rollouts per decision and the CPU seconds a game took: the
strength-vs-time curve, and the share of searched decisions it answered otherwise than
the heuristic bot would have (``changed``).

The budget is CPU time by default (``--clock cpu``: the thinking thread's
``time.thread_time``), so the figures do not drift with the machine's load: on a 2-core
machine shared with other jobs a wall-clock second buys a fraction of a CPU second, and a
game's course would depend on who else is running.  ``--clock wall`` budgets as the shipped
bot does (wall-clock seconds, what a user waits).  A CPU budget also lets ``--jobs`` play
games side by side without changing them.  A CPU second still depends on the processor:
the rollouts per decision say what a budget bought.

    .venv/bin/python bench/search.py [--game reign] [--players 3] [--games 60]
                                     [--seconds 0.05 0.2 1] [--seed 0]
                                     [--clock cpu|wall] [--jobs 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

# Run as a script, this file's folder comes first on sys.path and its name
# would shadow the ``engine`` package: take the folder off.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

from fairtable.client.games import default_bot  # noqa: E402
from fairtable.client.search import SearchBot  # noqa: E402
from fairtable.engine.games import rules  # noqa: E402
from fairtable.engine.playout import play_out, seeded_players  # noqa: E402

sys.path.insert(0, _HERE)
from bots import wilson  # noqa: E402

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.monotonic}


def play(
    game_name: str, players: int, seed: int, seat: int, seconds: float, clock: str = "cpu"
) -> tuple[bool, int, int, int, float]:
    """One game: (search bot won, its decisions searched, its rollouts, the searched
    decisions it answered otherwise than the heuristic would, CPU seconds)."""
    cpu = time.thread_time()
    game = rules(game_name).new_game(players)
    heuristic = default_bot(game_name)
    makers = [heuristic] * players
    makers[seat] = lambda stream: SearchBot(
        stream, game_name, seconds, heuristic=heuristic, clock=CLOCKS[clock]
    )
    referee, bots = seeded_players(seed, makers)
    search = bots[seat]
    assert isinstance(search, SearchBot)
    search.last = []
    searched = rollouts = changed = 0
    for step in play_out(game, bots, referee):
        if search.last:  # the step's decision was the search bot's, and searched
            searched += 1
            rollouts += sum(v for _, v, _ in search.last)
            changed += step.answer != search.last[0][0]  # not the heuristic's answer
            search.last = []
    outcome = game.outcome  # a team wins in Sodalis, and with it each of its seats
    won = outcome is not None and outcome.won(seat)
    return won, searched, rollouts, changed, time.thread_time() - cpu


def _play(task: tuple[str, int, int, int, float, str]) -> tuple[bool, int, int, int, float]:
    return play(*task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="reign")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.05, 0.2, 1.0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    args = parser.parse_args()
    print(
        f"{args.game}, {args.players} players: search vs {args.players - 1} heuristic, "
        f"{args.games} games per budget (seeds {args.seed}..{args.seed + args.games - 1}, "
        f"search seat = game % {args.players}); budget: {args.clock} seconds a decision; "
        f"{args.jobs} job(s); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print("s/decision  wins  share  [95% interval]  rollouts/decision  changed  cpu s/game  s/game")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for seconds in args.seconds:
            wins = searched = rollouts = changed = 0
            cpu = 0.0
            start = time.perf_counter()
            tasks = [
                (args.game, args.players, args.seed + i, i % args.players, seconds, args.clock)
                for i in range(args.games)
            ]
            for i, (won, n, r, d, c) in enumerate(pool.map(_play, tasks)):
                wins += won
                searched += n
                rollouts += r
                changed += d
                cpu += c
                if (i + 1) % 10 == 0:  # a running tally (seeds in order), for long runs
                    lo, hi = wilson(wins, i + 1)
                    print(
                        f"  {seconds} s: {wins} of {i + 1} [{lo:.1%}, {hi:.1%}]",
                        file=sys.stderr,
                        flush=True,
                    )
            elapsed = time.perf_counter() - start
            lo, hi = wilson(wins, args.games)
            print(
                f"{seconds:10.2f}  {wins:4}  {wins / args.games:5.1%}  [{lo:5.1%}, {hi:5.1%}]"
                f"  {rollouts / max(1, searched):17.1f}  {changed / max(1, searched):7.1%}"
                f"  {cpu / args.games:10.1f}"
                f"  {elapsed * args.jobs / args.games:6.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
