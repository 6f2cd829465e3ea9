"""The questions asked before any screen, and how a person leaves them.

``fairtable resume`` asks which game (:func:`asked_number`), bare ``fairtable join`` asks for
a join code or an invite (:mod:`client.join_ask`).  At each, ``q``, ``quit``, an empty line or
Ctrl-C leaves (:func:`says_leave`), as ``q`` leaves the screen, and an answer that is no
answer is said and the question asked again -- at a terminal: fed by a script (no terminal),
the first such answer ends the command with its error, exit code 2.
"""

from __future__ import annotations

import sys

from fairtable.client.errors import UsageError

__all__ = ["LEAVE_WORDS", "a_person_types", "asked_number", "says_leave"]

LEAVE_WORDS = ("", "q", "quit")
"""A line typed at a question that leaves instead of answering."""


def says_leave(text: str) -> bool:
    """Whether ``text``, typed at a question, leaves instead of answering."""
    return text.strip().lower() in LEAVE_WORDS


def a_person_types() -> bool:
    """Whether the answers come from a person at a terminal (not a script's pipe)."""
    return sys.stdin is not None and sys.stdin.isatty()


def asked_number(question: str, count: int, nothing: str) -> int | None:
    """Ask ``question`` until a number from 1 to ``count`` is typed; it, or None when the
    person leaves (``nothing`` is raised as the error when the input ends first)."""
    while True:
        try:
            text = input(question).strip()
        except EOFError:
            raise UsageError(nothing) from None
        except KeyboardInterrupt:
            print()  # the question's line ends where ^C was shown
            return None
        if says_leave(text):
            return None
        if text.isdecimal() and 1 <= int(text) <= count:
            return int(text)
        if not a_person_types():
            raise UsageError(f"choose a game from 1 to {count}")
        print(f"There is no game {text!r} in the list: type a number from 1 to {count}, or q.")
