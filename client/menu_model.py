"""The status line and typed-line handling shared by the menu-driven games' screen models.

Sodalis and Sovereign offer every decision as a numbered menu plus a few shortcut words
(``end``, ``cast 2 1``, ``play 3``...).  :class:`MenuModel` owns the status line (round,
phase, whose move) and what a typed line does in both: ``?``/``help``, a menu number
(``N`` or ``#N``), or a shortcut word that the game's model parses into an answer (or a
one-line reason), checked by the game's ``refused`` before it is sent.  A refused line
changes nothing.  The status line reads the view's typed public record (``view.table``, a
:class:`~engine.public_table.PublicTable`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.client import ending
from fairtable.client.clock_words import my_move_words, waiting_words
from fairtable.client.help_parts import F1_FOR_HELP, F1_SAYS_HOW, Help
from fairtable.client.screen_model import SENDING, ScreenModel
from fairtable.engine.public_table import PublicTable
from fairtable.engine.requests import Decision

Shortcut = Callable[[Decision, str, list[str]], Any]
"""Parses the words after a shortcut into an answer, or returns a one-line reason (str)."""


class MenuModel(ScreenModel):
    """A screen model whose decisions are menus and shortcut words."""

    def waited_for(self) -> str:
        """Whom the table waits for when it is not this seat's move (the game's words)."""
        return "the others"

    def phase_words(self) -> str:
        """The phase as the status line names it."""
        assert self.view is not None
        return str(self.view.table.phase)

    def _update_status(self) -> None:
        if self.over:
            self.status = ending.status(self.over)
            return
        if self.view is None:
            return
        table: PublicTable = self.view.table
        if self.answer_on_its_way():  # the status line says so, not 'your move'
            turn = SENDING
        elif self.decision is not None:
            turn = (
                "your move: "
                + self.decision.kind.replace("_", " ")
                + my_move_words(self.clock, self.seat)
            )
        else:
            turn = waiting_words(self.clock, self.seat, self.waited_for())
        counted = {r.seat for r in self.clock}  # a running clock says it already
        waiting = "".join(
            f"; seat {s} silent {t} s" for s, t in sorted(self.waiting.items()) if s not in counted
        )
        limit = f"/{table.round_limit}" if table.round_limit else ""
        self.status = f"Round {table.round}{limit} - {self.phase_words()} - {turn}{waiting}"

    def shortcuts(self) -> dict[str, Shortcut]:
        """The game's shortcut words."""
        return {}

    def game_keys(self) -> list[tuple[str, Help]]:
        """The shortcut words that can answer the decision at hand (only those: a word listed
        and then refused misleads, above all in plain mode)."""
        d = self.decision
        if d is None:
            return []
        words = sorted(w for w in self.shortcuts() if self.word_fits(d, w))
        return [("words", (", ".join(words), F1_SAYS_HOW))] if words else []

    def word_fits(self, d: Decision, word: str) -> bool:
        """Whether shortcut ``word`` can answer ``d`` now.  By default: the word alone parses
        to an answer the rules take (a game overrides it for the words that need more words,
        or that change what is being built)."""
        answer = self.shortcuts()[word](d, word, [])
        return not isinstance(answer, str) and not self.refused(answer)

    def refused(self, answer: Any) -> str:
        """The one-line message if the rules refuse ``answer`` now, else ''."""
        return ""

    def command(self, text: str) -> None:
        """Act on one typed line; ``message`` says what happened (a refusal changes nothing).
        Case and spacing do not matter."""
        super().command(" ".join(text.strip().lower().split()))

    def decide(self, d: Decision, text: str) -> None:
        menu = self.menu()
        number = text[1:] if text.startswith("#") else text
        if number.isdecimal():
            if not 1 <= int(number) <= len(menu):
                self.message = f"There is no option {text}: choose 1 to {len(menu)}."
                return
            self._send(menu[int(number) - 1][1])
            return
        word, _, rest = text.partition(" ")
        parse = self.shortcuts().get(word)
        if parse is None:
            self.message = (f"Type a number from 1 to {len(menu)}", F1_FOR_HELP, ".")
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
