"""Lines as typed parts: what is a word to type and what is a screen key to press.

A help (F1 on the screen, ``help`` in plain mode), a message line, a decision's first line,
card text, a game's summary and the words of the end are each a :data:`Help`: a sequence of
parts, each either a plain ``str`` -- words typed and read the same on the screen and in
plain lines -- or a :class:`Key` -- a screen key to press, which carries what plain mode
says in its place (the typed word that does the same, or nothing where plain mode has no
such thing: no highlight to move, no clipboard).  A bare ``str`` is a line of words said
alike.  The screen renders a line with :func:`on_screen`, plain mode with :func:`in_plain`;
neither rewrites the other's sentences, so a reworded sentence cannot slip a key into plain
mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "F1_FOR_HELP",
    "F1_SAYS_HOW",
    "INVITE_HELP",
    "INVITE_PART",
    "KEPT",
    "KEYS_HELP",
    "RESIGN_HELP",
    "RESIGN_PARTS",
    "Help",
    "Key",
    "in_plain",
    "joined",
    "keys_help",
    "on_screen",
    "unspaced",
]


@dataclass(frozen=True)
class Key:
    """Words naming a screen key (``screen``), and what plain mode says instead: the typed
    word doing the same, or '' where plain mode has nothing like it (the part is left out)."""

    screen: str
    plain: str = ""


Help = Sequence[str | Key]
"""A help text or a line: words said alike (``str``) and screen keys (:class:`Key`), in
order; a bare ``str`` is a line with no key in it."""


def on_screen(help_: Help) -> str:
    """The help (or line) as the screen shows it: keys by their names."""
    if isinstance(help_, str):
        return help_
    return "".join(part.screen if isinstance(part, Key) else part for part in help_)


def in_plain(help_: Help) -> str:
    """The help (or line) as plain mode says it: each key by its typed word, or left out."""
    if isinstance(help_, str):
        return help_
    return "".join(part.plain if isinstance(part, Key) else part for part in help_)


def joined(*lines: Help) -> tuple[str | Key, ...]:
    """One line of the parts of ``lines``, in order (a bare ``str`` is one part)."""
    return tuple(part for line in lines for part in ((line,) if isinstance(line, str) else line))


F1_FOR_HELP = Key(" (F1 for help)", " ('help' for help)")
"""Ends a reply to a line the decision does not take: where its help is."""

F1_SAYS_HOW = Key(" (F1 says how)", " ('help' says how)")
"""Ends the list of a decision's shortcut words (``game_keys``): where they are explained."""


INVITE_HELP = " 'i' and Enter show the join code and the invite again (and copy it);"
"""The help's words for the invite key: said only where there is an invite to show."""

INVITE_PART = Key(INVITE_HELP, " 'invite' says the join code and the invite again;")
""":data:`INVITE_HELP` as a help part (plain mode copies nothing to a clipboard)."""

RESIGN_PARTS: tuple[str | Key, ...] = (
    " 'info N' / 'info #N' / 'info NAME'",
    Key(" (or Up/Down then F2)"),
    " show a card's whole text; 'rules'",
    Key(" (or F3)"),
    " the game in short;",
    Key(" PgUp/PgDn scroll the log;", " 'last' says the log since your previous decision;"),
    INVITE_PART,
    " 'resign' gives the game up (it asks first).",
)
"""Said by every game's help (``ScreenModel.common_help``): card text, log, invite, resign."""

RESIGN_HELP = on_screen(RESIGN_PARTS)
""":data:`RESIGN_PARTS` as the screen shows them."""

KEPT = "the game is kept"
"""What leaving does to a game kept on disk (a game kept nowhere says why instead)."""


def keys_help(kept: str = KEPT) -> tuple[str | Key, ...]:
    """The help's line of the screen's own keys (plain mode says its own words), and what
    leaving does to the game (``kept``: :data:`KEPT`, or why it is kept nowhere)."""
    return (
        Key("Keys: F1 help, ? keys, Ctrl-Q quit", "Words: 'help' this help, 'quit' leaves"),
        f" ({kept}).",
    )


KEYS_HELP = keys_help()
"""The help's line of the screen's own keys, for a game kept on disk."""


def unspaced(help_: Help) -> Help:
    """The help without the spaces its first words start with (for a help starting on a
    line of its own)."""
    first, *rest = help_
    if isinstance(first, Key):
        return (Key(first.screen.lstrip(), first.plain.lstrip()), *rest)
    return (first.lstrip(), *rest)
