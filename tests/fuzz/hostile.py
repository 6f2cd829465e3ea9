"""Hostile inputs for every decoder (issue 29): deep nesting, huge numbers, long strings,
duplicate keys and invalid UTF-8, planted in a corpus item.

One generator serves both the campaign and hypothesis: it draws its choices from a ``pick(lo,
hi)`` function (inclusive), which is ``random.Random.randint`` in the campaign (so input ``i``
of seed ``S`` is the same bytes everywhere) and a hypothesis ``draw`` of an integer in
``test_fuzz.py`` (so a failure shrinks to its simplest form).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Pick = Callable[[int, int], int]
"""A choice of an integer in ``[lo, hi]``."""

KINDS = ("deep", "huge-number", "long-string", "duplicate-key", "invalid-utf8")

_DEPTHS = (17, 33, 1_000, 5_000, 100_000)
_DIGITS = (18, 400, 4_301, 50_000)
_LENGTHS = (129, 4_097, 65_537, 1_100_000)
_CHARS = ("A", "\u00e9", "\\u0000", "\\\\", "-_", "\u4e2d")
_BAD_UTF8 = (
    b"\xff",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
    b"\x80",
    b"\xef\xbb\xbf",
    b"\\ud800",
    b"\\udfff\\ud800",
)


def _one(pick: Pick, choices: tuple[Any, ...]) -> Any:
    return choices[pick(0, len(choices) - 1)]


def _deep(pick: Pick) -> bytes:
    depth = _one(pick, _DEPTHS)
    opener, closer = _one(pick, ((b"[", b"]"), (b'{"a":', b"}"), (b'[{"":', b"}]")))
    inner = _one(pick, (b"0", b"[]", b'""', b"{}"))
    closing = closer * depth if pick(0, 3) else closer * (depth // 2)  # now and then unbalanced
    return opener * depth + inner + closing


def _huge_number(pick: Pick) -> bytes:
    digits = b"9" * _one(pick, _DIGITS)
    return _one(
        pick,
        (
            digits,
            b"-" + digits,
            b"1" + b"0" * len(digits),
            b"1e" + digits,
            b"-0",
            b"01",
            b"0." + digits,
            b"1E-" + digits,
        ),
    )


def _long_string(pick: Pick) -> bytes:
    length = _one(pick, _LENGTHS)
    unit = _one(pick, _CHARS).encode("utf-8")
    return b'"' + unit * (length // len(unit) + 1) + b'"'


def _with_value(seed: bytes, pick: Pick, raw: bytes) -> bytes:
    """``raw`` in place of one value of ``seed`` if it is a JSON object, else inserted into it
    (or, now and then, ``raw`` alone)."""
    try:
        doc = json.loads(seed)
    except (ValueError, RecursionError):
        doc = None
    if pick(0, 4) == 0:
        return raw
    if isinstance(doc, dict) and doc:
        key = sorted(doc)[pick(0, len(doc) - 1)]
        marker = "\u0001hostile\u0001"
        text = json.dumps(
            {**doc, key: marker}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode("utf-8", "surrogatepass")
        return text.replace(json.dumps(marker).encode(), raw, 1)
    at = pick(0, len(seed))
    return seed[:at] + raw + seed[at:]


def _duplicate_key(seed: bytes, pick: Pick) -> bytes:
    try:
        doc = json.loads(seed)
    except (ValueError, RecursionError):
        doc = None
    if not isinstance(doc, dict) or not doc:
        return b'{"a":1,"a":2}' if pick(0, 1) else seed + b'{"a":1,"a":1}'
    key = sorted(doc)[pick(0, len(doc) - 1)]
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )
    again = json.dumps({key: doc[key] if pick(0, 1) else 0}, separators=(",", ":")).encode()
    if pick(0, 1):  # the repeat first, or last
        return b"{" + again[1:-1] + b"," + text[1:]
    return text[:-1] + b"," + again[1:-1] + b"}"


def _invalid_utf8(seed: bytes, pick: Pick) -> bytes:
    bad = _one(pick, _BAD_UTF8)
    quotes = [i for i, b in enumerate(seed) if b == 0x22]
    inside = bool(quotes) and pick(0, 2) > 0  # in a string, where a decoder may look last
    at = quotes[pick(0, len(quotes) - 1)] + 1 if inside else pick(0, len(seed))
    return seed[:at] + bad + seed[at:]


def hostile(pick: Pick, seed: bytes) -> bytes:
    """One hostile input made from the corpus item ``seed``."""
    kind = _one(pick, KINDS)
    if kind == "deep":
        return _with_value(seed, pick, _deep(pick))
    if kind == "huge-number":
        return _with_value(seed, pick, _huge_number(pick))
    if kind == "long-string":
        return _with_value(seed, pick, _long_string(pick))
    if kind == "duplicate-key":
        return _duplicate_key(seed, pick)
    return _invalid_utf8(seed, pick)
