"""What a screen says when its game ends, in the same words for every game.

The game's own model words the result (``Game over: seat 2 wins``); this module owns the
rest: a verdict or an abandonment with its reason, the status line and the message line at
the end (what to do next: leave with ``q``; the game is saved and ``fairtable audit``
checks it), the log line naming the saved table, the line while we stay for seats that may
lack the last moves, and what is printed after the screen
closes.  Plain functions on strings: no I/O.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.help_parts import Help, Key
from fairtable.client.table_ref import check_words
from fairtable.netplay import events as ev
from fairtable.protocol import VerdictKind

__all__ = [
    "LEAVE",
    "LEAVE_WATCHING",
    "TYPE_QUIT",
    "after_screen",
    "saved_line",
    "status",
    "staying_line",
    "stopped",
]

_CLOCK_ENDS = (VerdictKind.OUT_OF_TIME, VerdictKind.ABANDONED)

LEAVE: Help = (
    Key(
        "Press q to leave. The game is saved; 'fairtable audit' (above) checks it.",
        "Leaving once every seat has the last moves ('quit' leaves now).",
    ),
)
"""The message line once the game is over: how to leave, and that the game is kept (plain
mode needs no key: it leaves by itself once every seat has the last moves, or at 'quit';
the line before, :func:`saved_line`, said where the game is kept)."""

TYPE_QUIT = Key("Press q", "Type quit")
"""How the words of the end name the key that leaves, and what plain mode says instead."""

LEAVE_WATCHING: Help = (
    TYPE_QUIT,
    " to leave. A spectator keeps nothing; the players' logs hold the game.",
)
"""The message line once a game we watch is over."""


def saved_line(path: str) -> str:
    """That the game is saved and the command that checks it, short enough for a row of
    80 columns (the table named by the start of its id: client.table_ref), so that a
    mouse copies it whole."""
    return f"The game is saved; to check it: {check_words(path)}"


def staying_line(seats: list[int], seconds: int, key: str) -> str:
    """Why the program has not gone yet: ``seats`` may lack the game's last moves, which we
    pass on for at most ``seconds``; ``key`` leaves at once all the same."""
    who = " and ".join(f"seat {s}" for s in seats) or "every seat"
    verb = "has" if len(seats) == 1 else "have"
    return f"Staying until {who} {verb} the last moves (up to {seconds} s; {key} leaves now)"


STATUS_WIDTH = 78  # the status line at 80 columns, less its margins


def status(over: str) -> str:
    """The status line once the game has ended: the result (shortened if it would push the
    key out of an 80-column line; the log has it whole), then the key to leave."""
    key = " - q to leave"
    if len(over) + len(key) > STATUS_WIDTH:
        over = over[: STATUS_WIDTH - len(key) - 3].rstrip() + "..."
    return over + key


def stopped(event: ev.Verdict, abandoned: int | None) -> str:
    """The result of a ``verdict`` event: the game stopped (or was abandoned, if the table
    gave up on seat ``abandoned``) and why.  The two verdicts that name nobody for no cheat
    have words of their own: an early audit that found no seat at fault, and a spectator
    that could not follow a vanishing (the players' game goes on without it)."""
    if abandoned is not None and event.seat == abandoned:
        return f"The game is abandoned: seat {abandoned} never came back ({event.reason})"
    if event.kind is VerdictKind.CANNOT_FOLLOW:
        return f"Could not follow the table: {event.reason}"
    if event.kind is VerdictKind.INCONCLUSIVE:
        return f"The game stopped for an early audit that found no seat at fault: {event.reason}"
    if event.kind in _CLOCK_ENDS:  # every seat's game ends with it, and nobody wins
        return f"The game is over: {event.reason}; it ends for every seat, with no winner"
    if not event.kind.blames:  # a link dropped parts: nobody cheated
        return f"The game is over: {event.reason}"
    who = f"seat {event.seat}" if event.seat is not None else "nobody"
    return f"The game stopped: {who} is blamed for {event.kind} ({event.reason})"


def after_screen(model: Any, kept: str, *, plain: bool = False) -> str:
    """What to print once the screen has closed: the result and where the game is saved,
    or ``kept`` (how to go on) when the game has not ended.  Plain lines (``plain``) said
    the result and where it is saved as they came: nothing more then ('')."""
    if not model.over:
        return kept
    if plain:
        return ""
    names = getattr(model, "names", None)
    over: str = model.over if names is None else names.text(model.over)  # as the screen said
    return over + (f"\n{saved_line(model.saved)}" if model.saved else "")
