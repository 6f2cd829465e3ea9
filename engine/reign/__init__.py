"""Reign: The Card Game -- rules, cards and the engine contract for them."""

from collections.abc import Iterable
from typing import Any

from fairtable.engine.games import GameRules
from fairtable.engine.reign.answers import (
    ANSWER_KINDS,
    Bid,
    CombatTie,
    Covert,
    Discard,
    DrawChoice,
    KeepSupport,
    OrderArmy,
    OrderEvents,
    Overt,
    RegentDiscard,
    ReignAnswer,
    Spoils,
    TieBreak,
)
from fairtable.engine.reign.cards import CardDef, Catalog, standard_catalog
from fairtable.engine.reign.game import ReignGame, new_game
from fairtable.engine.reign.state import HAND_LIMIT, WIN_LEGITIMACY, ReignConfig
from fairtable.engine.reign.view import ReignView

__all__ = [
    "ANSWER_KINDS",
    "Bid",
    "CombatTie",
    "Covert",
    "Discard",
    "DrawChoice",
    "KeepSupport",
    "OrderArmy",
    "OrderEvents",
    "Overt",
    "RegentDiscard",
    "Spoils",
    "TieBreak",
    "Catalog",
    "CardDef",
    "standard_catalog",
    "ReignGame",
    "new_game",
    "RULES",
    "HAND_LIMIT",
    "WIN_LEGITIMACY",
    "ReignConfig",
    "ReignView",
]


def _new_game(
    seats: int,
    round_limit: int | None = None,
    known: Iterable[int] | None = None,
    options: tuple[tuple[str, Any], ...] = (),
) -> ReignGame:
    config = ReignConfig(seats) if round_limit is None else ReignConfig(seats, round_limit)
    return new_game(config, known)


def _summary(game: ReignGame) -> dict[str, Any]:
    s = game.state
    return {"rounds": s.round, "decisions": s.decisions, "legitimacy": list(s.legitimacy)}


def _rules() -> GameRules[ReignGame, ReignView, ReignAnswer]:
    from fairtable.engine.reign import answers, choices, depart, world

    return GameRules(
        name="reign",
        title="Reign: The Card Game",
        seat_counts=(3, 4, 5, 6, 7),
        new_game=_new_game,
        answer_kinds=tuple(ANSWER_KINDS.values()),
        legal_answers=choices.legal_answers,
        random_answer=choices.random_answer,
        summary=_summary,
        public_part=answers.public_part,
        secret_cards=answers.secret_cards,
        shown_cards=answers.shown_cards,
        gifted_cards=answers.gifted_cards,
        places_face_down=answers.places_face_down,
        gift_counts=answers.gift_counts,
        illegal_answer=answers.illegal_answer,
        sample_world=world.sample_world,
        departure_ends=depart.departure_ends,
        default_round_limit=60,
    )


RULES = _rules()
