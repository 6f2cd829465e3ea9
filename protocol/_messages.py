"""The generic message types carried in feed-entry bodies.

This module owns the data shapes (attrs classes registered with the codec)
that the building blocks exchange: commitments and reveals, deck key shares,
shuffle steps and their audit openings, batched decryption shares, hand-overs,
sealed payloads, digest checks and feed requests.  The table session will add
its own types the same way: one ``@message("tag")`` + ``@attrs.frozen`` class.

Who sent a message, for which table and in which order is not repeated here:
it is the signed feed entry around the body (see ``_feed``).
"""

from __future__ import annotations

import attrs

from ._codec import blob, integer, item_bytes, item_int, items, label, message

__all__ = [
    "JOINT",
    "MAX_CARDS",
    "MAX_PAYLOAD",
    "MAX_SEALED",
    "MAX_SHUFFLE_PROOF",
    "MAX_SEATS",
    "Commit",
    "DecryptShares",
    "DigestCheck",
    "FeedRequest",
    "HandOver",
    "HandOverItem",
    "CardRef",
    "KeyShare",
    "PoolPlace",
    "Reveal",
    "Sealed",
    "Share",
    "ShuffleOpening",
    "ShuffleStep",
]

MAX_SEATS = 16
"""Seats are numbered ``0 .. MAX_SEATS - 1``."""

MAX_CARDS = 1024
"""Largest deck (or pool) of encrypted cards."""

MAX_SHUFFLE_PROOF = 128 * MAX_CARDS + 160
"""Largest proof of a correct shuffle (of :data:`MAX_CARDS` cards)."""

MAX_PAYLOAD = 64 * 1024
"""Largest committed payload."""

MAX_SEALED = 256 * 1024
"""Largest sealed box."""

JOINT = -1
"""``HandOver.to_seat`` value meaning "re-encrypt to the joint key" (into a shared pool)."""

_SEAT_HI = MAX_SEATS - 1
_SLOT_HI = (1 << 32) - 1


@message("commit")
@attrs.frozen
class Commit:
    """A commitment digest for ``purpose`` (see ``_commit``)."""

    purpose: str = label()
    digest: bytes = blob(exact=32)


@message("reveal")
@attrs.frozen
class Reveal:
    """The opening of the sender's commitment for ``purpose``."""

    purpose: str = label()
    nonce: bytes = blob(exact=32)
    payload: bytes = blob(max_len=MAX_PAYLOAD)


@message("key-share")
@attrs.frozen
class KeyShare:
    """A seat's deck public-key share with a Schnorr proof of knowledge of its secret."""

    key: bytes = blob(exact=32)
    proof: bytes = blob(exact=64)


@attrs.frozen
class CardRef:
    """A ciphertext named by the seat that holds (or placed) it and its ``(deck, slot)``
    (docs/protocol.md §7.5, "Which ciphertext a (deck, slot) denotes")."""

    seat: int = integer(lo=0, hi=_SEAT_HI)
    deck: str = label()
    slot: int = integer(hi=_SLOT_HI)


@message("shuffle")
@attrs.frozen
class ShuffleStep:
    """One seat's re-randomised and permuted deck (or re-mixed pool, or re-handle).

    ``cards`` are 64-byte ElGamal ciphertexts ``A || B``; ``proof`` is the proof of a
    correct shuffle (:func:`~protocol._shuffle_proof.prove_shuffle`, ``128*n + 160`` bytes).
    ``inputs`` names the step's input ciphertexts in order where no rule derives them:
    a re-mix names its pool's cards by the hand-overs that placed them, a re-handle the
    held cards it takes; a deck's shuffle step names none (its input is the deck's
    previous step, or the initial deck).
    """

    deck: str = label()
    step: str = label()
    cards: tuple[bytes, ...] = items(item_bytes(exact=64), max_items=MAX_CARDS)
    proof: bytes = blob(max_len=MAX_SHUFFLE_PROOF)
    inputs: tuple[CardRef, ...] = items(CardRef, max_items=MAX_CARDS, empty_default=True)


@message("shuffle-opening")
@attrs.frozen
class ShuffleOpening:
    """The audit opening of a shuffle step: ``output[j] = rerandomise(input[permutation[j]],
    randomisers[j])``."""

    deck: str = label()
    step: str = label()
    permutation: tuple[int, ...] = items(item_int(hi=MAX_CARDS - 1), max_items=MAX_CARDS)
    randomisers: tuple[bytes, ...] = items(item_bytes(exact=32), max_items=MAX_CARDS)


@attrs.frozen
class Share:
    """One decryption share ``D = x * A`` for card ``slot``."""

    slot: int = integer(hi=_SLOT_HI)
    share: bytes = blob(exact=32)


@message("shares")
@attrs.frozen
class DecryptShares:
    """All of one seat's decryption shares for one step, batched, with one DLEQ proof
    ``c || z`` for them all (:func:`~protocol._dleq.prove_shares`).

    ``to_seat`` says whom the shares decrypt for: the drawing seat of a private draw, or
    :data:`JOINT` for a public reveal; ``cards`` names a pool's cards (slot ``i`` is
    ``cards[i]``, by the hand-over that placed it) and is empty for any other deck.
    """

    deck: str = label()
    step: str = label()
    shares: tuple[Share, ...] = items(Share, max_items=MAX_CARDS)
    proof: bytes = blob(exact=64)
    to_seat: int = integer(lo=-1, hi=_SEAT_HI, default=-1)
    cards: tuple[CardRef, ...] = items(CardRef, max_items=MAX_CARDS, empty_default=True)


@attrs.frozen
class HandOverItem:
    """One held card re-encrypted for the recipient, with its re-encryption proof."""

    slot: int = integer(hi=_SLOT_HI)
    card: bytes = blob(exact=64)
    proof: bytes = blob(exact=96)


@attrs.frozen
class PoolPlace:
    """Where a card handed into the pools goes: position ``index`` of pool ``pool``."""

    pool: str = label()
    index: int = integer(hi=MAX_CARDS - 1)


@message("hand-over")
@attrs.frozen
class HandOver:
    """Cards the sender holds, re-encrypted to ``to_seat``'s key (or :data:`JOINT`).

    Into the pools (:data:`JOINT`), ``places`` gives each card's pool and position, one
    per item in order (docs/protocol.md §7.5); for any other hand-over it is empty.
    """

    deck: str = label()
    step: str = label()
    to_seat: int = integer(lo=JOINT, hi=_SEAT_HI)
    cards: tuple[HandOverItem, ...] = items(HandOverItem, max_items=MAX_CARDS)
    places: tuple[PoolPlace, ...] = items(PoolPlace, max_items=MAX_CARDS, empty_default=True)


@message("sealed")
@attrs.frozen
class Sealed:
    """A payload only ``to_seat`` can read (see ``_sealed``)."""

    to_seat: int = integer(lo=0, hi=_SEAT_HI)
    purpose: str = label()
    box: bytes = blob(max_len=MAX_SEALED)


@message("digest")
@attrs.frozen
class DigestCheck:
    """The sender's engine public-state digest after game step ``step``."""

    step: int = integer()
    digest: bytes = blob(exact=32)


@message("want")
@attrs.frozen
class FeedRequest:
    """Ask a link for entries ``start <= seq < stop`` of ``seat``'s feed."""

    seat: int = integer(lo=0, hi=_SEAT_HI)
    start: int = integer()
    stop: int = integer()
