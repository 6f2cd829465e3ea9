"""Relay: a seatless peer that forwards, stores and serves a table's messages.

This area owns the relay:

* ``_relay``       -- the relay node: links by relay token, flooding, storing, catch-up;
* ``_relay_quota`` -- what a relay lets a stranger make it keep: tables on probation;
* ``_mailbox_wire`` -- the join-code mailbox's messages and nameplates (sans-IO);
* ``_mailbox``      -- the join-code mailbox: hosts hold nameplates, joiners are put through.

The names below are the area's public part; other areas import only these.
"""

from ._mailbox_wire import (
    MAILBOX_SCOPE,
    NO_SUCH_CODE,
    RELAY_VERSION,
    MailboxEnd,
    MailboxJoin,
    MailboxLimits,
    MailboxOpen,
    MailboxSay,
    Nameplate,
)
from ._relay import RelayNode
from ._relay_quota import RELAY_REFUSALS, RelayLimits

__all__ = [
    "MAILBOX_SCOPE",
    "NO_SUCH_CODE",
    "RELAY_VERSION",
    "MailboxEnd",
    "MailboxJoin",
    "MailboxLimits",
    "MailboxOpen",
    "MailboxSay",
    "Nameplate",
    "RELAY_REFUSALS",
    "RelayLimits",
    "RelayNode",
]
