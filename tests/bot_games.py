"""A whole game with bots and the local referee, step by step, for tests over every game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from client.games import bot_maker
from engine.games import rules
from engine.referee import Referee
from engine.requests import Decision
from engine.rng import ChanceStream


class BotTable:
    """One omniscient game of ``game``, its referee and one bot of kind ``bot`` per seat."""

    def __init__(self, game: str, players: int, seed: int, bot: str) -> None:
        self.game = rules(game).new_game(players)
        root = ChanceStream.from_int(seed)
        self.referee = Referee(root.child("referee").take(32))
        self.bots = [bot_maker(game, bot)(root.child(f"bot/{s}")) for s in range(players)]

    def requests(self, max_steps: int = 20000) -> Iterator[Any]:
        """Answer requests until the game is over, yielding each one before it is answered."""
        for _ in range(max_steps):
            if self.game.over:
                return
            request = self.game.pending()[0]
            yield request
            if isinstance(request, Decision):
                answer = self.bots[request.seat].decide(self.game.view(request.seat), request)
            else:
                answer = self.referee.answer(self.game, request)
            self.game.apply(answer)
        raise AssertionError("the game did not end")
