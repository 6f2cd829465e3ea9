"""Player names: what a person calls themselves at a table, signed with their seat's key.

A player may give a name (``--name`` on ``play``, ``host`` and ``join``).  It travels as a
*signed name*: the seat key's Ed25519 signature (64 bytes) followed by the name in UTF-8,
the signature over ``"fairtable/name/v1\\0" || invite scope || seat key || name``.  A joiner
sends its signed name in its join request; the host puts every seat's into the table start
it signs.  Every peer -- and a spectator, a relay's saved copy, ``replay`` -- checks each
one against the seat's own key, so nobody (not the host, not a relay) can name a seat
anything but what that seat's key signed, and a name signed for one table cannot be moved
to another.  An empty signed name is "no name": the screen says "seat N".

A name is shown on other people's screens, so what it may hold is narrow: 1 to 24
printable characters (no control, format or private-use characters: no terminal escapes,
no right-to-left overrides), in Unicode NFC, no space at either end and never two in a
row, and never a word the screens use for seats ("you", "nobody", "seat 2", "team 1").
"""

from __future__ import annotations

import re
import unicodedata

from fairtable.protocol import BadSignature, Identity, PublicIdentity, RemoteProtocolError

from ._invite import LobbyId

__all__ = [
    "NAME_MAX",
    "SIGNED_NAME_MAX",
    "BadName",
    "name_problem",
    "read_signed_name",
    "sign_name",
]

NAME_DOMAIN = b"fairtable/name/v1\x00"
NAME_MAX = 24
"""Characters in a name at most."""
SIGNED_NAME_MAX = 64 + 4 * NAME_MAX
"""Bytes of a signed name at most (a signature and 24 characters of up to 4 bytes)."""
_SEAT_WORDS = re.compile(r"(seat|team)\s*\d|(you|your|nobody)$")


class BadName(RemoteProtocolError):
    """A signed name that is malformed, breaks the rules for names, or is not signed by its
    seat's key."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (None: it can)."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"a name has 1 to {NAME_MAX} characters"
    if not name.isprintable():
        return "a name holds only printable characters"
    if unicodedata.normalize("NFC", name) != name:
        return "a name must be in Unicode NFC form"
    if " ".join(name.split()) != name:
        return "a name has no space at either end and never two in a row"
    if _SEAT_WORDS.match(name.casefold()):
        return f"{name!r} would read as a seat on the screen"
    return None


def _signed_bytes(scope: bytes, key: bytes, name: bytes) -> bytes:
    return NAME_DOMAIN + scope + key + name


def sign_name(identity: Identity, scope: LobbyId, name: str) -> bytes:
    """``name`` signed by ``identity`` for the table of lobby id ``scope`` (``""``: no
    name, the empty signed name).  Raises ValueError if the name breaks the rules."""
    if not name:
        return b""
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    data = name.encode("utf-8")
    return identity.sign(_signed_bytes(scope, identity.public.key, data)) + data


def read_signed_name(signed: bytes, scope: bytes, key: bytes) -> str:
    """The name in ``signed`` if seat key ``key`` signed it for scope ``scope`` (``""`` for
    the empty signed name); raises :class:`BadName` otherwise."""
    if not signed:
        return ""
    if len(signed) <= 64 or len(signed) > SIGNED_NAME_MAX:
        raise BadName("a signed name of the wrong length")
    sig, data = signed[:64], signed[64:]
    try:
        name = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadName("a name that is not UTF-8") from None
    problem = name_problem(name)
    if problem is not None:
        raise BadName(f"a name against the rules: {problem}")
    try:
        PublicIdentity.from_bytes(key).verify(_signed_bytes(scope, key, data), sig)
    except BadSignature:
        raise BadName("a name its seat did not sign") from None
    return name
