"""Framing: round trips, arbitrary splits, the length cap checked before the payload, garbage."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fairtable.protocol as P
from fairtable.netplay.links._frames import HEADER_SIZE, MAX_FRAME, FrameReader, encode_frame

PAYLOADS = [b"", b"x", b'{"n":1,"type":"link-ping","v":1}', bytes(range(256)) * 40]


def test_max_frame_is_the_protocol_cap() -> None:
    assert MAX_FRAME == P.MAX_FRAME == 1 << 20
    assert FrameReader().max_frame == MAX_FRAME


def test_encode_frame_is_length_prefixed_big_endian() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"
    assert encode_frame(b"") == b"\x00\x00\x00\x00"


def test_round_trip_in_one_feed() -> None:
    stream = b"".join(encode_frame(p) for p in PAYLOADS)
    reader = FrameReader()
    assert reader.feed(stream) == PAYLOADS
    assert reader.at_boundary and reader.buffered == 0


def test_round_trip_byte_by_byte() -> None:
    stream = b"".join(encode_frame(p) for p in PAYLOADS)
    reader = FrameReader()
    out: list[bytes] = []
    for i in range(len(stream)):
        out += reader.feed(stream[i : i + 1])
    assert out == PAYLOADS


def test_round_trip_random_splits() -> None:
    rng = random.Random(7)
    payloads = [rng.randbytes(rng.randrange(0, 3000)) for _ in range(60)]
    stream = b"".join(encode_frame(p) for p in payloads)
    for _ in range(20):
        reader = FrameReader(max_frame=4000)
        out: list[bytes] = []
        pos = 0
        while pos < len(stream):
            step = rng.randrange(1, 5000)
            out += reader.feed(memoryview(stream)[pos : pos + step])
            assert reader.buffered <= reader.max_frame + HEADER_SIZE
            pos += step
        assert out == payloads


@given(st.lists(st.binary(max_size=300), max_size=10), st.lists(st.integers(1, 400), max_size=30))
def test_any_split_gives_back_the_payloads(payloads: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(encode_frame(p) for p in payloads)
    reader = FrameReader(max_frame=300)
    out: list[bytes] = []
    pos = 0
    for cut in [*cuts, len(stream)]:
        out += reader.feed(stream[pos : pos + cut])
        pos += cut
    out += reader.feed(stream[pos:])
    assert out == payloads


def test_exact_cap_is_accepted() -> None:
    reader = FrameReader(max_frame=10)
    assert reader.feed(encode_frame(b"0123456789")) == [b"0123456789"]
    big = b"y" * MAX_FRAME
    assert FrameReader().feed(encode_frame(big)) == [big]


def test_oversize_rejected_from_the_header_alone() -> None:
    reader = FrameReader(max_frame=100)
    with pytest.raises(P.FrameTooLarge):
        reader.feed((101).to_bytes(4, "big"))  # not one payload byte was sent
    assert reader.buffered == 0


def test_oversize_rejected_when_the_header_is_split() -> None:
    reader = FrameReader()
    header = (MAX_FRAME + 1).to_bytes(4, "big")
    assert reader.feed(header[:3]) == []
    assert reader.buffered == 3
    with pytest.raises(P.FrameTooLarge):
        reader.feed(header[3:])


def test_oversize_after_good_frames_in_the_same_feed() -> None:
    reader = FrameReader(max_frame=10)
    with pytest.raises(P.FrameTooLarge):
        reader.feed(encode_frame(b"ok") + (0xFFFFFFFF).to_bytes(4, "big") + b"junk")


def test_reader_stays_failed() -> None:
    reader = FrameReader(max_frame=4)
    with pytest.raises(P.FrameTooLarge):
        reader.feed(b"\x00\x00\x00\x05")
    with pytest.raises(P.FrameTooLarge):
        reader.feed(encode_frame(b"ok"))


def test_buffer_never_exceeds_one_frame_plus_header() -> None:
    reader = FrameReader(max_frame=1000)
    stream = encode_frame(b"a" * 1000) * 3
    for i in range(0, len(stream), 7):
        reader.feed(stream[i : i + 7])
        assert reader.buffered <= 1000 + HEADER_SIZE


def test_http_garbage_is_an_oversize_frame() -> None:
    with pytest.raises(P.FrameTooLarge):
        FrameReader().feed(b"GET / HTTP/1.1\r\nHost: example\r\n\r\n")


@given(st.binary(max_size=2000))
def test_garbage_gives_frames_or_frame_too_large(data: bytes) -> None:
    reader = FrameReader(max_frame=256)
    try:
        frames = reader.feed(data)
    except P.FrameTooLarge:
        return
    assert all(len(f) <= 256 for f in frames)
    assert sum(len(f) + HEADER_SIZE for f in frames) + reader.buffered == len(data)


def test_encode_frame_refuses_oversize_payload() -> None:
    with pytest.raises(P.LocalProtocolError):
        encode_frame(b"x" * 11, max_frame=10)
    with pytest.raises(P.LocalProtocolError):
        encode_frame("text")  # type: ignore[arg-type]


def test_bad_cap_refused() -> None:
    with pytest.raises(P.LocalProtocolError):
        FrameReader(max_frame=-1)
