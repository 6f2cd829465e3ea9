"""Engine answers on the wire: the public part of a seat's decision, and its secrets.

A decision travels as the canonical JSON of its public part (the engine's
``public_part``).  This module also says, per answer type, which hand cards a
decision keeps secret (bound by a commitment), which it shows face up (proved by
decryption shares) and which it hands to other seats (re-encrypted to them).
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from engine.canonical import canonical_bytes
from engine.reign import answers as reign_answers

from ._errors import DecodeError

__all__ = ["decode_answer", "encode_answer", "gifted_cards", "secret_cards", "shown_cards"]

_TYPES: dict[str, type] = {cls.__name__: cls for cls in reign_answers.ANSWER_KINDS.values()}


def encode_answer(answer: Any) -> bytes:
    """Canonical bytes of the answer's public part."""
    public = reign_answers.public_part(answer)
    data = {"type": type(public).__name__, **attrs.asdict(public)}
    return canonical_bytes(data)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict | float):
        raise ValueError("only numbers, text and lists")
    return value


def decode_answer(data: bytes, seat: int) -> Any:
    """A peer's public answer; DecodeError (blaming ``seat``) unless well formed."""
    try:
        raw = json.loads(data.decode("utf-8"), parse_float=_no_float)
        if not isinstance(raw, dict):
            raise ValueError("an answer is an object")
        cls = _TYPES[raw.pop("type")]
        names = [f.name for f in attrs.fields(cls)]
        if sorted(raw) != sorted(names):
            raise ValueError(f"{cls.__name__} has fields {', '.join(names)}")
        answer = cls(**{k: _tuples(v) for k, v in raw.items()})
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as exc:
        raise DecodeError(f"malformed decision: {exc}", seat=seat) from None
    if canonical_bytes({"type": cls.__name__, **attrs.asdict(answer)}) != data:
        raise DecodeError("decision is not in canonical form", seat=seat)
    if getattr(answer, "seat", None) != seat:
        raise DecodeError("a seat may only decide for itself", seat=seat)
    if reign_answers.public_part(answer) != answer:
        raise DecodeError("a public decision carries secret cards", seat=seat)
    return answer


def decode_full_answer(data: bytes) -> Any:
    """Our own decision, secret part included (from our own encrypted note)."""
    raw = json.loads(data.decode("utf-8"))
    cls = _TYPES[raw.pop("type")]
    return cls(**{k: _tuples(v) for k, v in raw.items()})


def _no_float(text: str) -> Any:
    raise ValueError("floats are not allowed")


def secret_cards(answer: Any) -> tuple[str, ...]:
    """Hand cards the decision places face down (committed, opened later)."""
    if isinstance(answer, reign_answers.Bid | reign_answers.Covert):
        return tuple(answer.cards or ())
    return ()


def shown_cards(answer: Any) -> tuple[str, ...]:
    """Hand cards the decision shows face up."""
    if isinstance(answer, reign_answers.Overt):
        return (answer.card,) if answer.card is not None else ()
    if isinstance(answer, reign_answers.RegentDiscard):
        return (answer.card,)
    if isinstance(answer, reign_answers.Discard):
        return tuple(answer.cards)
    return ()


def gifted_cards(answer: Any) -> tuple[tuple[int, str], ...]:
    """(recipient, card) pairs the decision hands over (Reign's spoils)."""
    if isinstance(answer, reign_answers.Spoils):
        return tuple(answer.gifts or ())
    return ()

