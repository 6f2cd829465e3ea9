"""How the console speaks of a table's invite: the relay option as written, the waiting
pane's pointer to the invite, and the words that show it again.

:class:`client.screen_model.ScreenModel` shows the invite itself (``invite_block``); each
game's panes add :func:`invite_lines` while the table waits for players.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.help_parts import Help, Key

__all__ = ["COPIED", "INVITE_KEYS", "SHOWN_COPIED", "invite_lines", "via_text"]

COPIED: Help = (Key("Invite copied to your clipboard, where the terminal allows it."),)
"""The message line once the table opens (plain mode copies nothing: it says nothing)."""

SHOWN_COPIED: Help = (
    "Above",
    Key("; also copied to your clipboard, where the terminal allows it"),
    ".",
)
"""The message line once 'i' shows the invite again."""

INVITE_KEYS = ("i", "invite")
"""The words that show the join code and the invite again (and copy the invite)."""


def via_text(via: tuple[str, int] | None) -> str:
    """``--via``'s relay as its option is written (``HOST:PORT``); "" for none."""
    return "" if via is None else f"{via[0]}:{via[1]}"


def invite_lines(model: Any) -> list[tuple[str, str]]:
    """What the waiting screen's pane says of the invite: where it is (the invite itself is
    shown under the log, on full-width lines of its own, so that a mouse copies it whole);
    nothing when there is no one to invite (every other seat is a bot of ours)."""
    if not model.invite or getattr(model, "all_bots", False):
        return []
    return [("", "\nHow friends join: below the log.\n'i' and Enter show it again at any time.\n")]
