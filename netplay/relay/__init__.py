"""Relay: a seatless peer that forwards, stores and serves a table's messages.

This area owns the relay:

* ``_relay``       -- the relay node: links by relay token, flooding, storing, catch-up;
* ``_relay_quota`` -- what a relay lets a stranger make it keep: tables on probation.

The names below are the area's public part; other areas import only these.
"""

from ._relay import RelayNode
from ._relay_quota import RELAY_REFUSALS, RelayLimits

__all__ = [
    "RELAY_REFUSALS",
    "RelayLimits",
    "RelayNode",
]
