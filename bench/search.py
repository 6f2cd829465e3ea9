"""The search bot's strength against the heuristic bot, over seeded games with seats rotated.

Plays ``--games`` seeded games of each budget: one search bot (``search:SECONDS``) and
heuristic bots in the other seats, the search bot's seat rotating game by game (so the
first-player draw cannot flatter it).  Prints, per budget, its wins with a 95% Wilson
interval, its mean rollouts per decision and the seconds a game took: the strength-vs-time
curve.  A time budget depends on the machine (and its load): note both with the figures.

    .venv/bin/python bench/search.py [--game reign] [--players 3] [--games 60]
                                     [--seconds 0.05 0.2 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

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


def play(
    game_name: str, players: int, seed: int, seat: int, seconds: float
) -> tuple[bool, int, int]:
    """One game: (search bot won, its decisions searched, its rollouts)."""
    game = rules(game_name).new_game(players)
    heuristic = default_bot(game_name)
    makers = [heuristic] * players
    makers[seat] = lambda stream: SearchBot(stream, game_name, seconds, heuristic=heuristic)
    referee, bots = seeded_players(seed, makers)
    search = bots[seat]
    assert isinstance(search, SearchBot)
    search.last = []
    searched = rollouts = 0
    for _ in play_out(game, bots, referee):
        if search.last:  # the step's decision was the search bot's, and searched
            searched += 1
            rollouts += sum(v for _, v, _ in search.last)
            search.last = []
    outcome = game.outcome  # a team wins in Sodalis, and with it each of its seats
    return outcome is not None and outcome.won(seat), searched, rollouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="reign")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seconds", type=float, nargs="+", default=[0.05, 0.2, 1.0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(
        f"{args.game}, {args.players} players: search vs {args.players - 1} heuristic, "
        f"{args.games} games per budget (seeds {args.seed}..{args.seed + args.games - 1}, "
        f"search seat = game % {args.players}); load {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    print("s/decision  wins  share  [95% interval]     rollouts/decision  s/game")
    for seconds in args.seconds:
        wins = searched = rollouts = 0
        start = time.perf_counter()
        for i in range(args.games):
            won, n, r = play(args.game, args.players, args.seed + i, i % args.players, seconds)
            wins += won
            searched += n
            rollouts += r
            if (i + 1) % 10 == 0:  # a running tally, for long runs
                print(f"  {seconds} s: {wins} of {i + 1}", file=sys.stderr, flush=True)
        elapsed = time.perf_counter() - start
        lo, hi = wilson(wins, args.games)
        print(
            f"{seconds:10.2f}  {wins:4}  {wins / args.games:5.1%}  [{lo:5.1%}, {hi:5.1%}]"
            f"     {rollouts / max(1, searched):17.1f}  {elapsed / args.games:6.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
