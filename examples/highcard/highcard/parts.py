"""High Card's client parts, as its registry entry (:mod:`highcard.entry`) hands them to the
generic client: screen model, panes, help words and rules summary."""

from __future__ import annotations

from fairtable.client.games import ClientParts
from highcard.model import HELP, HighCardModel
from highcard.panes import panes

SUMMARY = """\
High Card, in short
Six cards, h1 to h6, are shuffled face down; every seat draws two.
Bid: in seat order, each seat bids one of its cards face down, staking 1 or
  2 points on it.
Show: once every seat has bid, the bids are shown together.
Win: the highest card shown.
Screen: each seat's cards in hand and shown bid; your hand beside it."""

PARTS = ClientParts(model=HighCardModel, panes=panes, words=HELP, summary=SUMMARY)
