"""LAN discovery of open tables by UDP broadcast (a hint, never a credential).

This module owns the announcement datagram and its two ends:

* :func:`announce` -- a host broadcasts a small JSON datagram every
  ``interval`` seconds: game, seats, free seats, host, port and the host's
  key fingerprint.  **Never the invite secret** (nor the table id): joining
  still needs the invite, and the link handshake checks the host key;
* :func:`listen` -- collects the distinct tables heard for ``duration``
  seconds; :func:`open_listener` gives the underlying socket for callers
  that want announcements as they arrive.

Datagram (UTF-8 JSON object, at most :data:`MAX_DATAGRAM` bytes)::

    {"app": "fairtable", "v": 3, "game": "reign", "seats": 5, "free": 2,
     "host": "192.168.1.20", "port": 4711, "fingerprint": "<64 hex digits>"}

A host that offers a join code (:mod:`netplay.lan._joincode`) adds ``"code": N`` -- the
code's table number, never its words -- and ``"code_port"``, the TCP port of its code
exchange.  A table that plays on when a seat vanishes adds ``"leavers": "go-on"`` (the
invite's rule, :class:`~protocol.Leavers`; left out: the game ends).  An empty ``host``
means "the address this datagram came from".  Anything
else -- wrong app, version, field, type or range, extra fields, oversize --
is ignored silently: anyone on the LAN can send datagrams.  The destination
address and port are parameters so tests stay on loopback.
"""

from __future__ import annotations

import json
import logging
import re
import socket
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import attrs
import trio

from fairtable.protocol import PROTOCOL_VERSION, Bounds, Leavers, UntrustedInput, read_json

from ..table import (
    Invite,
    InviteError,
    check_game,
    check_host,
    check_port,
    check_seats,
    name_problem,
)

__all__ = [
    "BROADCAST",
    "DISCOVERY_PORT",
    "MAX_DATAGRAM",
    "Announcement",
    "BadAnnouncement",
    "DiscoveryListener",
    "HeardTables",
    "MAX_TABLES_HEARD",
    "announce",
    "listen",
    "open_listener",
]

log = logging.getLogger("fairtable.netplay.discovery")

DISCOVERY_PORT = 47317
"""Default UDP port of table announcements."""
MAX_TABLES_HEARD = 256
"""Distinct tables :func:`listen` keeps (a LAN flood of made-up ones past that is dropped)."""

BROADCAST = "255.255.255.255"
"""Default destination of announcements (the local network's broadcast address)."""

MAX_DATAGRAM = 1024
_DATAGRAM = Bounds(size=MAX_DATAGRAM, depth=2)  # one flat object
"""Longer datagrams are ignored."""

_APP = "fairtable"
_FIELDS = frozenset({"app", "v", "game", "seats", "free", "host", "port", "fingerprint", "name"})
_CODE_FIELDS = frozenset({"code", "code_port"})
_LEAVERS_FIELD = frozenset({"leavers"})
_FINGERPRINT_RE = re.compile(r"[0-9a-f]{64}")


class BadAnnouncement(ValueError):
    """A datagram that is not a valid announcement (listeners drop it)."""


def _via(check: Callable[[Any], object]) -> Callable[[Any, Any, Any], None]:
    """An attrs validator running an invite field check, raising BadAnnouncement."""

    def validate(_inst: Any, _attr: Any, value: Any) -> None:
        try:
            check(value)
        except InviteError as exc:
            raise BadAnnouncement(str(exc)) from None

    return validate


def _check_fingerprint(_inst: Any, _attr: Any, value: Any) -> None:
    if type(value) is not str or _FINGERPRINT_RE.fullmatch(value) is None:
        raise BadAnnouncement("fingerprint must be 64 lower-case hex digits")


def _check_name(_inst: Any, _attr: Any, value: Any) -> None:
    if type(value) is not str:
        raise BadAnnouncement("a host's name is a string")
    problem = name_problem(value) if value else None
    if problem is not None:
        raise BadAnnouncement(f"host's name: {problem}")


def _check_host(value: Any) -> None:
    if value != "":
        check_host(value)


@attrs.frozen
class Announcement:
    """What a host tells the LAN about one open table."""

    game: str = attrs.field(validator=_via(check_game))
    seats: int = attrs.field(validator=_via(check_seats))
    free: int
    host: str = attrs.field(validator=_via(_check_host))
    """Address to connect to; ``""`` in a datagram means its source address."""
    port: int = attrs.field(validator=_via(check_port))
    fingerprint: str = attrs.field(validator=_check_fingerprint)
    """The host's player id (SHA-256 of its Ed25519 key, hex); compare it with the invite's."""
    name: str = attrs.field(default="", validator=_check_name)
    """The host's player name (``--name``), ``""`` for none: what ``tables`` shows people.  A
    hint like the rest: anyone on the LAN can announce any name; the invite decides."""
    code: int | None = None
    """The table's number in its join code (the words are never announced), or None."""
    code_port: int | None = None
    """The TCP port of the host's join-code exchange (with ``code``)."""
    leavers: Leavers = Leavers.END
    """What the table does when a seat vanishes (the invite's rule, which decides)."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.leavers, Leavers):
            raise BadAnnouncement(f"leavers {str(self.leavers)[:20]!r} is not a rule")
        if type(self.free) is not int or not 0 <= self.free <= self.seats:
            raise BadAnnouncement(f"free seats {self.free!r} not in 0..{self.seats}")
        if (self.code is None) != (self.code_port is None):
            raise BadAnnouncement("code and code_port come together")
        if self.code is not None:
            if type(self.code) is not int or not 1 <= self.code <= 999:
                raise BadAnnouncement(f"code number {self.code!r} not in 1..999")
            _via(check_port)(None, None, self.code_port)

    @classmethod
    def from_invite(
        cls,
        invite: Invite,
        *,
        free: int,
        host: str | None = None,
        code: int | None = None,
        code_port: int | None = None,
        name: str = "",
    ) -> Announcement:
        """The announcement of ``invite``'s table (everything but its secret and table id)."""
        return cls(
            code=code,
            code_port=code_port,
            game=invite.game,
            seats=invite.seats,
            free=free,
            host=invite.host if host is None else host,
            port=invite.port,
            fingerprint=invite.fingerprint,
            name=name,
            leavers=invite.leavers,
        )

    @property
    def key(self) -> tuple[str, int, str]:
        """What makes two announcements the same table: ``(host, port, fingerprint)``."""
        return self.host, self.port, self.fingerprint

    def to_bytes(self) -> bytes:
        """The datagram."""
        plain = {
            "app": _APP,
            "v": PROTOCOL_VERSION,
            "game": self.game,
            "seats": self.seats,
            "free": self.free,
            "host": self.host,
            "port": self.port,
            "fingerprint": self.fingerprint,
            "name": self.name,
        }
        if self.code is not None:
            plain.update(code=self.code, code_port=self.code_port)
        if self.leavers is not Leavers.END:
            plain["leavers"] = self.leavers.value
        return json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
            "utf-8"
        )

    @classmethod
    def from_bytes(cls, data: bytes, *, source: str | None = None) -> Announcement:
        """Parse a datagram; ``source`` fills an empty ``host``.  Raises BadAnnouncement."""
        if len(data) > MAX_DATAGRAM:
            raise BadAnnouncement("datagram too long")
        try:
            plain = read_json(data, f"announcement from {source or 'the LAN'}", _DATAGRAM)
        except UntrustedInput as exc:
            raise BadAnnouncement(f"not JSON: {exc.why}") from None
        shapes = (_FIELDS, _FIELDS | _CODE_FIELDS)
        if type(plain) is not dict or set(plain) - _LEAVERS_FIELD not in shapes:
            raise BadAnnouncement("not an announcement object")
        if plain.get("leavers", Leavers.GO_ON.value) != Leavers.GO_ON.value:
            raise BadAnnouncement("leavers is written only as go-on")
        if plain["app"] != _APP or plain["v"] != PROTOCOL_VERSION or type(plain["v"]) is not int:
            raise BadAnnouncement("another application or version")
        host = plain["host"]
        if host == "" and source is not None:
            host = source
        try:
            return cls(
                game=plain["game"],
                seats=plain["seats"],
                free=plain["free"],
                host=host,
                port=plain["port"],
                fingerprint=plain["fingerprint"],
                name=plain["name"],
                code=plain.get("code"),
                code_port=plain.get("code_port"),
                leavers=Leavers.GO_ON if "leavers" in plain else Leavers.END,
            )
        except TypeError as exc:
            raise BadAnnouncement(str(exc)) from None


async def announce(
    summary: Announcement | Callable[[], Announcement],
    *,
    port: int = DISCOVERY_PORT,
    address: str | Sequence[str] = BROADCAST,
    interval: float = 2.0,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Broadcast ``summary`` to ``address:port`` every ``interval`` seconds until cancelled.

    ``address`` may be several addresses (e.g. 255.255.255.255 and each LAN's own
    broadcast address: a machine without a default route cannot send to the former).

    ``summary`` is an :class:`Announcement` or a function returning the current
    one (so the free-seat count stays fresh).  Send errors (no network) are
    logged and retried at the next interval.
    """
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        task_status.started()
        while True:
            current = summary if isinstance(summary, Announcement) else summary()
            if not isinstance(current, Announcement):
                raise TypeError("announce() needs an Announcement or a function returning one")
            for destination in [address] if isinstance(address, str) else address:
                try:
                    await sock.sendto(current.to_bytes(), (destination, port))
                except OSError as exc:
                    log.debug("announcement to %s:%s failed: %s", destination, port, exc)
            await trio.sleep(interval)


class DiscoveryListener:
    """A bound UDP socket yielding valid announcements (invalid datagrams are skipped)."""

    def __init__(self, sock: trio.socket.SocketType) -> None:
        self._sock = sock
        self.ignored = 0
        """Datagrams dropped as invalid."""

    @property
    def port(self) -> int:
        """The bound UDP port."""
        return int(self._sock.getsockname()[1])

    async def receive(self) -> Announcement:
        """The next valid announcement."""
        while True:
            data, source = await self._sock.recvfrom(MAX_DATAGRAM + 1)
            try:
                return Announcement.from_bytes(data, source=str(source[0]))
            except BadAnnouncement as exc:
                self.ignored += 1
                log.debug("ignored datagram from %s: %s", source, exc)

    def __aiter__(self) -> DiscoveryListener:
        return self

    async def __anext__(self) -> Announcement:
        return await self.receive()

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> DiscoveryListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def open_listener(*, port: int = DISCOVERY_PORT, host: str = "") -> DiscoveryListener:
    """Bind a listener on ``host:port`` (``""``: every interface, needed to hear broadcasts).

    Several listeners may share a port (``SO_REUSEADDR``); each hears every broadcast.
    """
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        await sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return DiscoveryListener(sock)


async def listen(
    *, port: int = DISCOVERY_PORT, duration: float = 2.0, host: str = ""
) -> list[Announcement]:
    """The distinct tables announced on ``host:port`` during ``duration`` seconds.

    Sorted by game, host and port; for a table heard several times, the latest wins.
    """
    heard = HeardTables()
    with await open_listener(port=port, host=host) as listener:
        with trio.move_on_after(duration):
            async for announcement in listener:
                heard.add(announcement)
    return heard.tables()


class HeardTables:
    """The distinct tables heard, at most :data:`MAX_TABLES_HEARD` (anyone on the LAN can
    send datagrams: a flood of made-up tables past that is dropped, the ones heard first
    kept; a table heard again replaces its own entry)."""

    def __init__(self) -> None:
        self._tables: dict[tuple[str, int, str], Announcement] = {}

    def add(self, announcement: Announcement) -> None:
        if announcement.key in self._tables or len(self._tables) < MAX_TABLES_HEARD:
            self._tables[announcement.key] = announcement

    def tables(self) -> list[Announcement]:
        """Sorted by game, host, port and fingerprint."""
        return sorted(self._tables.values(), key=lambda a: (a.game, a.host, a.port, a.fingerprint))
