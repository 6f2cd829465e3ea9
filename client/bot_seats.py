"""Bots as people meet them at a table: named strengths, seat names, and a bot as a node's
decider.

The three named strengths (``easy``, ``normal``, ``hard``: the search bot at the seconds a
decision of :data:`client.search.STRENGTHS`) are bot specs like any other
(:func:`client.games.bot_maker`), so ``play --bots easy,hard``, ``host --bot hard`` and
``join --bot normal`` all take them.  A bot seat that this process runs for a person
(``play``) is named with its strength -- "Ada (hard)" -- so the screen says who is who.

:func:`decider` turns a bot into what a table node asks for answers.  A search bot becomes
a :class:`SearchDecider`, a :class:`netplay.Thinker`: the node runs it in a worker thread
(the screen and the network go on while it thinks), stops it when the table stops, and
hears how its thinking goes (:class:`netplay.BotThinking`, a few times a second, for the
screen's status line or a headless peer's output).  It answers at once, without a search,
when only one answer is legal (:meth:`client.search.SearchBot.decide`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.games import bot_maker
from fairtable.client.search import STRENGTHS, SearchBot, Thinking
from fairtable.engine.games import entry
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import Decider, TableInfo
from fairtable.netplay import events as ev

__all__ = [
    "BOT_NAMES",
    "SearchDecider",
    "bot_name",
    "headless_bot_name",
    "bot_specs",
    "decider",
    "saved_bot_specs",
    "strength_words",
]

BOT_NAMES = ("Ada", "Blaise", "Cyra", "Dario", "Edda", "Fenn", "Greta")
"""The names bot seats get, in seat order of the bots (more bots than names: numbered)."""

HEADLESS_NAMES = (
    "Greta", "Hale", "Ines", "Jory", "Kasia", "Lior", "Mira", "Nils",
    "Oona", "Pavel", "Quin", "Rhea", "Sten", "Tova", "Ulla", "Vida",
)  # fmt: skip
"""The names a ``join --bot`` seat gets by its key: none of a host's first six bots' names,
and sixteen of them, so that headless bots of one machine or table rarely meet one name
(when they do, the screens number the second: "Mira (hard) 2")."""

SHOWN_EVERY = 0.25  # seconds between two reports of a bot's thinking


def strength_words(spec: str) -> str:
    """A bot spec as a person reads it: "hard", "heuristic", "search 0.5 s"."""
    kind, sep, budget = spec.partition(":")
    if kind == SearchBot.kind:
        return budget if budget in STRENGTHS else f"search {budget} s" if sep else "normal"
    return kind


def bot_name(index: int, spec: str) -> str:
    """The name of the ``index``-th bot a process seats: "Ada (hard)"."""
    base = BOT_NAMES[index % len(BOT_NAMES)]
    if index >= len(BOT_NAMES):
        base += f" {index // len(BOT_NAMES) + 1}"
    return f"{base} ({strength_words(spec)})"


def headless_bot_name(key: bytes, spec: str) -> str:
    """The name of a ``join --bot`` seat given no ``--name``: "Greta (hard)", one of
    :data:`HEADLESS_NAMES` chosen by its key."""
    return f"{HEADLESS_NAMES[key[0] % len(HEADLESS_NAMES)]} ({strength_words(spec)})"


def bot_specs(text: str, game: str) -> tuple[str, ...]:
    """``play --bots``: a count (that many of the game's default bot, as before strengths)
    or one bot spec per bot seat, comma-separated (``easy,hard``); :class:`ValueError`
    saying what is wrong otherwise."""
    text = text.strip()
    if text.isdecimal():
        return (entry(game).default_bot,) * int(text)
    specs = tuple(s.strip() for s in text.split(","))
    for spec in specs:
        bot_maker(game, spec)  # a ValueError naming the bots if it is none
    return specs


def saved_bot_specs(info: TableInfo, game: str) -> tuple[str, ...]:
    """The bot specs a kept ``play`` table recorded (``bot_specs`` in its folder's info;
    a table kept before there were any, or one that names a bot no longer known, gets the
    game's default bots, as before)."""
    count = info.bots if info.bots is not None and info.bots >= 0 else 0
    specs = info.bot_specs
    if specs is not None and len(specs) == count:
        try:
            return bot_specs(",".join(specs), game) if specs else ()
        except ValueError:
            pass
    return (entry(game).default_bot,) * count


def decider(game: str, spec: str, stream: ChanceStream, emit: ev.Emit | None = None) -> Decider:
    """The bot ``spec`` names, as a table node's decider; a search bot reports its thinking
    to ``emit`` (none: it keeps it to itself)."""
    bot = bot_maker(game, spec)(stream)
    if isinstance(bot, SearchBot):
        return SearchDecider(bot, emit)

    def decide(event: P.DecisionNeeded[Any]) -> Any:
        return bot.decide(event.view, event.decision)

    return decide


class SearchDecider:
    """A search bot as a :class:`netplay.Thinker` (see the module docstring)."""

    def __init__(self, bot: SearchBot, emit: ev.Emit | None) -> None:
        self.bot = bot
        self.emit = emit
        self._seat = 0
        self._shown_at = 0.0
        bot.on_progress = self._progress

    def __call__(self, event: P.DecisionNeeded[Any]) -> Any:
        """Called in a worker thread: the search runs here."""
        self.bot.stop.clear()
        self._seat = event.decision.seat
        self._shown_at = time.monotonic()
        return self.bot.decide(event.view, event.decision)

    def cancel(self) -> None:
        self.bot.stop.set()

    def _progress(self, thinking: Thinking) -> None:
        now = time.monotonic()
        if self.emit is None or now - self._shown_at < SHOWN_EVERY:
            return
        self._shown_at = now
        event = ev.BotThinking(self._seat, round(thinking.seconds, 1), thinking.worlds)
        # from the worker thread to the event loop; a table already gone hears nothing
        with contextlib.suppress(trio.RunFinishedError, RuntimeError):
            trio.from_thread.run_sync(self.emit, event)


def names_of(specs: Sequence[str]) -> list[str]:
    """The names of bot seats running ``specs`` in order."""
    return [bot_name(i, spec) for i, spec in enumerate(specs)]
