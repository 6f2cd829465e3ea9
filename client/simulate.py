"""Bot-versus-bot simulation in one process: the engine, a local referee and bots.

``run_game`` plays one whole game and returns the JSON-ready summary that
``fairtable simulate`` prints.  The same seed gives the same game, byte for
byte, on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from client.bots import BOTS
from engine.referee import Referee
from engine.reign import ReignConfig, new_game
from engine.requests import Decision
from engine.rng import ChanceStream

GAMES = ("reign",)


def run_game(game: str, players: int, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """Play one game of ``game`` to the end with bots and a seeded referee."""
    if game != "reign":
        raise ValueError(f"simulation of {game!r} is not available yet")
    state = new_game(ReignConfig(players))
    root = ChanceStream.from_int(seed)
    referee = Referee(root.child("referee").take(32))
    seats = [BOTS[kind](root.child(f"bot/{seat}")) for seat, kind in enumerate(bots)]
    while not state.over:
        request = state.pending()[0]
        if isinstance(request, Decision):
            answer = seats[request.seat].decide(state.view(request.seat), request)
        else:
            answer = referee.answer(state, request)
        state.apply(answer)
    s = state.state
    return {
        "game": game,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "winner": state.winner,
        "end": s.over,
        "rounds": s.round,
        "decisions": s.decisions,
        "legitimacy": list(s.legitimacy),
        "digest": state.digest(),
    }
