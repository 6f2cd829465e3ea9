"""Sovereign's client parts, as its registry entry (``games/sovereign.py``) hands them to the
generic client: its screen model, panes, help words, card names and rules summary."""

from __future__ import annotations

from fairtable.client.games import ClientParts
from fairtable.client.sovereign.model import HELP, ClientModel
from fairtable.client.sovereign.panes import name, panes
from fairtable.client.sovereign.summary import SUMMARY

PARTS = ClientParts(
    model=ClientModel,
    panes=panes,
    words=HELP,
    summary=SUMMARY,
    card_name=name,
)
