"""What a relay lets a stranger make it keep: the quota of tables without a signed start.

Anyone who reaches a relay can open a table under any relay token, so until a table shows a
table start signed by its host the relay holds it on probation: it is kept in memory only
(nothing on disk), within a number of messages and bytes, for a limited time, and only so
many such tables at once -- overall, per source address (an IPv4 address, or an IPv6
/64, which one machine usually has whole) and per network (an IPv4 /24, an IPv6 /48: what
one host or one cloud subnet usually holds whole).  Places are cheap to hold but costly to
fill: when every one is taken, a newcomer pushes out the oldest table of the network
holding the most places (unless its own network holds as many: then it is refused), so
strangers spread over a few networks push out each other, not a real lobby; only an
adversary holding addresses in more networks than there are places can push out a
lobby, and even then only to make its host link again.  Started tables (anyone can sign
a start for a table of their own) and open links are bounded too.  A refused table is
told why in words its host prints (:data:`RELAY_FULL`, :data:`TOO_MANY_FROM_YOU`).

Sans-IO: :class:`RelayQuota` takes plain calls (a table opens, holds a message, starts, is
dropped; what expired by ``now``) and answers with a refusal reason or None; the relay's
trio code (``_relay``) closes links and writes files.
"""

from __future__ import annotations

import ipaddress
from typing import Any

import attrs

__all__ = [
    "EVICTED",
    "EXPIRED",
    "OVER_BUDGET",
    "RELAY_FULL",
    "RELAY_REFUSALS",
    "TOO_LARGE",
    "TOO_MANY_FROM_YOU",
    "RelayLimits",
    "RelayQuota",
    "network_of",
    "source_of",
]

RELAY_FULL = "relay full"
TOO_MANY_FROM_YOU = "too many tables from your address"
OVER_BUDGET = "too much before the table start"
TOO_LARGE = "the table is too large for this relay"
EXPIRED = "the table did not start in time"
EVICTED = "the relay made room for another table"
RELAY_REFUSALS: frozenset[str] = frozenset({RELAY_FULL, TOO_MANY_FROM_YOU, OVER_BUDGET, TOO_LARGE})
"""Why a relay will not keep a table (``Bye`` reasons); a host told one before its start
gives up and says why.  :data:`EXPIRED` and :data:`EVICTED` are not: the lobby's peers
link again, and the table opens anew."""


def _positive(_inst: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"RelayLimits.{attribute.name} must be a positive number")


@attrs.frozen
class RelayLimits:
    """How much a relay keeps; the ``unstarted`` limits are for tables with no signed start."""

    tables: int = attrs.field(default=256, validator=_positive)
    """Tables at once, started or not."""
    unstarted: int = attrs.field(default=32, validator=_positive)
    """Tables without a signed start at once."""
    unstarted_per_source: int = attrs.field(default=4, validator=_positive)
    """Tables without a signed start opened from one source address."""
    unstarted_per_network: int = attrs.field(default=8, validator=_positive)
    """Tables without a signed start opened from one network (:func:`network_of`)."""
    per_source: int = attrs.field(default=32, validator=_positive)
    """Tables opened from one source address since the relay started, but those dropped
    before their start (started tables stay until the relay stops)."""
    unstarted_bytes: int = attrs.field(default=128 * 1024, validator=_positive)
    """Bytes of messages kept for one table before its start (a real lobby needs < 40 KiB)."""
    unstarted_messages: int = attrs.field(default=256, validator=_positive)
    """Messages kept for one table before its start."""
    unstarted_seconds: float = attrs.field(default=1800.0, validator=_positive)
    """A table that shows no signed start this long after it opened is dropped."""
    links: int = attrs.field(default=512, validator=_positive)
    """Links at once (each one holds a socket)."""
    links_per_source: int = attrs.field(default=64, validator=_positive)
    """Links at once from one source address."""
    table_bytes: int = attrs.field(default=16 << 20, validator=_positive)
    """Bytes kept for one started table (a whole Reign game of 7 seats is well under 1 MiB):
    anyone can sign a start for a table of their own, so started tables are bounded too."""


def source_of(address: str) -> str:
    """The source a link counts against: its IPv4 address, or its IPv6 /64 (``"?"`` when
    unknown).  ``address`` is a link's ``host:port``."""
    host = address.rsplit(":", 1)[0].strip("[]") if ":" in address else address
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host or "?"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def network_of(source: str) -> str:
    """The network a source belongs to: an IPv4 /24 or an IPv6 /48 (else the source)."""
    try:
        net = ipaddress.ip_network(source, strict=False)
    except ValueError:
        return source
    prefix = 24 if net.version == 4 else 48
    return str(net.supernet(new_prefix=prefix)) if net.prefixlen > prefix else str(net)


@attrs.define
class _Probation:
    source: str
    opened: float
    messages: int = 0
    size: int = 0


class RelayQuota:
    """The tables a relay holds, and the probation of those without a signed start."""

    def __init__(self, limits: RelayLimits | None = None) -> None:
        self.limits = limits or RelayLimits()
        self.started: dict[bytes, int] = {}  # bytes each started table holds
        self.unstarted: dict[bytes, _Probation] = {}
        self.opened_by: dict[str, int] = {}  # tables each source opened and the relay keeps
        self.links_from: dict[str, int] = {}  # open links by source
        self._evicted: list[bytes] = []  # pushed out to make room, not yet told to the relay

    def link(self, source: str) -> str | None:
        """A link from ``source`` comes in: None if it may stay (it counts until
        :meth:`unlink`), else why not."""
        if sum(self.links_from.values()) >= self.limits.links:
            return RELAY_FULL
        if self.links_from.get(source, 0) >= self.limits.links_per_source:
            return TOO_MANY_FROM_YOU
        self.links_from[source] = self.links_from.get(source, 0) + 1
        return None

    def unlink(self, source: str) -> None:
        """A link :meth:`link` let in is gone."""
        _decrement(self.links_from, source)

    def known(self, scope: bytes) -> bool:
        return scope in self.started or scope in self.unstarted

    def open(self, scope: bytes, source: str, now: float) -> str | None:
        """A link from ``source`` subscribes to ``scope``: None if the relay takes it (a new
        table starts its probation), else why not."""
        if self.known(scope):
            return None
        limits = self.limits
        if len(self.started) + len(self.unstarted) >= limits.tables:
            return RELAY_FULL
        network = network_of(source)
        held = self._held_by_network()
        if (
            self.opened_by.get(source, 0) >= limits.per_source
            or sum(p.source == source for p in self.unstarted.values())
            >= limits.unstarted_per_source
            or held.get(network, 0) >= limits.unstarted_per_network
        ):
            return TOO_MANY_FROM_YOU
        if len(self.unstarted) >= limits.unstarted and not self._make_room(network, held):
            return RELAY_FULL
        self.unstarted[scope] = _Probation(source, now)
        self.opened_by[source] = self.opened_by.get(source, 0) + 1
        return None

    def _held_by_network(self) -> dict[str, int]:
        held: dict[str, int] = {}
        for p in self.unstarted.values():
            network = network_of(p.source)
            held[network] = held.get(network, 0) + 1
        return held

    def _make_room(self, network: str, held: dict[str, int]) -> bool:
        """Push out the oldest table of the networks holding the most places (the least
        scope on a tie), if they hold more than ``network`` does."""
        most = max(held.values())
        if held.get(network, 0) >= most:
            return False
        victim = min(
            (p.opened, scope)
            for scope, p in self.unstarted.items()
            if held[network_of(p.source)] == most
        )[1]
        self.drop(victim)
        self._evicted.append(victim)
        return True

    def evicted(self) -> list[bytes]:
        """The tables pushed out to make room since the last call (their links must go)."""
        out, self._evicted = self._evicted, []
        return out

    def hold(self, scope: bytes, size: int) -> str | None:
        """May the table keep one more message of ``size`` bytes?  None (and it is counted),
        or why not."""
        probation = self.unstarted.get(scope)
        if probation is None:
            if scope not in self.started:
                return None  # not a table the relay keeps
            if self.started[scope] + size > self.limits.table_bytes:
                return TOO_LARGE
            self.started[scope] += size
            return None
        if (
            probation.messages + 1 > self.limits.unstarted_messages
            or probation.size + size > self.limits.unstarted_bytes
        ):
            return OVER_BUDGET
        probation.messages += 1
        probation.size += size
        return None

    def start(self, scope: bytes, size: int | None = None) -> None:
        """The table showed a signed start: it is kept, and off probation.  ``size``: the
        bytes it holds (default: what it held on probation)."""
        probation = self.unstarted.pop(scope, None)
        if size is None:
            size = 0 if probation is None else probation.size
        self.started[scope] = size

    def drop(self, scope: bytes) -> None:
        """The relay forgets the table; one that never started no longer counts against its
        source."""
        probation = self.unstarted.pop(scope, None)
        if probation is not None:
            _decrement(self.opened_by, probation.source)
        self.started.pop(scope, None)

    def expired(self, now: float) -> list[bytes]:
        """The tables still without a start ``unstarted_seconds`` after they opened."""
        limit = self.limits.unstarted_seconds
        return [scope for scope, p in self.unstarted.items() if now - p.opened >= limit]

    def held_bytes(self) -> int:
        """Bytes held for tables without a start, all together."""
        return sum(p.size for p in self.unstarted.values())


def _decrement(counts: dict[str, int], key: str) -> None:
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]
