"""A spectator that goes away is no error of the node's: :class:`Watchers` ends quietly.

CI once saw a host's node die with ``LinkClosed('done')`` wrapped in an exception group out of
``Watchers.adopt``: the spectator closed its link while the node read it, inside the nursery,
where the plain ``except LinkClosed`` around the nursery could not catch the group.
"""

from __future__ import annotations

import trio

from netplay._watchers import MAX_SAYS, Watchers
from netplay._wire import LinkClosed


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
