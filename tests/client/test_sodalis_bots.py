"""Sodalis bots: legal answers from the view alone; the heuristic team beats a random team
and goes for each tribute (Speed: its Artifact to the centre; Sight: the Paragon; Strength:
the enemy it can bring down), healing when Bloodied."""

from __future__ import annotations

import time
from typing import Any

import pytest

from fairtable.client.bots import RandomBot
from fairtable.client.games import bots_for
from fairtable.client.sodalis.bots import HeuristicBot
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis import SodalisConfig, SodalisGame, new_game
from fairtable.engine.sodalis.answers import Cast, Step
from fairtable.engine.sodalis.arena import standard_arena
from fairtable.engine.sodalis.choices import legal_answers
from fairtable.engine.sodalis.position import position
from tests.client import games

BOTS = bots_for("sodalis")

ARENA = standard_arena()


def play(kinds: list[str], seed: int, check: Any = None, after: Any = None) -> SodalisGame:
    game = new_game(SodalisConfig(len(kinds)))
    games.play(
        game,
        seed,
        [BOTS[k] for k in kinds],
        check=check,
        after=None if after is None else lambda _g, _r, answer, _e: after(answer),
    )
    return game


def test_heuristic_team_wins_a_clear_majority_of_2v2_games_against_random() -> None:
    started = time.monotonic()
    wins = 0
    for seed in range(20):  # seats alternate teams (seat 0 Dawn); so does the heuristic team
        kinds = ["heuristic", "random"] * 2 if seed % 2 == 0 else ["random", "heuristic"] * 2
        game = play(kinds, 1000 + seed)
        assert game.outcome is not None
        wins += game.outcome.team == ("dawn" if seed % 2 == 0 else "dusk")
        assert game.state.over == "tribute" or not game.outcome.decided
    assert wins >= 15, f"the heuristic team won {wins} of 20"
    assert time.monotonic() - started < 60


@pytest.mark.parametrize("players", [2, 4, 6])
def test_bots_answer_legally_from_the_view_alone_and_leave_it_untouched(players: int) -> None:
    kinds = (["heuristic", "random"] * 3)[:players]
    mirrors = {s: new_game(SodalisConfig(players), known=[s]) for s in range(players)}

    def check(game: SodalisGame, view: Any, d: Decision, answer: Any) -> None:
        game.copy().apply(answer)  # the engine accepts it
        if d.kind != "reversals":  # (2^9 of those: the engine's word is enough)
            assert answer in list(legal_answers(view, d))
        games.check_decides_from_the_view_alone(BOTS, mirrors[d.seat], view, d)

    play(kinds, 3, check, after=lambda answer: [m.apply(answer) for m in mirrors.values()])


def test_bots_for_sodalis_names_random_and_heuristic() -> None:
    found = bots_for("sodalis")
    assert found["heuristic"] is HeuristicBot
    random_bot = found["random"](ChanceStream.from_int(1))
    assert isinstance(random_bot, RandomBot) and random_bot.game == "sodalis"


def decide(line: str) -> Any:
    game, _ = position(line)
    d = game.pending()[0]
    assert isinstance(d, Decision) and d.kind == "turn"
    return HeuristicBot(ChanceStream.from_int(0)).decide(game.view(d.seat), d), game


def test_speed_the_runner_carries_its_artifact_toward_the_centre() -> None:
    answer, game = decide("sodalis players=2 champions=undying,tempest at=8:0,1:0 up=v,Mmv")
    assert isinstance(answer, Step) and answer.carry
    assert ARENA.distance(answer.to, ARENA.centre) < ARENA.distance((8, 0), ARENA.centre)


def test_speed_the_runner_walks_to_its_artifact_first() -> None:
    answer, _ = decide("sodalis players=2 champions=undying,tempest at=4:0,1:0 up=v,Mmv")
    assert isinstance(answer, Step) and not answer.carry
    assert ARENA.distance(answer.to, (8, 0)) < ARENA.distance((4, 0), (8, 0))


def test_sight_an_accurate_shot_goes_at_the_paragon() -> None:
    answer, _ = decide(
        "sodalis players=2 champions=archer,tempest at=0:1,8:1 up=M,Mmv "
        "spread0=railbolt,calibrated_shot"
    )
    assert answer == Cast(0, "railbolt", -1, False, False)


def test_strength_damage_goes_to_the_enemy_it_can_bring_down() -> None:
    line = (
        "sodalis players=4 champions=archer,tempest,sage,empress at=0:1,8:1,1:0,9:0 "
        "life=9,9,9,2 up=M,Mmv,Mmv,Mmv tributes=sight:2 spread0=railbolt,calibrated_shot"
    )
    answer, _ = decide(line)
    assert answer == Cast(0, "railbolt", 3, False, False)


def test_a_bloodied_champion_heals_itself() -> None:
    line = (
        "sodalis players=2 champions=undying,tempest at=0:-1,8:1 life=3,9 up=m,Mmv "
        "spread0=rime_mend,frozen_grasp tributes=sight:0"
    )
    answer, _ = decide(line)
    assert answer == Cast(0, "rime_mend", None, False, False)


def test_heuristic_caster_orders_its_cast_life_changes_opponents_first() -> None:
    # Affecting Units: the opposing Empress falls first, so her guard no longer saves the
    # Archer beside her; the caster's own life change comes last.
    from fairtable.engine.requests import RollAnswer
    from tests.engine.sodalis.helpers import CATALOG

    game, _ = position(
        "sodalis players=4 champions=empress,damned,archer,sage "
        "at=5:0,4:0,5:-1,0:0 life=1,10,2,8 active=1 "
        "spread1=damned_burst~r,damned_bolt,damned_mend",
        catalog=CATALOG,
    )
    game.apply(Cast(1, "damned_burst~r", None))
    game.apply(RollAnswer((7, 5, 1)))
    d = game.pending()[0]
    assert isinstance(d, Decision) and d.kind == "order_life"
    answer = HeuristicBot(ChanceStream(b"s" * 32)).decide(game.view(1), d)
    assert answer.order == (0, 2, 1)
    assert answer in set(legal_answers(game.view(1), d))
