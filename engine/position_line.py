"""One-line positions, the frame every game's position text shares: :class:`PositionLine`.

    <game> key=value key=value ...

A position line names its game, then ``key=value`` words separated by spaces: each key
once, no space inside a value, lists comma-separated (empty items dropped).  This module
reads and writes that frame and turns values into numbers and lists, refusing what is
not one with :class:`~engine.errors.MalformedAnswer`; what each key means is the game's
(``engine/<game>/position.py``).  Tests and bug reports use position lines to build a
game in play from text.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from fairtable.engine.errors import MalformedAnswer

__all__ = ["PositionLine", "Value"]

Value = str | int | Iterable[str | int]
"""What :meth:`PositionLine.build` writes: a word, a number, or a comma-separated list."""


def _word(value: Value) -> str:
    if isinstance(value, str):
        text = value
    elif isinstance(value, int):
        text = str(value)
    else:
        text = ",".join(str(v) for v in value)
    if not text.isprintable() or any(c.isspace() for c in text):
        raise ValueError(f"a position value has no spaces: {text!r}")
    return text


@attrs.frozen
class PositionLine:
    """A parsed position line: the game's name and its ``(key, value)`` words in order."""

    game: str
    words: tuple[tuple[str, str], ...] = ()

    # -- reading and writing the frame --------------------------------------------------------
    @classmethod
    def parse(cls, line: str, game: str, title: str | None = None) -> PositionLine:
        """Read ``line``, which must start with ``game`` (``title``: how an error names the
        game, default its name)."""
        first, *rest = line.split() or [""]
        if first != game:
            raise MalformedAnswer(f"a {title or game} position starts with {game!r}")
        words: dict[str, str] = {}
        for word in rest:
            key, sep, value = word.partition("=")
            if not sep or not key or key in words:
                raise MalformedAnswer(f"expected one key=value per key, got {word!r}")
            words[key] = value
        return cls(game, tuple(words.items()))

    @classmethod
    def build(cls, game: str, words: Iterable[tuple[str, Value]]) -> PositionLine:
        """A line from ``(key, value)`` pairs, values written as :data:`Value` says."""
        pairs = tuple((key, _word(value)) for key, value in words)
        keys = [key for key, _ in pairs]
        if len(set(keys)) != len(keys) or not all(k and "=" not in k for k in keys):
            raise ValueError(f"each key once, with no '=' in it: {keys}")
        return cls(game, pairs)

    def write(self) -> str:
        """The one line of text :meth:`parse` reads back."""
        return " ".join([self.game, *(f"{key}={value}" for key, value in self.words)])

    # -- reading values -----------------------------------------------------------------------
    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.words)

    def text(self, key: str, default: str = "") -> str:
        """The value of ``key`` as written (``default`` when absent)."""
        for k, value in self.words:
            if k == key:
                return value
        return default

    def number(self, key: str, default: int) -> int:
        """The value of ``key`` as a whole number (``default`` when absent)."""
        return self.whole(key, self.text(key, str(default)))

    def items(self, key: str, default: str = "") -> list[str]:
        """The value of ``key`` as a comma-separated list (``default`` when absent)."""
        return [item for item in self.text(key, default).split(",") if item]

    def numbers(self, key: str, default: str = "") -> list[int]:
        """The value of ``key`` as a comma-separated list of whole numbers."""
        return [self.whole(key, item) for item in self.items(key, default)]

    @staticmethod
    def whole(key: str, text: str) -> int:
        """``text``, part of the value of ``key``, as a whole number."""
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()):
            raise MalformedAnswer(f"{key} is a whole number, not {text!r}")
        return int(text)
