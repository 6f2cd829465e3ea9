"""The table's clocks in words: reading ``--clock``, and what the screens and lines say.

``parse_clock("10m+5s")`` gives ``SeatClock(600.0, 5.0)``: a bank of ``MINUTES m`` (or plain
seconds, ``90`` / ``90s``) and an optional ``+SECONDS s`` increment per decision.  ``limits_words``
names a table's limits (from the ``clock`` field of ``seated``/``table_open``);
``my_move_words`` and ``waiting_words`` turn a ``clock`` event's readings into the status
line's words: "your move - 4:32 left", "waiting for seat 1 (1:07 left)", "seat 2 offline -
the game ends in 1:45".
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from fairtable.netplay import ClockReading, SeatClock
from fairtable.protocol import TimeLimits

__all__ = ["clock_arg", "limits_words", "mm_ss", "my_move_words", "parse_clock", "waiting_words"]

_CLOCK = re.compile(r"(?:(?P<minutes>\d{1,4})m|(?P<seconds>\d{1,6})s?)(?:\+(?P<inc>\d{1,4})s?)?")
MAX_BANK = 24 * 3600


def parse_clock(text: str) -> SeatClock:
    """``MINUTES m[+SECONDS s]`` or plain seconds -> the bank and increment in seconds;
    :class:`ValueError` with a one-line reason for anything else."""
    found = _CLOCK.fullmatch(text.strip().lower())
    if found is None:
        raise ValueError(
            f"{text!r} is not a clock: write MINUTESm[+SECONDSs], e.g. 10m+5s, "
            "or plain seconds, e.g. 90"
        )
    minutes, seconds, inc = found.group("minutes", "seconds", "inc")
    bank = int(minutes) * 60 if minutes is not None else int(seconds)
    if not 0 < bank <= MAX_BANK:
        raise ValueError(
            f"a clock's bank is from 1 second to {MAX_BANK // 3600} hours, not {text!r}"
        )
    return SeatClock(float(bank), float(inc or 0))


def clock_arg(text: str) -> SeatClock:
    """``parse_clock`` for argparse (a usage error on nonsense)."""
    try:
        return parse_clock(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def mm_ss(seconds: float) -> str:
    """4:32 (whole seconds, rounded up so 0:00 means the time is gone); 1:02:03 past an hour."""
    whole = max(0, int(-(-seconds // 1)))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def limits_words(limits: TimeLimits | None) -> str:
    """The table's limits in words, e.g. "clock 10:00 + 5 s a decision; offline limit 2:00"."""
    if limits is None:
        return ""
    words = "no clock"
    if limits.bank_ms:
        words = f"clock {mm_ss(limits.bank_ms / 1000)}"
        if limits.increment_ms:
            words += f" + {limits.increment_ms / 1000:g} s a decision"
    return f"{words}; offline limit {mm_ss(limits.abandon_ms / 1000)}"


def my_move_words(readings: Sequence[ClockReading], me: int | None) -> str:
    """What follows "your move": " - 4:32 left" while our clock runs (and any offline
    countdown, which may end the game first)."""
    words = ""
    for r in readings:
        if r.seat == me and r.left is not None:
            words = f" - {mm_ss(r.left)} left"
    offline = _offline(readings)
    return words + (f"; {offline}" if offline else "")


def waiting_words(readings: Sequence[ClockReading], me: int | None, waited: str) -> str:
    """Whom the table waits for (``waited``: "seat 1", "the others"...) with their clocks:
    "waiting for seat 1 (1:07 left)"; an offline seat's countdown comes first, alone when it
    is all we wait for: "seat 2 offline - the game ends in 1:45"."""
    banks = [
        (r.seat, r.left) for r in readings if r.seat != me and not r.offline and r.left is not None
    ]
    clocks = ""
    if len(banks) == 1 and waited == f"seat {banks[0][0]}":
        clocks = f" ({mm_ss(banks[0][1])} left)"
    elif banks:
        clocks = " (" + ", ".join(f"seat {seat} {mm_ss(left)}" for seat, left in banks) + " left)"
    offline = _offline(readings)
    if offline and not banks:
        return offline
    return (f"{offline}; " if offline else "") + f"waiting for {waited}{clocks}"


def _offline(readings: Sequence[ClockReading]) -> str:
    return "; ".join(
        f"seat {r.seat} offline - the game ends in {mm_ss(r.ends_in)}"
        if r.ends_in is not None
        else f"seat {r.seat} offline"
        for r in readings
        if r.offline
    )
