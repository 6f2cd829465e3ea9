"""A spectator that goes away is no error of the node's: :class:`Watchers` ends quietly.

CI once saw a host's node die with ``LinkClosed('done')`` wrapped in an exception group out of
``Watchers.adopt``: the spectator closed its link while the node read it, inside the nursery,
where the plain ``except LinkClosed`` around the nursery could not catch the group.
"""

from __future__ import annotations

import trio
import trio.testing

from fairtable.netplay.links._watchers import MAX_SAYS, MAX_WATCHERS, OUTBOX, Watchers
from fairtable.netplay.links._wire import LinkClosed


class ClosingLink:
    """A link whose peer says ``says`` messages and then closes with ``done``."""

    def __init__(self, says: int) -> None:
        self.says = says
        self.sent: list[bytes] = []
        self.closed: list[str] = []

    async def receive(self) -> bytes:
        await trio.lowlevel.checkpoint()
        if self.says == 0:
            raise LinkClosed("link closed by peer: done")
        self.says -= 1
        return b"{}"

    async def send_many(self, payloads: list[bytes]) -> None:
        await trio.lowlevel.checkpoint()
        self.sent.extend(payloads)

    async def aclose(self, reason: str = "") -> None:
        self.closed.append(reason)


async def test_spectator_closing_its_link_ends_adopt_without_an_error() -> None:
    watchers = Watchers(lambda: [b"start", b"entry"])
    link = ClosingLink(says=0)
    with trio.fail_after(5):
        await watchers.adopt(link)  # type: ignore[arg-type]
    assert watchers.links == set()
    assert link.closed[-1] == "done"


async def test_spectator_that_floods_is_closed_as_flood() -> None:
    watchers = Watchers(lambda: [])
    link = ClosingLink(says=MAX_SAYS + 5)
    with trio.fail_after(5):
        await watchers.adopt(link)  # type: ignore[arg-type]
    assert link.closed[0] == "flood"
    assert watchers.links == set()


class SilentLink(ClosingLink):
    """A spectator that says nothing and stays until told to go."""

    def __init__(self, gone: trio.Event) -> None:
        super().__init__(says=0)
        self.gone = gone

    async def receive(self) -> bytes:
        await self.gone.wait()
        raise LinkClosed("link closed by peer: done")


async def test_spectators_past_the_limit_are_refused_and_a_slow_one_is_dropped() -> None:
    """Every store a spectator feeds is bounded: at most ``MAX_WATCHERS`` at once (the next
    one is told ``too many spectators``), and one whose queue holds ``OUTBOX`` entries
    unsent is dropped."""
    watchers = Watchers(lambda: [])
    gone = trio.Event()
    staying = [SilentLink(gone) for _ in range(MAX_WATCHERS)]
    extra = SilentLink(gone)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            for link in staying:
                nursery.start_soon(watchers.adopt, link)
            await trio.testing.wait_all_tasks_blocked()
            assert len(watchers.links) == MAX_WATCHERS
            await watchers.adopt(extra)  # type: ignore[arg-type]
            assert extra.closed == ["too many spectators"]
            for n in range(OUTBOX + 2):  # no writer runs in between: one taken, OUTBOX queued
                watchers.forward(b"entry %d" % n)
            assert watchers.links == set()  # each dropped once its queue was full
            gone.set()
