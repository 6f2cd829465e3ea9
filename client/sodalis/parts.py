"""Sodalis's client parts, as its registry entry (``games/sodalis.py``) hands them to the generic
client: its screen model, panes, help words, card names and rules summary."""

from __future__ import annotations

from client.games import ClientParts
from client.sodalis.model import HELP, ClientModel
from client.sodalis.panes import panes
from client.sodalis.summary import SUMMARY

PARTS = ClientParts(
    model=ClientModel,
    panes=panes,
    words=HELP,
    summary=SUMMARY,
)
