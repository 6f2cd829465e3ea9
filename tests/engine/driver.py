"""Test drivers: play a Reign game with bots, optionally mirrored on per-seat instances.

``Table`` runs one omniscient engine instance with the local referee (the
"truth"), and beside it one instance per seat that knows only that seat's
secrets, plus a spectator.  Every answer reaches each mirror as the protocol
would deliver it: with other seats' secrets left out.  After every step the
digests must agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.client.games import bots_for
from fairtable.engine.referee import Referee
from fairtable.engine.reign import ReignConfig, ReignGame, new_game
from fairtable.engine.reign.answers import public_part
from fairtable.engine.requests import DealAnswer, Decision
from fairtable.engine.rng import ChanceStream


def for_seat(answer: Any, viewer: int | None) -> Any:
    """What an instance knowing only ``viewer`` is fed for ``answer``."""
    if isinstance(answer, DealAnswer):
        return answer if answer.seat == viewer else DealAnswer(answer.seat, None)
    if getattr(answer, "seat", None) == viewer and not isinstance(answer, DealAnswer):
        return answer
    return public_part(answer)


class Table:
    def __init__(
        self,
        players: int,
        seed: int,
        bots: list[str] | None = None,
        mirrors: bool = False,
        round_limit: int = 60,
    ) -> None:
        config = ReignConfig(players, round_limit)
        self.truth = new_game(config)
        self.mirrors: dict[int | None, ReignGame] = {}
        if mirrors:
            self.mirrors = {s: new_game(config, known=[s]) for s in range(players)}
            self.mirrors[None] = new_game(config, known=[])
        root = ChanceStream.from_int(seed)
        self.referee = Referee(root.child("referee").take(32))
        kinds = bots or ["random"] * players
        self.bots = [bots_for("reign")[k](root.child(f"bot/{s}")) for s, k in enumerate(kinds)]
        self.answers: list[Any] = []
        self.digests: list[str] = [self.truth.digest()]

    def next_answer(self) -> Any:
        request = self.truth.pending()[0]
        if isinstance(request, Decision):
            return self.bots[request.seat].decide(self.truth.view(request.seat), request)
        return self.referee.answer(self.truth, request)

    def step(self, check: Callable[[Table], None] | None = None) -> Any:
        answer = self.next_answer()
        self.truth.apply(answer)
        for viewer, mirror in self.mirrors.items():
            mirror.apply(for_seat(answer, viewer))
        self.answers.append(answer)
        self.digests.append(self.truth.digest())
        if check is not None:
            check(self)
        return answer

    def play(self, check: Callable[[Table], None] | None = None, max_steps: int = 20000) -> None:
        for _ in range(max_steps):
            if self.truth.over:
                return
            self.step(check)
        raise AssertionError("the game did not end")
