"""The canonical encoding behind every digest: sorted keys, no floats, string keys only."""

from __future__ import annotations

from collections import OrderedDict
from enum import StrEnum
from typing import Any

import pytest

from fairtable.engine.canonical import canonical_bytes, digest_of


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        {"a": [1, 2.0]},
        {1: "x"},
        {"a": {"b": [object()]}},
        ({"k": (1, {2: 3})},),
        {"s": {1, 2}},
    ],
)
def test_canonical_refuses_what_is_not_plain_json(value: Any) -> None:
    with pytest.raises(TypeError):
        canonical_bytes(value)


def test_canonical_sorts_keys_whatever_the_insertion_order() -> None:
    a = {"b": [1, True, None], "a": {"y": "é", "x": (2, 3)}}
    b = OrderedDict([("a", OrderedDict([("x", [2, 3]), ("y", "é")])), ("b", (1, True, None))])
    assert (
        canonical_bytes(a)
        == canonical_bytes(b)
        == ('{"a":{"x":[2,3],"y":"é"},"b":[1,true,null]}'.encode())
    )
    assert digest_of("d", a) == digest_of("d", b) != digest_of("e", a)


class _Word(StrEnum):
    MAJOR = "major"
    MOVE = "move"


def test_canonical_writes_string_enum_members_as_their_words_keys_and_values_alike() -> None:
    typed = {_Word.MOVE: [_Word.MAJOR], _Word.MAJOR: {_Word.MOVE: True}}
    plain = {"move": ["major"], "major": {"move": True}}
    assert canonical_bytes(typed) == canonical_bytes(plain)
    assert canonical_bytes(typed) == b'{"major":{"move":true},"move":["major"]}'
