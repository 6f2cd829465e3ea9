"""Forming a table: who may sit, in which seat, and the host's signed start.

Before a game there is a lobby.  A joiner proves it holds the invite with a
:class:`JoinRequest` (an HMAC of its key under the invite secret), the host
seats joiners in arrival order, and once every seat is taken the host signs a
:class:`TableStart`: the :class:`~protocol.TableSpec` (game, players' keys in
seat order, settings) and the address each seat can be reached at.  Every peer
checks the host's signature against the host key in its invite, so nobody --
not a relay, not a stranger -- can start a different table in the host's name.
The table id every feed entry is bound to is the spec's hash.
"""

from __future__ import annotations

import hashlib

import attrs

from fairtable.protocol import (
    Identity,
    PublicIdentity,
    RemoteProtocolError,
    TableSpec,
    decode_as,
    encode,
    message,
)
from fairtable.protocol.wire import MAX_OPTIONS, blob, integer, item_bytes, items, label

from ._names import SIGNED_NAME_MAX, BadName, read_signed_name

__all__ = [
    "JoinRequest",
    "Links",
    "LobbyStatus",
    "Subscribe",
    "TableStart",
    "sign_start",
    "start_names",
    "verify_start",
]

START_DOMAIN = b"fairtable/start/v3\x00"
LINKS_MAX = 16  # keys in a Links message (a table has at most 16 seats)
START_SPEC_MAX = 16384
"""The longest encoded spec a start carries: six Sovereign decks fit (about 9.9 KB); the lobby
refuses a seat that would pass it."""


@message("join")
@attrs.frozen
class JoinRequest:
    """A player asks for a seat: its key, proof of the invite, a port it listens on, and
    what it brings to the table (the game's seat option, e.g. a Sovereign deck, as
    canonical JSON; empty for nothing) and its signed name (:mod:`netplay.table._names`; empty
    for none)."""

    key: bytes = blob(exact=32)
    proof: bytes = blob(exact=32)
    listen: int = integer(hi=65535)
    brings: bytes = blob(max_len=MAX_OPTIONS, default=b"")
    name: bytes = blob(max_len=SIGNED_NAME_MAX, default=b"")


@message("lobby")
@attrs.frozen
class LobbyStatus:
    """How many seats are taken (sent by the host to everyone in the lobby)."""

    seated: int = integer(hi=16)
    seats: int = integer(hi=16)


@message("start")
@attrs.frozen
class TableStart:
    """The host's signed start: the spec, where each seat can be reached ("" if nowhere),
    each seat's signed name (empty if none; :mod:`netplay.table._names`), and the scope of the
    invite whose lobby it starts -- so a start can never be replayed into another lobby of
    the same host."""

    spec: bytes = blob(max_len=START_SPEC_MAX)
    addresses: tuple[bytes, ...] = items(item_bytes(max_len=64), max_items=16)
    names: tuple[bytes, ...] = items(item_bytes(max_len=SIGNED_NAME_MAX), max_items=16)
    scope: bytes = blob(exact=32)
    sig: bytes = blob(exact=64)


@message("links")
@attrs.frozen
class Links:
    """The players a peer is linked to directly right now: a peer does not forward an entry
    to someone who already gets it straight from its author."""

    keys: tuple[bytes, ...] = items(item_bytes(exact=32), max_items=LINKS_MAX)


@message("subscribe")
@attrs.frozen
class Subscribe:
    """Sent to a relay: the relay token for this table (its hash is the relay scope)."""

    token: bytes = blob(exact=32)
    role: str = label()


def _signed_bytes(
    spec: bytes, addresses: tuple[bytes, ...], names: tuple[bytes, ...], scope: bytes
) -> bytes:
    return (
        START_DOMAIN
        + scope
        + hashlib.sha256(spec).digest()
        + b"".join(len(a).to_bytes(1, "big") + a for a in addresses)
        + b"".join(len(n).to_bytes(2, "big") + n for n in names)
    )


def sign_start(
    host: Identity,
    spec: TableSpec,
    addresses: tuple[bytes, ...],
    scope: bytes,
    names: tuple[bytes, ...] | None = None,
) -> TableStart:
    """The host's start of the lobby opened under invite scope ``scope`` (``names``: each
    seat's signed name, in seat order; None: nobody gave one)."""
    data = encode(spec)
    names = tuple(b"" for _ in spec.players) if names is None else names
    return TableStart(
        data, addresses, names, scope, host.sign(_signed_bytes(data, addresses, names, scope))
    )


def verify_start(host_key: bytes, start: TableStart, scope: bytes | None) -> TableSpec:
    """The spec, if the host signed this start for the lobby of invite scope ``scope``
    (``None``: any of its lobbies -- a relay, which never learns the invite) and every
    seat's name is signed by that seat and its options can be read; raises protocol's
    RemoteProtocolError (BadSignature if the host did not sign it, DecodeError for options
    that cannot be read, :class:`~netplay.table._names.BadName` for a name)."""
    if scope is not None and start.scope != scope:
        raise RemoteProtocolError("a table start signed for another table")
    PublicIdentity.from_bytes(host_key).verify(
        _signed_bytes(start.spec, start.addresses, start.names, start.scope), start.sig
    )
    spec = decode_as(start.spec, TableSpec, "table start's spec")
    spec.game_options()  # the options are read here, by the bounded decoder, or refused
    spec.time_limits()
    spec.leavers()
    start_names(start, spec)
    return spec


def start_names(start: TableStart, spec: TableSpec) -> tuple[str, ...]:
    """Each seat's name in ``start`` (``""``: none), each checked against its seat's key;
    raises :class:`~netplay.table._names.BadName`."""
    if len(start.names) != len(spec.players):
        raise BadName("a table start with a name list that does not fit its seats")
    return tuple(
        read_signed_name(signed, start.scope, key)
        for signed, key in zip(start.names, spec.players, strict=True)
    )
