"""The words every game's log uses for a seat that left the game for good (issue 33)."""

from __future__ import annotations

__all__ = ["departed_words"]


def departed_words(who: str, set_aside: int) -> str:
    """``seat 2 left the game: 5 cards set aside face down, never to be shown``."""
    aside = f"{set_aside} card{'s' if set_aside != 1 else ''}" if set_aside else "no card"
    return f"{who} left the game: {aside} set aside face down, never to be shown"
