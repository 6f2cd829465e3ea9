"""Sodalis -- rules, champion data, the arena and the engine contract for them."""

from collections.abc import Iterable
from typing import Any

from fairtable.engine.games import GameRules
from fairtable.engine.sodalis.answers import (
    ANSWER_KINDS,
    Carry,
    Cast,
    ChooseChampion,
    ConfuseChoice,
    EndTurn,
    ForcedStep,
    GiveTribute,
    OrderLife,
    Place,
    Rearrange,
    RefreshToken,
    Respawn,
    Reversals,
    SodalisAnswer,
    Step,
    StrengthRefresh,
    TurnTokens,
)
from fairtable.engine.sodalis.arena import Arena, standard_arena
from fairtable.engine.sodalis.cards import Catalog, Champion
from fairtable.engine.sodalis.catalog import standard_catalog
from fairtable.engine.sodalis.game import SodalisGame, new_game
from fairtable.engine.sodalis.state import PARAGON, SodalisConfig
from fairtable.engine.sodalis.team import TEAMS
from fairtable.engine.sodalis.view import SodalisView

__all__ = [
    "ANSWER_KINDS",
    "Carry",
    "Cast",
    "ChooseChampion",
    "ConfuseChoice",
    "EndTurn",
    "ForcedStep",
    "GiveTribute",
    "OrderLife",
    "Place",
    "Rearrange",
    "RefreshToken",
    "Respawn",
    "Reversals",
    "Step",
    "StrengthRefresh",
    "TurnTokens",
    "Arena",
    "standard_arena",
    "Catalog",
    "Champion",
    "standard_catalog",
    "SodalisGame",
    "new_game",
    "PARAGON",
    "SodalisConfig",
    "SodalisView",
    "RULES",
]


def _new_game(
    seats: int,
    round_limit: int | None = None,
    known: Iterable[int] | None = None,
    options: tuple[tuple[str, Any], ...] = (),
) -> SodalisGame:
    config = SodalisConfig(seats) if round_limit is None else SodalisConfig(seats, round_limit)
    return new_game(config, known)


def _summary(game: SodalisGame) -> dict[str, Any]:
    s = game.state
    return {
        "rounds": s.round,
        "decisions": s.decisions,
        "tributes": {team: s.team_tributes(team) for team in TEAMS},
    }


def _rules() -> GameRules[SodalisGame, SodalisView, SodalisAnswer]:
    from fairtable.engine.sodalis import answers, choices, depart, world

    return GameRules(
        name="sodalis",
        title="Sodalis",
        seat_counts=(2, 4, 6),
        new_game=_new_game,
        answer_kinds=tuple(ANSWER_KINDS.values()),
        legal_answers=choices.legal_answers,
        random_answer=choices.random_answer,
        summary=_summary,
        public_part=answers.public_part,
        sample_world=world.sample_world,
        departure_ends=depart.departure_ends,
        default_round_limit=100,
    )


RULES = _rules()
