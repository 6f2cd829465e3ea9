"""The search bot (client.search) and the rule every bot keeps: it plays from its view only."""

from __future__ import annotations

import gc
import itertools
import types
from typing import Any

import pytest

from fairtable.client.games import bot_maker, bots_for
from fairtable.client.search import SearchBot, _adopted, _survivors
from fairtable.engine.games import rules
from fairtable.engine.playout import play_out
from fairtable.engine.referee import Referee
from fairtable.engine.reign import Bid, RegentDiscard
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from tests.engine.reign_helpers import decision, default_answer, table


def _reachable(*roots: object) -> set[int]:
    """Ids of every object reachable from ``roots`` by references, not following modules,
    classes or functions' globals (they lead to the whole program, not to one game)."""
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type)):
            continue
        seen.add(id(obj))
        if isinstance(obj, types.FunctionType):
            todo.extend(c.cell_contents for c in obj.__closure__ or () if c.cell_contents)
            continue
        todo.extend(gc.get_referents(obj))
    return seen


def _bots(game: str, players: int, stream: ChanceStream) -> list[object]:
    kinds = sorted(bots_for(game))
    out: list[object] = []
    for s in range(players):
        kind = kinds[s % len(kinds)]
        out.append(bots_for(game)[kind](stream.child(f"bot/{s}")))
    if rules(game).sample_world is not None:
        out[-1] = SearchBot(
            stream.child("search"), game, rollouts=3, heuristic=bots_for(game)["heuristic"]
        )
    return out


@pytest.mark.parametrize(("game", "players"), [("reign", 4), ("sodalis", 2), ("sovereign", 2)])
def test_no_bot_reads_the_full_state(game: str, players: int) -> None:
    # Every bot of every game decides from its view: neither the view it is handed nor the
    # bot itself (after deciding) can reach the game object, its state or its secrets.
    truth = rules(game).new_game(players)
    root = ChanceStream.from_int(3)
    referee = Referee(root.child("referee").take(32))
    bots = _bots(game, players, root)
    forbidden = {id(truth), id(truth.state), id(referee)}
    secrets = getattr(truth.state, "secrets", None)
    if secrets is not None:
        forbidden.add(id(secrets))
    checked = 0
    for _ in range(400):
        if truth.over:
            break
        request = truth.pending()[0]
        if isinstance(request, Decision):
            view = truth.view(request.seat)
            bot = bots[request.seat]
            answer = bot.decide(view, request)
            if checked % 5 == 0:
                assert not _reachable(view, bot) & forbidden, (game, type(bot).__name__)
            checked += 1
        else:
            answer = referee.answer(truth, request)
        truth.apply(answer)
    assert checked > 10


def test_search_bot_answers_at_once_when_only_one_answer_is_legal() -> None:
    # The Regent holding one card must discard it: no world is sampled, no rollout run.
    support = {"crimson": None, "azure": 0, "ivory": None, "violet": None}
    game, ref = table(
        players=4,
        first=1,
        regent=0,
        legit=[3, 0, 0, 0],
        support=support,
        hands={0: ["azure-harbour-guard.2"], 1: ["crimson-ash-spearman.1"]},
    )
    for _ in range(20):
        d = decision(game, ref)
        if d.kind == "regent_discard":
            break
        bid = Bid(1, 1, ("crimson-ash-spearman.1",))
        game.apply(bid if (d.seat, d.kind) == (1, "bid") else default_answer(game, d))
    assert d.kind == "regent_discard"
    bot = SearchBot(
        ChanceStream.from_int(1), "reign", seconds=600, heuristic=bots_for("reign")["heuristic"]
    )

    def no_world(view: object, stream: object) -> object:
        raise AssertionError("the bot searched a decision with one legal answer")

    bot._sample = no_world  # type: ignore[method-assign]
    assert bot.decide(game.view(0), d) == RegentDiscard(0, "azure-harbour-guard.2")


def test_search_bot_plays_legal_games_and_compares_its_candidates_in_sampled_worlds() -> None:
    game = rules("reign").new_game(3)
    root = ChanceStream.from_int(11)
    referee = Referee(root.child("referee").take(32))
    search = SearchBot(
        root.child("search"), "reign", rollouts=6, heuristic=bots_for("reign")["heuristic"]
    )
    heuristic = bots_for("reign")["heuristic"]
    bots = [search, heuristic(root.child("h1")), heuristic(root.child("h2"))]
    searched = 0
    search.last = []
    for _ in play_out(game, bots, referee):
        if search.last:  # the search bot's decision, searched
            searched += 1
            assert sum(v for _, v, _ in search.last) == 6
            assert all(-1.0 <= m <= 1.0 for _, v, m in search.last if v)
            search.last = []
    assert searched > 3


def test_bot_specs_name_a_strength_or_seconds_and_refuse_anything_else() -> None:
    stream = ChanceStream.from_int(0)
    assert bot_maker("reign", "search")(stream).seconds == 1.0
    assert bot_maker("reign", "search:easy")(stream).seconds == 0.2
    assert bot_maker("reign", "search:hard")(stream).seconds == 3.0
    assert bot_maker("reign", "search:0.5")(stream).seconds == 0.5
    for bad in ("search:0", "search:nan", "search:inf", "search:quick", "random:1", "genius"):
        with pytest.raises(ValueError):
            bot_maker("reign", bad)


def test_a_paired_search_drops_a_candidate_not_ahead_of_the_heuristics_answer() -> None:
    # Rewards in four common worlds: candidate 1 trails the heuristic's answer (0) by 0.5
    # in every world, candidate 2 leads it on average (not consistently), candidate 3
    # scored what the heuristic's answer scored everywhere (no different).  The heuristic's
    # answer stays even when another leads it clearly.
    rewards = [
        [0.5, -0.5, 0.0, 1.0],
        [0.0, -1.0, -0.5, 0.5],
        [1.0, -1.0, 0.0, 1.5],
        [0.5, -0.5, 0.0, 1.0],
    ]
    assert _survivors([0, 1, 2, 3], rewards, 4) == [0, 2]
    assert _survivors([0, 2], rewards, 4) == [0, 2]
    assert 0 in _survivors([0, 2], [[-1.0, -1.0, -1.0], [], [1.0, 1.0, 1.0]], 3)
    # Clearly behind a leader that is itself ahead of the heuristic's answer: out.
    rewards = [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.2, 0.1, 0.3]]
    assert _survivors([0, 1, 2], rewards, 3) == [0, 1]


def test_a_paired_search_answers_another_than_the_heuristic_only_on_a_clear_paired_lead() -> None:
    # Candidate 2 has the best mean, but over four worlds its lead over the heuristic's
    # answer swings (one big win, three losses); candidate 1 leads by 0.3 in every world.
    heuristic = [0.0, 0.5, -0.5, 0.0]
    steady = [0.3, 0.8, -0.2, 0.3]
    lucky = [1.0, 0.0, -1.0, 2.0]
    assert _adopted([0, 2], [heuristic, steady, lucky]) == 0
    assert _adopted([0, 1, 2], [heuristic, steady, lucky]) == 1
    # Too few common worlds (fewer than three) never replace the heuristic's answer.
    assert _adopted([0, 1], [heuristic[:2], steady[:2], []]) == 0


@pytest.mark.parametrize(("game", "players"), [("reign", 3), ("sovereign", 2)])
def test_search_bot_starts_no_rollout_once_its_budget_is_spent(game: str, players: int) -> None:
    # The bot's clock is a stand-in that a rollout moves on by 0.4 s (a slow machine): with
    # 1 s a decision it starts rollouts at 0, 0.4 and 0.8 s and then answers, so its answer
    # comes within the budget and one rollout, however few candidates were tried.
    now = [0.0]
    heuristic = bots_for(game)["heuristic"]
    bot = SearchBot(
        ChanceStream.from_int(2), game, seconds=1.0, heuristic=heuristic, clock=lambda: now[0]
    )
    rollout = bot._rollout

    def slow(view: Any, answer: Any, seat: int, stream: ChanceStream) -> float:
        now[0] += 0.4
        return rollout(view, answer, seat, stream)

    bot._rollout = slow  # type: ignore[method-assign]
    truth = rules(game).new_game(players)
    root = ChanceStream.from_int(4)
    referee = Referee(root.child("referee").take(32))
    others = [heuristic(root.child(f"h{s}")) for s in range(players)]
    searched = 0
    while not truth.over and searched < 3:
        request = truth.pending()[0]
        if not isinstance(request, Decision):
            truth.apply(referee.answer(truth, request))
            continue
        bot.last, started = [], now[0]
        seat_bot = bot if request.seat == 0 else others[request.seat]
        truth.apply(seat_bot.decide(truth.view(request.seat), request))
        if bot.last:
            searched += 1
            assert sum(v for _, v, _ in bot.last) == 3
            assert now[0] - started <= 1.0 + 0.4
    assert searched == 3


def test_sovereign_candidates_are_compared_in_common_worlds() -> None:
    game = rules("sovereign").new_game(2)
    root = ChanceStream.from_int(5)
    referee = Referee(root.child("referee").take(32))
    heuristic = bots_for("sovereign")["heuristic"]
    search = SearchBot(root.child("search"), "sovereign", rollouts=9, heuristic=heuristic)
    played: dict[str, list[str]] = {}  # candidate -> the worlds it was played in
    playing = [""]
    rollout, sample = search._rollout, search._sample

    def recorded(view: Any, answer: Any, seat: int, stream: ChanceStream) -> float:
        playing[0] = repr(answer)
        return rollout(view, answer, seat, stream)

    def sampled(view: Any, stream: Any) -> Any:
        world, referee = sample(view, stream)
        played.setdefault(playing[0], []).append(repr((world.state.secrets, referee.piles)))
        return world, referee

    search._rollout = recorded  # type: ignore[method-assign]
    search._sample = sampled
    searched = 0
    while not game.over and searched < 3:
        request = game.pending()[0]
        if not isinstance(request, Decision):
            game.apply(referee.answer(game, request))
            continue
        bot = search if request.seat == 0 else heuristic(root.child("h"))
        search.last, played = [], {}
        answer = bot.decide(game.view(request.seat), request)
        if search.last:
            searched += 1
            assert 3 <= sum(v for _, v, _ in search.last) == sum(map(len, played.values())) <= 9
            worlds = sorted(played.values(), key=len)  # the heuristic's answer in the most
            assert len(played[repr(search.last[0][0])]) == len(worlds[-1])
            for shorter, longer in itertools.pairwise(worlds):  # the same worlds, in order
                assert longer[: len(shorter)] == shorter
        game.apply(answer)
    assert searched == 3
