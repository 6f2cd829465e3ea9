"""A short summary of each game, in our own words: what wins, how a round goes (its
phases), and where the screen shows it.  ``fairtable rules GAME`` prints it; ``rules`` (or
F3) on the screen shows it over the board.  Each game brings its own
(:attr:`client.games.ClientParts.summary`, e.g. ``client/reign/summary.py``).  The
rulebooks themselves are the reference (our readings of their unclear passages are in
``docs/rules/``); nothing here quotes them.
"""

from __future__ import annotations

from fairtable.client.games import client_game
from fairtable.client.help_parts import Help, on_screen
from fairtable.engine.games import game_names

__all__ = ["game_name", "summary", "summary_parts"]


def game_name(text: str) -> str:
    """A game's name as the registry spells it, whatever its case ("Reign" -> "reign")."""
    lowered = text.strip().lower()
    return lowered if lowered in game_names() else text


def summary(game: str) -> str:
    """The game's summary, at most 22 lines of at most 76 columns (the overlay's room at
    80x24), as the screen shows it (and ``fairtable rules GAME`` prints it)."""
    return on_screen(client_game(game).summary)


def summary_parts(game: str) -> Help:
    """The game's summary, words and screen keys told apart (plain mode says it)."""
    return client_game(game).summary
