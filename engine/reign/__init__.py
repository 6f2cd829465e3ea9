"""Reign: The Card Game -- rules, cards and the engine contract for them."""

from engine.reign.answers import (
    ANSWER_KINDS,
    Bid,
    Covert,
    Discard,
    DrawChoice,
    KeepSupport,
    Overt,
    RegentDiscard,
    Spoils,
    TieBreak,
)
from engine.reign.cards import CardDef, Catalog, standard_catalog
from engine.reign.game import ReignGame, new_game
from engine.reign.state import HAND_LIMIT, WIN_LEGITIMACY, ReignConfig
from engine.reign.view import ReignView

__all__ = [
    "ANSWER_KINDS", "Bid", "Covert", "Discard", "DrawChoice", "KeepSupport", "Overt",
    "RegentDiscard", "Spoils", "TieBreak", "Catalog", "CardDef", "standard_catalog",
    "ReignGame", "new_game", "HAND_LIMIT", "WIN_LEGITIMACY", "ReignConfig", "ReignView",
]
