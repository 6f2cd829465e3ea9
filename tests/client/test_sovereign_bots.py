"""Sovereign bots: every answer is one the engine accepts, given from the seat's view alone;
the heuristic bot beats the random bot in a clear majority of two-player games (mirror decks
and mixed factions, seats alternating), scores every ready Echo, keeps its perpetual
facilities worked, and attacks an undefended lane."""

from __future__ import annotations

import copy
import time
from typing import Any

import attrs
import pytest

from fairtable.client.bots import RandomBot
from fairtable.client.games import bots_for
from fairtable.client.sovereign.bots import HeuristicBot
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import DealAnswer, Decision, PeekAnswer, RehandleAnswer
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import SovereignConfig, SovereignGame, new_game, standard_catalog
from fairtable.engine.sovereign.answers import Attack, FinishForge, Mulligan, Pass, UpkeepReturn
from fairtable.engine.sovereign.decisions import MulliganInfo
from tests.client import games

BOTS = bots_for("sovereign")

FACTIONS = standard_catalog().faction_ids


def play(
    kinds: list[str],
    seed: int,
    factions: tuple[str, ...] = (),
    check: Any = None,
    after: Any = None,
) -> tuple[SovereignGame, list[Any]]:
    game = new_game(SovereignConfig(len(kinds), factions=factions))
    bots = games.play(
        game,
        seed,
        [BOTS[k] for k in kinds],
        check=check,
        after=None if after is None else lambda _g, _r, answer, _e: after(answer),
    )
    return game, bots


def _ready_echoes(game: SovereignGame, seat: int) -> list[int]:
    s = game.state
    out = []
    for slot in s.boards[seat].forge:
        d = s.catalog.defs[game.secret_of(slot.handle)]
        if d.type == "echo" and slot.progress >= d.cost and slot.entered != s.turn:
            out.append(slot.handle)
    return out


def test_heuristic_wins_a_clear_majority_against_random_with_legal_sensible_answers() -> None:
    started = time.monotonic()
    wins = answers = 0
    problems: list[str] = []

    def check(game: SovereignGame, view: Any, d: Decision, answer: Any) -> None:
        nonlocal answers
        if d.seat == heuristic:
            answers += 1
            game.check(answer)  # raises if the engine would refuse it
            s = game.state
            if d.kind == "forge" and isinstance(answer, Pass) and _ready_echoes(game, d.seat):
                problems.append(f"seed {seed}: ended its forge actions with an Echo ready")
            if isinstance(answer, FinishForge):
                problems.extend(
                    f"seed {seed}: {r} forged with no health"
                    for r, t, dr in answer.health
                    if t + dr == 0
                )
            if isinstance(answer, UpkeepReturn):
                for card, _ in answer.returns:
                    ref = f"{d.seat}:{s.boards[d.seat].leader}" if card == "leader" else card
                    ab = s.defn(ref).ability
                    workers = (
                        s.boards[d.seat].leader_workers
                        if card == "leader"
                        else s.facilities[card].workers
                    )
                    if ab.mode == "perpetual" and sum(workers) <= ab.talents + ab.drones:
                        problems.append(f"seed {seed}: stopped working {ref}")

    for seed in range(24):  # 12 mirror matches over the factions, 12 mixed; seats alternate
        heuristic = seed % 2
        kinds = ["heuristic", "random"] if heuristic == 0 else ["random", "heuristic"]
        if seed < 12:
            factions = (FACTIONS[seed % len(FACTIONS)],) * 2
        else:
            factions = (FACTIONS[seed % len(FACTIONS)], FACTIONS[(seed // 2) % len(FACTIONS)])
        game, bots = play(kinds, 7000 + seed, factions, check)
        wins += game.outcome == Outcome.seat(heuristic)
        assert bots[heuristic].fallbacks == 0, f"seed {seed}: a heuristic answer was refused"
    assert answers > 1000
    assert not problems, problems[:5]
    assert wins >= 18, f"the heuristic bot won {wins} of 24"
    assert time.monotonic() - started < 60


def _for_seat(answer: Any, viewer: int) -> Any:
    """What an engine instance knowing only ``viewer``'s secrets is fed."""
    if isinstance(answer, DealAnswer) and answer.seat != viewer:
        return DealAnswer(answer.seat, None)
    if isinstance(answer, RehandleAnswer) and answer.seat != viewer:
        return RehandleAnswer(answer.seat, None)
    if isinstance(answer, PeekAnswer) and answer.seat != viewer:
        return PeekAnswer(answer.label, answer.seat, None)
    return answer


@pytest.mark.parametrize("players", [2, 3, 5])
def test_bots_answer_from_the_view_alone_and_leave_it_untouched(players: int) -> None:
    kinds = (["heuristic", "random"] * 3)[:players]
    factions = tuple(FACTIONS[(players + s) % len(FACTIONS)] for s in range(players))
    config = SovereignConfig(players, factions=factions)
    mirrors = {s: new_game(config, known=[s]) for s in range(players)}

    def check(game: SovereignGame, view: Any, d: Decision, answer: Any) -> None:
        game.check(answer)
        games.check_decides_from_the_view_alone(BOTS, mirrors[d.seat], view, d)

    def after(answer: Any) -> None:
        for s, mirror in mirrors.items():
            mirror.apply(_for_seat(answer, s))

    game, _ = play(kinds, 31 + players, factions, check, after)
    assert game.over


def test_bots_for_sovereign_names_random_and_heuristic() -> None:
    found = bots_for("sovereign")
    assert found["heuristic"] is HeuristicBot
    random_bot = found["random"](ChanceStream.from_int(1))
    assert isinstance(random_bot, RandomBot) and random_bot.game == "sovereign"


def _first(kind: str, seed: int = 3, seat: int = 0, when: Any = None) -> tuple[Any, Decision]:
    """The view and decision of the first ``kind`` decision of ``seat`` in a random game."""
    game = new_game(SovereignConfig(2, factions=("windwalker", "windwalker")))

    def found(game: SovereignGame, request: Any) -> bool:
        return (
            isinstance(request, Decision)
            and request.kind == kind
            and request.seat == seat
            and (when is None or when(game.view(seat)))
        )

    games.play(game, seed, [BOTS["random"]] * 2, until=found)
    if game.over:
        raise AssertionError(f"no {kind} decision")
    request = game.pending()[0]
    assert isinstance(request, Decision)
    return game.view(seat), request


def _with_hand(view: Any, cards: list[str]) -> Any:
    handles = [h for h, _ in view.hand]
    known = dict(view.cards) | dict(zip(handles, cards, strict=True))
    return attrs.evolve(view, cards=tuple(sorted(known.items())))


def test_mulligan_keeps_a_good_hand_and_throws_back_a_bad_one() -> None:
    view, d = _first("mulligan")
    bot = HeuristicBot(ChanceStream.from_int(1))
    deck = standard_catalog().faction("windwalker")
    echoes = list(deck.echoes[:8])
    good = ["ww-gale-riders", "ww-cloudbreakers", "ww-storm-lance", "ww-updraft", *echoes[:4]]
    assert bot.decide(_with_hand(view, good), d) == Mulligan(d.seat, "keep")
    # no unit: show the hand (the free mulligan stays for later)
    assert bot.decide(_with_hand(view, echoes), d) == Mulligan(d.seat, "shown")
    # one costly unit and seven Echoes: the free mulligan
    heavy = ["ww-stormcaller-matriarch", *echoes[:7]]
    assert bot.decide(_with_hand(view, heavy), d) == Mulligan(d.seat, "free")
    used = Decision(d.seat, MulliganInfo(free=False, shown_left=5), simultaneous=True)
    assert bot.decide(_with_hand(view, heavy), used) == Mulligan(d.seat, "keep")


def test_attacks_an_undefended_lane_rather_than_a_defended_one() -> None:
    view, d = _first("attack")
    pub = copy.deepcopy(view.public)
    for board in pub["boards"]:
        board["lanes"] = [[], []]
    # Herdmasters (3/0) against an empty hand lane and a forge lane walled by Sentinels (3/2)
    pub["units"] = {
        "0:ww-herdmasters": {
            "card": "ww-herdmasters",
            "owner": 0,
            "health": [0, 3],
            "augments": [],
            "new": False,
        },
        "1:ww-sentinels": {
            "card": "ww-sentinels",
            "owner": 1,
            "health": [0, 3],
            "augments": [],
            "new": False,
        },
    }
    pub["boards"][0]["lanes"] = [["0:ww-herdmasters"], []]
    pub["boards"][1]["lanes"] = [[], ["1:ww-sentinels"]]
    bot = HeuristicBot(ChanceStream.from_int(1))
    answer = bot.decide(attrs.evolve(view, public=pub), d)
    assert answer == Attack(0, 0, 1, 1, 0)
    # both lanes walled: attacking would only lose the Herdmasters
    pub["units"]["1:ww-stormcaller-matriarch"] = {
        "card": "ww-stormcaller-matriarch",
        "owner": 1,
        "health": [2, 2],
        "augments": [],
        "new": False,
    }
    pub["boards"][1]["lanes"] = [["1:ww-stormcaller-matriarch"], ["1:ww-sentinels"]]
    assert bot.decide(attrs.evolve(view, public=pub), d) == Attack(0, None)
