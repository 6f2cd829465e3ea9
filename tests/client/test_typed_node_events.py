"""The client reads a node's events by attribute (issue 30): it turns an event into JSON only
to print the ``--json`` line, never to read it back by key."""

from __future__ import annotations

from pathlib import Path

CLIENT = Path(__file__).parents[2] / "client"


def test_the_client_turns_events_into_json_only_to_print_them() -> None:
    readers = sorted(
        str(path.relative_to(CLIENT))
        for path in CLIENT.rglob("*.py")
        if "event_json(" in path.read_text(encoding="utf-8")
    )
    assert readers == ["netcli.py"]  # its --json output, a documented interface
    text = (CLIENT / "netcli.py").read_text(encoding="utf-8")
    assert text.count("event_json(") == 1 and "json.dumps(event_json(event)" in text
