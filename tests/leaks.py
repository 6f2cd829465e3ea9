"""Shared by the leak tests: every string inside a JSON-shaped value."""

from __future__ import annotations

from typing import Any

from fairtable.engine.events import Event


def strings_in(value: Any) -> set[str]:
    """Every string (keys included) anywhere inside ``value``."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Event):  # a game's typed event: the strings it is stored with
        return strings_in(value.as_tuple())
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings_in(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings_in(v)}
    return set()
