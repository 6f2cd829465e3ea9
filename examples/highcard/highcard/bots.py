"""High Card's own bot: bid the higher card of the hand, staking 2 points on a card worth 4
or more and 1 otherwise.  (The random bot is every game's: the client brings it.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from highcard.rules import HighBid, HighCardView, value

__all__ = ["BOTS", "HighBot"]


class HighBot:
    """Bids its best card; stakes high on a high card."""

    kind = "high"

    def __init__(self, stream: ChanceStream) -> None:
        self.stream = stream  # unused: the bot plays the same way every time

    def decide(self, view: HighCardView, decision: Decision) -> HighBid:
        card = max(view.hand, key=value)
        return HighBid(decision.seat, 2 if value(card) >= 4 else 1, card)


BOTS: Mapping[str, Callable[[ChanceStream], HighBot]] = {"high": HighBot}
"""The game's own bots by kind (its entry's ``bots`` hook returns this)."""
