"""First-player advantage between equal bots: how often the first player (team) wins.

Plays ``--games`` seeded games of each game between bots of one kind and counts the
winner's place in the turn order of the first round: Reign (who the first-player draw
named), Sovereign (the first player; the rulebook's balancing gives the second more
drones), Sodalis (the team whose champion acts first).  Shares come with 95% Wilson
intervals; an equal game gives 1/players (Sodalis: 1/2).

    .venv/bin/python bench/seats.py [--games 200] [--bot heuristic] [--seed 0]
                                    [--only GAME] [--players N]
"""

from __future__ import annotations

import argparse
import os
import sys
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


def play(name: str, players: int, seed: int, bot: str) -> tuple[bool, bool]:
    """One game: (it has a winner, the first player or team won)."""
    game = rules(name).new_game(players)
    referee, bots = seeded_players(seed, [bot_maker(name, bot)] * players)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="one game's tables only")
    parser.add_argument("--players", type=int, help="tables of this many players only")
    args = parser.parse_args()
    print(
        f"first player (team) wins between {args.bot} bots, {args.games} seeded games "
        f"per table (seeds {args.seed}..{args.seed + args.games - 1})"
    )
    print("game       seats  won  first wins  share  [95% interval]  equal share")
    for name, players in TABLES:
        if (args.only and name != args.only) or (args.players and players != args.players):
            continue
        won = first = 0
        for i in range(args.games):
            w, f = play(name, players, args.seed + i, args.bot)
            won += w
            first += f
        lo, hi = wilson(first, won)
        even = 0.5 if name == "sodalis" else 1 / players
        print(
            f"{name:10} {players:5}  {won:3}  {first:10}  {first / max(1, won):5.1%}  "
            f"[{lo:5.1%}, {hi:5.1%}]  {even:5.1%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
