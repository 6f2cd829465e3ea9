"""``info``: the full text of a card or champion the player can see, for every game.

A game's model says which cards its seat can see now (:class:`Seen` items built only from
its own view: hand, table, forge, spread, what a breach showed...), which of them ``info N``
numbers (the hand, or Sodalis's spread) and which cards a menu option names.  The text
itself comes from the engine's card data (each game's ``*_info`` module words it); this
module parses the typed words and lays the answer out.  A name that matches nothing the
seat can see gets the same answer whether or not such a card exists elsewhere, so
``info`` never tells whether an opponent holds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import attrs

from fairtable.client.help_parts import Help, Key
from fairtable.client.text_rows import CUT_MARK

__all__ = ["Seen", "SeesCards", "answer_strings", "info_answer"]


@attrs.frozen
class Seen:
    """One card (or champion, house...) the seat can see, where, and its full text."""

    name: str
    where: str
    text: str  # the card's words from the engine's data, already laid out in one paragraph

    def words(self) -> str:
        return f"{self.name} ({self.where}): {self.text}"


class SeesCards(Protocol):
    """What a game's model offers ``info``."""

    def numbered_cards(self) -> list[Seen]: ...

    def visible_cards(self) -> list[Seen]: ...

    def option_cards(self, answer: Any) -> list[Seen]: ...

    def menu(self) -> list[tuple[str, Any]]: ...


USAGE = (
    "info N: card N of your hand{spread}; info #N: the cards of option #N; info NAME: "
    "any card you can see by (part of) its name"
)
"""What ``info`` alone says (then :data:`USAGE_KEY`, then a full stop)."""

USAGE_KEY = Key("; F2: the highlighted option")
"""The screen's key for the highlighted option's card text (plain lines have no highlight)."""


def _unique(items: Sequence[Seen]) -> list[Seen]:
    """One entry a name (the first place it is seen)."""
    out: dict[str, Seen] = {}
    for item in items:
        out.setdefault(item.name, item)
    return list(out.values())


def info_answer(model: SeesCards, words: str, numbered_what: str = "hand") -> Help:
    """The text ``info WORDS`` shows (several cards one paragraph each); how to use it, with
    the screen's key (:mod:`client.help_parts`), where ``WORDS`` is empty."""
    words = " ".join(words.split())
    if not words:
        spread = "" if numbered_what == "hand" else f" ({numbered_what})"
        return (USAGE.format(spread=spread), USAGE_KEY, ".")
    if words.isdecimal():
        cards = model.numbered_cards()
        n = int(words)
        if not 1 <= n <= len(cards):
            return f"There is no card {n} in your {numbered_what}" + (
                f": 1 to {len(cards)}." if cards else " (it is empty)."
            )
        return cards[n - 1].words()
    if words.startswith("#") and words[1:].isdecimal():
        menu, n = model.menu(), int(words[1:])
        if not 1 <= n <= len(menu):
            return f"There is no option {words}" + (f": #1 to #{len(menu)}." if menu else ".")
        found = _unique(model.option_cards(menu[n - 1][1]))
        if not found:
            return f"Option {words} names no card: {menu[n - 1][0]}"
        return "\n".join(item.words() for item in found)
    wanted = words.lower().rstrip(CUT_MARK)  # a name as a pane shortened it ("Shieldwall\u2026")
    seen = _unique(model.visible_cards())
    exact = [item for item in seen if item.name.lower() == wanted]
    found = exact or [item for item in seen if wanted in item.name.lower()]
    if not found:
        return "No card you can see has that name (info alone says what it looks up)."
    shown = found[:3]
    more = f"\n(+{len(found) - 3} more: type more of the name)" if len(found) > 3 else ""
    return "\n".join(item.words() for item in shown) + more


def answer_strings(answer: Any) -> list[tuple[str, Any]]:
    """Every (field name, value) inside an answer, nested tuples flattened, in field order:
    what a game's ``option_cards`` looks card ids and handles up in."""
    out: list[tuple[str, Any]] = []

    def walk(field: str, value: Any) -> None:
        if isinstance(value, tuple | list):
            for v in value:
                walk(field, v)
        elif attrs.has(type(value)):
            for f in attrs.fields(type(value)):
                walk(f.name, getattr(value, f.name))
        else:
            out.append((field, value))

    walk("", answer)
    return out
