"""Dice odds for the Sodalis bots' estimates: how many of n dice succeed, and how likely."""

from __future__ import annotations

from functools import cache


@cache
def pmf(n: int, p: float) -> tuple[float, ...]:
    """P(exactly k successes) for k = 0..n, n dice each succeeding with chance p."""
    out = [1.0]
    for _ in range(n):
        nxt = [0.0] * (len(out) + 1)
        for k, v in enumerate(out):
            nxt[k] += v * (1 - p)
            nxt[k + 1] += v * p
        out = nxt
    return tuple(out)


def expect(n: int, p: float, cap: int) -> tuple[float, float]:
    """(expected successes capped at ``cap``, chance of at least ``cap``)."""
    chances = pmf(n, round(p, 4))
    mean = sum(min(k, cap) * v for k, v in enumerate(chances))
    return mean, sum(v for k, v in enumerate(chances) if k >= cap)


def hit(sides: int, threshold: int) -> float:
    """The chance that one die of ``sides`` sides rolls ``threshold`` or more."""
    return min(1.0, max(0.0, (sides + 1 - max(1, threshold)) / sides))
