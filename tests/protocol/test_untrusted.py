"""The one bounded decoder (``protocol.read_json``): every limit refuses with
``UntrustedInput`` naming the source -- before the parser can recurse or allocate -- and
well-formed input within the limits reads as JSON does."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairtable.protocol as P
import fairtable.protocol.wire as PW

SOURCE = "join request from 192.0.2.7"


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper than 32"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, "nested deeper than 32"),
        (b"[" * 5_000, "nested deeper than 32"),  # unbalanced: refused before the parser sees it
        (b'"' + b"x" * 2_000_000 + b'"', "over the 1048576-byte limit"),
        (b"1" * 5_000, "an integer of 5000 characters"),
        (b"-" + b"9" * 17, "an integer of 18 characters"),
        (b"1.5", "a float"),
        (b"1e5", "a float"),
        (b"NaN", "NaN is not allowed"),
        (b'{"a":1,"a":2}', "a duplicate key"),
        (b'"\xff"', "not UTF-8"),
        (b'"\xed\xa0\x80"', "not UTF-8"),  # a surrogate written in UTF-8
        (b'"\\ud800"', "a surrogate escape"),
        (b"\xef\xbb\xbf{}", "a byte-order mark"),
        (b"[1,2", "not JSON within bounds"),
    ],
    ids=[
        "deep-array",
        "deep-object",
        "unbalanced",
        "size",
        "huge-int",
        "long-negative",
        "float",
        "exponent",
        "nan",
        "duplicate-key",
        "bad-utf8",
        "utf8-surrogate",
        "escaped-surrogate",
        "bom",
        "syntax",
    ],
)
def test_each_limit_refuses_with_one_typed_error_naming_the_source(data: bytes, why: str) -> None:
    with pytest.raises(P.UntrustedInput) as refused:
        P.read_json(data, SOURCE)
    assert refused.value.source == SOURCE
    assert str(refused.value).startswith(f"{SOURCE}: ")
    assert why in str(refused.value)
    assert isinstance(refused.value, P.DecodeError)  # the protocol's decode family


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    data = b'{"a":"' + b"[" * 1000 + b'\\"' + b"{" * 1000 + b'"}'
    assert P.read_json(data, SOURCE) == {"a": "[" * 1000 + '"' + "{" * 1000}


def test_the_bounds_are_the_caller_s() -> None:
    tight = P.Bounds(size=64, depth=2, string=5, digits=3, items=3)
    assert P.read_json(b'{"a":[1,2,3]}', SOURCE, tight) == {"a": [1, 2, 3]}
    for data, why in [
        (b"[[[1]]]", "nested deeper than 2"),
        (b'"abcdef"', "a string of 6"),
        (b"[1,2,3,4]", "an array of 4 items"),
        (b"1234", "an integer of 4"),
        (b'{"a":1,"b":2,"c":3,"d":4}', "an object of 4 members"),
        (b"[" + b"1," * 40 + b"1]", "over the 64-byte limit"),
    ]:
        with pytest.raises(P.UntrustedInput, match=why):
            P.read_json(data, SOURCE, tight)


def test_a_refusal_blames_the_seat_it_is_given() -> None:
    with pytest.raises(P.UntrustedInput) as refused:
        P.read_json(b"[" * 50, "seat 2's decision", seat=2)
    assert refused.value.seat == 2


def test_the_codec_refuses_a_deep_message_before_parsing_it() -> None:
    deep = b'{"type":"want","v":' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    with pytest.raises(P.DecodeError, match="frame from 192.0.2.7: nested deeper than 16"):
        P.decode(deep, "frame from 192.0.2.7")


def test_table_options_nested_deep_are_a_decode_error() -> None:
    keys = tuple(P.Identity.generate().public.key for _ in range(2))
    options = b'{"x":' + b"[" * 2_000 + b"]" * 2_000 + b"}"
    spec = P.TableSpec("reign", keys, 60, bytes(32), options)
    with pytest.raises(P.DecodeError, match="table options: nested deeper"):
        spec.game_options()


_TEXT = st.text(alphabet='ab[]{}"\\\n\u00e9', max_size=6)
_VALUES = st.recursive(
    st.integers(-5, 5) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_VALUES, st.integers(0, 6))
def test_the_depth_scan_sees_exactly_the_nesting_outside_strings(value: object, depth: int) -> None:
    """Strings full of brackets, quotes and backslashes neither hide nor add a level."""
    data = json.dumps(value, ensure_ascii=False).encode()
    if _depth(value) > depth:
        with pytest.raises(P.UntrustedInput, match="nested deeper"):
            PW.check_bounds(data, SOURCE, P.Bounds(depth=depth))
    else:
        PW.check_bounds(data, SOURCE, P.Bounds(depth=depth))
