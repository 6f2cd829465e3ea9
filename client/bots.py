"""The random bot every game has: any legal answer, from the seat's view only.

It asks the game's :class:`~engine.games.GameRules` for ``random_answer`` (each game
biases its pick towards progress there), so no game writes its own.  A game's other
bots live in ``client/<game>/bots.py``; :mod:`client.games` lists them all by name.
"""

from __future__ import annotations

from typing import Any

from fairtable.engine.games import rules
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream

__all__ = ["RandomBot"]


class RandomBot:
    """Any legal answer of ``game`` (the engine's random pick)."""

    kind = "random"

    def __init__(self, stream: ChanceStream, game: str) -> None:
        self.stream = stream
        self.game = game
        self._pick = rules(game).random_answer

    def decide(self, view: Any, decision: Decision) -> Any:
        return self._pick(view, decision, self.stream)
