"""What a node says, as tests read it: each event in its one JSON form (``netplay.event_json``),
the objects ``--json`` prints -- so a test that reads a field reads the documented form; and
:class:`Told`, which wakes a test at each event so that it never polls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from fairtable.netplay import NodeEvent, event_json


def as_json(sink: list[dict[str, Any]]) -> Callable[[NodeEvent], None]:
    """An ``emit`` for a node that keeps each event in ``sink`` as its JSON object."""
    return lambda event: sink.append(event_json(event))


class Told:
    """Wakes a waiting test at each thing told (a node's event, a retry), so it waits for what
    the code under test says instead of polling; the wait is bounded by the caller's
    ``trio.fail_after``."""

    def __init__(self) -> None:
        self._news = trio.Event()

    def tell(self, *_what: object) -> None:
        """Something happened: every waiter checks its condition again."""
        self._news.set()
        self._news = trio.Event()

    async def until(self, holds: Callable[[], object]) -> None:
        """Return once ``holds()`` is true, checking it now and after each thing told."""
        while not holds():
            await self._news.wait()

    def json_into(self, sink: list[dict[str, Any]]) -> Callable[[NodeEvent], None]:
        """:func:`as_json` into ``sink``, telling each event."""
        keep = as_json(sink)

        def emit(event: NodeEvent) -> None:
            keep(event)
            self.tell()

        return emit

    def deciding(self, decider: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """``decider`` (a bot's, called in the event loop), telling each decision it is
        asked: a node whose seat a bot plays emits nothing between ``seated`` and
        ``game_over``, but its bot is asked at each of its turns."""

        def decide(event: Any) -> Any:
            self.tell()
            return decider(event)

        return decide

    def into(self, sink: list[Any]) -> Callable[[Any], None]:
        """An ``emit`` (or any callback of one value) that keeps each value in ``sink`` and
        tells it."""

        def emit(value: Any) -> None:
            sink.append(value)
            self.tell()

        return emit
