"""Reign's client parts, as its registry entry (``games/reign.py``) hands them to the generic
client: its screen model, panes, help words, card names and rules summary."""

from __future__ import annotations

from client.games import ClientParts
from client.reign.model import ClientModel
from client.reign.panes import panes
from client.reign.summary import SUMMARY
from client.reign.words import HELP, card_label

PARTS = ClientParts(
    model=ClientModel,
    panes=panes,
    words=HELP,
    summary=SUMMARY,
    card_name=card_label,
)
