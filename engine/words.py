"""Words read from data files into the typed enumerations the rules compare.

Card files spell kinds, phases and effect operations as text; each game parses a word
once, where it reads the file, into a member of a ``StrEnum`` (a member equals its word,
so views, logs and digests read as before).  A word that names no member is the
caller's typed error to raise, with the file, card and field.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

E = TypeVar("E", bound=StrEnum)


def word_of(kind: type[E], value: Any) -> E | None:
    """The member of ``kind`` spelled ``value``, or None when ``value`` is no such word."""
    if not isinstance(value, str):
        return None
    try:
        return kind(value)
    except ValueError:
        return None
