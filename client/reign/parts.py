"""Reign's client parts, as its registry entry (``games/reign.py``) hands them to the generic
client: its screen model, panes, help words, card names and rules summary."""

from __future__ import annotations

from fairtable.client.games import ClientParts
from fairtable.client.reign.model import ClientModel
from fairtable.client.reign.panes import panes
from fairtable.client.reign.summary import SUMMARY
from fairtable.client.reign.words import HELP, card_label

PARTS = ClientParts(
    model=ClientModel,
    panes=panes,
    words=HELP,
    summary=SUMMARY,
    card_name=card_label,
)
