"""The relay's mailbox for join codes, sans-IO: its messages and its nameplates.

A relay can be a join code's rendezvous (as a magic-wormhole mailbox is): a host asks it for
a **nameplate** (the code's number), and a joiner who types the code asks the relay to put it
through to that nameplate's host.  The relay then passes opaque exchange messages (the SPAKE2
code exchange of :mod:`netplay.lan._joincode`, unchanged) between the two, one **channel** per
joiner.  It learns the number and the messages' sizes, never the code's words nor the invite
(sealed under the key the exchange agrees).

This module owns:

* :data:`RELAY_VERSION` -- the relay protocol's version (1: tables and spectators; 2: this
  mailbox) and :data:`MAILBOX_SCOPE`, the link scope of every mailbox link;
* the messages (:class:`MailboxOpen`, :class:`Nameplate`, :class:`MailboxJoin`,
  :class:`MailboxSay`, :class:`MailboxEnd`);
* :class:`Nameplates` -- which numbers are taken, by whom, since when, within
  :class:`MailboxLimits`.

docs/netplay.md ("Join codes through a relay") specifies the messages.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import attrs

from fairtable.protocol.wire import blob, integer, message

__all__ = [
    "BUSY",
    "CODE_EXPIRED",
    "HOST_LEFT",
    "MAILBOX_SCOPE",
    "MAX_SAY",
    "NO_SUCH_CODE",
    "RELAY_VERSION",
    "MailboxEnd",
    "MailboxJoin",
    "MailboxLimits",
    "MailboxOpen",
    "MailboxSay",
    "Nameplate",
    "Nameplates",
]

RELAY_VERSION = 2
"""The relay protocol: 1 served tables and spectators; 2 adds the join-code mailbox."""

MAILBOX_SCOPE = hashlib.sha256(b"fairtable/relay-mailbox/v2").digest()
"""The link scope of a mailbox link (its secret is the public relay secret)."""

MAX_SAY = 1200
"""The longest exchange message the mailbox passes (a sealed invite of 1024 characters fits)."""

MAX_NUMBER = 999
"""Nameplates are 1..999; a relay hands out 1..99 while it can (shorter codes)."""

# Bye reasons of the mailbox (what a host or joiner is told when the relay closes the link)
NO_SUCH_CODE = "no table with that code at this relay"
BUSY = "busy"
CODE_EXPIRED = "the code expired"
HOST_LEFT = "the host left"
TOO_MANY_CODES = "too many codes from your address"
MAILBOX_FULL = "relay full"
TOO_MUCH = "too many messages"


@message("mailbox-open")
@attrs.frozen
class MailboxOpen:
    """Host to relay, the first message of a host's mailbox link: give me a nameplate."""

    version: int = integer(hi=0xFFFF)


@message("nameplate")
@attrs.frozen
class Nameplate:
    """Relay to host: your number, and how many seconds the relay keeps it at most."""

    number: int = integer(lo=1, hi=MAX_NUMBER)
    seconds: int = integer(hi=1 << 31)


@message("mailbox-join")
@attrs.frozen
class MailboxJoin:
    """Joiner to relay, the first message of a joiner's mailbox link: put me through to
    nameplate ``number``, and pass ``say`` (the exchange's first message) to its host."""

    version: int = integer(hi=0xFFFF)
    number: int = integer(lo=1, hi=MAX_NUMBER)
    say: bytes = blob(max_len=MAX_SAY)


@message("mailbox-say")
@attrs.frozen
class MailboxSay:
    """One exchange message.  Between relay and host, ``channel`` names the joiner; between
    relay and joiner it is 0."""

    channel: int = integer(hi=1 << 31)
    say: bytes = blob(max_len=MAX_SAY)


@message("mailbox-end")
@attrs.frozen
class MailboxEnd:
    """Relay to host: the joiner of ``channel`` is gone (the host forgets its exchange)."""

    channel: int = integer(hi=1 << 31)


def _positive(_inst: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"MailboxLimits.{attribute.name} must be a positive number")


@attrs.frozen
class MailboxLimits:
    """What the mailbox lets strangers make a relay hold."""

    nameplates: int = attrs.field(default=256, validator=_positive)
    """Nameplates at once (one per host link)."""
    per_source: int = attrs.field(default=4, validator=_positive)
    """Nameplates at once from one source address (``_relay_quota.source_of``)."""
    seconds: float = attrs.field(default=3600.0, validator=_positive)
    """A nameplate lives at most this long (then its host's link is closed)."""
    channels: int = attrs.field(default=8, validator=_positive)
    """Joiners put through to one nameplate at once (more are told ``busy``)."""
    says: int = attrs.field(default=4, validator=_positive)
    """Messages each side of a channel may send (an exchange needs 2)."""
    channel_seconds: float = attrs.field(default=10.0, validator=_positive)
    """A channel lives at most this long (the exchange needs well under a second)."""


@attrs.define
class _Plate:
    source: str
    opened: float


class Nameplates:
    """The numbers a relay has handed out: to whom (a source) and when."""

    def __init__(self, limits: MailboxLimits | None = None, rng: random.Random | None = None):
        self.limits = limits or MailboxLimits()
        self.taken: dict[int, _Plate] = {}
        self._rng = rng or random.Random()

    def claim(self, source: str, now: float) -> int | str:
        """A fresh number for a host from ``source``, or why there is none."""
        if sum(p.source == source for p in self.taken.values()) >= self.limits.per_source:
            return TOO_MANY_CODES
        if len(self.taken) >= min(self.limits.nameplates, MAX_NUMBER):
            return MAILBOX_FULL
        for low, high in ((1, 99), (100, MAX_NUMBER)):
            free = [n for n in range(low, high + 1) if n not in self.taken]
            if free:
                number = self._rng.choice(free)
                self.taken[number] = _Plate(source, now)
                return number
        return MAILBOX_FULL  # pragma: no cover -- nameplates < MAX_NUMBER

    def release(self, number: int) -> None:
        self.taken.pop(number, None)
