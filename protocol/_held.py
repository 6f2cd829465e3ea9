"""What each seat makes a session hold that no pending step has needed yet, in bytes.

Sans-IO bookkeeping for :class:`~protocol.TableSession` (hostile peers, findings 4 and
7).  A seat signs whatever it likes into its own feed; without a bound, entries for steps
nobody will reach, parts under names no exchange asks for, or digests for far-off steps
are all kept for the rest of the game.  :class:`PartStore` is the session's
``parts`` mapping: a part filed from another seat's feed is *charged* to that seat
until an exchange looks it up (the step that needed it came); a lookup releases it.
The session also charges entries that carry no part at all and digest checks for steps
it has not reached.  A seat whose unread bytes stay above :data:`SEAT_BUDGET` once
the engine has taken everything it can is blamed (``"flood"``).

Entries that arrive ahead of a gap in a seat's feed are held by the log, not filed:
:class:`GapBudget` caps their bytes per seat; one over it is refused (nothing is held,
nobody is blamed -- it comes back through a feed request once the gap is filled).

An honest seat stays far below both budgets: its parts are read at the step they
belong to (the largest honest unread total measured is in ``docs/netplay.md``).
"""

from __future__ import annotations

from typing import Any

from ._part_keys import PartKey

__all__ = ["GAP_BUDGET", "SEAT_BUDGET", "GapBudget", "PartStore"]

SEAT_BUDGET = 2 * 1024 * 1024  # unread bytes a seat may make us hold
GAP_BUDGET = 2 * 1024 * 1024  # bytes of a seat's entries held ahead of a gap in its feed

Key = tuple[int, PartKey]


class PartStore(dict[Key, Any]):
    """Parts by ``(seat, name)``; what is charged stays counted until it is looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.unread: dict[int, int] = {}  # seat -> bytes charged and not yet looked up
        self._charged: dict[Key, int] = {}

    def charge(self, key: Key, size: int) -> None:
        """Count ``size`` bytes against seat ``key[0]`` until ``key`` is looked up."""
        if key in self._charged:
            return
        self._charged[key] = size
        self.unread[key[0]] = self.unread.get(key[0], 0) + size

    def release(self, key: Key) -> None:
        size = self._charged.pop(key, None)
        if size is not None:
            self.unread[key[0]] -= size

    def charged(self, seat: int) -> list[PartKey]:
        """The keys still charged to ``seat``."""
        return [key for s, key in self._charged if s == seat]

    def over(self) -> list[int]:
        """The seats holding more unread bytes than :data:`SEAT_BUDGET`."""
        return sorted(s for s, size in self.unread.items() if size > SEAT_BUDGET)

    # A lookup that finds a part means an exchange needed it: nothing more is owed for it.
    def __getitem__(self, key: Key) -> Any:
        value = super().__getitem__(key)
        self.release(key)
        return value

    def get(self, key: Key, default: Any = None) -> Any:
        if super().__contains__(key):
            self.release(key)
            return super().__getitem__(key)
        return default

    def __contains__(self, key: object) -> bool:
        found = super().__contains__(key)
        if found:
            self.release(key)  # type: ignore[arg-type]
        return found

    def has(self, key: Key) -> bool:
        """Whether ``key`` is filed, without counting it as needed."""
        return super().__contains__(key)


class GapBudget:
    """Bytes of each seat's entries held beyond the contiguous part of its feed."""

    def __init__(self) -> None:
        self._held: dict[int, dict[int, int]] = {}  # seat -> seq -> size

    def admit(self, seat: int, seq: int, size: int) -> bool:
        """Whether an entry at ``seq``, ahead of a gap, may be held (and count it)."""
        held = self._held.setdefault(seat, {})
        if seq in held:
            return True
        if sum(held.values()) + size > GAP_BUDGET:
            return False
        held[seq] = size
        return True

    def filed(self, seat: int, seq: int) -> None:
        """The entry at ``seq`` is no longer ahead of a gap."""
        self._held.get(seat, {}).pop(seq, None)

    def held(self, seat: int) -> int:
        return sum(self._held.get(seat, {}).values())
