"""A whole game with bots and the local referee, step by step, for tests over every game."""

from __future__ import annotations

from collections.abc import Iterator

from fairtable.client.games import bot_maker
from fairtable.engine.games import rules
from fairtable.engine.playout import play_out, seeded_players
from fairtable.engine.requests import Request


class BotTable:
    """One omniscient game of ``game``, its referee and one bot of kind ``bot`` per seat."""

    def __init__(self, game: str, players: int, seed: int, bot: str) -> None:
        self.game = rules(game).new_game(players)
        self.referee, self.bots = seeded_players(seed, [bot_maker(game, bot)] * players)

    def requests(self, max_steps: int = 20000) -> Iterator[Request]:
        """Play the game to its end (engine.playout), yielding each request as it is
        answered."""
        for step in play_out(self.game, self.bots, self.referee, max_steps=max_steps):
            yield step.request
