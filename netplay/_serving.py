"""How much a node (or a relay) sends in answer to catch-up requests, sans-IO.

A ``want`` (:class:`~protocol.FeedRequest`) is a few dozen bytes; its answer can be thousands
of entries of up to hundreds of KiB each.  :class:`ServeBudget` caps the bytes of answers to
one key (a seat's or a stranger's identity -- not a link, so reconnecting buys nothing) at
:data:`WANT_BYTES` per :data:`WANT_WINDOW` seconds; an entry that would pass the cap is not
sent (the first one of a window always is, whatever its size, so any log can be caught up
with).  An asker still asking once the window's budget is spent is refused each time
(:meth:`ServeBudget.take` says ``False``); past :data:`REFUSALS_MAX` refusals in one window
the caller closes its link with :data:`OVER_BUDGET` (an honest peer asks every link once per
seat every 2 s while stalled: at most 80 asks a window at 16 seats).
"""

from __future__ import annotations

import attrs

__all__ = ["OVER_BUDGET", "REFUSALS_MAX", "WANT_BYTES", "WANT_WINDOW", "ServeBudget"]

WANT_BYTES = 8 * 1024 * 1024  # bytes of catch-up answers to one key per window
WANT_WINDOW = 10.0  # seconds
REFUSALS_MAX = 128  # refused asks in one window before the link is closed
OVER_BUDGET = "catch-up requests over budget"


@attrs.define
class _Spent:
    since: float
    bytes: int = 0
    refused: int = 0


class ServeBudget:
    """Bytes of catch-up answers sent to each key in its current window."""

    def __init__(self, limit: int = WANT_BYTES, window: float = WANT_WINDOW) -> None:
        self.limit, self.window = limit, window
        self._spent: dict[bytes, _Spent] = {}

    def take(self, key: bytes, size: int, now: float) -> bool:
        """May ``size`` more bytes go to ``key`` now?  (Counted if so; a refusal is counted.)"""
        spent = self._spent.get(key)
        if spent is None or now - spent.since >= self.window:
            if len(self._spent) >= 4096:  # keys come and go: forget windows that are over
                self._spent = {k: s for k, s in self._spent.items()
                               if now - s.since < self.window}
            spent = self._spent[key] = _Spent(now)
        if spent.bytes and spent.bytes + size > self.limit:
            spent.refused += 1
            return False
        spent.bytes += size
        return True

    def over(self, key: bytes) -> bool:
        """Has ``key`` been refused more than :data:`REFUSALS_MAX` times this window?"""
        spent = self._spent.get(key)
        return spent is not None and spent.refused > REFUSALS_MAX
