"""Helpers for the Sodalis tests: fixture champions, positions, a driver with mirrors.

The fixture champions (``fixtures/*.toml``, one per passive hook) stand in for the real
champion files; the rule tests use them so that they do not depend on authored numbers.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairtable.engine.errors import EngineError
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision, Roll, RollAnswer
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis import SodalisConfig, SodalisGame, new_game
from fairtable.engine.sodalis.cards import Catalog
from fairtable.engine.sodalis.catalog import catalog_dir
from fairtable.engine.sodalis.choices import legal_answers, random_answer
from fairtable.engine.sodalis.position import position

FIXTURES = Path(__file__).parent / "fixtures"
CATALOG: Catalog = catalog_dir(FIXTURES)


def build(line: str, seed: int = 0, catalog: Catalog | None = None) -> tuple[SodalisGame, Referee]:
    """A position from one line (``sodalis`` is prepended when missing)."""
    if not line.startswith("sodalis"):
        line = "sodalis " + line
    return position(line, seed, catalog or CATALOG)


def settle(game: SodalisGame, referee: Referee) -> None:
    """Let the referee answer until a seat must decide (or the game ends)."""
    while not game.over and not isinstance(game.pending()[0], Decision):
        game.apply(referee.answer(game, game.pending()[0]))


def roll(game: SodalisGame, *values: int) -> list[Any]:
    request = game.pending()[0]
    assert isinstance(request, Roll), request
    assert len(request.sides) == len(values), request
    return game.apply(RollAnswer(tuple(values)))


def asked(game: SodalisGame) -> Decision:
    request = game.pending()[0]
    assert isinstance(request, Decision), request
    return request


def rejects(game: SodalisGame, answer: Any, error: type[EngineError]) -> EngineError:
    """The answer is refused with ``error`` and nothing changes."""
    before = (
        game.digest(),
        copy.deepcopy(game.state.buffered),
        len(game.state.events),
        game.pending(),
        game.state.serial,
        game.state.decisions,
    )
    with pytest.raises(error) as info:
        game.check(answer)
    with pytest.raises(error):
        game.apply(answer)
    after = (
        game.digest(),
        game.state.buffered,
        len(game.state.events),
        game.pending(),
        game.state.serial,
        game.state.decisions,
    )
    assert before == after
    return info.value


def unit(game: SodalisGame, seat: int) -> dict[str, Any]:
    return game.public()["seats"][seat]


class Table:
    """One omniscient instance with the referee (the truth), optionally mirrored by one
    instance per seat (knowing that seat only) and a spectator; random bots decide."""

    def __init__(
        self,
        players: int,
        seed: int,
        mirrors: bool = False,
        round_limit: int = 100,
        catalog: Catalog | None = None,
        check_legal: bool = False,
    ) -> None:
        config = SodalisConfig(players, round_limit)
        catalog = catalog or CATALOG
        self.truth = new_game(config, catalog=catalog)
        self.mirrors: dict[int | None, SodalisGame] = {}
        if mirrors:
            self.mirrors = {s: new_game(config, known=[s], catalog=catalog) for s in range(players)}
            self.mirrors[None] = new_game(config, known=[], catalog=catalog)
        root = ChanceStream.from_int(seed)
        self.referee = Referee(root.child("referee").take(32))
        self.bots = [root.child(f"bot/{s}") for s in range(players)]
        self.check_legal = check_legal
        self.answers: list[Any] = []

    def next_answer(self) -> Any:
        request = self.truth.pending()[0]
        if isinstance(request, Decision):
            view = self.truth.view(request.seat)
            answer = random_answer(view, request, self.bots[request.seat])
            if self.check_legal:
                assert answer in list(legal_answers(view, request))
            return answer
        return self.referee.answer(self.truth, request)

    def step(self, check: Callable[[Table], None] | None = None) -> Any:
        answer = self.next_answer()
        self.truth.apply(answer)
        for mirror in self.mirrors.values():
            mirror.apply(answer)
        self.answers.append(answer)
        if check is not None:
            check(self)
        return answer

    def play(self, check: Callable[[Table], None] | None = None, max_steps: int = 100000) -> None:
        for _ in range(max_steps):
            if self.truth.over:
                return
            self.step(check)
        raise AssertionError("the game did not end")
