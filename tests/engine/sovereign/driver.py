"""Test driver: play Sovereign with random bots and the local referee, optionally mirrored
on per-seat instances (each knowing only its seat) and a spectator; digests must agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.engine.referee import Referee
from fairtable.engine.requests import DealAnswer, Decision, PeekAnswer, RehandleAnswer
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import SovereignConfig, SovereignGame, new_game
from fairtable.engine.sovereign.choices import random_answer


def for_seat(answer: Any, viewer: int | None) -> Any:
    """What an instance knowing only ``viewer`` is fed for ``answer``."""
    if isinstance(answer, DealAnswer):
        return answer if answer.seat == viewer else DealAnswer(answer.seat, None)
    if isinstance(answer, RehandleAnswer):
        return answer if answer.seat == viewer else RehandleAnswer(answer.seat, None)
    if isinstance(answer, PeekAnswer):
        return answer if answer.seat == viewer else PeekAnswer(answer.label, answer.seat, None)
    return answer


class Table:
    def __init__(
        self,
        players: int,
        seed: int,
        mirrors: bool = False,
        round_limit: int = 60,
        factions: tuple[str, ...] = (),
        echo_target: int | None = None,
        decks: tuple[Any, ...] = (),
    ) -> None:
        config = SovereignConfig(
            players,
            factions=factions,
            echo_target=echo_target,
            round_limit=round_limit,
            decks=decks,
        )
        self.truth = new_game(config)
        self.mirrors: dict[int | None, SovereignGame] = {}
        if mirrors:
            self.mirrors = {s: new_game(config, known=[s]) for s in range(players)}
            self.mirrors[None] = new_game(config, known=[])
        root = ChanceStream.from_int(seed)
        self.referee = Referee(root.child("referee").take(32))
        self.rngs = [root.child(f"bot/{s}") for s in range(players)]
        self.answers: list[Any] = []
        self.steps = 0

    def next_answer(self) -> Any:
        request = self.truth.pending()[0]
        if isinstance(request, Decision):
            return random_answer(self.truth.view(request.seat), request, self.rngs[request.seat])
        return self.referee.answer(self.truth, request)

    def step(self, check: Callable[[Table], None] | None = None) -> Any:
        answer = self.next_answer()
        self.truth.apply(answer)
        for viewer, mirror in self.mirrors.items():
            mirror.apply(for_seat(answer, viewer))
            assert mirror.digest() == self.truth.digest(), f"seat {viewer} desynced"
        self.answers.append(answer)
        self.steps += 1
        if check is not None:
            check(self)
        return answer

    def play(self, check: Callable[[Table], None] | None = None, max_steps: int = 60000) -> None:
        for _ in range(max_steps):
            if self.truth.over:
                return
            self.step(check)
        raise AssertionError("the game did not end")
