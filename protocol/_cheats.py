"""Cheating peers, for demonstrations and tests of the protocol's defences.

``cheating_session(kind)`` returns a :class:`TableSession` subclass that plays
honestly except for one kind of cheat.  Every honest peer must reach a verdict
naming the cheater; none may ever blame an honest seat.

=================  ===========================================================
kind               what the cheater does
=================  ===========================================================
bad-reveal         opens a commitment with the wrong nonce
bad-proof          corrupts the proof of one decryption share
equivocation       signs two different entries with one sequence number
illegal-move       announces a decision the rules forbid
replay             sends one of its earlier parts again
withheld-reveal    never reveals its joint-randomness value
bad-shuffle        duplicates a card while shuffling a deck (blamed at the step: its proof fails)
invalid-point      re-encodes a card of its shuffle (libsodium's top-bit twin: a tag)
wrong-digest       reports a wrong state digest
flood              fills its entries with notes for steps nobody will reach
=================  ===========================================================
"""

from __future__ import annotations

import types
import typing
from typing import Any

import attrs

from fairtable.engine.requests import Decision
from fairtable.engine.requests import Reveal as RevealRequest

from ._codec import encode
from ._deck import Ciphertext, rerandomise
from ._feed import sign_entry
from ._group import random_scalar
from ._messages import DecryptShares, DigestCheck, Reveal, ShuffleStep
from ._session import TableSession
from ._session_messages import Batch, Move, Note, Opening

__all__ = ["CHEATS", "cheating_session"]

CHEATS = (
    "bad-reveal",
    "bad-proof",
    "equivocation",
    "illegal-move",
    "replay",
    "withheld-reveal",
    "bad-shuffle",
    "wrong-digest",
    "invalid-point",
    "flood",
)


def _flip(data: bytes) -> bytes:
    return bytes([data[0] ^ 1]) + data[1:]


class _Cheater(TableSession):
    kind = ""
    done = False

    def publish(self, msg: Any) -> None:
        if not self.done:
            msg = self.corrupt(msg)
        if msg is not None:
            super().publish(msg)

    def corrupt(self, msg: Any) -> Any:
        return msg


class _BadReveal(_Cheater):
    def corrupt(self, msg: Any) -> Any:
        if isinstance(msg, Opening):
            self.done = True
            return attrs.evolve(msg, nonce=_flip(msg.nonce))
        pending = self.game.pending()
        if (
            isinstance(msg, DecryptShares)
            and msg.shares
            and pending
            and isinstance(pending[0], RevealRequest)
            and self.exchanges.names_held(pending[0])
        ):
            # a held card revealed by its holder: shares for another slot than the one named
            self.done = True
            first = msg.shares[0]
            return attrs.evolve(
                msg, shares=(attrs.evolve(first, slot=first.slot + 1000), *msg.shares[1:])
            )
        return msg


class _BadProof(_Cheater):
    def corrupt(self, msg: Any) -> Any:
        if isinstance(msg, DecryptShares) and msg.shares:
            self.done = True
            return attrs.evolve(msg, proof=_flip(msg.proof))
        return msg


class _WithheldReveal(_Cheater):
    def corrupt(self, msg: Any) -> Any:
        return None if isinstance(msg, Reveal) else msg


class _BadShuffle(_Cheater):
    def corrupt(self, msg: Any) -> Any:
        joint = self.exchanges.cards.joint
        if isinstance(msg, ShuffleStep) and len(msg.cards) > 2 and joint:
            self.done = True
            copy = rerandomise(
                Ciphertext.unchecked(msg.cards[0]), joint, random_scalar(self.secret("cheat", 64))
            )
            return attrs.evolve(msg, cards=(msg.cards[0], copy.to_bytes(), *msg.cards[2:]))
        return msg


class _InvalidPoint(_Cheater):
    """Sets the unused top bit of its first shuffle output's first card's ``A``: libsodium
    decodes it as the same element, so it would be a second encoding of the card -- a tag
    in the bytes (ristretto255 has no small-order point to tag a card with, as ed25519 had)."""

    def corrupt(self, msg: Any) -> Any:
        if isinstance(msg, ShuffleStep) and msg.cards:
            self.done = True
            first = msg.cards[0]
            tagged = first[:31] + bytes([first[31] | 0x80]) + first[32:]
            return attrs.evolve(msg, cards=(tagged, *msg.cards[1:]))
        return msg


def _plain(hint: Any) -> Any:
    """A plain value of the resolved annotation ``hint``: ``0``, ``"x"``, ``False``, ``()``
    for a tuple, the first allowed kind's for a union, else ``0``."""
    if hint is str:
        return "x"
    if hint is bool:
        return False
    origin = typing.get_origin(hint)
    if origin is tuple:
        return ()
    if origin in (typing.Union, types.UnionType):
        return _plain(typing.get_args(hint)[0])
    return 0


def _answer_of_another_kind(rules: Any, seat: int, kind: type) -> Any:
    """An answer of some other decision kind than the one asked (the engine refuses it),
    its fields filled with plain values of their annotations.  The annotations are resolved
    here (``typing.get_type_hints``): ``attrs.fields(...).type`` is the annotation's text
    until something (cattrs, ``attrs.resolve_types``) resolves it in place, so it must not
    be read as either."""
    for cls in rules.answer_kinds:
        if cls is kind:
            continue
        hints = typing.get_type_hints(cls)
        values: dict[str, Any] = {}
        for field in attrs.fields(cls):
            if field.name == "seat":
                values["seat"] = seat
            elif field.default is attrs.NOTHING:
                values[field.name] = _plain(hints[field.name])
        return cls(**values)
    raise ValueError("the game has one kind of answer only")


class _IllegalMove(_Cheater):
    """Announces a decision the rules refuse: the game's own ``illegal_answer`` where it has
    one (only for the decisions it gives one for), else an answer of another kind."""

    def decide(self, answer: Any) -> None:
        asked = [d for d in self.game.pending() if isinstance(d, Decision) and d.seat == self.seat]
        hook = self.rules.illegal_answer
        if hook is not None:
            asked = [d for d in asked if hook(d) is not None]
        if self.done or not asked or asked[0].simultaneous:
            super().decide(answer)
            return
        self.done = True
        step = self.game.serial
        assert self.seat is not None
        illegal = (
            hook(asked[0])
            if hook is not None
            else _answer_of_another_kind(self.rules, self.seat, type(answer))
        )
        self.exchanges.decisions.my_answers[step] = illegal
        super().publish(Move(step, self.codec.encode(illegal), bytes(32), ()))
        self._run()


class _Equivocation(_Cheater):
    def _flush(self) -> None:
        if not self.done and self.feed is not None and self._out_parts and self.feed.next_seq >= 3:
            self.done = True
            seq, head = self.feed.next_seq, self.feed.head
            twin = Batch((encode(DigestCheck(0, bytes(32))),))
            other = sign_entry(
                self.feed.identity, self.table, self.feed.seat, seq, head, encode(twin)
            )
            self._outgoing.append(encode(other))
        super()._flush()


class _Replay(_Cheater):
    sent: list[Any]

    def _flush(self) -> None:
        if not hasattr(self, "sent"):
            self.sent = []
        if self._out_parts:
            if not self.done and len(self.sent) > 6:
                self.done = True
                self._out_parts.append(self.sent[2])
            self.sent += [p for p in self._out_parts if not isinstance(p, DigestCheck)]
        super()._flush()


class _WrongDigest(_Cheater):
    """Claims another state from step 5 on, and -- as a real cheater would -- never stops
    over the honest digests it hears."""

    def record_digest(self, step: int) -> None:
        digest = bytes.fromhex(self.game.digest())
        self.digests[step] = _flip(digest) if step >= 5 else digest

    def _peer_digest(self, seat: int, msg: DigestCheck) -> None:
        """Hears the honest digests and keeps none (its record_digest checks nothing)."""


class _Flood(_Cheater):
    """Plays honestly but adds a dozen 16 KiB notes for far-off steps to every entry: junk
    every peer would otherwise keep for the whole game (hostile peers, finding 7)."""

    def _flush(self) -> None:
        if self._out_parts and self.feed is not None:
            far = 10**9 + 12 * self.feed.next_seq
            self._out_parts += [Note(far + i, bytes(16 * 1024)) for i in range(12)]
        super()._flush()


_KINDS: dict[str, type[TableSession]] = {
    "bad-reveal": _BadReveal,
    "bad-proof": _BadProof,
    "equivocation": _Equivocation,
    "illegal-move": _IllegalMove,
    "replay": _Replay,
    "withheld-reveal": _WithheldReveal,
    "bad-shuffle": _BadShuffle,
    "wrong-digest": _WrongDigest,
    "invalid-point": _InvalidPoint,
    "flood": _Flood,
}


def cheating_session(kind: str) -> type[TableSession]:
    """The session class of a peer that cheats in way ``kind``."""
    try:
        return _KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown cheat {kind!r} (one of {', '.join(CHEATS)})") from None
