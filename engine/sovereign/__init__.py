"""Sovereign: Fall of Wormwood -- rules, cards and the engine contract for them.

``RULES`` are its rules (its registry entry: ``games/sovereign.py``).  A seat may bring a
custom deck (the table option ``decks``).  No answer carries a card identity or needs a
commitment: a hand card is named by its handle, whose ciphertext the protocol already
binds, and identities move only through Deal, Peek, Rehandle and Reveal.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from fairtable.engine.games import GameRules
from fairtable.engine.sovereign.answers import ANSWER_KINDS, SovereignAnswer
from fairtable.engine.sovereign.cards import CardDef, Catalog, standard_catalog
from fairtable.engine.sovereign.decks import Deck, DeckError, load_deck, parse_deck
from fairtable.engine.sovereign.game import SovereignGame, new_game
from fairtable.engine.sovereign.state import HAND_SIZE, SovereignConfig
from fairtable.engine.sovereign.view import SovereignView

__all__ = [
    "ANSWER_KINDS",
    "Catalog",
    "CardDef",
    "standard_catalog",
    "SovereignGame",
    "new_game",
    "HAND_SIZE",
    "SovereignConfig",
    "SovereignView",
    "RULES",
    "Deck",
    "DeckError",
    "load_deck",
    "parse_deck",
]


def _new_game(
    seats: int,
    round_limit: int | None = None,
    known: Iterable[int] | None = None,
    options: tuple[tuple[str, Any], ...] = (),
) -> SovereignGame:
    opts = dict(options)
    config = SovereignConfig(
        seats,
        factions=tuple(opts.get("factions", ())),
        echo_target=opts.get("echo_target"),
        round_limit=60 if round_limit is None else round_limit,
        decks=_decks(opts.get("decks", ())),
    )
    return new_game(config, known)


def _decks(value: object) -> tuple[Deck | None, ...]:
    """The ``decks`` option: per seat a Deck, None (the faction's deck) or deck data as in a
    deck file (a mapping, as a lobby would carry it; checked, :class:`DeckError`)."""
    if not isinstance(value, tuple | list):
        return value  # type: ignore[return-value]  # refused by SovereignConfig.check
    return tuple(
        parse_deck(d, file=f"seat {seat}'s deck") if isinstance(d, Mapping) else d
        for seat, d in enumerate(value)
    )


def _load_deck_data(path: str) -> dict[str, object]:
    """A deck file, checked (:class:`DeckError` otherwise), as the data a lobby carries."""
    return load_deck(path).data()


def _summary(game: SovereignGame) -> dict[str, object]:
    s = game.state
    return {
        "rounds": s.round,
        "turns": s.turn,
        "decisions": s.decisions,
        "echoes": [len(b.scored) for b in s.boards],
    }


def _rules() -> GameRules[SovereignGame, SovereignView, SovereignAnswer]:
    from fairtable.engine.sovereign import answers, audit, choices, depart, world

    return GameRules(
        name="sovereign",
        title="Sovereign: Fall of Wormwood",
        seat_counts=(2, 3, 4, 5, 6),
        new_game=_new_game,
        answer_kinds=tuple(ANSWER_KINDS.values()),
        legal_answers=choices.legal_answers,
        random_answer=choices.random_answer,
        summary=_summary,
        public_part=answers.public_part,
        default_round_limit=60,
        seat_option="decks",
        load_seat_option=_load_deck_data,
        audit_cards=audit.audit_cards,
        sample_world=world.sample_world,
        departure_ends=depart.departure_ends,
    )


RULES = _rules()
