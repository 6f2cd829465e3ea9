"""Sodalis's client parts, as its registry entry (``games/sodalis.py``) hands them to the generic
client: its screen model, panes, help words, card names and rules summary."""

from __future__ import annotations

from fairtable.client.games import ClientParts
from fairtable.client.sodalis.model import HELP, ClientModel
from fairtable.client.sodalis.panes import panes
from fairtable.client.sodalis.summary import SUMMARY

PARTS = ClientParts(
    model=ClientModel,
    panes=panes,
    words=HELP,
    summary=SUMMARY,
)
