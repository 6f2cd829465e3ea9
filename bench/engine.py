"""Engine speed: random play of each game, with python-chess random playouts as a reference.

Prints decisions per second, microseconds per decision and games per second
for games between random bots (engine, referee and bots all counted), rollouts per
second (a world sampled from a seat's view mid-game, played to the end by random bots:
what a search bot does; games with a world sampler only), and,
when python-chess is installed, microseconds per ply of random chess playouts
measured in the same run.  Every time is this process's CPU time (``time.process_time``),
not the wall clock: on a machine shared with other jobs the wall clock counts the time
others ran, and the figures would drift with the load.  Targets: a Reign decision costs no
more than a python-chess ply (issue 2); a Sodalis or Sovereign decision no more than two
(issues 6, 7): each registered game's ``bench`` plan (engine.games.BenchPlan) gives its
target and seats.

    .venv/bin/python bench/engine.py [--game NAME|all] [--games 200] [--players N]
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

from fairtable.client.games import bots_for  # noqa: E402
from fairtable.engine.games import entry, game_names, rules  # noqa: E402
from fairtable.engine.playout import play_to_end, seeded_players  # noqa: E402
from fairtable.engine.referee import Referee  # noqa: E402
from fairtable.engine.requests import Decision  # noqa: E402
from fairtable.engine.rng import ChanceStream  # noqa: E402


def play_games(name: str, games: int, players: int, first_seed: int = 0) -> tuple[float, int, int]:
    """Random games of ``name``: (seconds, decisions, engine steps)."""
    game_rules = rules(name)
    random_bot = bots_for(name)["random"]
    decisions = steps = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = game_rules.new_game(players)
        referee, bots = seeded_players(seed, [random_bot] * players)
        steps += play_to_end(game, bots, referee)
        decisions += game.state.decisions
    return time.process_time() - start, decisions, steps


def rollouts(name: str, players: int, count: int) -> tuple[float, int] | None:
    """``count`` rollouts from worlds sampled at decisions of seeded random games: (seconds,
    rollouts); None for a game without a world sampler."""
    game_rules = rules(name)
    if game_rules.sample_world is None:
        return None
    random_bot = bots_for(name)["random"]
    elapsed, done, seed = 0.0, 0, 0
    while done < count:
        game = game_rules.new_game(players)
        root = ChanceStream.from_int(10_000 + seed)
        referee = Referee(root.child("referee").take(32))
        bots = [random_bot(root.child(f"bot/{s}")) for s in range(players)]
        step = 0
        while not game.over and done < count:
            request = game.pending()[0]
            if isinstance(request, Decision):
                view = game.view(request.seat)
                if step % 10 == 0:
                    start = time.process_time()
                    world, world_referee = game_rules.sample_world(view, root.child(f"w/{step}"))
                    play_to_end(world, bots, world_referee)
                    elapsed += time.process_time() - start
                    done += 1
                answer = bots[request.seat].decide(view, request)
                step += 1
            else:
                answer = referee.answer(game, request)
            game.apply(answer)
        seed += 1
    return elapsed, done


def chess_plies(seconds: float) -> tuple[float, int] | None:
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(1)
    plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        board = chess.Board()
        while board.outcome() is None:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
    return time.process_time() - start, plies


def paired_ratio(name: str, games: int, players: int, rounds: int = 5) -> float | None:
    """The median over ``rounds`` of (a decision's cost / a python-chess ply's cost), each
    round timing a slice of games and then chess for as long: on a shared machine the load
    drifts, and pairing each slice with its own reference keeps it out of the ratio."""
    if chess_plies(0.0) is None:
        return None
    ratios = []
    per_round = max(1, games // rounds)
    for r in range(rounds):
        elapsed, decisions, _ = play_games(name, per_round, players, 1000 + r * per_round)
        result = chess_plies(elapsed)
        assert result is not None
        c_elapsed, plies = result
        ratios.append((elapsed / decisions) / (c_elapsed / plies))
    return sorted(ratios)[len(ratios) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*game_names(), "all"], default="all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, help="seats (default: each game's bench plan)")
    args = parser.parse_args()
    names = list(game_names()) if args.game == "all" else [args.game]
    costs: dict[str, float] = {}
    longest = 0.0
    for name in names:
        plan = entry(name).bench
        players = args.players or plan.seats
        games = max(1, args.games // plan.fewer)  # longer games: fewer
        elapsed, decisions, steps = play_games(name, games, players)
        costs[name] = elapsed / decisions * 1e6
        longest = max(longest, elapsed)
        print(
            f"{name:8} {players} players, {games} random games: {elapsed:.2f} s, "
            f"{decisions} decisions ({steps} engine steps incl. chance and cards)"
        )
        print(
            f"{name:8} {decisions / elapsed:,.0f} decisions/s = {costs[name]:.1f} us/decision;"
            f" {games / elapsed:.1f} games/s"
        )
        rolled = rollouts(name, players, max(10, games // 2))
        if rolled is not None:
            r_elapsed, r_count = rolled
            print(
                f"{name:8} {r_count / r_elapsed:.1f} rollouts/s (a world sampled from a view "
                f"mid-game, played out by random bots; {r_count} rollouts)"
            )
    chess_result = chess_plies(max(2.0, longest))
    if chess_result is None:
        print("chess    python-chess not installed (pip install -e '.[bench]'): no reference")
        return
    c_elapsed, plies = chess_result
    ply = c_elapsed / plies * 1e6
    print(f"chess    random playouts: {plies / c_elapsed:,.0f} plies/s = {ply:.1f} us/ply")
    for name, per in costs.items():
        print(
            f"ratio    a {name} decision costs {per / ply:.2f} python-chess plies "
            f"(target <= {entry(name).bench.plies:.2f})"
        )
    for name in names:
        plan = entry(name).bench
        paired = paired_ratio(name, max(1, args.games // plan.fewer), args.players or plan.seats)
        print(
            f"paired   a {name} decision costs {paired:.2f} python-chess plies (median of 5 "
            f"slices, each timed next to its own chess run)"
        )


if __name__ == "__main__":
    main()
