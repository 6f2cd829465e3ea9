"""The engine contract: every registered game is a ContractGame and keeps each of its members,
and the layers above use nothing of a game object beyond them."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest

from fairtable.engine.common_state import CommonState
from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import EngineError, GameOver, WrongPhase
from fairtable.engine.games import AnyGameRules, game_names, rules
from fairtable.engine.outcome import Outcome
from fairtable.engine.referee import Referee
from fairtable.engine.requests import ChanceAnswer, Decision, Request, RevealAnswer
from fairtable.engine.rng import ChanceStream

ROOT = Path(__file__).resolve().parents[2]
REGISTERED: list[AnyGameRules] = [rules(name) for name in game_names()]
MEMBERS = {
    "pending",
    "apply",
    "check",
    "view",
    "digest",
    "public",
    "over",
    "outcome",
    "end",
    "serial",
    "next_handle",
    "secret_of",
    "handover_cards",
    "copy",
    "can_depart",
    "depart",
    "state",
}


def _ids(rules_: AnyGameRules) -> str:
    return rules_.name


def _play_one_step(game: ContractGame[Any, Any], rules_: AnyGameRules, seed: int) -> None:
    stream = ChanceStream.from_int(seed)
    request = game.pending()[0]
    if isinstance(request, Decision):
        game.apply(rules_.random_answer(game.view(request.seat), request, stream))
    else:
        game.apply(Referee(seed).answer(game, request))


def _finish(game: ContractGame[Any, Any], rules_: AnyGameRules, seed: int) -> None:
    stream = ChanceStream.from_int(seed)
    referee = Referee(stream.child("referee").take(32))
    while not game.over:
        request = game.pending()[0]
        if isinstance(request, Decision):
            game.apply(rules_.random_answer(game.view(request.seat), request, stream))
        else:
            game.apply(referee.answer(game, request))


def test_the_registered_games_are_ours_and_the_example() -> None:
    assert {"reign", "sodalis", "sovereign", "highcard"} <= set(game_names())


def test_a_game_supplies_its_view_outcome_and_flow_the_contract_gives_the_rest() -> None:
    assert ContractGame.__abstractmethods__ == {"view", "outcome", "advance"}
    for member in MEMBERS - {"state"}:
        assert hasattr(ContractGame, member), member


@pytest.mark.parametrize("rules_", REGISTERED, ids=_ids)
def test_every_registered_game_keeps_the_contract_while_it_plays(rules_: AnyGameRules) -> None:
    seats = rules_.seat_counts[0]
    game = rules_.new_game(seats, rules_.default_round_limit)
    assert isinstance(game, ContractGame) and isinstance(game.state, CommonState)
    assert type(game).game == rules_.name
    assert not game.over and game.outcome is None and game.end == ""
    assert all(isinstance(r, Request) for r in game.pending())
    digest = game.digest()
    assert re.fullmatch("[0-9a-f]{64}", digest) and game.digest() == digest
    assert isinstance(game.public(), dict)
    assert game.view(None) is not None and game.view(0) is not None
    assert isinstance(game.serial, int) and game.serial == game.state.serial
    assert isinstance(game.next_handle(), int)
    with pytest.raises(KeyError):
        game.secret_of(10**6)
    with contextlib.suppress(KeyError):  # a game without hand-overs has none to give
        assert all(isinstance(c, str) for c in game.handover_cards(0, 1))
    spectator = rules_.new_game(seats, rules_.default_round_limit, known=())
    assert spectator.digest() == digest and spectator.view(None) == game.view(None)
    with pytest.raises(KeyError):
        spectator.handover_cards(0, 1)  # a spectator knows nobody's gifts
    copy = game.copy()
    assert type(copy) is type(game) and copy.state is not game.state
    assert copy.digest() == digest
    _play_one_step(copy, rules_, seed=1)
    assert game.digest() == digest, "playing on a copy leaves the original as it was"
    _finish(game, rules_, seed=3)
    outcome = game.outcome
    assert isinstance(outcome, Outcome) and game.end != ""
    assert all(0 <= s < seats for s in outcome.seats)
    with pytest.raises(GameOver):
        game.check(object())
    with pytest.raises(EngineError):
        game.apply(object())


@pytest.mark.parametrize("rules_", REGISTERED, ids=_ids)
def test_every_registered_game_refuses_what_is_not_its_answer(rules_: AnyGameRules) -> None:
    game = rules_.new_game(rules_.seat_counts[0])
    digest = game.digest()
    with pytest.raises(EngineError):
        game.check(object())
    with pytest.raises(EngineError):
        game.apply(object())
    assert game.digest() == digest


_USE = re.compile(r"\b(?:game|_game|truth|world)\.([A-Za-z_]\w*)")


def test_the_layers_above_use_nothing_of_a_game_object_beyond_the_contract() -> None:
    """protocol/, netplay/, client/ and bench/ reach a game object only through its contract
    (the state's own fields are the game's, read through ``state``)."""
    used: dict[str, set[str]] = {}
    for layer in ("protocol", "netplay", "client", "bench"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            for name in _USE.findall(path.read_text()):
                used.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    beyond = {name: files for name, files in used.items() if name not in MEMBERS}
    # besides game objects, client/play.py calls a game's rules (a GameRules) "game"
    assert set(beyond) <= {"seat_counts", "seat_text", "title"}, beyond


@pytest.mark.parametrize("rules_", REGISTERED, ids=_ids)
def test_every_registered_game_checks_a_request_answer_as_it_would_take_it(
    rules_: AnyGameRules,
) -> None:
    """check() on a chance, shuffle, deal or reveal answer says what apply() would say (a
    game without a check of its own for it included) and changes nothing."""
    game = rules_.new_game(rules_.seat_counts[0], rules_.default_round_limit)
    referee = Referee(7)
    stream = ChanceStream.from_int(7)
    checked: set[type] = set()
    for _ in range(400):
        if game.over:
            break
        request = game.pending()[0]
        if isinstance(request, Decision):
            game.apply(rules_.random_answer(game.view(request.seat), request, stream))
            continue
        answer = referee.answer(game, request)
        digest = game.digest()
        for wrong in (ChanceAnswer((-1,)), RevealAnswer("no such label", ())):
            if type(wrong) is type(answer):
                with pytest.raises(EngineError) as by_check:
                    game.check(wrong)
                with pytest.raises(EngineError) as by_apply:
                    game.apply(wrong)
                assert type(by_check.value) is type(by_apply.value)
                assert str(by_check.value) == str(by_apply.value)
                assert "not an answer of this game" not in str(by_check.value)
            elif type(wrong) in type(game).GENERIC:
                with pytest.raises(WrongPhase):
                    game.check(wrong)
        game.check(answer)
        assert game.digest() == digest, "check() changed nothing"
        game.apply(answer)
        checked.add(type(answer))
    assert checked, "the game asked for no chance, shuffle, deal or reveal"
