"""The typed-line handling shared by the screen models of menu-driven games.

Sodalis and Sovereign offer every decision as a numbered menu plus a few shortcut words
(``end``, ``cast 2 1``, ``play 3``...).  :class:`MenuModel` owns what a typed line does in
both: ``?``/``help``, a menu number (``N`` or ``#N``), or a shortcut word that the game's
model parses into an answer (or a one-line reason), checked by the game's ``refused``
before it is sent.  A refused line changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.model import ClientModel as _SharedModel
from engine.requests import Decision

Shortcut = Callable[[Decision, str, list[str]], Any]
"""Parses the words after a shortcut into an answer, or returns a one-line reason (str)."""


class MenuModel(_SharedModel):
    """A screen model whose decisions are menus and shortcut words."""

    def shortcuts(self) -> dict[str, Shortcut]:
        """The game's shortcut words."""
        return {}

    def refused(self, answer: Any) -> str:
        """The one-line message if the rules refuse ``answer`` now, else ''."""
        return ""

    def command(self, text: str) -> None:
        """Act on one typed line; ``message`` says what happened (a refusal changes nothing)."""
        text = " ".join(text.strip().lower().split())
        self.show_help = False
        if text in ("?", "help"):
            self.show_help = True
            self.message = self.help_text()
            return
        d, view = self.decision, self.view
        if d is None or view is None:
            self.message = self.over or "Nothing to decide now."
            return
        menu = self.menu()
        number = text[1:] if text.startswith("#") else text
        if number.isdigit():
            if not 1 <= int(number) <= len(menu):
                self.message = f"There is no option {text}: choose 1 to {len(menu)}."
                return
            self._send(menu[int(number) - 1][1])
            return
        word, _, rest = text.partition(" ")
        parse = self.shortcuts().get(word)
        if parse is None:
            self.message = f"Type a number from 1 to {len(menu)} (? for help)."
            return
        answer = parse(d, word, rest.split())
        if isinstance(answer, str):
            self.message = answer
            return
        problem = self.refused(answer)
        if problem:
            self.message = problem
        else:
            self._send(answer)
