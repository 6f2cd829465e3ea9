"""Engine answers on the wire: the public part of a seat's decision, and its secrets.

A decision travels as the canonical JSON of its public part (the game's
``public_part``).  :class:`AnswerCodec` also says, per answer, which hand cards
a decision keeps secret (bound by a commitment), which it shows face up (proved
by decryption shares) and which it hands to other seats (re-encrypted to them)
-- all three come from the game's :class:`~engine.games.GameRules`.
"""

from __future__ import annotations

from typing import Any

import attrs

from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.games import AnyGameRules
from fairtable.engine.shapes import answer_from_plain

from ._errors import DecodeError
from ._untrusted import Bounds, UntrustedInput, read_json

__all__ = ["AnswerCodec"]


ANSWER_BOUNDS = Bounds(depth=8)
"""A decision's public part: a flat record of the game's answer shape (lists of cards)."""


class AnswerCodec:
    """Encoding and decoding one game's answers, and the cards each one moves."""

    def __init__(self, rules: AnyGameRules) -> None:
        self.rules = rules
        self._types: dict[str, type] = {cls.__name__: cls for cls in rules.answer_kinds}

    def encode(self, answer: Any) -> bytes:
        """Canonical bytes of the answer's public part."""
        public = self.rules.public_part(answer)
        return canonical_bytes({"type": type(public).__name__, **attrs.asdict(public)})

    def decode(self, data: bytes, seat: int) -> Any:
        """A peer's public answer; DecodeError (blaming ``seat``) unless well formed."""
        try:
            raw = read_json(data, f"seat {seat}'s decision", ANSWER_BOUNDS, seat=seat)
            if not isinstance(raw, dict):
                raise ValueError("an answer is an object")
            kind = raw.pop("type", None)
            if type(kind) is not str or kind not in self._types:
                raise ValueError(f"no answer of this game is called {kind!r}")
            answer = answer_from_plain(self._types[kind], raw)  # every field of its shape
        except UntrustedInput:
            raise
        except (ValueError, MalformedAnswer) as exc:
            raise DecodeError(f"malformed decision: {exc}", seat=seat) from None
        if canonical_bytes({"type": kind, **attrs.asdict(answer)}) != data:
            raise DecodeError("decision is not in canonical form", seat=seat)
        if getattr(answer, "seat", None) != seat:
            raise DecodeError("a seat may only decide for itself", seat=seat)
        if self.rules.public_part(answer) != answer:
            raise DecodeError("a public decision carries secret cards", seat=seat)
        return answer

    def decode_full(self, data: bytes) -> Any:
        """Our own decision, secret part included (from our own encrypted note)."""
        raw = read_json(data, "our own decision")
        return answer_from_plain(self._types[raw.pop("type")], raw)

    def secret_cards(self, answer: Any) -> tuple[str, ...]:
        """Hand cards the decision places face down (committed, opened later)."""
        return tuple(self.rules.secret_cards(answer))

    def shown_cards(self, answer: Any) -> tuple[str, ...]:
        """Hand cards the decision shows face up."""
        return tuple(self.rules.shown_cards(answer))

    def gifted_cards(self, answer: Any) -> tuple[tuple[int, str], ...]:
        """(recipient, card) pairs the decision hands over."""
        return tuple(self.rules.gifted_cards(answer))
