"""Typed events: what happened in a game, one frozen record per kind of event.

The rules write each entry of a game's public log as a typed record -- a subclass of
:class:`Event` declared in ``engine/<game>/events.py`` -- and the state keeps the records
(``CommonState.events``).  ``apply`` and ``depart`` return the records they logged, and
they travel as records up to the screen (protocol's ``StepApplied``, netplay's
``ViewChanged``).  Only what writes bytes (``--json`` lines, a replay's export, a test
vector) makes the stored form, the plain tuple ``(kind, *fields)``
(:meth:`Event.as_tuple`; ``CommonState.stored_events`` for a whole log): the form logs and
replays have always held, byte for byte.  A reader of stored tuples turns one back into
its record with the game's :class:`EventParser` and dispatches on the record's class, never
on positions.

The records several games log alike (:class:`FirstPlayer`, :class:`RoundLimit`) are
declared here once; each game lists them among its own kinds.

A field holding one of a game's words (a ``StrEnum``) is declared
``attrs.field(converter=Kind)``: a record made by the rules holds the member, one read back
from a stored tuple gets the member of the stored word (a word naming none is an
:class:`UnknownEvent`), and the stored tuple holds the plain word, as before.

Records are frozen, so their sequences are tuples; where the stored tuple holds a list
(or a list of lists), the field is declared ``attrs.field(converter=to_tuple,
metadata=LIST)`` (``to_tuples`` and ``LISTS``), and :meth:`Event.as_tuple` turns it back
into lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

import attrs

__all__ = [
    "Departed",
    "LIST",
    "LISTS",
    "Event",
    "EventParser",
    "FirstPlayer",
    "RoundLimit",
    "UnknownEvent",
    "to_tuple",
    "to_tuples",
]

_DEPTH = "fairtable.list_depth"

E = TypeVar("E", bound="Event")


def to_tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    """A field's sequence as a tuple (the stored tuple holds it as a list)."""
    return tuple(value)


def to_tuples(value: Iterable[Iterable[Any]]) -> tuple[tuple[Any, ...], ...]:
    """A field's sequence of sequences as tuples (stored as a list of lists)."""
    return tuple(tuple(item) for item in value)


LIST: dict[str, int] = {_DEPTH: 1}
"""The metadata of a field stored as a list."""
LISTS: dict[str, int] = {_DEPTH: 2}
"""The metadata of a field stored as a list of lists."""


def _stored(value: Any, depth: int) -> Any:
    if isinstance(value, StrEnum):
        return value.value  # the word itself, as the stored tuple has always held it
    if depth == 1:
        return list(value)
    if depth == 2:
        return [list(item) for item in value]
    return value


@attrs.frozen
class Event:
    """One entry of a game's public log.  ``KIND`` is its name in the stored tuple."""

    KIND: ClassVar[str] = ""

    def __copy__(self) -> Event:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        """A record is immutable all the way down (its sequences are tuples), so a copied
        state shares it: copying a game's log costs a list, not a record an entry."""
        return self

    def as_tuple(self) -> tuple[Any, ...]:
        """The entry as the state stores it: ``(KIND, *fields)``, lists where declared."""
        fields = attrs.fields(type(self))
        return (
            self.KIND,
            *(_stored(getattr(self, f.name), f.metadata.get(_DEPTH, 0)) for f in fields),
        )

    @classmethod
    def from_tuple(cls: type[E], stored: Sequence[Any]) -> E:
        """The record of a stored tuple of this kind (:class:`UnknownEvent` if it is not)."""
        if not stored or stored[0] != cls.KIND or len(stored) != len(attrs.fields(cls)) + 1:
            raise UnknownEvent(f"not a {cls.KIND!r} event: {tuple(stored)!r}")
        try:
            return cls(*stored[1:])
        except ValueError as err:  # a stored word naming no member of its field's kind
            raise UnknownEvent(f"not a {cls.KIND!r} event: {tuple(stored)!r} ({err})") from None


@attrs.frozen
class FirstPlayer(Event):
    """``seat`` plays first."""

    KIND = "first_player"

    seat: int


@attrs.frozen
class RoundLimit(Event):
    """The round limit is reached, in round ``number``: the game ends without a winner."""

    KIND = "round_limit"

    number: int


@attrs.frozen
class Departed(Event):
    """Seat ``seat`` left the game for good (issue 33); ``set_aside`` cards it held hidden
    are set aside face down, never to be opened (docs/rules/<game>.md, Departures)."""

    KIND = "departed"

    seat: int
    set_aside: int


class UnknownEvent(ValueError):
    """A stored tuple that is no event of the game it was read for."""


class EventParser:
    """Turns a game's stored event tuples back into their records."""

    def __init__(self, kinds: Iterable[type[Event]]) -> None:
        self.kinds: dict[str, type[Event]] = {}
        for kind in kinds:
            if not kind.KIND or kind.KIND in self.kinds:
                raise ValueError(f"event kind {kind.KIND!r} is empty or declared twice")
            self.kinds[kind.KIND] = kind

    def parse(self, stored: Sequence[Any]) -> Event:
        """The record of ``stored``; :class:`UnknownEvent` for a kind the game has not."""
        kind = self.kinds.get(stored[0]) if stored else None
        if kind is None:
            raise UnknownEvent(f"no event kind {stored[0] if stored else None!r}")
        return kind.from_tuple(stored)
