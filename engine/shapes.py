"""The shape of an answer's fields: plain JSON values checked against the annotations of
the game's answer class, before anything reads them.

An answer that arrives from outside (a peer's signed move, a saved log) is JSON.  Its
values must have exactly the declared shape -- a whole number where an ``int`` is
declared (never a truth value, never beyond :data:`INT_LIMIT`), text for ``str``, a list
of the declared items for ``tuple[X, ...]``, a list of the declared length for a fixed
tuple, ``null`` only where ``None`` is allowed -- so no rule ever compares text with a
number or iterates a number.  Whether the values are *legal* is the game's own check.
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any

import attrs

from .errors import MalformedAnswer

__all__ = ["INT_LIMIT", "answer_from_plain", "conforms"]

INT_LIMIT = 1 << 31  # no count, seat, index or amount of any game comes near it


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def conforms(value: Any, hint: Any) -> bool:
    """Whether the JSON value ``value`` (lists, not tuples) has the shape ``hint``."""
    if hint is type(None) or hint is None:
        return value is None
    if hint is bool:
        return value is True or value is False
    if hint is int:
        return type(value) is int and -INT_LIMIT <= value < INT_LIMIT
    if hint is str:
        return type(value) is str
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, arg) for arg in args)
    if origin is tuple:
        if type(value) is not list:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(item, args[0]) for item in value)
        return len(value) == len(args) and all(
            conforms(v, a) for v, a in zip(value, args, strict=True)
        )
    return False  # a shape answers never take


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if type(value) is list else value


def answer_from_plain(cls: type, fields: dict[str, Any]) -> Any:
    """The answer of class ``cls`` from its JSON fields (every field present, each of its
    declared shape); :class:`~engine.errors.MalformedAnswer` naming the first that is not."""
    names = [field.name for field in attrs.fields(cls)]
    if sorted(fields) != sorted(names):
        raise MalformedAnswer(f"{cls.__name__} has fields {', '.join(names)}")
    hints = _hints(cls)
    for name in names:
        if not conforms(fields[name], hints[name]):
            raise MalformedAnswer(f"{cls.__name__}.{name} is not of the shape {hints[name]}")
    return cls(**{name: _frozen(fields[name]) for name in names})
