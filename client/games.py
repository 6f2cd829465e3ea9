"""The client's side of the game registry (:mod:`engine.games`): per game, its screen model,
panes, help words, rules summary, colours and bots.

Each game's client code lives in ``client/<game>/`` (as its rules live in
``engine/<game>/``) or in the game's own package, and its registry entry
(:class:`engine.games.GameEntry`) names it; the game-neutral screen (:mod:`client.app`),
``play``, ``host``, ``join`` and ``simulate`` find a game here by name and never name one.
Every game has the random bot (:class:`client.bots.RandomBot`, on the engine's
``random_answer``); a game lists its other bots itself and declares its default one.

A game's parts are imported when first asked for, as :func:`engine.games.rules` imports a
game's rules: a peer at a Reign table never loads Sovereign's or Sodalis's code, and a bot
seat (``--bot``) loads its game's bots without the screen's model and panes (each process
of a table starts that much sooner).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from fairtable.client.bots import RandomBot
from fairtable.client.help_parts import Help
from fairtable.client.screen_model import Lines, ScreenModel
from fairtable.engine.games import entry, rules
from fairtable.engine.requests import DecisionKind
from fairtable.engine.rng import ChanceStream

__all__ = [
    "ClientGame",
    "ClientParts",
    "Pane",
    "Panes",
    "bot_maker",
    "bots_for",
    "client_game",
    "default_bot",
    "model_for",
]

Pane = Callable[[int | None], Lines]
"""A pane's text for the columns it is drawn in; ``None``: it is read aloud, not drawn (plain
mode), so it has no width to save: no name or row is cut to one."""

Panes = Callable[[Any], tuple[Pane, Pane]]
"""A game's two upper panes for a model: the table (or board), and the side pane."""

BotMaker = Callable[[ChanceStream], Any]
"""Makes a bot (with ``kind`` and ``decide(view, decision)``) from its own chance stream."""


@attrs.frozen
class ClientParts:
    """What a game brings to the console client (its entry's ``client`` hook returns one)."""

    model: type[ScreenModel]  # the screen model (a fresh one per game played)
    panes: Panes
    words: Mapping[DecisionKind, Help]  # the help text of each decision kind (help_parts)
    summary: Help  # the rules in short (``fairtable rules GAME``, F3), keys told apart
    card_name: Callable[[str], str] = str  # a hidden card's words from its id (replay's hands)


@attrs.frozen
class ClientGame:
    """One game, as the console client sees it: its parts, bots and colours."""

    name: str
    model: type[ScreenModel]
    panes: Panes
    bots: Mapping[str, BotMaker]  # the game's own bots by kind (the random one is everyone's)
    words: Mapping[DecisionKind, Help]
    summary: Help
    card_name: Callable[[str], str]
    styles: Mapping[str, str]  # the colour of each style class its panes use


def _own_bots(name: str) -> Mapping[str, BotMaker]:
    bots = entry(name).bots()
    if not all(isinstance(kind, str) and callable(make) for kind, make in bots.items()):
        raise TypeError(f"the bots of {name!r} are not bot makers by kind: {bots!r}")
    return {kind: make for kind, make in bots.items() if callable(make)}


@functools.cache
def client_game(name: str) -> ClientGame:
    """The client side of game ``name``; :class:`KeyError` naming the games if there is none."""
    found = entry(name)
    parts = found.client()
    if not isinstance(parts, ClientParts):
        raise TypeError(f"the client parts of {name!r} are not a ClientParts: {parts!r}")
    return ClientGame(
        name,
        parts.model,
        parts.panes,
        _own_bots(name),
        parts.words,
        parts.summary,
        parts.card_name,
        dict(found.styles),
    )


def model_for(name: str) -> ScreenModel:
    """A fresh screen model for game ``name``."""
    return client_game(name).model()


def bots_for(name: str) -> dict[str, BotMaker]:
    """The bot kinds of game ``name`` by kind: ``random`` (every game) and the game's own
    (only its bots are imported, not its screen)."""
    entry(name)  # a KeyError naming the games if none is known by this name

    def random_bot(stream: ChanceStream) -> RandomBot:
        return RandomBot(stream, name)

    return {"random": random_bot, **_own_bots(name)}


def default_bot(name: str) -> BotMaker:
    """The bot game ``name`` seats unless told otherwise (its entry's ``default_bot``)."""
    return bots_for(name)[entry(name).default_bot]


def bot_maker(name: str, spec: str, clock: Callable[[], float] | None = None) -> BotMaker:
    """The bot a spec names for game ``name``: a kind of :func:`bots_for`, or ``search``
    with a time budget -- ``search`` (normal), ``search:easy|normal|hard`` or
    ``search:SECONDS`` (:class:`client.search.SearchBot`); a named strength alone
    (``easy``, ``normal``, ``hard``) is the search bot at that strength.  :class:`ValueError`
    saying what is wrong otherwise.  ``clock`` measures a search bot's budget (``None``:
    wall-clock time, as people wait; a bench passes ``time.thread_time``)."""
    from fairtable.client.search import STRENGTHS, SearchBot, search_hints

    if spec in STRENGTHS:  # a named strength: the search bot at its budget
        spec = f"search:{spec}"
    kind, sep, budget = spec.partition(":")
    known = bots_for(name)
    if kind != SearchBot.kind:
        if sep or kind not in known:
            choices = ", ".join(
                [*sorted(known), "easy", "normal", "hard", "search[:SECONDS|easy|normal|hard]"]
            )
            raise ValueError(f"unknown bot {spec!r} (choose from {choices})")
        return known[kind]
    hints = search_hints(name)
    if hints is None or rules(name).sample_world is None:
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
        if clock is None:
            return SearchBot(stream, name, seconds, hints=hints, heuristic=default_bot(name))
        return SearchBot(
            stream, name, seconds, hints=hints, heuristic=default_bot(name), clock=clock
        )

    return search_bot
