"""Invites: text round trips, a clear InviteError for every malformed form, derived secrets."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

import attrs
import pytest

from fairtable.netplay.table._invite import (
    Invite,
    InviteError,
    join_proof,
    relay_token,
    verify_join_proof,
)

SCOPE = hashlib.sha256(b"table").digest()
KEY = hashlib.sha256(b"host key").digest()
SECRET = hashlib.sha256(b"secret").digest()
INVITE = Invite("192.168.1.20", 4711, SCOPE, KEY, SECRET, "reign", 5)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


GOOD = f"fairtable://192.168.1.20:4711/reign/5/{b64(SCOPE)}?key={b64(KEY)}&secret={b64(SECRET)}"


def test_text_form() -> None:
    assert INVITE.text() == GOOD


@pytest.mark.parametrize("host", ["192.168.1.20", "localhost", "game-box.lan", "::1", "fe80::1"])
@pytest.mark.parametrize("seats", [1, 7, 16])
def test_round_trip(host: str, seats: int) -> None:
    invite = attrs.evolve(INVITE, host=host, seats=seats, game="sovereign")
    assert Invite.parse(invite.text()) == invite


def test_ipv6_is_bracketed() -> None:
    assert attrs.evolve(INVITE, host="::1").text().startswith("fairtable://[::1]:4711/")


def test_parse_tolerates_surrounding_space_and_scheme_case() -> None:
    assert Invite.parse(f"  {GOOD}\n") == INVITE
    assert Invite.parse("FAIRTABLE" + GOOD[len("fairtable") :]) == INVITE


def test_repr_hides_the_secret() -> None:
    text = repr(INVITE) + str(INVITE)
    assert SECRET.hex() not in text and b64(SECRET) not in text and "hidden" in text


def test_fingerprint_and_address() -> None:
    assert INVITE.fingerprint == hashlib.sha256(KEY).hexdigest()
    assert INVITE.address == ("192.168.1.20", 4711)


B_SCOPE, B_KEY, B_SECRET = b64(SCOPE), b64(KEY), b64(SECRET)
Q = f"?key={B_KEY}&secret={B_SECRET}"
MALFORMED = {
    "empty": "",
    "not an invite": "hello",
    "wrong scheme": GOOD.replace("fairtable://", "http://"),
    "no host": f"fairtable://:4711/reign/5/{B_SCOPE}{Q}",
    "no port": f"fairtable://192.168.1.20/reign/5/{B_SCOPE}{Q}",
    "empty port": f"fairtable://192.168.1.20:/reign/5/{B_SCOPE}{Q}",
    "port zero": GOOD.replace(":4711", ":0"),
    "port too big": GOOD.replace(":4711", ":65536"),
    "port huge": GOOD.replace(":4711", ":" + "9" * 50),
    "port leading zero": GOOD.replace(":4711", ":04711"),
    "port sign": GOOD.replace(":4711", ":+4711"),
    "port text": GOOD.replace(":4711", ":http"),
    "bad host": GOOD.replace("192.168.1.20", "bad_host!"),
    "host dash": GOOD.replace("192.168.1.20", "-box"),
    "bare ipv6": GOOD.replace("192.168.1.20", "::1"),
    "ipv6 unclosed": GOOD.replace("192.168.1.20", "[::1"),
    "ipv6 empty": GOOD.replace("192.168.1.20", "[]"),
    "ipv6 garbage": GOOD.replace("192.168.1.20", "[zz::1]"),
    "user info": GOOD.replace("192.168.1.20", "me@192.168.1.20"),
    "path too short": f"fairtable://192.168.1.20:4711/reign/5{Q}",
    "path too long": f"fairtable://192.168.1.20:4711/reign/5/{B_SCOPE}/x{Q}",
    "trailing slash": f"fairtable://192.168.1.20:4711/reign/5/{B_SCOPE}/{Q}",
    "bad game": GOOD.replace("/reign/", "/Reign!/"),
    "empty game": GOOD.replace("/reign/", "//"),
    "zero seats": GOOD.replace("/5/", "/0/"),
    "too many seats": GOOD.replace("/5/", "/17/"),
    "seats text": GOOD.replace("/5/", "/five/"),
    "seats negative": GOOD.replace("/5/", "/-5/"),
    "scope padded": GOOD.replace(B_SCOPE, B_SCOPE + "="),
    "scope short": GOOD.replace(B_SCOPE, b64(SCOPE[:31])),
    "scope long": GOOD.replace(B_SCOPE, b64(SCOPE + b"x")),
    "scope bad chars": GOOD.replace(B_SCOPE, "*" * 43),
    "scope standard base64": GOOD.replace(B_SCOPE, base64.b64encode(SCOPE).decode()),
    "scope stray bits": GOOD.replace(B_SCOPE, B_SCOPE[:-1] + "B"),
    "no query": f"fairtable://192.168.1.20:4711/reign/5/{B_SCOPE}",
    "no key": GOOD.replace(f"key={B_KEY}&", ""),
    "no secret": GOOD.replace(f"&secret={B_SECRET}", ""),
    "empty secret": GOOD.replace(f"secret={B_SECRET}", "secret="),
    "short key": GOOD.replace(B_KEY, b64(KEY[:16])),
    "bad secret": GOOD.replace(B_SECRET, B_SECRET[:-2] + "!!"),
    "duplicate key": GOOD + f"&key={B_KEY}",
    "unknown item": GOOD + "&admin=1",
    "item without value": GOOD + "&key",
    "empty item": GOOD + "&",
    "fragment": GOOD + "#x",
    "space inside": GOOD.replace("/reign/", "/reign /"),
    "non-ascii": GOOD.replace("reign", "rèign"),
    "too long": GOOD + "x" * 2000,
}


@pytest.mark.parametrize("text", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_invites_raise_invite_error(text: str) -> None:
    with pytest.raises(InviteError) as caught:
        Invite.parse(text)
    assert str(caught.value)  # a message that says what is wrong


def test_not_text() -> None:
    with pytest.raises(InviteError):
        Invite.parse(b"fairtable://x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "changes",
    [
        {"host": ""},
        {"host": "a b"},
        {"port": 0},
        {"port": True},
        {"lobby_id": b"x"},
        {"host_key": SCOPE[:31]},
        {"secret": "secret"},
        {"game": ""},
        {"seats": 0},
        {"seats": 17},
    ],
)
def test_bad_fields_raise_invite_error(changes: dict[str, Any]) -> None:
    with pytest.raises(InviteError):
        attrs.evolve(INVITE, **changes)


def test_relay_token() -> None:
    token = relay_token(INVITE)
    assert token == hashlib.sha256(b"fairtable/relay/v1\x00" + SECRET + SCOPE).digest()
    assert token != SECRET and len(token) == 32
    assert relay_token(attrs.evolve(INVITE, lobby_id=KEY)) != token
    assert relay_token(attrs.evolve(INVITE, host="10.0.0.1", port=9)) == token


def test_join_proof() -> None:
    proof = join_proof(SECRET, SCOPE, KEY)
    expected = hmac.new(SECRET, b"fairtable/join/v1" + SCOPE + KEY, hashlib.sha256).digest()
    assert proof == expected
    assert verify_join_proof(SECRET, SCOPE, KEY, proof)
    assert not verify_join_proof(SECRET, SCOPE, SCOPE, proof)
    assert not verify_join_proof(KEY, SCOPE, KEY, proof)
    with pytest.raises(InviteError):
        join_proof(SECRET, SCOPE, b"short")
