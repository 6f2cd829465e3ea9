"""Canonical codec: round trips, canonical form, limits, and decode never crashing."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fairtable.protocol as P
import fairtable.protocol.wire as PW

from .helpers import examples


def test_every_message_type_has_an_example() -> None:
    """Every message the protocol package defines (netplay registers its own elsewhere)."""
    ours = {
        tag
        for tag, cls in PW.MESSAGE_TYPES.items()
        if cls.__module__.startswith("fairtable.protocol.")
    }
    assert {type(m).TYPE for m in examples()} == ours


@pytest.mark.parametrize("msg", examples(), ids=lambda m: type(m).__name__)
def test_round_trip(msg: object) -> None:
    data = P.encode(msg)
    assert P.decode(data) == msg
    assert P.encode(P.decode(data)) == data
    assert P.decode_as(data, type(msg)) == msg


def test_canonical_form_is_sorted_compact_json_with_envelope() -> None:
    data = P.encode(PW.Commit("bid", b"\xff" * 32))
    assert data == (
        b'{"digest":"__________________________________________8","purpose":"bid",'
        b'"type":"commit","v":10}'
    )
    assert json.loads(data)["v"] == P.PROTOCOL_VERSION


def _plain(msg: object) -> dict:
    return json.loads(P.encode(msg))


def _bytes(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


BASE = {"type": "digest", "v": P.PROTOCOL_VERSION, "step": 3, "digest": "A" * 43}


def test_base_is_valid() -> None:
    assert P.decode(_bytes(BASE)) == PW.DigestCheck(3, bytes(32))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"extra": 1}, "extra field"),
        ({"type": "nope"}, "unknown type"),
        ({"step": 3.0}, "float"),
        ({"step": 1e3}, "float exponent"),
        ({"step": -1}, "below field range"),
        ({"step": 2**53 + 1}, "beyond 2**53"),
        ({"step": True}, "bool is not an int"),
        ({"step": "3"}, "string is not an int"),
        ({"digest": "A" * 42}, "31 bytes"),
        ({"digest": "A" * 43 + "="}, "padded base64"),
        ({"digest": "+" * 43}, "standard (not url) base64"),
        ({"digest": "A" * 42 + "B"}, "stray low bits"),
        ({"digest": 5}, "int for bytes"),
    ],
)
def test_rejections(change: dict, why: str) -> None:
    with pytest.raises(P.DecodeError):
        P.decode(_bytes({**BASE, **change}))


def test_missing_field_rejected() -> None:
    obj = dict(BASE)
    del obj["step"]
    with pytest.raises(P.DecodeError):
        P.decode(_bytes(obj))


def test_version_is_checked() -> None:
    with pytest.raises(P.UnsupportedVersion):
        P.decode(_bytes({**BASE, "v": P.PROTOCOL_VERSION + 1}))
    with pytest.raises(P.UnsupportedVersion):  # a log written by the first protocol
        P.decode(_bytes({**BASE, "v": 1}))
    obj = dict(BASE)
    del obj["v"]
    with pytest.raises(P.DecodeError):
        P.decode(_bytes(obj))


V = P.PROTOCOL_VERSION


def test_the_canonical_digest_of_the_malformed_cases_decodes() -> None:
    assert P.decode(b'{"digest":"' + b"A" * 43 + b'","step":3,"type":"digest","v":%d}' % V)


@pytest.mark.parametrize(
    "data",
    [
        b'{"digest":"' + b"A" * 43 + b'","step":3, "type":"digest","v":%d}' % V,  # whitespace
        b'{"step":3,"digest":"' + b"A" * 43 + b'","type":"digest","v":%d}' % V,  # key order
        b'{"digest":"' + b"A" * 43 + b'","step":03,"type":"digest","v":%d}' % V,  # leading zero
        b'{"digest":"' + b"A" * 43 + b'","step":3,"step":3,"type":"digest","v":%d}' % V,  # dup key
        b'{"digest":"' + b"A" * 43 + b'","step":3,"type":"dig\\u0065st","v":%d}' % V,  # escape
        b'{"digest":"' + b"A" * 43 + b'","step":NaN,"type":"digest","v":%d}' % V,
        b'{"digest":"' + b"A" * 43 + b'","step":-0,"type":"digest","v":%d}' % V,
        b"\xef\xbb\xbf" + _bytes(BASE),  # BOM
        _bytes(BASE) + b"\n",
        b"[]",
        b"null",
        b"",
        b"\xff\xfe",
        b"[" * 100_000 + b"]" * 100_000,  # deep nesting
    ],
)
def test_non_canonical_or_malformed(data: bytes) -> None:
    with pytest.raises(P.DecodeError) as caught:
        P.decode(data)
    assert not isinstance(caught.value, P.UnsupportedVersion)  # refused for its form


def test_oversize_frame_rejected_unread() -> None:
    with pytest.raises(P.FrameTooLarge):
        P.decode(b" " * (P.MAX_FRAME + 1))


def test_field_caps() -> None:
    with pytest.raises(P.FieldError):
        PW.Reveal("x", bytes(32), bytes(64 * 1024 + 1))
    with pytest.raises(P.FieldError):
        PW.ShuffleStep("d", "s", (bytes(64),) * (PW.MAX_CARDS + 1), b"")
    with pytest.raises(P.FieldError):  # a shuffle proof of more than MAX_CARDS cards
        PW.ShuffleStep("d", "s", (), bytes(PW.MAX_SHUFFLE_PROOF + 1))
    with pytest.raises(P.FieldError):
        PW.Commit("x" * (PW.MAX_LABEL + 1), bytes(32))
    with pytest.raises(P.FieldError):
        PW.Commit("no spaces", bytes(32))
    with pytest.raises(P.FieldError):
        PW.DigestCheck(1.0, bytes(32))  # type: ignore[arg-type]
    with pytest.raises(P.FieldError):
        PW.ShuffleStep("d", "s", [bytes(64)], b"")  # type: ignore[arg-type]
    # The same caps apply on decode.
    plain = _plain(PW.Commit("x", bytes(32)))
    plain["purpose"] = "x" * (PW.MAX_LABEL + 1)
    with pytest.raises(P.DecodeError):
        P.decode(_bytes(plain))


def test_oversize_list_on_the_wire_rejected() -> None:
    plain = _plain(PW.ShuffleStep("d", "s", (), b""))
    plain["cards"] = ["A" * 86] * (PW.MAX_CARDS + 1)
    with pytest.raises(P.DecodeError):
        P.decode(_bytes(plain))


def test_encode_refuses_oversize_and_unregistered() -> None:
    big = P.Entry(bytes(32), 0, 0, bytes(32), bytes(512 * 1024), bytes(64))
    P.encode(big)  # the largest body still fits a frame
    with pytest.raises(P.LocalProtocolError):
        P.encode(PW.Share(0, bytes(32)))  # nested type, not a message


def test_nested_extra_field_rejected() -> None:
    plain = _plain(examples()[5])
    plain["shares"][0]["extra"] = 1
    with pytest.raises(P.DecodeError):
        P.decode(_bytes(plain))


def test_adding_a_message_type_is_one_class() -> None:
    @P.message("test-ping")
    @attrs.frozen
    class Ping:
        n: int = PW.integer(hi=10)

    try:
        assert P.decode(P.encode(Ping(3))) == Ping(3)
        with pytest.raises(P.DecodeError):
            P.decode(P.encode(Ping(3)).replace(b"3", b"11"))
    finally:
        del PW.MESSAGE_TYPES["test-ping"]


# ------------------------------------------------------------------ fuzzing

_ENCODED = [P.encode(m) for m in examples()]


def _assert_decode_total(data: bytes) -> None:
    try:
        msg = P.decode(data)
    except P.DecodeError:
        return
    assert P.encode(msg) == data  # anything accepted is canonical


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_random_bytes(data: bytes) -> None:
    _assert_decode_total(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_ENCODED), st.data())
def test_fuzz_mutated_messages(data: bytes, draw: st.DataObject) -> None:
    buf = bytearray(data)
    for _ in range(draw.draw(st.integers(1, 4))):
        op = draw.draw(st.sampled_from(["flip", "insert", "delete"]))
        pos = draw.draw(st.integers(0, max(len(buf) - 1, 0)))
        if op == "flip" and buf:
            buf[pos] ^= 1 << draw.draw(st.integers(0, 7))
        elif op == "insert":
            buf.insert(pos, draw.draw(st.integers(0, 255)))
        elif buf:
            del buf[pos]
    _assert_decode_total(bytes(buf))


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(sorted(PW.MESSAGE_TYPES)),
    st.dictionaries(
        st.sampled_from(
            [
                "purpose",
                "digest",
                "nonce",
                "payload",
                "cards",
                "step",
                "deck",
                "seat",
                "seq",
                "shares",
                "slot",
                "table",
                "prev",
                "body",
                "sig",
                "to_seat",
                "box",
                "key",
                "proof",
                "first",
                "second",
                "header",
            ]
        ),
        _json,
    ),
    st.sampled_from([1, 2, "1", None]),
)
def test_fuzz_structured(tag: str, fields: dict, version: object) -> None:
    obj = {**fields, "type": tag, "v": version}
    _assert_decode_total(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode())
