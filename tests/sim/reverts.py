"""Fixed bugs the simulator can put back, to show it finds them (``--revert NAME``).

``chance-nonce``: session 4's fix of issue 14's finding 8 undone -- the chance commitment's
nonce is fresh randomness again instead of coming from the seat's secret seed, so a seat
that crashes after committing and restarts opens its commitment under another nonce.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from fairtable.protocol.crypto import JointRandomness

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


REVERTS = {"chance-nonce": _chance_nonce}


@contextlib.contextmanager
def reverted(name: str | None) -> Iterator[None]:
    if name is None:
        yield
        return
    with REVERTS[name]():
        yield
