"""First-player advantage between equal bots: how often the first player (team) wins.

Plays ``--games`` seeded games of each game between bots of one kind and counts the
winner's place in the turn order of the first round: Reign (who the first-player draw
named), Sovereign (the first player; the rulebook's balancing gives the second more
drones), Sodalis (the team whose champion acts first).  Shares come with 95% Wilson
intervals; an equal game gives 1/players (Sodalis: 1/2).  Search bots budget by CPU
time (``--clock cpu``, the thinking thread's ``time.thread_time``; see bench/search.py),
so the figures do not drift with the machine's load and ``--jobs`` may play games side by
side.

    .venv/bin/python bench/seats.py [--games 200] [--bot heuristic] [--seed 0]
                                    [--only GAME] [--players N] [--clock cpu|wall] [--jobs 1]
                                    [--tally N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

# Run as a script, this file's folder comes first on sys.path and its name
# would shadow the ``engine`` package: take the folder off.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

from fairtable.client.games import bot_maker  # noqa: E402
from fairtable.engine.games import rules  # noqa: E402
from fairtable.engine.playout import play_out, seeded_players  # noqa: E402

sys.path.insert(0, _HERE)
from bots import wilson  # noqa: E402

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.monotonic}

TABLES = (
    ("reign", 3),
    ("reign", 4),
    ("reign", 5),
    ("sovereign", 2),
    ("sodalis", 2),
    ("sodalis", 4),
)


def _first(name: str, game: Any) -> Any:
    """Who acts first in the first round, once the game has got that far (else None)."""
    s = game.state
    if name == "reign":
        return s.first_player if s.round >= 1 else None
    if name == "sovereign":
        return s.first_player if s.round >= 1 else None
    if not s.order:
        return None
    return game_team(game, s.order[0])


def game_team(game: Any, seat: int) -> str:
    return str(game.state.seats[seat].team)


def play(name: str, players: int, seed: int, bot: str, clock: str = "cpu") -> tuple[bool, bool]:
    """One game: (it has a winner, the first player or team won)."""
    game = rules(name).new_game(players)
    referee, bots = seeded_players(seed, [bot_maker(name, bot, CLOCKS[clock])] * players)
    first = None
    for _ in play_out(game, bots, referee):
        if first is None:  # the step before was applied: the first player may be known
            first = _first(name, game)
    if first is None:
        first = _first(name, game)
    outcome = game.outcome
    if outcome is None or not outcome.decided:
        return False, False
    if isinstance(first, str):  # a team
        return True, outcome.team == first
    return True, first is not None and outcome.won(first)


def _play(task: tuple[str, int, int, str, str]) -> tuple[bool, bool]:
    return play(*task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="one game's tables only")
    parser.add_argument("--players", type=int, help="tables of this many players only")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    parser.add_argument("--tally", type=int, default=0, help="print the tally every N games")
    args = parser.parse_args()
    print(
        f"first player (team) wins between {args.bot} bots, {args.games} seeded games "
        f"per table (seeds {args.seed}..{args.seed + args.games - 1}; a search bot's budget: "
        f"{args.clock} seconds; {args.jobs} job(s))"
    )
    print("game       seats  won  first wins  share  [95% interval]  equal share")
    for name, players in TABLES:
        if (args.only and name != args.only) or (args.players and players != args.players):
            continue
        won = first = 0
        tasks = [(name, players, args.seed + i, args.bot, args.clock) for i in range(args.games)]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for played, (w, f) in enumerate(pool.map(_play, tasks), start=1):
                won += w
                first += f
                if args.tally and played % args.tally == 0 and played < args.games:
                    lo, hi = wilson(first, won)
                    print(
                        f"  ({name} {players}: after {played} games, first won {first} of "
                        f"{won} won, [{lo:5.1%}, {hi:5.1%}])",
                        flush=True,
                    )
        lo, hi = wilson(first, won)
        even = 0.5 if name == "sodalis" else 1 / players
        print(
            f"{name:10} {players:5}  {won:3}  {first:10}  {first / max(1, won):5.1%}  "
            f"[{lo:5.1%}, {hi:5.1%}]  {even:5.1%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
