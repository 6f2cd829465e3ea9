"""What a node says, as tests read it: each event in its one JSON form (``netplay.event_json``),
the objects ``--json`` prints -- so a test that reads a field reads the documented form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.netplay import NodeEvent, event_json


def as_json(sink: list[dict[str, Any]]) -> Callable[[NodeEvent], None]:
    """An ``emit`` for a node that keeps each event in ``sink`` as its JSON object."""
    return lambda event: sink.append(event_json(event))
