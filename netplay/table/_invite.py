"""Table invites: what a host hands its friends, and the secrets derived from it.

This module owns the :class:`Invite` (where the table is, which table, whose
it is, and the shared secret that proves a joiner was invited), its one-line
text form, and the two values derived from the secret:

* :func:`relay_token` -- what a relay is given to admit invite holders
  (a hash: the relay never learns the invite secret);
* :func:`join_proof` -- an HMAC binding a player key to the invite, for a
  joiner to show it holds the invite when it asks for a seat.

Text form (one line, ASCII; all byte strings unpadded base64url)::

    fairtable://HOST:PORT/GAME/SEATS/TABLE?key=HOSTKEY&secret=SECRET[&relay=RELAYKEY][&leavers=go-on]

``HOST`` is a DNS name, an IPv4 address or ``[IPv6]``; ``TABLE`` is the
32-byte lobby id (:data:`LobbyId`), ``HOSTKEY`` the host's Ed25519 public key; ``RELAYKEY``
(a table played through a relay) the relay's key, which a joiner's link to the relay
is pinned to (so nobody answering as the relay learns the relay token).  ``leavers=go-on``
says the table plays on when a seat vanishes (:class:`~protocol.Leavers`; left out: the game
ends), so that a joiner knows the rule before it sits down; the host's signed start must
carry the same rule, or a joiner refuses it.
:meth:`Invite.parse` raises :class:`InviteError` with a message saying what
is wrong for any other input.  The invite text contains the secret: show it
only to the players you invite (``repr`` of an :class:`Invite` hides it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import re
from typing import NewType

import attrs

from fairtable.protocol import MAX_SEATS, Leavers, fingerprint

__all__ = [
    "INVITE_SCHEME",
    "RELAY_SECRET",
    "Invite",
    "InviteError",
    "LobbyId",
    "join_proof",
    "relay_scope",
    "relay_token",
    "verify_join_proof",
]

INVITE_SCHEME = "fairtable"
RELAY_DOMAIN = b"fairtable/relay/v1\x00"
JOIN_DOMAIN = b"fairtable/join/v1"
MAX_INVITE_TEXT = 1024

LobbyId = NewType("LobbyId", bytes)
"""A table's lobby id: 32 random bytes the host draws when it opens the table, before anyone
is seated, carried in the invite (``TABLE`` in its text).  It names the table's folder on
every seat's disk, scopes every link to the table, and is bound into join proofs, signed
names, the signed start and the relay token.  Not the protocol's :data:`~protocol.TableId`
(the hash of the signed :class:`~protocol.TableSpec`, known only once every seat is taken),
which binds the game's own messages (docs/netplay.md, "Two table ids")."""

_GAME_RE = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOSTNAME_RE = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
_NUMBER_RE = re.compile(r"[1-9][0-9]*")
_B64_RE = re.compile(r"[A-Za-z0-9_-]*")


class InviteError(ValueError):
    """An invite (text or fields) that is malformed; the message says what is wrong."""


# --------------------------------------------------------------------------- field checks


def check_host(host: object) -> str:
    """``host`` if it is a DNS name, an IPv4 or an IPv6 address; else InviteError."""
    if not isinstance(host, str) or not host:
        raise InviteError("the host is empty")
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise InviteError(f"{host[:60]!r} is not an IPv6 address") from None
        return host
    if len(host) > 253 or _HOSTNAME_RE.fullmatch(host) is None:
        raise InviteError(f"{host[:60]!r} is not a host name or IP address")
    return host


def check_game(game: object) -> str:
    """``game`` if it is a game name (``[a-z][a-z0-9_-]{0,31}``); else InviteError."""
    if not isinstance(game, str) or _GAME_RE.fullmatch(game) is None:
        raise InviteError(f"{str(game)[:40]!r} is not a game name (lower-case letters, digits, -)")
    return game


def check_port(port: object) -> int:
    if type(port) is not int or not 1 <= port <= 65535:
        raise InviteError(f"port {port!r} is not in 1..65535")
    return port


def check_seats(seats: object) -> int:
    if type(seats) is not int or not 1 <= seats <= MAX_SEATS:
        raise InviteError(f"seats {seats!r} is not in 1..{MAX_SEATS}")
    return seats


def _check_32(name: str, value: object) -> None:
    if type(value) is not bytes or len(value) != 32:
        raise InviteError(f"the {name} must be 32 bytes")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(name: str, text: str) -> bytes:
    if len(text) % 4 == 1 or _B64_RE.fullmatch(text) is None:
        raise InviteError(f"the {name} is not unpadded base64url")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InviteError(f"the {name} is not unpadded base64url") from None
    if _b64(raw) != text:
        raise InviteError(f"the {name} is not canonical base64url")
    if len(raw) != 32:
        raise InviteError(f"the {name} must be 32 bytes, got {len(raw)}")
    return raw


def _number(name: str, text: str) -> int:
    if _NUMBER_RE.fullmatch(text) is None:
        raise InviteError(f"the {name} {text[:20]!r} is not a number")
    return int(text)


# --------------------------------------------------------------------------- the invite


def _hide(_value: bytes) -> str:
    return "<hidden>"


def _short(value: bytes) -> str:
    return value.hex()[:16] if isinstance(value, bytes) else repr(value)


@attrs.frozen
class Invite:
    """An invitation to one table.  Anyone holding it can take a free seat."""

    host: str
    port: int
    lobby_id: LobbyId = attrs.field(repr=_short)
    """The table's lobby id (:data:`LobbyId`); the scope of every link for this table."""
    host_key: bytes = attrs.field(repr=_short)
    """The host's Ed25519 public key, 32 bytes."""
    secret: bytes = attrs.field(repr=_hide)
    """32 random bytes shared with the invited players only."""
    game: str
    seats: int
    relay_key: bytes | None = attrs.field(default=None, repr=_short)
    """The key of the relay the table is played through (32 bytes), or None."""
    leavers: Leavers = Leavers.END
    """What the table does when a seat vanishes: the rule its start must carry."""

    def __attrs_post_init__(self) -> None:
        check_host(self.host)
        check_port(self.port)
        _check_32("table id", self.lobby_id)
        _check_32("host key", self.host_key)
        _check_32("secret", self.secret)
        check_game(self.game)
        check_seats(self.seats)
        if self.relay_key is not None:
            _check_32("relay key", self.relay_key)
        if not isinstance(self.leavers, Leavers):
            raise InviteError(f"{str(self.leavers)[:20]!r} is not a leavers rule")

    @property
    def fingerprint(self) -> str:
        """The host's player id (SHA-256 of its key, hex)."""
        return fingerprint(self.host_key)

    @property
    def address(self) -> tuple[str, int]:
        """``(host, port)`` to connect to."""
        return self.host, self.port

    def text(self) -> str:
        """The one-line text form (contains the secret)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return (
            f"{INVITE_SCHEME}://{host}:{self.port}/{self.game}/{self.seats}/{_b64(self.lobby_id)}"
            f"?key={_b64(self.host_key)}&secret={_b64(self.secret)}"
            + ("" if self.relay_key is None else f"&relay={_b64(self.relay_key)}")
            + ("" if self.leavers is Leavers.END else f"&leavers={self.leavers.value}")
        )

    @classmethod
    def parse(cls, text: str) -> Invite:
        """Read an invite's text form (surrounding white space is ignored)."""
        if not isinstance(text, str):
            raise InviteError("an invite is text")
        text = text.strip()
        if len(text) > MAX_INVITE_TEXT:
            raise InviteError("the invite is too long")
        if not text.isascii() or not text.isprintable() or " " in text:
            raise InviteError("the invite contains spaces or non-ASCII characters")
        prefix = f"{INVITE_SCHEME}://"
        if not text.lower().startswith(prefix):
            raise InviteError(f"an invite starts with {prefix}")
        rest = text[len(prefix) :]
        if "#" in rest:
            raise InviteError("the invite has a '#' fragment")
        location, has_query, query = rest.partition("?")
        if not has_query:
            raise InviteError("the invite lacks ?key=...&secret=...")
        authority, _, path = location.partition("/")
        host, port = _split_authority(authority)
        parts = path.split("/")
        if len(parts) != 3:
            raise InviteError("the invite path must be /GAME/SEATS/TABLE")
        game = check_game(parts[0])
        seats = _number("seat count", parts[1])
        lobby_id = LobbyId(_unb64("table id", parts[2]))
        fields = _query(query)
        return cls(
            host=host,
            port=port,
            lobby_id=lobby_id,
            host_key=_unb64("host key", fields["key"]),
            secret=_unb64("secret", fields["secret"]),
            game=game,
            seats=seats,
            relay_key=_unb64("relay key", fields["relay"]) if "relay" in fields else None,
            leavers=_leavers(fields.get("leavers")),
        )


def _split_authority(authority: str) -> tuple[str, int]:
    if not authority:
        raise InviteError("the invite has no host")
    if authority.startswith("["):
        host, bracket, rest = authority[1:].partition("]")
        if not bracket:
            raise InviteError("an IPv6 host needs a closing ']'")
        if not host:
            raise InviteError("the invite has no host")
        if not rest.startswith(":"):
            raise InviteError("the invite has no :PORT after the host")
        port_text = rest[1:]
    else:
        host, colon, port_text = authority.rpartition(":")
        if not colon:
            raise InviteError("the invite has no :PORT after the host")
        if ":" in host:
            raise InviteError("an IPv6 host must be written in [brackets]")
    return check_host(host), check_port(_number("port", port_text))


def _leavers(text: str | None) -> Leavers:
    """The ``leavers`` query item's rule (left out: the game ends); only ``go-on`` is written."""
    if text is None:
        return Leavers.END
    if text != Leavers.GO_ON.value:
        raise InviteError(f"the leavers rule {text[:20]!r} is not {Leavers.GO_ON.value!r}")
    return Leavers.GO_ON


def _query(query: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        if not eq:
            raise InviteError(f"query item {pair[:20]!r} is not name=value")
        if name not in ("key", "secret", "relay", "leavers"):
            raise InviteError(f"unknown query item {name[:20]!r} (expected key and secret)")
        if name in fields:
            raise InviteError(f"query item {name!r} appears twice")
        fields[name] = value
    for name in ("key", "secret"):
        if name not in fields:
            raise InviteError(f"the invite lacks its {name}")
    return fields


# --------------------------------------------------------------------------- derived secrets


def relay_token(invite: Invite) -> bytes:
    """``SHA-256("fairtable/relay/v1\\0" || secret || table id)``: a relay's shared secret.

    A relay given this token can admit invite holders (it is the link secret
    between them and the relay) without learning the invite secret itself.
    """
    return hashlib.sha256(RELAY_DOMAIN + invite.secret + invite.lobby_id).digest()


RELAY_SECRET = bytes(32)
"""The link secret of a relay link: such links prove the invite with the relay token instead."""


def relay_scope(token: bytes) -> bytes:
    """The scope a relay files a table under: the hash of its relay token."""
    return hashlib.sha256(b"fairtable/relay-scope/v1\x00" + token).digest()


def join_proof(secret: bytes, lobby_id: LobbyId, key: bytes) -> bytes:
    """``HMAC-SHA256(secret, "fairtable/join/v1" || lobby id || player key)``.

    Proves that whoever holds the invite vouches for ``key`` at the table of ``lobby_id``.
    """
    for name, value in (("secret", secret), ("table id", lobby_id), ("key", key)):
        _check_32(name, value)
    return hmac.new(secret, JOIN_DOMAIN + lobby_id + key, hashlib.sha256).digest()


def verify_join_proof(secret: bytes, lobby_id: LobbyId, key: bytes, proof: bytes) -> bool:
    """Whether ``proof`` is :func:`join_proof` of ``key`` (constant-time comparison)."""
    return hmac.compare_digest(join_proof(secret, lobby_id, key), proof)
