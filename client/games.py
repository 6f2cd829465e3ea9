"""The client's registry of games, mirroring :mod:`engine.games`: per game, its screen model,
its panes, its bots and its help words.

Each game's client code lives in ``client/<game>/`` (as its rules live in
``engine/<game>/``); the game-neutral screen (:mod:`client.app`), ``play``, ``host``,
``join`` and ``simulate`` find a game here by name and never import a game's package by
hand.  Every game has the random bot (:class:`client.bots.RandomBot`, on the engine's
``random_answer``); a game lists its other bots itself.

A game's parts are imported when first asked for, as :func:`engine.games.rules` imports a
game's rules: a peer at a Reign table never loads Sovereign's or Sodalis's code, and a bot
seat (``--bot``) loads its game's bots without the screen's model and panes (each process
of a table starts that much sooner).
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from client.bots import RandomBot
from client.screen_model import Lines, ScreenModel
from engine.games import GAMES, rules
from engine.rng import ChanceStream

__all__ = ["CLIENT_PARTS", "ClientGame", "bot_maker", "bots_for", "client_game", "model_for"]

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
    card_name: Callable[[str], str] = str  # a hidden card's words from its id (replay's hands)


CLIENT_PARTS: dict[str, dict[str, str]] = {
    "reign": {
        "model": "client.reign.model:ClientModel",
        "panes": "client.reign.panes:panes",
        "bots": "client.reign.bots:BOTS",
        "words": "client.reign.words:HELP",
        "card_name": "client.reign.words:card_label",
    },
    "sodalis": {
        "model": "client.sodalis.model:ClientModel",
        "panes": "client.sodalis.panes:panes",
        "bots": "client.sodalis.bots:BOTS",
        "words": "client.sodalis.model:HELP",
    },
    "sovereign": {
        "model": "client.sovereign.model:ClientModel",
        "panes": "client.sovereign.panes:panes",
        "bots": "client.sovereign.bots:BOTS",
        "words": "client.sovereign.model:HELP",
        "card_name": "client.sovereign.panes:name",
    },
}
"""Where each game's client parts live, as ``module:name`` (imported on first use)."""
assert tuple(sorted(CLIENT_PARTS)) == tuple(sorted(GAMES)), "a game without a client"


def _part(name: str, part: str) -> Any:
    module, attribute = CLIENT_PARTS[name][part].split(":")
    return getattr(importlib.import_module(module), attribute)


@functools.cache
def client_game(name: str) -> ClientGame:
    """The client side of game ``name``; :class:`KeyError` naming the games if there is none."""
    if name not in CLIENT_PARTS:
        raise KeyError(f"no game {name!r}: fairtable plays {', '.join(GAMES)}")
    parts = ("model", "panes", "bots", "words", "card_name")
    return ClientGame(name, *(_part(name, part) for part in parts if part in CLIENT_PARTS[name]))


def model_for(name: str) -> ScreenModel:
    """A fresh screen model for game ``name``."""
    return client_game(name).model()


def bots_for(name: str) -> dict[str, BotMaker]:
    """The bot kinds of game ``name`` by kind: ``random`` (every game, a game only the engine
    knows -- a test's toy game -- included) and the game's own (only its bots are imported,
    not its screen)."""
    rules(name)  # a KeyError naming the games if the engine knows none by this name

    def random_bot(stream: ChanceStream) -> RandomBot:
        return RandomBot(stream, name)

    own: Mapping[str, BotMaker] = _part(name, "bots") if name in CLIENT_PARTS else {}
    return {"random": random_bot, **own}


def bot_maker(name: str, spec: str) -> BotMaker:
    """The bot a spec names for game ``name``: a kind of :func:`bots_for`, or ``search``
    with a time budget -- ``search`` (normal), ``search:easy|normal|hard`` or
    ``search:SECONDS`` (:class:`client.search.SearchBot`).  :class:`ValueError` saying
    what is wrong otherwise."""
    kind, sep, budget = spec.partition(":")
    known = bots_for(name)
    if kind != "search":
        if sep or kind not in known:
            choices = ", ".join([*sorted(known), "search[:SECONDS|easy|normal|hard]"])
            raise ValueError(f"unknown bot {spec!r} (choose from {choices})")
        return known[kind]
    from client.search import STRENGTHS, SearchBot

    if rules(name).sample_world is None:
        raise ValueError(f"the search bot does not play {name} yet")
    if not sep or budget in STRENGTHS:
        seconds = STRENGTHS[budget or "normal"]
    else:
        try:
            seconds = float(budget)
        except ValueError:
            seconds = math.nan
        if not math.isfinite(seconds) or not 0 < seconds <= 600:
            raise ValueError(
                f"search:{budget}: give seconds a decision (0 < s <= 600) or "
                f"one of {', '.join(STRENGTHS)}"
            )

    def search_bot(stream: ChanceStream) -> SearchBot:
        return SearchBot(stream, name, seconds, heuristic=bots_for(name)["heuristic"])

    return search_bot
