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

A relay answers wants from what it stored, within each asker's budget; a want for entries
it lacks it passes on to the table's other links (:class:`PassOn`), and there every seat
answers it within the budget of one key, the relay's, whoever asked.  So that a flooding
asker cannot spend that shared budget and starve honest seats' wants, a passed-on want
covers at most :data:`PASS_SPAN` entries, a gap is passed on once per
:data:`PASS_EVERY` seconds whoever asks (its answer comes back through the relay to
everyone), and each asker's key passes on at most :data:`PASS_PER_KEY` wants a window:
what one asker makes the seats send the relay is bounded by its own share, and the gaps an
honest seat asks for are passed on all the same.  A node does not close a relay's link
over refused wants (behind it are every seat it links): it only refuses them.
"""

from __future__ import annotations

import attrs

__all__ = [
    "OVER_BUDGET",
    "PASS_EVERY",
    "PASS_PER_KEY",
    "PASS_SPAN",
    "REFUSALS_MAX",
    "WANT_BYTES",
    "WANT_WINDOW",
    "PassOn",
    "ServeBudget",
]

WANT_BYTES = 8 * 1024 * 1024  # bytes of catch-up answers to one key per window
WANT_WINDOW = 10.0  # seconds
REFUSALS_MAX = 128  # refused asks in one window before the link is closed
OVER_BUDGET = "catch-up requests over budget"
PASS_SPAN = 256  # entries one passed-on want covers
PASS_EVERY = 1.0  # seconds between two passed-on wants covering the same entry
PASS_PER_KEY = 32  # passed-on wants one asker's key makes a relay send a window


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
                self._spent = {k: s for k, s in self._spent.items() if now - s.since < self.window}
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


class PassOn:
    """Which wants a relay passes on to a table's other links, and how far."""

    def __init__(
        self,
        per_key: int = PASS_PER_KEY,
        window: float = WANT_WINDOW,
        every: float = PASS_EVERY,
        span: int = PASS_SPAN,
    ) -> None:
        self.per_key, self.window, self.every, self.span = per_key, window, every, span
        self._asked: dict[int, list[tuple[int, int, float]]] = {}  # seat -> (start, stop, at)
        self._spent: dict[bytes, _Spent] = {}  # passed-on wants per asker key, this window

    def ask(
        self, key: bytes, seat: int, have: int, stop: int, now: float
    ) -> tuple[int, int] | None:
        """Asker ``key`` wants seat ``seat``'s entries from ``have`` (before ``stop``), which
        the relay lacks: the range to ask the other links for, or None (asked on lately,
        or the asker's share of this window is spent)."""
        recent = [a for a in self._asked.get(seat, []) if now - a[2] < self.every]
        self._asked[seat] = recent
        if any(start <= have < end for start, end, _at in recent):
            return None
        spent = self._spent.get(key)
        if spent is None or now - spent.since >= self.window:
            if len(self._spent) >= 4096:
                self._spent = {k: s for k, s in self._spent.items() if now - s.since < self.window}
            spent = self._spent[key] = _Spent(now)
        if spent.bytes >= self.per_key:  # counts wants here, not bytes
            spent.refused += 1
            return None
        spent.bytes += 1
        end = min(stop, have + self.span)
        recent.append((have, end, now))
        return have, end
