"""Engine speed: random play of each game, with python-chess random playouts as a reference.

Prints decisions per second, microseconds per decision and games per second
for games between random bots (engine, referee and bots all counted), and,
when python-chess is installed, microseconds per ply of random chess playouts
measured in the same run.  Targets: a Reign decision costs no more than a
python-chess ply (issue 2); a Sodalis or Sovereign decision no more than two (issues 6, 7).

    .venv/bin/python bench/engine.py [--game reign|sodalis|sovereign|all] [--games 200]
                                     [--players N]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any

# Run as a script, this file's folder comes first on sys.path and its name
# would shadow the ``engine`` package: take the folder off.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

from client.games import bots_for  # noqa: E402
from engine.games import rules  # noqa: E402
from engine.referee import Referee  # noqa: E402
from engine.requests import Decision  # noqa: E402
from engine.rng import ChanceStream  # noqa: E402

TARGET = {"reign": 1.0, "sodalis": 2.0, "sovereign": 2.0}  # python-chess plies per decision
PLAYERS = {"reign": 5, "sodalis": 4, "sovereign": 2}


def game_rules_of(name: str) -> Any:
    """A game's rules, Sovereign's too while it is not yet in the registry."""
    if name == "sovereign":
        from engine.sovereign import RULES

        return RULES
    return rules(name)


def play_games(name: str, games: int, players: int) -> tuple[float, int, int]:
    """Random games of ``name``: (seconds, decisions, engine steps)."""
    game_rules = game_rules_of(name)
    random_bot = bots_for(name)["random"]
    decisions = steps = 0
    start = time.perf_counter()
    for seed in range(games):
        game = game_rules.new_game(players)
        root = ChanceStream.from_int(seed)
        referee = Referee(root.child("referee").take(32))
        bots = [random_bot(root.child(f"bot/{s}")) for s in range(players)]
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
    parser.add_argument("--game", choices=["reign", "sodalis", "sovereign", "all"], default="all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int,
                        help="seats (default: Reign 5, Sodalis 4, Sovereign 2)")
    args = parser.parse_args()
    names = ["reign", "sodalis", "sovereign"] if args.game == "all" else [args.game]
    costs: dict[str, float] = {}
    longest = 0.0
    for name in names:
        players = args.players or PLAYERS[name]
        games = args.games if name == "reign" else max(1, args.games // 4)  # longer games
        elapsed, decisions, steps = play_games(name, games, players)
        costs[name] = elapsed / decisions * 1e6
        longest = max(longest, elapsed)
        print(f"{name:8} {players} players, {games} random games: {elapsed:.2f} s, "
              f"{decisions} decisions ({steps} engine steps incl. chance and cards)")
        print(f"{name:8} {decisions / elapsed:,.0f} decisions/s = {costs[name]:.1f} us/decision;"
              f" {games / elapsed:.1f} games/s")
    chess_result = chess_plies(max(2.0, longest))
    if chess_result is None:
        print("chess    python-chess not installed (pip install -e '.[bench]'): no reference")
        return
    c_elapsed, plies = chess_result
    ply = c_elapsed / plies * 1e6
    print(f"chess    random playouts: {plies / c_elapsed:,.0f} plies/s = {ply:.1f} us/ply")
    for name, per in costs.items():
        print(f"ratio    a {name} decision costs {per / ply:.2f} python-chess plies "
              f"(target <= {TARGET[name]:.2f})")


if __name__ == "__main__":
    main()
