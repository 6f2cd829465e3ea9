"""The words of a game's life outside the play itself: resuming, the resume list, resigning.

One place for the lines ``play``/``host``/``join`` print or show when they go on with a
saved game ("Resuming your Reign game of 1 Dec 21:40, round 4"), the lines of
``fairtable resume``'s list, and the end of a game a seat gave up ("seat 2 resigned - the
game is over"), and the host's join code: how friends join (``join_lines``) and its news
(``code_news``).  Only public
facts kept in a table's ``table.json`` are used: the list never replays a log.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from fairtable.client.ending import TYPE_QUIT
from fairtable.client.help_parts import Help
from fairtable.client.seat_names import SeatNames
from fairtable.engine.games import game_names, rules
from fairtable.netplay import Invite, TableInfo, TableKind, TableStatus
from fairtable.netplay import events as ev

__all__ = [
    "UnfinishedGame",
    "code_news",
    "FOLLOWING",
    "departed_line",
    "following_line",
    "game_line",
    "join_lines",
    "resign_question",
    "resigned_line",
    "resume_line",
    "watch_rest_lines",
    "watchable",
    "when",
]


@attrs.frozen
class UnfinishedGame:
    """A game on disk that has not ended, as ``fairtable resume`` lists it: its invite, its
    ``table.json``, when its files last changed, and the folder it is played from (the data
    directory, or a seat folder ``seats/N`` of a second seat at one table)."""

    invite: Invite
    info: TableInfo
    saved: float
    data_dir: Path

    @property
    def hosted(self) -> bool:
        """Whether we host it."""
        return self.info.hosted

    @property
    def bots(self) -> int:
        """How many bots of ours sit at it."""
        return self.info.bots or 0


def when(stamp: Any) -> str:
    """A Unix time as '1 Dec 21:40' (local time), or '?' when there is none."""
    if not isinstance(stamp, int | float) or isinstance(stamp, bool):
        return "?"
    t = time.localtime(stamp)
    return f"{t.tm_mday} {time.strftime('%b %H:%M', t)}"


def _title(game: str) -> str:
    return (
        rules(game).title.split(":")[0] if game in game_names() else game
    )  # "Reign", not its subtitle


def _round(value: Any) -> str:
    return f"round {value}" if isinstance(value, int) and not isinstance(value, bool) else ""


def resume_line(event: ev.Resuming) -> str:
    """What a node's ``resuming`` event says to a person."""
    where = _round(event.round) if event.status is TableStatus.PLAYING else "in the lobby"
    return f"Resuming your {_title(event.game)} game of {when(event.started)}" + (
        f", {where}" if where else ""
    )


def resign_question(ends: bool | None, result: str) -> str:
    """What 'resign' asks before it is confirmed: whether the game ``ends`` (``None``: not
    known yet, before the game's first view) and, if it does, ``result`` -- who wins ("seat 0
    wins", "team Dusk wins"; "" or "no winner is named" where nobody does)."""
    if ends is None:
        return "Resign (the others play on if the game can, else it ends)?"
    if not ends:
        return "Resign? The others play on without you."
    if result and result != "no winner is named":
        return f"Resign? The game ends and {result}."
    return "Resign? The game ends, with no winner named."


def resigned_line(event: ev.Resigned) -> str:
    """What a node's ``resigned`` event says to a person."""
    if event.vanished and event.you:  # we came back after the others agreed we were gone
        return "the others agreed that you had vanished: the seat is no longer yours; they play on"
    if event.vanished:
        return f"seat {event.seat} vanished and the game cannot go on without it - the game is over"
    if event.you:
        return "you resigned - the game is over"
    return f"seat {event.seat} resigned - the game is over"


def departed_line(event: ev.Departed, who_plays: str = "", view: Any = None) -> str:
    """What a node's ``departed`` event says to a person (``who_plays``: what the game does
    with the seat from now on, in its own words).  The event's step is an internal count,
    never said: the game's round is, from ``view`` (a game's view, whose ``table`` says it),
    when the caller has one."""
    when = _when_left(view)
    if event.you:
        return f"you left the table{when}; the others play on"
    if event.vanished:
        return f"seat {event.seat} vanished; the game goes on" + (
            f" ({who_plays})" if who_plays else ""
        )
    return f"seat {event.seat} left the table{when}; the game goes on without it"


def watchable(invite: str, held_invite: str, via: str) -> bool:
    """Whether a table our seat left can still be watched, where we do not follow it
    ourselves (we came back after the others agreed we had vanished): spectators watch
    through the host or a relay (``via``, HOST:PORT), so the table we joined (``held_invite``)
    can, having its host still, but one we host (``invite``) only through a relay: without
    one, its host served spectators, and that host is gone.  (A seat that left follows the
    rest, and a host then serves spectators on: netplay/node/_follow.py.)"""
    return bool(via if invite else held_invite)


def watch_rest_lines(
    invite: str, held_invite: str, via: str, *, following: bool = False, others: bool = True
) -> list[str]:
    """What the screen says, once our seat left a table that plays on, about watching the rest.
    ``following`` (we left: the network side follows the rest, netplay/node/_follow.py): that
    the screen follows it as a spectator's does, and -- where ``others`` may be invited (not at
    a table of our own bots) -- the ``fairtable watch`` command on a row of its own (``i``
    shows it unwrapped and copies the invite).  Else (we came back after the others agreed we
    had vanished): the command, or plainly that nobody can watch (:func:`watchable`)."""
    table, relay = invite or held_invite, f" --via {via}" if via else ""
    if following:
        lines = ["From here the screen follows the rest as a spectator: the public view only."]
        if table and others:
            lines += [
                "Others can watch it too ('i' shows it whole and copies it):",
                f"fairtable watch '{table}'{relay}",
            ]
        return lines
    if not watchable(invite, held_invite, via):
        return [
            "The rest of the game cannot be watched: spectators watch through the "
            "table's host, and that was you"
        ]
    return [
        "To watch the rest of the game, run ('i' shows it whole and copies it):",
        f"fairtable watch '{table}'{relay}",
    ]


FOLLOWING: Help = (
    "You left: the screen follows the rest of the game. ",
    TYPE_QUIT,
    " to leave.",
)
"""The message once we left a table that plays on (our part of the game is saved)."""


def following_line(view: Any = None) -> str:
    """The status once we left a table that plays on and the screen follows the rest."""
    return f"you left{_when_left(view)}; following the rest as a spectator"


def _when_left(view: Any) -> str:
    """When we left, from a game's view: ' in round R', ' during setup', or '' (no view)."""
    round_ = None if view is None else view.table.round
    return "" if round_ is None else f" in round {round_}" if round_ >= 1 else " during setup"


def vanishing_line(event: ev.Vanishing) -> str:
    """What a node's ``vanishing`` event says: we vote that a seat is gone for good."""
    return (
        f"seat {event.seat} never came back: the table agrees it vanished, and goes on "
        "if the game can"
    )


def _turn(info: TableInfo, names: Sequence[str]) -> str:
    if info.in_lobby:
        return "lobby"
    turn, me = info.turn, info.seat
    if info.game_over:
        return "game over, checking the end"
    if not isinstance(turn, tuple) or not turn:
        return "waiting for the table" if isinstance(turn, tuple) else "turn unknown"
    label = SeatNames(names).label  # a seat by its player's name, as the screen calls it
    if len(turn) == 1:
        return "your turn" if turn[0] == me else f"{label(turn[0])}'s turn"
    return ", ".join("you" if s == me else label(s) for s in turn) + " to decide"


_KIND_WORDS = {
    TableKind.PLAY: "against bots here",
    TableKind.HOST: "you host",
    TableKind.JOIN: "you joined",
}


def game_line(
    number: int,
    info: TableInfo,
    game: str,
    seats: int,
    *,
    saved: float | None = None,
    names: Sequence[str] = (),
) -> str:
    """One line of the resume list: game, seats, last played, round, whose turn.  ``info`` is
    the table's ``table.json``; ``saved``, when its files last changed (for folders made
    before the summary was kept); ``names``, each seat's player name from the table's start
    (``netplay.saved_names``), so that the turn names the player ("Ann's turn")."""
    if info.kind is None:  # a folder made before kinds were kept
        role = "you host" if info.hosted else "you joined"
    else:
        role = _KIND_WORDS[info.kind]
    parts = [
        f"{number}. {_title(game)}, {seats} seats",
        f"last played {when(info.last_played or saved)}",
    ]
    if info.playing and _round(info.round):
        parts.append(_round(info.round))
    parts.append(_turn(info, names))
    return ", ".join(parts) + f" ({role})"


def code_news(event: ev.NodeEvent) -> str:
    """One line about the join code or the advertised address, for the log."""
    match event:
        case ev.NoLanAddress():
            return event.message
        case ev.WrongJoinCode():
            return f"Someone tried a wrong join code ({event.failures} of {event.limit})"
        case ev.JoinCodeRetired():
            return "Too many wrong join codes: the code is retired (the invite still works)"
        case ev.RelayCodeGone():
            return f"The relay holds no join code for us: {event.reason} (the invite works)"
    return "A friend used the join code"


def join_lines(code: str, via: str, lan: bool) -> list[str]:
    """How friends join with the host's code (each a line of its own, within 80 columns for
    a code and a relay address of usual lengths): through the relay at ``via`` ("" for
    none) and on this LAN when ``lan``; [] without a code."""
    if not code:
        return []
    if not via:
        return [f"Friends on this LAN: fairtable join {code}"] if lan else []
    lines = [f"Anywhere: fairtable join {code} --via {via}"]
    if lan:
        lines.append(f"On this LAN also: fairtable join {code}")
    return lines
