"""Link-level messages and the handshake conversation.

This module owns what two ends of a link say to each other *about the link*,
as opposed to the table traffic the node carries over it:

* the message types ``link-hello``, ``link-auth``, ``link-ping``,
  ``link-pong`` and ``link-bye`` (attrs classes registered with
  :func:`protocol.message`, encoded with :func:`protocol.encode`);
* the handshake transcript and the checks on each received handshake message
  (sans-IO), which raise :class:`LinkClosed` with a short stable reason;
* the two sides of the handshake over a fresh trio stream
  (:func:`client_handshake`, :func:`server_handshake`) and the way a refused
  stream is closed (``Bye``, half-close, linger);
* :class:`PeerInfo` (who is at the other end, in a :class:`LinkRole`) and
  :class:`LinkClosed` (the one exception a link raises when it ends), whose reason, when it
  is one of the words links themselves say, is also a :class:`LinkReason`.

Deadlines, open links, heartbeats and serving are ``_link``'s; the
specification is the section "Links and handshake" of ``docs/netplay.md``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Callable
from contextlib import suppress
from enum import StrEnum
from typing import Any, NoReturn, TypeVar

import attrs
import trio

from fairtable.protocol import (
    PROTOCOL_VERSION,
    BadSignature,
    DecodeError,
    FieldError,
    Identity,
    InvalidPoint,
    LocalProtocolError,
    PublicIdentity,
    UnsupportedVersion,
    decode,
    encode,
    message,
)
from fairtable.protocol.wire import blob, integer

from ._frames import HEADER_SIZE, encode_frame

__all__ = [
    "GONE",
    "HANDSHAKE_MAX_FRAME",
    "HELLO_DOMAIN",
    "LINK_MESSAGES",
    "MAX_REASON",
    "ROLES",
    "Auth",
    "Bye",
    "Handshake",
    "Hello",
    "LinkClosed",
    "LinkReason",
    "LinkRole",
    "PeerInfo",
    "Ping",
    "Pong",
    "auth_for",
    "check_auth",
    "check_hello",
    "client_handshake",
    "close_stream",
    "hello_for",
    "reason_text",
    "refuse",
    "send_bye",
    "server_handshake",
    "transcript",
]

HELLO_DOMAIN = b"fairtable/hello/v1"
"""Domain string of the handshake transcript."""


class LinkRole(StrEnum):
    """What an end of a link may be; the value is the word its ``Hello`` carries."""

    PEER = "peer"  # a seated (or seating) player
    RELAY = "relay"  # a seatless relay
    OBSERVER = "observer"  # a spectator


ROLES = tuple(role.value for role in LinkRole)
"""The words a ``Hello``'s role may be."""


class LinkReason(StrEnum):
    """The reasons links and tables themselves give when a link ends; the value is the word
    a ``Bye`` carries (a peer may send any other printable words, kept as they came)."""

    CLOSED = "closed"  # closed on purpose, no reason given
    DONE = "done"  # the game (or the watch) ended
    SHUTDOWN = "shutdown"  # this end is going away
    CANCELLED = "cancelled"  # a send cancelled mid-frame: the stream is out of step
    IDLE = "idle"  # nothing heard for too long
    DISCONNECTED = "disconnected"  # the stream ended without a Bye
    STALLED = "stalled"  # a write did not drain in time
    TIMEOUT = "timeout"  # the handshake (or an answer) took too long
    UNREACHABLE = "unreachable"  # the dial never connected
    BUSY = "busy"  # too many handshakes (or exchanges) in progress
    INVITE = "invite"  # the other end does not know the invite's secret
    KEY = "key"  # not the key the invite names
    VERSION = "version"  # another protocol version
    SCOPE = "scope"  # a link for another lobby or table
    SIGNATURE = "signature"  # a handshake not signed by the key in its Hello
    MALFORMED = "malformed"  # a message that does not decode
    OVERSIZE = "oversize"  # a frame over the cap
    NOT_AUTHORISED = "not authorised"  # a started table: the key holds none of its seats
    NOT_STARTED = "the table has not started"  # a spectator came too early
    TOO_MANY_SPECTATORS = "too many spectators"
    FLOOD = "flood"  # a spectator that does not read what it is sent
    TOO_SLOW = "too slow"  # our queue to a peer overflowed

    @classmethod
    def of(cls, words: str) -> LinkReason | None:
        """The reason ``words`` say, or None for words links do not say themselves."""
        return _KNOWN_REASONS.get(words)


_KNOWN_REASONS = {reason.value: reason for reason in LinkReason}

MAX_REASON = 120
"""Longest ``Bye`` reason."""

HANDSHAKE_MAX_FRAME = 1024
"""Largest frame accepted before the handshake completes (a Hello is ~220 bytes)."""

_REASON_RE = re.compile(rf"[ -~]{{1,{MAX_REASON}}}")  # printable ASCII
_DRAIN_CHUNK = 64 * 1024
GONE = (trio.BrokenResourceError, trio.ClosedResourceError)
"""What a stream raises once the other end (or we) closed it."""

T = TypeVar("T")


class LinkClosed(Exception):
    """A link ended (or never got going); the one exception links raise.

    ``reason`` is a short stable string (see ``docs/netplay.md``), e.g.
    ``"invite"`` (wrong invite secret), ``"idle"`` or ``"disconnected"``.
    ``by_peer`` is true when the other end said so in a ``Bye``.  ``peer`` is
    what the other end claimed in its ``Hello``, when it got that far.
    """

    def __init__(self, reason: str, *, by_peer: bool = False, peer: PeerInfo | None = None) -> None:
        super().__init__(str(reason))
        self.reason = str(reason)  # the words as said (a LinkReason member is its word)
        self.by_peer = by_peer
        self.peer = peer

    @property
    def why(self) -> LinkReason | None:
        """The reason as a :class:`LinkReason`, or None for words links do not say themselves."""
        return LinkReason.of(self.reason)

    def __str__(self) -> str:
        who = "link closed by peer" if self.by_peer else "link closed"
        return f"{who}: {self.reason}"


def _check_reason(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if type(value) is not str or _REASON_RE.fullmatch(value) is None:
        raise FieldError(f"field {attribute.name!r}: 1-{MAX_REASON} printable ASCII characters")


def _check_role(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value not in ROLES:
        raise FieldError(f"field {attribute.name!r}: a role is one of {', '.join(ROLES)}")


def _role() -> Any:
    """An attrs field holding a role (one of :data:`ROLES`)."""
    return attrs.field(validator=_check_role)


@attrs.frozen
class PeerInfo:
    """Who is at the other end of a link, as proven by the handshake."""

    key: bytes = attrs.field(repr=lambda k: k.hex()[:16])
    """The peer's Ed25519 public key (32 bytes); its fingerprint is the player id."""
    role: LinkRole = attrs.field(converter=LinkRole)
    """What the other end said it is (its ``Hello`` carried one of :data:`ROLES`)."""
    scope: bytes = attrs.field(repr=lambda k: k.hex()[:16])
    """What the link is for (32 bytes): a lobby or table id."""


@message("link-hello")
@attrs.frozen
class Hello:
    """First message of each end: who I am and what this link is for."""

    version: int = integer(hi=0xFFFF)
    role: str = _role()
    key: bytes = blob(exact=32)
    nonce: bytes = blob(exact=32)
    scope: bytes = blob(exact=32)


@message("link-auth")
@attrs.frozen
class Auth:
    """Second message of each end: proof of its key (``sig``) and of the shared secret (``mac``)."""

    sig: bytes = blob(exact=64)
    mac: bytes = blob(exact=32)


@message("link-ping")
@attrs.frozen
class Ping:
    """Heartbeat; the other end answers with ``Pong(n)``."""

    n: int = integer()


@message("link-pong")
@attrs.frozen
class Pong:
    """Answer to ``Ping(n)``."""

    n: int = integer()


@message("link-bye")
@attrs.frozen
class Bye:
    """Last message before closing: why (becomes :attr:`LinkClosed.reason` at the other end)."""

    reason: str = attrs.field(validator=_check_reason)


LINK_MESSAGES: tuple[type, ...] = (Hello, Auth, Ping, Pong, Bye)
"""Every link-level message type."""


def reason_text(reason: str) -> str:
    """``reason`` squeezed into a valid ``Bye`` reason."""
    text = "".join(ch if " " <= ch <= "~" else "?" for ch in reason)[:MAX_REASON]
    return text or "closed"


# --------------------------------------------------------------------------- handshake


def _framed(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def transcript(client: Hello, server: Hello) -> bytes:
    """The handshake transcript both ends sign and MAC.

    ``"fairtable/hello/v1" || frame(u16(version), scope, client key, server key,
    client nonce, server nonce, client role, server role)`` where ``frame``
    length-prefixes every part with a u32 (``docs/protocol.md`` §1).
    """
    return HELLO_DOMAIN + _framed(
        client.version.to_bytes(2, "big"),
        client.scope,
        client.key,
        server.key,
        client.nonce,
        server.nonce,
        client.role.encode("ascii"),
        server.role.encode("ascii"),
    )


def _side(initiator: bool) -> bytes:
    return b"client" if initiator else b"server"


def hello_for(identity: Identity, role: str, scope: bytes, *, nonce: bytes | None = None) -> Hello:
    """This end's ``Hello`` with a fresh 32-byte nonce."""
    return Hello(
        version=PROTOCOL_VERSION,
        role=str(role),
        key=identity.public.key,
        nonce=os.urandom(32) if nonce is None else nonce,
        scope=scope,
    )


def check_hello(hello: Hello, *, scope: bytes | None = None) -> PeerInfo:
    """Validate the other end's ``Hello``; ``scope`` is the one this end expects.

    Raises :class:`LinkClosed` with reason ``"version"``, ``"scope"`` or
    ``"malformed"`` (a key that is no valid Ed25519 point).
    """
    info = PeerInfo(key=hello.key, role=hello.role, scope=hello.scope)
    if hello.version != PROTOCOL_VERSION:
        raise LinkClosed(LinkReason.VERSION, peer=info)
    if scope is not None and not hmac.compare_digest(hello.scope, scope):
        raise LinkClosed(LinkReason.SCOPE, peer=info)
    try:
        PublicIdentity.from_bytes(hello.key)
    except InvalidPoint as exc:
        raise LinkClosed(LinkReason.MALFORMED, peer=info) from exc
    return info


def _mac(secret: bytes, data: bytes) -> bytes:
    return hmac.new(secret, data, hashlib.sha256).digest()


def auth_for(identity: Identity, secret: bytes, text: bytes, *, initiator: bool) -> Auth:
    """This end's ``Auth`` over transcript ``text``."""
    if len(secret) != 32:
        raise LocalProtocolError("a link secret is exactly 32 bytes")
    data = _side(initiator) + text
    return Auth(sig=identity.sign(data), mac=_mac(secret, data))


def check_auth(auth: Auth, info: PeerInfo, secret: bytes, text: bytes, *, initiator: bool) -> None:
    """Check the other end's ``Auth``; ``initiator`` says whether *the other end* is the client.

    Raises :class:`LinkClosed` with reason ``"signature"`` (not signed by the
    key in its ``Hello``) or ``"invite"`` (it does not know the shared secret).
    """
    data = _side(initiator) + text
    try:
        PublicIdentity(info.key).verify(data, auth.sig)
    except BadSignature as exc:
        raise LinkClosed(LinkReason.SIGNATURE, peer=info) from exc
    if not hmac.compare_digest(_mac(secret, data), auth.mac):
        raise LinkClosed(LinkReason.INVITE, peer=info)


# --------------------------------------------------------------------------- handshake I/O


class Handshake:
    """Handshake I/O on a fresh stream: exact reads (never past the last handshake frame).

    ``ready`` is false while the stream cannot carry a message yet (its TLS
    handshake has not completed): a refusal then closes without a ``Bye``.
    """

    def __init__(self, stream: trio.abc.Stream, *, ready: bool = True) -> None:
        self.stream = stream
        self.ready = ready
        self.writing = False

    async def read_exact(self, size: int) -> bytes:
        buf = bytearray()
        while len(buf) < size:
            chunk = await self.stream.receive_some(size - len(buf))
            if not chunk:
                raise LinkClosed(LinkReason.DISCONNECTED)
            buf += chunk
        return bytes(buf)

    async def read(self, cls: type[T], peer: PeerInfo | None) -> T:
        size = int.from_bytes(await self.read_exact(HEADER_SIZE), "big")
        if size > HANDSHAKE_MAX_FRAME:
            raise LinkClosed(LinkReason.OVERSIZE, peer=peer)
        try:
            msg = decode(await self.read_exact(size))
        except UnsupportedVersion:
            raise LinkClosed(LinkReason.VERSION, peer=peer) from None
        except DecodeError:
            raise LinkClosed(LinkReason.MALFORMED, peer=peer) from None
        if isinstance(msg, Bye):
            raise LinkClosed(msg.reason, by_peer=True, peer=peer)
        if type(msg) is not cls:
            raise LinkClosed(LinkReason.MALFORMED, peer=peer)
        return msg

    async def write(self, msg: Any) -> None:
        self.writing = True
        await self.stream.send_all(encode_frame(encode(msg)))
        self.writing = False


async def client_handshake(
    hs: Handshake,
    identity: Identity,
    role: str,
    scope: bytes,
    secret: bytes,
    expect_key: bytes | None,
    *,
    tls_key: bytes | None = None,
) -> PeerInfo:
    """The connecting side: Hello, read Hello, Auth, read Auth; the server's PeerInfo.

    ``tls_key`` is the key of the certificate the server presented in the TLS
    handshake under this stream: the server's ``Hello`` must name that same key
    (``"key"``), which binds the signed transcript to the TLS channel.
    """
    mine = hello_for(identity, role, scope)
    await hs.write(mine)
    theirs = await hs.read(Hello, None)
    info = check_hello(theirs, scope=scope)
    if expect_key is not None and info.key != expect_key:
        raise LinkClosed(LinkReason.KEY, peer=info)
    if tls_key is not None and not hmac.compare_digest(info.key, tls_key):
        raise LinkClosed(LinkReason.KEY, peer=info)
    text = transcript(mine, theirs)
    await hs.write(auth_for(identity, secret, text, initiator=True))
    check_auth(await hs.read(Auth, info), info, secret, text, initiator=False)
    return info


async def server_handshake(
    hs: Handshake,
    identity: Identity,
    role: str,
    secrets_for: Callable[[bytes], bytes | None],
    authorize: Callable[[PeerInfo], bool],
) -> PeerInfo:
    """The accepting side: read Hello, Hello, read Auth, authorize, Auth; the client's PeerInfo."""
    theirs = await hs.read(Hello, None)
    info = check_hello(theirs)
    secret = secrets_for(info.scope)
    if secret is None:
        raise LinkClosed(LinkReason.SCOPE, peer=info)
    if type(secret) is not bytes or len(secret) != 32:
        raise LocalProtocolError("secrets_for() must return 32 bytes or None")
    mine = hello_for(identity, role, info.scope)
    await hs.write(mine)
    text = transcript(theirs, mine)
    check_auth(await hs.read(Auth, info), info, secret, text, initiator=True)
    if not authorize(info):
        raise LinkClosed(LinkReason.NOT_AUTHORISED, peer=info)
    await hs.write(auth_for(identity, secret, text, initiator=False))
    return info


async def send_bye(stream: trio.abc.Stream, reason: str, timeout: float) -> None:
    """Best-effort ``Bye(reason)``, given up after ``timeout`` seconds."""
    frame = encode_frame(encode(Bye(reason_text(reason))))
    with trio.move_on_after(timeout), suppress(*GONE):
        await stream.send_all(frame)


async def close_stream(stream: trio.abc.Stream, *, linger: float) -> None:
    """Close after a last message: half-close, then discard input until the peer closes too.

    Closing a socket with unread input makes the kernel send a reset, which can
    destroy our ``Bye`` before the peer reads it; lingering (at most ``linger``
    seconds) avoids that.  A TLS stream has no half-close of its own: its TCP
    stream is half-closed under it (the peer's TLS reads that as the end).
    """
    with trio.move_on_after(linger), suppress(*GONE, trio.BusyResourceError):
        half = stream.transport_stream if isinstance(stream, trio.SSLStream) else stream
        if isinstance(half, trio.abc.HalfCloseableStream):
            await half.send_eof()
        while await stream.receive_some(_DRAIN_CHUNK):
            pass
    await trio.aclose_forcefully(stream)


async def refuse(hs: Handshake, error: LinkClosed, bye_timeout: float) -> NoReturn:
    """Tell the peer why (unless it told us, or the stream is unusable), close, raise."""
    if hs.ready and not error.by_peer and not hs.writing and error.reason != "disconnected":
        await send_bye(hs.stream, error.reason, bye_timeout)
        await close_stream(hs.stream, linger=bye_timeout)
    else:
        await trio.aclose_forcefully(hs.stream)
    raise error
