"""Canonical bytes of engine values, for digests.

The encoding is JSON with sorted keys, no whitespace and only ints, strings,
booleans, None, lists and string-keyed dicts; floats are refused.  Every peer
that holds the same public state computes the same bytes, whatever the
insertion order of its dicts.  A member of a ``StrEnum`` is a string, as a key
or a value: JSON writes its text, so a state that keys a dict by members has
the bytes of one keyed by the words.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

_PLAIN = (str, int, bool, type(None))


def _check(value: Any) -> None:
    kind = type(value)
    if kind in _PLAIN:  # exact types: the common case, checked first
        return
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str and not isinstance(key, str):
                raise TypeError(f"state dict keys must be strings, got {key!r}")
            if type(item) not in _PLAIN:
                _check(item)
    elif kind is list or kind is tuple:
        for item in value:
            if type(item) not in _PLAIN:
                _check(item)
    elif isinstance(value, float):
        raise TypeError("floats are not allowed in game state")
    elif isinstance(value, dict | list | tuple):  # subclasses (attrs-free state only)
        _check(dict(value) if isinstance(value, dict) else list(value))
    elif not isinstance(value, bool | int | str):
        raise TypeError(f"unsupported value in game state: {type(value).__name__}")


def canonical_bytes(value: Any) -> bytes:
    """The canonical encoding of a JSON-shaped value."""
    _check(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def digest_of(domain: str, value: Any) -> str:
    """Hex SHA-256 of a domain tag and the canonical encoding of ``value``."""
    return hashlib.sha256(domain.encode("utf-8") + b"\x00" + canonical_bytes(value)).hexdigest()
