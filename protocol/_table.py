"""The table: which game, which settings, which player keys sit in which seat.

A :class:`TableSpec` is agreed before the game starts (netplay's invite and
handshake carry it).  Its table id is the SHA-256 of its canonical encoding,
so every signature, commitment and proof made at this table is bound to this
exact game, these settings and these players.
"""

from __future__ import annotations

import enum
import hashlib
from typing import Any, NewType

import attrs

from fairtable.engine.canonical import canonical_bytes

from ._codec import blob, encode, integer, item_bytes, items, label, message
from ._errors import DecodeError
from ._identity import PublicIdentity
from ._messages import MAX_SEATS
from ._untrusted import Bounds, read_json

__all__ = [
    "LEAVERS_KEY",
    "TABLE_DOMAIN",
    "TIME_LIMITS_KEY",
    "Leavers",
    "TableId",
    "TableSpec",
    "TimeLimits",
]

TABLE_DOMAIN = b"fairtable/table/v1\x00"
MAX_OPTIONS = 1 << 16
"""Table options (canonical JSON) are at most 64 KiB: six custom deck lists fit easily."""
TIME_LIMITS_KEY = "time_limits"
"""The reserved table option holding the table's :class:`TimeLimits`; never given to a game."""
LEAVERS_KEY = "leavers"
"""The reserved table option holding the table's :class:`Leavers` rule; never given to a game."""
_RESERVED = frozenset({TIME_LIMITS_KEY, LEAVERS_KEY})
_MAX_MS = 7 * 24 * 3600 * 1000

TableId = NewType("TableId", bytes)
"""A table's id: the SHA-256 of its :class:`TableSpec`'s canonical encoding (32 bytes).
Every entry, commitment, proof and signature of the game is bound to it."""


class Leavers(enum.StrEnum):
    """What the table does when a seat vanishes for good (offline past the abandon limit).

    ``END``: the game ends, as with n-of-n decryption it must (docs/protocol.md §7.6).
    ``GO_ON``: each seat's deck key is shared among the others at the start (§7.11), so the
    survivors can open what the game needs of a vanished seat and play on -- and all the other
    seats together could open that seat's cards, which ``END`` never allows
    (docs/threat-model.md, "Vanishing").  A seat that leaves on purpose (§11.10) hands over
    its shares itself under either rule.  Bound into the table id with the other options."""

    END = "end"
    GO_ON = "go-on"

    @classmethod
    def from_option(cls, value: Any) -> Leavers:
        """Read the reserved option's value (:class:`DecodeError` if it is not one)."""
        if isinstance(value, str):
            for rule in cls:
                if rule.value == value:
                    return rule
        choices = " or ".join(repr(rule.value) for rule in cls)
        raise DecodeError(f"table option {LEAVERS_KEY!r} is {choices}")


OPTIONS_BOUNDS = Bounds(size=MAX_OPTIONS, depth=16)
"""How the table options are read: a game's options (a deck per seat) nest a few levels."""


@attrs.frozen
class TimeLimits:
    """The table's time limits, in milliseconds, bound into the table id with the options.

    ``bank_ms`` is each seat's chess-clock bank (0: no clock), ``increment_ms`` what a seat
    gains for each of its decisions applied, ``abandon_ms`` how long the table waits on a
    seat that is offline before the game ends as abandoned."""

    bank_ms: int = 0
    increment_ms: int = 0
    abandon_ms: int = 120_000

    def option(self) -> dict[str, int]:
        """The value of the reserved option."""
        return {
            "abandon_ms": self.abandon_ms,
            "bank_ms": self.bank_ms,
            "increment_ms": self.increment_ms,
        }

    @classmethod
    def from_option(cls, value: Any) -> TimeLimits:
        """Read the reserved option's value (:class:`DecodeError` if it is not one)."""
        names = {"abandon_ms", "bank_ms", "increment_ms"}
        if not isinstance(value, dict) or set(value) != names:
            raise DecodeError(
                f"table option {TIME_LIMITS_KEY!r} holds exactly " + ", ".join(sorted(names))
            )
        for name in sorted(names):
            number = value[name]
            whole = isinstance(number, int) and not isinstance(number, bool)
            if not whole or not 0 <= number <= _MAX_MS:
                raise DecodeError(
                    f"table option {TIME_LIMITS_KEY!r}: {name} is a whole number "
                    f"of milliseconds from 0 to {_MAX_MS}"
                )
        if value["abandon_ms"] == 0:
            raise DecodeError(f"table option {TIME_LIMITS_KEY!r}: abandon_ms must be positive")
        return cls(value["bank_ms"], value["increment_ms"], value["abandon_ms"])


@message("table")
@attrs.frozen
class TableSpec:
    """Game, settings and the roster (seat ``i`` is ``players[i]``'s Ed25519 key).

    ``options`` are the game's table options (e.g. one custom deck per seat) as the
    canonical JSON of an object, or empty: public, and bound into the table id."""

    game: str = label()
    players: tuple[bytes, ...] = items(item_bytes(exact=32), max_items=MAX_SEATS)
    round_limit: int = integer(hi=10_000)
    nonce: bytes = blob(exact=32)
    options: bytes = blob(max_len=MAX_OPTIONS, default=b"")

    def game_options(self) -> tuple[tuple[str, Any], ...]:
        """The game's options as sorted (name, value) pairs (values are plain JSON data);
        the reserved :data:`TIME_LIMITS_KEY` and :data:`LEAVERS_KEY` are the table's, not
        the game's: left out."""
        return tuple(item for item in self._all_options() if item[0] not in _RESERVED)

    def time_limits(self) -> TimeLimits:
        """The table's time limits (the defaults -- no clock, 120 s -- when none are set)."""
        value = dict(self._all_options()).get(TIME_LIMITS_KEY)
        return TimeLimits() if value is None else TimeLimits.from_option(value)

    def leavers(self) -> Leavers:
        """What the table does when a seat vanishes (:attr:`Leavers.END` when not set)."""
        options = dict(self._all_options())
        return Leavers.from_option(options[LEAVERS_KEY]) if LEAVERS_KEY in options else Leavers.END

    def _all_options(self) -> tuple[tuple[str, Any], ...]:
        if not self.options:
            return ()
        data = read_json(self.options, "table options", OPTIONS_BOUNDS)
        if not isinstance(data, dict) or canonical_bytes(data) != self.options:
            raise DecodeError("table options are not a canonical JSON object")
        return tuple(sorted(data.items()))

    @property
    def table_id(self) -> TableId:
        """The table's id (:data:`TableId`)."""
        return TableId(hashlib.sha256(TABLE_DOMAIN + encode(self)).digest())

    @property
    def seats(self) -> int:
        return len(self.players)

    def roster(self) -> dict[int, PublicIdentity]:
        return {
            seat: PublicIdentity.from_bytes(key, seat=seat) for seat, key in enumerate(self.players)
        }
