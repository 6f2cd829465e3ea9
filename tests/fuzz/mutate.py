"""Deterministic input mutation for the decoder fuzz campaign.

Everything here is driven by one ``random.Random`` seeded by the campaign, so input ``i`` of a
run with seed ``S`` is the same bytes on every machine: a failure is replayed from its seed and
index alone.  Three families of mutation, picked at random per input:

* byte level -- flip bits, overwrite, insert, delete, duplicate or truncate ranges, splice two
  corpus items, drop in "interesting" bytes (0, 0x7f, 0x80, 0xff, quotes, brackets);
* JSON level (when the input parses as JSON) -- replace a value somewhere in the tree by a
  value of another type (huge and negative integers, floats, deep nesting, long strings,
  non-ASCII text), delete or add keys, nest the whole document very deep, re-serialise it
  canonically or not;
* text level -- for line-oriented text (TOML deck files, invites, join codes): swap, repeat or
  drop lines and tokens, change numbers;
* planted attacks (:mod:`tests.fuzz.hostile`, shared with the hypothesis tests) -- deep nesting,
  huge numbers, long strings, duplicate keys, invalid UTF-8.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .hostile import hostile

INTERESTING_BYTES = b'\x00\x01\x7f\x80\xff"\\{}[],:0-9eE. \n\t'

INTERESTING_VALUES: tuple[Any, ...] = (
    0,
    -1,
    1,
    2**53,
    2**53 + 1,
    -(2**53) - 1,
    2**63,
    2**64 + 7,
    10**400,
    True,
    False,
    None,
    "",
    "a",
    "\u0000",
    "\u00e9\u4e2d",
    "\ud800",
    "x" * 5000,
    [],
    {},
    [[[]]],
    {"": None},
    [0] * 300,
    "AAAA",
    "____",
    "==",
    1.5,
    -0.0,
    1e308,
)


def _byte_mutation(rng: random.Random, data: bytes, other: bytes) -> bytes:
    buf = bytearray(data)
    op = rng.randrange(9)
    if not buf:
        op = 2
    if op == 0:  # flip bits
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
    elif op == 1:  # overwrite bytes
        for _ in range(rng.randint(1, 4)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
    elif op == 2:  # insert bytes
        at = rng.randint(0, len(buf))
        chunk = bytes(rng.choice(INTERESTING_BYTES) for _ in range(rng.randint(1, 8)))
        buf[at:at] = chunk
    elif op == 3:  # delete a range
        at = rng.randrange(len(buf))
        del buf[at : at + rng.randint(1, 16)]
    elif op == 4:  # duplicate a range
        at = rng.randrange(len(buf))
        chunk = buf[at : at + rng.randint(1, 64)]
        to = rng.randint(0, len(buf))
        buf[to:to] = chunk * rng.randint(1, 4)
    elif op == 5:  # truncate
        del buf[rng.randint(0, len(buf)) :]
    elif op == 6:  # splice with another corpus item
        cut, cut2 = rng.randint(0, len(buf)), rng.randint(0, len(other))
        buf = buf[:cut] + bytearray(other[cut2:])
    elif op == 7:  # interesting byte in place
        buf[rng.randrange(len(buf))] = rng.choice(INTERESTING_BYTES)
    else:  # swap two ranges
        a, b = sorted(rng.randrange(len(buf)) for _ in range(2))
        n = rng.randint(1, 8)
        buf[a : a + n], buf[b : b + n] = buf[b : b + n], buf[a : a + n]
    return bytes(buf)


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.randrange(10)
    if roll < 5 or depth > 2:
        return rng.choice(INTERESTING_VALUES)
    if roll < 7:
        return rng.randint(-(2**70), 2**70)
    if roll < 8:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if roll < 9:
        return {str(rng.randint(0, 9)): _random_value(rng, depth + 1)}
    return "".join(chr(rng.randrange(0x20, 0x2FF)) for _ in range(rng.randint(0, 12)))


def _nodes(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(doc, dict):
        for key in sorted(doc):
            out += _nodes(doc[key], (*path, key))
    elif isinstance(doc, list):
        for i, item in enumerate(doc):
            out += _nodes(item, (*path, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _json_mutation(rng: random.Random, doc: Any) -> bytes | None:
    nodes = _nodes(doc)
    path = rng.choice(nodes)
    node = _get(doc, path)
    op = rng.randrange(8)
    if op <= 2:  # another value, often another type
        doc = _set(doc, path, _random_value(rng))
    elif op == 3 and isinstance(node, dict) and node:  # drop a key
        del node[rng.choice(sorted(node))]
    elif op == 4 and isinstance(node, dict):  # add a key
        node[rng.choice(["type", "v", "x", "sig", "seq", "body", "seat", ""])] = _random_value(rng)
    elif op == 5:  # nest the node very deep
        depth = rng.choice((50, 1000, 20000, 200000))
        text = json.dumps(node, sort_keys=True, separators=(",", ":"))
        return _reserialise(rng, doc, path, "[" * depth + text + "]" * depth)
    elif op == 6 and isinstance(node, list) and node:  # repeat or drop list items
        if rng.random() < 0.5:
            node.extend(node * rng.randint(1, 40))
        else:
            del node[rng.randrange(len(node))]
    elif isinstance(node, int) and not isinstance(node, bool):  # nudge a number
        doc = _set(doc, path, node + rng.choice((-1, 1, 2**32, -(2**31), 2**53)))
    else:
        doc = _set(doc, path, _random_value(rng))
    return _reserialise(rng, doc, (), None)


def _reserialise(rng: random.Random, doc: Any, path: tuple[Any, ...], raw: str | None) -> bytes:
    marker = "\u0001fuzz-raw\u0001"
    if raw is not None:
        doc = _set(doc, path, marker)
    if rng.random() < 0.8:
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    else:
        text = json.dumps(doc, indent=rng.choice((None, 1)), ensure_ascii=rng.random() < 0.5)
    if raw is not None:
        text = text.replace(json.dumps(marker, ensure_ascii=False), raw, 1)
    return text.encode("utf-8", "surrogatepass")


def _text_mutation(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    op = rng.randrange(5)
    if op == 0 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 1:
        i = rng.randrange(len(lines))
        lines[i:i] = [lines[i]] * rng.randint(1, 30)
    elif op == 2 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    elif op == 3:
        i = rng.randrange(len(lines))
        tokens = lines[i].split(" ")
        t = rng.randrange(len(tokens))
        tokens[t] = str(rng.choice(INTERESTING_VALUES)) if rng.random() < 0.5 else tokens[t] * 3
        lines[i] = " ".join(tokens)
    else:
        i = rng.randrange(len(lines))
        lines[i] = "".join(
            str(rng.randint(-9, 10**20)) if ch.isdigit() and rng.random() < 0.3 else ch
            for ch in lines[i]
        )
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def mutate(rng: random.Random, corpus: list[bytes], *, text: bool = False) -> bytes:
    """One new input from ``corpus`` (a few stacked mutations of one item, or one time in
    five a planted attack: :mod:`tests.fuzz.hostile`)."""
    if rng.randrange(5) == 0:
        return hostile(rng.randint, rng.choice(corpus))
    data = rng.choice(corpus)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        family = rng.randrange(10)
        if family < 4:
            try:
                doc = json.loads(data)
            except (ValueError, RecursionError):
                doc = None
            if isinstance(doc, dict | list):
                data = _json_mutation(rng, doc) or data
                continue
        if text and family < 7:
            data = _text_mutation(rng, data)
            continue
        data = _byte_mutation(rng, data, rng.choice(corpus))
    return data
