"""The ``fairtable`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from client.bots import BOTS
from client.simulate import GAMES, run_game


class UsageError(Exception):
    """A command-line argument that cannot be used; the message says why."""


def _bot_list(text: str | None, players: int) -> list[str]:
    if text is None:
        return ["random"] * players
    kinds = [k.strip() for k in text.split(",")]
    if len(kinds) != players:
        raise UsageError(f"--bots names {len(kinds)} bots but the table has {players} seats")
    for kind in kinds:
        if kind not in BOTS:
            raise UsageError(f"unknown bot {kind!r} (choose from {', '.join(sorted(BOTS))})")
    return kinds


def _simulate(args: argparse.Namespace) -> int:
    if not 3 <= args.players <= 7:
        raise UsageError("Reign is for 3 to 7 players")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.seed < 0:
        raise UsageError("--seed must be a non-negative integer")
    bots = _bot_list(args.bots, args.players)
    wins: dict[str, int] = {}
    for index in range(args.games):
        result = run_game(args.game, args.players, args.seed + index, bots)
        if args.json:
            print(json.dumps(result, sort_keys=True, separators=(",", ":")), flush=True)
        else:
            winner = result["winner"]
            who = f"seat {winner} ({bots[winner]})" if winner is not None else "nobody"
            print(f"game {index + 1}: seed {result['seed']}, {result['rounds']} rounds, "
                  f"{result['decisions']} decisions, winner {who}, digest {result['digest'][:16]}")
        key = "none" if result["winner"] is None else str(result["winner"])
        wins[key] = wins.get(key, 0) + 1
    if not args.json and args.games > 1:
        summary = ", ".join(f"seat {k}: {v}" for k, v in sorted(wins.items()))
        print(f"wins -- {summary}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fairtable",
        description="Play hidden-information tabletop games with friends, with nobody to trust.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play whole games between bots in one process")
    sim.add_argument("game", choices=GAMES)
    sim.add_argument("--players", type=int, default=5, help="seats at the table (Reign: 3-7)")
    sim.add_argument("--games", type=int, default=1, help="how many games to play")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (game i: seed+i)")
    sim.add_argument("--bots", help="one bot kind per seat, comma-separated (default: all random)")
    sim.add_argument("--json", action="store_true", help="print one JSON line per game")
    sim.set_defaults(run=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"fairtable: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
