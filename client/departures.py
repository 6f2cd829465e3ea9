"""The words every game's log uses for a seat that is out of the game for good (issue 33).

The game's own event does not say how the seat went: it left (``resign`` where the game goes
on) or it vanished (the others agreed it was gone).  The line says neither, so it never
contradicts the line of the departure itself (``client.lifecycle.departed_line``: "left the
table", "vanished") nor the audit ("seat 2 vanished at step 41")."""

from __future__ import annotations

__all__ = ["departed_words", "out_of_the_game"]


def out_of_the_game(who: str) -> str:
    """``seat 2 is out of the game`` (``you are ...``)."""
    return f"{who} {'are' if who == 'you' else 'is'} out of the game"


def departed_words(who: str, set_aside: int) -> str:
    """``seat 2 is out of the game: 5 cards set aside face down, never to be shown``."""
    aside = f"{set_aside} card{'s' if set_aside != 1 else ''}" if set_aside else "no card"
    return f"{out_of_the_game(who)}: {aside} set aside face down, never to be shown"
