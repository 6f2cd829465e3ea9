"""Fixed bugs the simulator can put back, to show it finds them (``--revert NAME``).

``chance-nonce``: session 4's fix of issue 14's finding 8 undone -- the chance commitment's
nonce is fresh randomness again instead of coming from the seat's secret seed, so a seat
that crashes after committing and restarts opens its commitment under another nonce.

``star``: the simulator's own fix of seed 9381 undone -- a simulated stream tells its
listener no far address, so the host learns no joiner's address and a table without a relay
is a star through the host instead of the mesh it is over TCP.

``flood-decide``: the fix of seed 1211 undone -- a seat's own decision runs the exchanges
but no longer re-checks the flood rule, so a flood that arrived while it owed that decision
is blamed only when something more arrives (or 600 s later, ``abandoned``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import fairtable.protocol as P
from fairtable.protocol.crypto import JointRandomness

from .net import SimStream

__all__ = ["REVERTS", "reverted"]


@contextlib.contextmanager
def _chance_nonce() -> Iterator[None]:
    original = JointRandomness.contribute

    def contribute(
        self: JointRandomness, seat: int, *, value: bytes | None = None, nonce: bytes | None = None
    ) -> Any:
        return original(self, seat, value=value, nonce=None)  # the nonce: fresh, as before

    JointRandomness.contribute = contribute  # type: ignore[method-assign]
    try:
        yield
    finally:
        JointRandomness.contribute = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _star() -> Iterator[None]:
    original = SimStream.__init__

    def init(self: SimStream, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        del self.socket  # no getpeername(): the listener learns no address

    SimStream.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        SimStream.__init__ = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _flood_decide() -> Iterator[None]:
    original = P.TableSession.decide

    def decide(self: P.TableSession, answer: Any) -> None:
        if self.verdict is not None or self.finished is not None:
            original(self, answer)  # its typed refusals, as before
            return
        self.exchanges.decide(answer)
        self._run()  # not _settle: the flood rule waits for the next arrival

    P.TableSession.decide = decide  # type: ignore[method-assign]
    try:
        yield
    finally:
        P.TableSession.decide = original  # type: ignore[method-assign]


REVERTS = {"chance-nonce": _chance_nonce, "star": _star, "flood-decide": _flood_decide}


@contextlib.contextmanager
def reverted(name: str | None) -> Iterator[None]:
    if name is None:
        yield
        return
    with REVERTS[name]():
        yield
