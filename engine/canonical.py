"""Canonical bytes of engine values, for digests.

The encoding is JSON with sorted keys, no whitespace and only ints, strings,
booleans, None, lists and string-keyed dicts; floats are refused.  Every peer
that holds the same public state computes the same bytes, whatever the
insertion order of its dicts.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _check(value: Any) -> None:
    if isinstance(value, float):
        raise TypeError("floats are not allowed in game state")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"state dict keys must be strings, got {key!r}")
            _check(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _check(item)
    elif not (value is None or isinstance(value, bool | int | str)):
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
