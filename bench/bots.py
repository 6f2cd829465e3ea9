"""Bot behaviour over seeded games: how often Reign's heuristic bots make a rival king.

A game is *kingmade* when, in the combat that won it, another seat backed the winner (its
last plotting card went into the winner's army, so it gains legitimacy from the winner's
crowning) -- the issue-32 figure.  *Strengthened* counts games where another seat put a
non-betrayal card into the winning army at all (backing it or not).  Both are shares of
the games that ended with a winner, with a 95% Wilson interval.

The bench plays with the local referee and reads the answers the bots give (it is a
bench, not a player: it sees every seat's cards to judge them).

    .venv/bin/python bench/bots.py [--games 300] [--players 3 4 5] [--seed 0]
                                   [--bot heuristic]
"""

from __future__ import annotations

import argparse
import math
import os
import sys

# Run as a script, this file's folder comes first on sys.path and its name
# would shadow the ``engine`` package: take the folder off.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

from fairtable.client.games import bots_for  # noqa: E402
from fairtable.engine.games import rules  # noqa: E402
from fairtable.engine.playout import play_out, seeded_players  # noqa: E402
from fairtable.engine.reign import Covert, Overt, standard_catalog  # noqa: E402
from fairtable.engine.requests import Decision  # noqa: E402


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``hits`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def kingmaking_game(players: int, seed: int, bot: str) -> tuple[bool, bool, bool]:
    """One seeded game between ``bot`` bots: (won, backed by another, strengthened by another)."""
    game = rules("reign").new_game(players)
    referee, seats = seeded_players(seed, [bots_for("reign")[bot]] * players)
    defs = standard_catalog().defs
    placed: list[tuple[int, int, str]] = []  # (placer, army, card) this round's plotting
    round_seen = -1
    for step in play_out(game, seats, referee):
        answer = step.answer
        if isinstance(step.request, Decision):
            if game.state.round != round_seen:
                round_seen, placed = game.state.round, []
            if isinstance(answer, Overt) and answer.target is not None and answer.card:
                placed.append((answer.seat, answer.target, answer.card))
            if isinstance(answer, Covert) and answer.cards:
                placed.extend(
                    (answer.seat, t, c) for t, c in zip(answer.targets, answer.cards, strict=True)
                )
    outcome = game.outcome
    if outcome is None or not outcome.decided:
        return False, False, False
    (winner,) = outcome.seats  # Reign: one seat wins
    backed = any(t == winner and s != winner for s, t in game.state.backing.items())
    strengthened = any(
        p != winner and army == winner and not defs[c].betrayal for p, army, c in placed
    )
    return True, backed, strengthened


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    print(
        f"Reign kingmaking between {args.bot} bots, {args.games} seeded games per size "
        f"(seeds {args.seed}..{args.seed + args.games - 1})"
    )
    print("players  won  backed by another            strengthened by another")
    for players in args.players:
        won = backed = strong = 0
        for i in range(args.games):
            w, b, s = kingmaking_game(players, args.seed + i, args.bot)
            won += w
            backed += b
            strong += s
        lo, hi = wilson(backed, won)
        slo, shi = wilson(strong, won)
        share = backed / won if won else 0.0
        sshare = strong / won if won else 0.0
        print(
            f"{players:7}  {won:3}  {share:5.1%} [{lo:5.1%}, {hi:5.1%}]"
            f"         {sshare:5.1%} [{slo:5.1%}, {shi:5.1%}]"
        )


if __name__ == "__main__":
    main()
