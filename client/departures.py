"""The words every game uses for a seat that is out of the game for good (issues 31, 33):
its log line and the mark beside the seat in its table pane.

The game's own event and its public view do not say how the seat went: it left (``resign``
where the game goes on) or it vanished (the others agreed it was gone).  The words say
neither -- "is out of the game", "(out)" -- so they never contradict the line of the
departure itself (``client.lifecycle.departed_line``: "left the table", "vanished") nor the
audit ("seat 2 vanished at step 41")."""

from __future__ import annotations

from collections.abc import Collection

__all__ = ["OUT_MARK", "departed_words", "out_mark", "out_of_the_game"]

OUT_MARK = " (out)"
"""Beside a seat that is out of the game, in every game's table pane."""


def out_mark(seat: int, departed: Collection[int]) -> str:
    """:data:`OUT_MARK` for a seat among ``departed`` (the public view's seats out of the
    game, ``view.table.departed``), else ''."""
    return OUT_MARK if seat in departed else ""


def out_of_the_game(who: str) -> str:
    """``seat 2 is out of the game`` (``you are ...``)."""
    return f"{who} {'are' if who == 'you' else 'is'} out of the game"


def departed_words(who: str, set_aside: int) -> str:
    """``seat 2 is out of the game: 5 cards set aside face down, never to be shown``."""
    aside = f"{set_aside} card{'s' if set_aside != 1 else ''}" if set_aside else "no card"
    return f"{out_of_the_game(who)}: {aside} set aside face down, never to be shown"
