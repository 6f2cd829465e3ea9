"""The client's registry of games, mirroring :mod:`engine.games`: per game, its screen model,
its panes, its bots and its help words.

Each game's client code lives in ``client/<game>/`` (as its rules live in
``engine/<game>/``); the game-neutral screen (:mod:`client.app`), ``play``, ``host``,
``join`` and ``simulate`` find a game here by name and never import a game's package by
hand.  Every game has the random bot (:class:`client.bots.RandomBot`, on the engine's
``random_answer``); a game lists its other bots itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from client.bots import RandomBot
from client.reign import bots as reign_bots
from client.reign import panes as reign_panes
from client.reign.model import ClientModel as ReignModel
from client.reign.words import HELP as REIGN_HELP
from client.screen_model import Lines, ScreenModel
from client.sodalis import bots as sodalis_bots
from client.sodalis import panes as sodalis_panes
from client.sodalis.model import HELP as SODALIS_HELP
from client.sodalis.model import ClientModel as SodalisModel
from client.sovereign import bots as sovereign_bots
from client.sovereign import panes as sovereign_panes
from client.sovereign.model import HELP as SOVEREIGN_HELP
from client.sovereign.model import ClientModel as SovereignModel
from engine.games import GAMES, rules
from engine.rng import ChanceStream

__all__ = ["CLIENT_GAMES", "ClientGame", "bots_for", "client_game", "model_for"]

Panes = Callable[[Any], tuple[Callable[[], Lines], Callable[[], Lines]]]
"""A game's two upper panes for a model: the table (or board), and the side pane."""

BotMaker = Callable[[ChanceStream], Any]
"""Makes a bot (with ``kind`` and ``decide(view, decision)``) from its own chance stream."""


@attrs.frozen
class ClientGame:
    """One game, as the console client sees it."""

    name: str
    model: type[ScreenModel]  # the screen model (a fresh one per game played)
    panes: Panes
    bots: Mapping[str, BotMaker]  # the game's own bots by kind (the random one is everyone's)
    words: Mapping[str, str]  # the help text of each decision kind


CLIENT_GAMES: dict[str, ClientGame] = {
    "reign": ClientGame("reign", ReignModel, reign_panes.panes, reign_bots.BOTS, REIGN_HELP),
    "sodalis": ClientGame("sodalis", SodalisModel, sodalis_panes.panes, sodalis_bots.BOTS,
                          SODALIS_HELP),
    "sovereign": ClientGame("sovereign", SovereignModel, sovereign_panes.panes,
                            sovereign_bots.BOTS, SOVEREIGN_HELP),
}
assert tuple(sorted(CLIENT_GAMES)) == tuple(sorted(GAMES)), "a game without a client"


def client_game(name: str) -> ClientGame:
    """The client side of game ``name``; :class:`KeyError` naming the games if there is none."""
    if name not in CLIENT_GAMES:
        raise KeyError(f"no game {name!r}: fairtable plays {', '.join(GAMES)}")
    return CLIENT_GAMES[name]


def model_for(name: str) -> ScreenModel:
    """A fresh screen model for game ``name``."""
    return client_game(name).model()


def bots_for(name: str) -> dict[str, BotMaker]:
    """The bot kinds of game ``name`` by kind: ``random`` (every game, a game only the engine
    knows -- a test's toy game -- included) and the game's own."""
    rules(name)  # a KeyError naming the games if the engine knows none by this name

    def random_bot(stream: ChanceStream) -> RandomBot:
        return RandomBot(stream, name)

    own = CLIENT_GAMES[name].bots if name in CLIENT_GAMES else {}
    return {"random": random_bot, **own}
