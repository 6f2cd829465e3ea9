"""What a table does when a player vanishes, in the words people read before they sit down.

The host chooses the rule (``host --leavers``, :class:`~protocol.Leavers`); the invite carries
it, so a joiner is told it in the list of tables on the LAN, when it joins (with a question
first where the table goes on) and in the lobby, and a spectator when it starts watching.
Each says the trade-off in one line (docs/threat-model.md, "Vanishing").
"""

from __future__ import annotations

from fairtable.protocol import Leavers

__all__ = ["leavers_line", "leavers_short"]

_LINES = {
    Leavers.END: "If a player vanishes: the game ends (nobody can open your cards without you)",
    Leavers.GO_ON: (
        "If a player vanishes: the game goes on (the others together could open that "
        "player's cards)"
    ),
}

_WATCHING = {
    Leavers.END: (
        "If a player vanishes: the game ends (nobody can open that player's cards without them)"
    ),
    Leavers.GO_ON: _LINES[Leavers.GO_ON],
}
"""The lines a spectator reads: it holds no cards of its own."""

_SHORT = {
    Leavers.END: "if a player vanishes, the game ends",
    Leavers.GO_ON: "if a player vanishes, the game goes on",
}


def leavers_line(rule: Leavers, *, watching: bool = False) -> str:
    """The rule and what it costs, as one line (lobby, join; ``watching``: as a spectator,
    who has no cards, reads it)."""
    return (_WATCHING if watching else _LINES)[rule]


def leavers_short(rule: Leavers) -> str:
    """The rule alone, for a line that says much else (the list of tables on the LAN)."""
    return _SHORT[rule]
