"""Engine speed: Reign random play, with python-chess random playouts as a reference.

Prints decisions per second, microseconds per decision and games per second
for Reign games between random bots (engine, referee and bots all counted),
and, when python-chess is installed, microseconds per ply of random chess
playouts measured in the same run.  Target (issue 2): a Reign decision costs
no more than a python-chess ply.

    .venv/bin/python bench/engine.py [--games 200] [--players 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

# Run as a script, this file's folder comes first on sys.path and its name
# would shadow the ``engine`` package: take the folder off.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

from client.bots import RandomBot  # noqa: E402
from engine.referee import Referee  # noqa: E402
from engine.reign import ReignConfig, new_game  # noqa: E402
from engine.requests import Decision  # noqa: E402
from engine.rng import ChanceStream  # noqa: E402


def reign_games(games: int, players: int) -> tuple[float, int, int]:
    decisions = steps = 0
    start = time.perf_counter()
    for seed in range(games):
        game = new_game(ReignConfig(players))
        root = ChanceStream.from_int(seed)
        referee = Referee(root.child("referee").take(32))
        bots = [RandomBot(root.child(f"bot/{s}")) for s in range(players)]
        while not game.over:
            request = game.pending()[0]
            if isinstance(request, Decision):
                answer = bots[request.seat].decide(game.view(request.seat), request)
            else:
                answer = referee.answer(game, request)
            game.apply(answer)
            steps += 1
        decisions += game.state.decisions
    return time.perf_counter() - start, decisions, steps


def chess_plies(seconds: float) -> tuple[float, int] | None:
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(1)
    plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while board.outcome() is None:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return time.perf_counter() - start, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    elapsed, decisions, steps = reign_games(args.games, args.players)
    per = elapsed / decisions * 1e6
    print(f"reign  {args.players} players, {args.games} random games: {elapsed:.2f} s, "
          f"{decisions} decisions ({steps} engine steps incl. chance/deal/reveal)")
    print(f"reign  {decisions / elapsed:,.0f} decisions/s = {per:.1f} us/decision; "
          f"{args.games / elapsed:.1f} games/s")
    chess_result = chess_plies(max(2.0, elapsed))
    if chess_result is None:
        print("chess  python-chess not installed (pip install -e '.[bench]'): no reference")
        return
    c_elapsed, plies = chess_result
    ply = c_elapsed / plies * 1e6
    print(f"chess  random playouts: {plies / c_elapsed:,.0f} plies/s = {ply:.1f} us/ply")
    print(f"ratio  a Reign decision costs {per / ply:.2f} python-chess plies (target <= 1.00)")


if __name__ == "__main__":
    main()
