"""The one bounded reader of JSON that comes from outside this process.

Every byte string from a peer, a stranger on the LAN, a relay, an invite holder or a file
a user was handed is read by :func:`read_json` (the codec's :func:`~protocol.decode` reads
its frames through :func:`check_bounds` too).  Its limits are checked *before* Python's
``json`` module recurses or allocates for a value:

* the size (bytes) of the whole input;
* the nesting depth of arrays and objects -- counted by a linear scan outside strings, so a
  value nested 100,000 deep is refused without the parser ever recursing into it;
* the length of each string, the digits of each integer (Python's own int-from-text limit
  would raise ``ValueError`` on a huge number; this refuses it first), the items of each array
  or object;
* no floats, ``NaN`` or ``Infinity``, no duplicate keys, strictly valid UTF-8 with no byte-order
  mark and no surrogate escapes (the canonical form writes every character literally).

Its only failure is :class:`UntrustedInput`, a :class:`~protocol.DecodeError` whose message
starts with the source it names ("join request from 1.2.3.4", "saved table FOLDER").
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

import attrs

from ._errors import DecodeError

__all__ = ["BOUNDS", "Bounds", "UntrustedInput", "check_bounds", "read_json"]


@attrs.frozen
class Bounds:
    """The limits one kind of input is read under."""

    size: int = 1 << 20
    """Most bytes in the whole input."""
    depth: int = 32
    """Deepest nesting of arrays and objects (a bare scalar is depth 0)."""
    string: int = 1 << 20
    """Longest string, in characters (the size bounds it anyway)."""
    digits: int = 17
    """Most characters of an integer, its sign included (2**53 has 16 digits)."""
    items: int = 1 << 16
    """Most items of one array or members of one object."""


BOUNDS = Bounds()
"""The default limits: 1 MiB, 32 deep, 17-character integers, 65,536 items a container."""


class UntrustedInput(DecodeError):
    """Input from outside that is not well-formed JSON within its bounds; names its source."""

    def __init__(self, source: str, why: str, *, seat: int | None = None) -> None:
        super().__init__(f"{source}: {why}", seat=seat)
        self.source, self.why = source, why


# The scan: drop the escapes that could hide a quote (``\\`` pairs first, then ``\"``: both
# paired from the left, as a parser pairs them), keep only quotes and brackets, and count the
# brackets between every other quote -- those outside strings.  On text that is not JSON it
# may pair quotes differently than a parser would; the parser stops at the first syntax
# error, and up to there both agree, so the depth found is never less than the depth the
# parser reaches.  Every step is one pass in C (a regex over each string took 3-4 times as
# long on a 1 MB message of 18,000 objects).
_OPEN_CLOSE = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_QUOTES_OR_BRACKETS = bytes(b for b in range(256) if b not in b'"[]{}')
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abAB]|\\u[dD][c-fC-F]")


def _fail(source: str, why: str, seat: int | None) -> UntrustedInput:
    return UntrustedInput(source, why, seat=seat)


def check_bounds(
    data: bytes, source: str, bounds: Bounds = BOUNDS, *, seat: int | None = None
) -> None:
    """Refuse ``data`` (:class:`UntrustedInput`) if it is over ``bounds``'s size, or nests
    arrays and objects deeper than its depth -- without parsing it."""
    if len(data) > bounds.size:
        raise _fail(source, f"{len(data)} bytes, over the {bounds.size}-byte limit", seat)
    if data.count(b"[") + data.count(b"{") <= bounds.depth:
        return  # too few brackets to nest too deep, whatever the strings
    plain = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    skeleton = plain.translate(None, _NOT_QUOTES_OR_BRACKETS)
    outside = b"".join(skeleton.split(b'"')[::2])
    steps = memoryview(outside.translate(_OPEN_CLOSE)).cast("b")
    if len(steps) and max(accumulate(steps)) > bounds.depth:
        raise _fail(source, f"nested deeper than {bounds.depth} levels", seat)


def _reject_float(text: str) -> Any:
    raise ValueError(f"a float ({text[:20]!r}) where only integers are allowed")


def _reject_constant(text: str) -> Any:
    raise ValueError(f"{text} is not allowed")


class _Reader:
    """One read's hooks (they raise ValueError; :func:`read_json` names the source)."""

    def __init__(self, bounds: Bounds) -> None:
        self.bounds = bounds
        self.decoder = json.JSONDecoder(
            parse_float=_reject_float,
            parse_int=self.integer,
            parse_constant=_reject_constant,
            object_pairs_hook=self.members,
        )

    def integer(self, text: str) -> int:
        if len(text) > self.bounds.digits:
            raise ValueError(f"an integer of {len(text)} characters (at most {self.bounds.digits})")
        return int(text)

    def members(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        if len(pairs) > self.bounds.items:
            raise ValueError(f"an object of {len(pairs)} members (at most {self.bounds.items})")
        out = dict(pairs)
        if len(out) != len(pairs):
            raise ValueError("a duplicate key")
        return out


def _walk(value: Any, bounds: Bounds) -> None:
    """Array lengths and string lengths (iteratively: the depth is bounded, but cheaply)."""
    todo = [value]
    while todo:
        one = todo.pop()
        if type(one) is str:
            if len(one) > bounds.string:
                raise ValueError(f"a string of {len(one)} characters (at most {bounds.string})")
        elif type(one) is list:
            if len(one) > bounds.items:
                raise ValueError(f"an array of {len(one)} items (at most {bounds.items})")
            todo.extend(one)
        elif type(one) is dict:
            todo.extend(one.keys())
            todo.extend(one.values())


def read_json(data: bytes, source: str, bounds: Bounds = BOUNDS, *, seat: int | None = None) -> Any:
    """The JSON value of ``data`` from ``source``, if within ``bounds``; otherwise
    :class:`UntrustedInput` (blaming ``seat`` when given) and nothing else, whatever the bytes."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise _fail(source, f"expected bytes, got {type(data).__name__}", seat)
    data = bytes(data)
    check_bounds(data, source, bounds, seat=seat)
    if data.startswith(b"\xef\xbb\xbf"):
        raise _fail(source, "a byte-order mark", seat)
    if _SURROGATE_ESCAPE.search(data) is not None:
        raise _fail(source, "a surrogate escape (characters are written literally)", seat)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(source, f"not UTF-8 (byte {exc.start})", seat) from None
    try:
        value = _Reader(bounds).decoder.decode(text)
        if len(data) > bounds.string or data.count(b",") >= bounds.items:
            _walk(value, bounds)  # else no string or array can be over its bound
    except RecursionError:  # unreachable past check_bounds; kept typed all the same
        raise _fail(source, "nested too deep", seat) from None
    except ValueError as exc:  # JSON syntax and every hook's refusal
        raise _fail(source, f"not JSON within bounds ({str(exc)[:200]})", seat) from None
    return value
