"""The public state as a typed record: what screens and bots read of a view, by field.

Every game's public state (``state.public()``) is canonical JSON-shaped data: digests,
``--json`` lines and replays hold it as it is, so it stays a dict.  Readers above the engine
read it through the game's record instead -- ``view.table``, a subclass of
:class:`PublicTable` declared beside the game's view and made from the view's dict once,
the first time it is read -- so a field is named by an attribute a type checker follows,
its words are the game's members, and its seat-keyed tables are keyed by seat numbers
(the dict keys them by text).

:class:`PublicTable` holds what every game's public state has and what the screens common to
all games read (the status line's round and phase, the mark beside a seat out of the game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

__all__ = ["PublicTable", "by_seat", "record_of"]

V = TypeVar("V")
R = TypeVar("R")


def by_seat(table: Mapping[str, V]) -> dict[int, V]:
    """A seat-keyed table of the public state (keys ``"0"``, ``"1"``...) keyed by seat."""
    return {int(seat): value for seat, value in table.items()}


def _as_is(value: Any) -> Any:
    return value


def record_of(cls: type[R], data: Mapping[str, Any], **convert: Callable[[Any], Any]) -> R:
    """The ``cls`` record (an attrs class) of a part of a public state: each field is
    ``data``'s key of its name, passed through ``convert``'s function of that name where
    there is one (a list to a tuple, a word to the game's member)."""
    names = [field.name for field in attrs.fields(cls)]  # type: ignore[arg-type]
    unknown = sorted(set(convert) - set(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no fields {unknown}")
    return cls(**{name: convert.get(name, _as_is)(data[name]) for name in names})


@attrs.frozen(kw_only=True, eq=False)
class PublicTable:
    """The fields every game's public state has: the seats, the round (and its limit,
    ``None`` or 0 for none), the phase's word and the seats out of the game for good."""

    players: int
    round: int
    round_limit: int | None
    phase: str
    departed: tuple[int, ...] = ()

    @staticmethod
    def common(public: Mapping[str, Any]) -> dict[str, Any]:
        """The common fields of ``public`` as keyword arguments of a game's record."""
        return {
            "players": public["players"],
            "round": public["round"],
            "round_limit": public["round_limit"],
            "phase": public["phase"],
            "departed": tuple(public.get("departed", ())),
        }
