"""Sovereign's client parts, as its registry entry (``games/sovereign.py``) hands them to the
generic client: its screen model, panes, help words, card names and rules summary."""

from __future__ import annotations

from client.games import ClientParts
from client.sovereign.model import HELP, ClientModel
from client.sovereign.panes import name, panes
from client.sovereign.summary import SUMMARY

PARTS = ClientParts(
    model=ClientModel,
    panes=panes,
    words=HELP,
    summary=SUMMARY,
    card_name=name,
)
