"""Mental-poker decks: Barnett-Smart ElGamal over the ristretto255 prime-order group.

This module owns the deck protocol's operations; the table session decides who
runs which and when.  Notation: ``G`` base point, seat ``i`` holds deck key
``x_i`` and publishes ``Y_i = x_i*G`` with a Schnorr proof; the joint key is
``H = sum(Y_i)``.  A card ``i`` of deck ``label`` is the point
``M_i = from_hash(SHA-512("fairtable/card/v2" || frame(table, label, i)))``.
A ciphertext under key ``K`` is ``(A, B) = (r*G, M + r*K)``.

* **Initial deck**: ``(G, M_i + H)`` for every card (``r = 1``, computed by
  every seat alone; nothing is hidden yet).
* **Shuffle / re-mix / re-handle step** (each seat in turn): draw a uniform
  permutation ``p`` and scalars ``r_j``, output ``out[j] = (A + r_j*G, B + r_j*H)``
  of ``in[p[j]]`` with a zero-knowledge proof of a correct shuffle
  (:mod:`protocol._shuffle_proof`), which every peer checks on arrival
  (:func:`verify_shuffle_step`).  The seat keeps ``(p, r)``;
  :func:`verify_shuffle_opening` recomputes an opened step (tests and tools).
* **Decryption share** of seat ``i`` for ``(A, B)``: ``D_i = x_i*A`` with a
  Chaum-Pedersen proof that ``log_G(Y_i) = log_A(D_i)``.
* **Private draw** of a deck card by seat ``s``: every other seat publishes its
  share; ``held = (A, B - sum_{j != s} D_j)`` is then an ElGamal ciphertext
  of the card under ``Y_s`` alone, which only ``s`` can open:
  ``M = held.B - x_s*held.A``.  Shares travel in the clear: without ``x_s``
  they reveal nothing (DDH), and everyone can check every proof.
* **Public reveal**: all key holders of a ciphertext publish shares (all seats
  for a deck card; the holder alone for a held card); ``M = B - sum(D)``.
* **Hand-over** of a held card to seat ``t`` (or to the joint key, to put it
  into a face-down pool): the holder re-encrypts it, ``(r*G, M + r*K)`` with
  ``K = Y_t`` (or ``H``), and proves with a sigma proof that the new ciphertext
  holds the same card; only ``t`` can open it.
* **Card lookup**: a decrypted point is mapped back to its index through the
  deck's :class:`CardCodebook`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

import attrs

from fairtable.engine.rng import ChanceStream

from ._dleq import (
    ProofContext,
    prove_key,
    prove_reencryption,
    prove_shares,
    verify_key,
    verify_reencryption,
    verify_shares_proof,
)
from ._errors import (
    BadProof,
    BadShuffle,
    InvalidPoint,
    LocalProtocolError,
    RemoteProtocolError,
    UnknownCard,
)
from ._group import (
    BASE,
    GroupError,
    add,
    base_mul,
    check_point,
    check_scalar,
    hash_to_point,
    is_valid_point,
    mul,
    random_scalar,
    scalar_mul,
    sub,
    sum_points,
)
from ._messages import (
    JOINT,
    MAX_CARDS,
    CardRef,
    DecryptShares,
    HandOver,
    HandOverItem,
    KeyShare,
    PoolPlace,
    Share,
    ShuffleOpening,
    ShuffleStep,
)
from ._shuffle_proof import prove_shuffle, verify_shuffle

__all__ = [
    "CARD_DOMAIN",
    "KEY_STEP",
    "CardCodebook",
    "Ciphertext",
    "DeckKey",
    "ShuffleSecret",
    "check_answers",
    "decryption_shares",
    "hand_over",
    "initial_deck",
    "joint_key",
    "open_held",
    "parse_cards",
    "remix",
    "rerandomise",
    "reveal_card",
    "shuffle",
    "shuffle_step",
    "strip_shares",
    "verify_hand_over",
    "verify_key_share",
    "verify_shares",
    "verify_shuffle_opening",
    "verify_shuffle_step",
]

CARD_DOMAIN = b"fairtable/card/v2"
KEY_STEP = "deck-key"
"""Step label in the proof context of deck key shares."""


@attrs.frozen
class Ciphertext:
    """An ElGamal ciphertext ``(A, B)``; 64 bytes on the wire as ``A || B``."""

    a: bytes
    b: bytes

    def to_bytes(self) -> bytes:
        """``A || B``."""
        return self.a + self.b

    @classmethod
    def parse(cls, data: bytes, *, seat: int | None = None) -> Ciphertext:
        """Split and validate both points; InvalidPoint names ``seat`` (the sender)."""
        if type(data) is not bytes or len(data) != 64:
            raise InvalidPoint("a ciphertext is 64 bytes", seat=seat)
        return cls(check_point(data[:32], seat=seat), check_point(data[32:], seat=seat))

    @classmethod
    def unchecked(cls, data: bytes) -> Ciphertext:
        """Split without validating (validate with :meth:`check` before first use)."""
        if len(data) != 64:
            raise LocalProtocolError("a ciphertext is 64 bytes")
        return cls(data[:32], data[32:])

    def check(self, *, seat: int | None = None) -> Ciphertext:
        """Validate both points (blaming ``seat``, the producer) and return self."""
        check_point(self.a, seat=seat)
        check_point(self.b, seat=seat)
        return self


def parse_cards(
    cards: Iterable[bytes], *, seat: int | None = None, ours: bool = False
) -> list[Ciphertext]:
    """Validate every ciphertext of a received deck or pool.

    ``ours``: the cards are our own shuffle's output, read back from our own feed: valid by
    construction (valid inputs plus multiples of valid points), so they are only split.
    """
    if ours:
        return [Ciphertext.unchecked(c) for c in cards]
    return [Ciphertext.parse(c, seat=seat) for c in cards]


class CardCodebook:
    """The card points of one deck and the reverse lookup point -> card index."""

    def __init__(self, table: bytes, deck: str, size: int) -> None:
        if not 0 < size <= MAX_CARDS:
            raise LocalProtocolError(f"deck size must be 1..{MAX_CARDS}")
        self.table, self.deck = table, deck
        self.points = tuple(
            hash_to_point(CARD_DOMAIN, table, deck.encode("ascii"), i.to_bytes(4, "big"))
            for i in range(size)
        )
        self._index = {p: i for i, p in enumerate(self.points)}
        if len(self._index) != size:  # a collision would be a SHA-256 break
            raise LocalProtocolError("card points collide")

    def __len__(self) -> int:
        return len(self.points)

    def index(self, point: bytes) -> int:
        """The card index of a decrypted point; UnknownCard if it is none of ours."""
        try:
            return self._index[point]
        except KeyError:
            raise UnknownCard(f"decrypted point is not a card of {self.deck!r}") from None


@attrs.frozen
class DeckKey:
    """One seat's secret deck key share ``x`` and its public ``Y = x*G``."""

    secret: bytes = attrs.field(repr=False)
    public: bytes

    @classmethod
    def generate(cls, *, entropy: bytes | None = None) -> DeckKey:
        """A fresh key (``entropy``: 64 bytes, only for test vectors)."""
        x = random_scalar(entropy)
        return cls(x, base_mul(x))

    def key_share(self, table: bytes, seat: int, *, entropy: bytes | None = None) -> KeyShare:
        """The :class:`KeyShare` message: ``Y`` and a Schnorr proof of knowing ``x``."""
        ctx = ProofContext(table, KEY_STEP, seat)
        return KeyShare(self.public, prove_key(self.secret, self.public, ctx, entropy=entropy))


def verify_key_share(table: bytes, seat: int, msg: KeyShare) -> bytes:
    """Validate a seat's key share and its proof; return ``Y``."""
    check_point(msg.key, seat=seat, what="deck key")
    verify_key(msg.key, msg.proof, ProofContext(table, KEY_STEP, seat))
    return msg.key


def joint_key(keys: Iterable[bytes]) -> bytes:
    """``H = sum(Y_i)`` over verified key shares (all seats)."""
    try:
        return check_point(sum_points(keys), what="joint key")
    except GroupError as exc:
        raise LocalProtocolError("no key shares") from exc


def rerandomise(ct: Ciphertext, key: bytes, r: bytes) -> Ciphertext:
    """``(A + r*G, B + r*K)``: the same card, unlinkable without ``r``."""
    return Ciphertext(add(ct.a, base_mul(r)), add(ct.b, mul(r, key)))


def initial_deck(codebook: CardCodebook, key: bytes) -> list[Ciphertext]:
    """The public starting deck ``(G, M_i + H)``, in card order."""
    return [Ciphertext(BASE, add(m, key)) for m in codebook.points]


@attrs.frozen
class ShuffleSecret:
    """What a shuffling seat keeps for the audit: its permutation and re-randomisers."""

    permutation: tuple[int, ...] = attrs.field(repr=False)
    randomisers: tuple[bytes, ...] = attrs.field(repr=False)

    def opening(self, deck: str, step: str) -> ShuffleOpening:
        """The audit-time :class:`ShuffleOpening` message."""
        return ShuffleOpening(deck, step, self.permutation, self.randomisers)


def shuffle(
    cards: Sequence[Ciphertext], key: bytes, *, entropy: bytes | None = None
) -> tuple[list[Ciphertext], ShuffleSecret]:
    """Re-randomise every ciphertext and permute: ``out[j] = rerand(cards[p[j]], r_j)``.

    ``cards`` must already be validated (:func:`parse_cards`).  The permutation
    and scalars come from ``engine.rng.ChanceStream`` over 32 fresh random
    bytes (``entropy`` fixes them, for tests only).
    """
    rng = ChanceStream(os.urandom(32) if entropy is None else entropy)
    perm = tuple(rng.permutation(len(cards)))
    rs = tuple(random_scalar(rng.take(64)) for _ in cards)
    out = [rerandomise(cards[p], key, r) for p, r in zip(perm, rs, strict=True)]
    return out, ShuffleSecret(perm, rs)


remix = shuffle
"""Re-mix a pool of face-down cards (same operation as a shuffle step): after one
honest seat's turn nobody can tell which input became which output."""


def shuffle_step(
    deck: str,
    step: str,
    cards: Sequence[Ciphertext],
    key: bytes,
    *,
    table: bytes,
    seat: int,
    entropy: bytes | None = None,
    inputs: Sequence[CardRef] = (),
) -> tuple[ShuffleStep, list[Ciphertext], ShuffleSecret]:
    """:func:`shuffle` and wrap the output in a :class:`ShuffleStep` message with its proof
    of a correct shuffle (context ``(table, step, seat)``, docs/protocol.md §8.5).

    ``entropy`` (32 bytes) fixes the permutation, the re-randomisers and the proof (a
    restarted peer replays exactly the same step).  ``inputs`` names the input cards
    where no rule derives them (a re-mix's pool, a re-handle's held cards).
    """
    noise = os.urandom(32) if entropy is None else entropy
    out, secret = shuffle(cards, key, entropy=noise)
    proof = prove_shuffle(
        ProofContext(table, step, seat),
        deck,
        key,
        _pairs(cards),
        _pairs(out),
        secret.permutation,
        secret.randomisers,
        entropy=noise,
    )
    msg = ShuffleStep(deck, step, tuple(c.to_bytes() for c in out), proof, tuple(inputs))
    return msg, out, secret


def verify_shuffle_step(
    table: bytes,
    seat: int,
    msg: ShuffleStep,
    before: Sequence[Ciphertext],
    key: bytes,
    inputs: Sequence[CardRef] = (),
) -> list[Ciphertext]:
    """Check ``seat``'s shuffle step of the (valid) cards ``before`` under ``key`` on
    arrival, before anything uses its output: that it names the inputs we derived
    (``inputs``, docs/protocol.md §7.5) and its proof of a correct shuffle.

    Returns the output ciphertexts, every point valid (the proof's check multiplies each
    one); raises BadShuffle (or InvalidPoint for an output point outside the group) naming
    ``seat`` otherwise.
    """
    if msg.inputs != tuple(inputs):
        raise BadShuffle("a shuffle step names other input cards than its own", seat=seat)
    if len(msg.cards) != len(before):
        raise BadShuffle("a shuffle step changed the number of cards", seat=seat)
    after = [Ciphertext.unchecked(c) for c in msg.cards]
    verify_shuffle(
        ProofContext(table, msg.step, seat), msg.deck, key, _pairs(before), _pairs(after), msg.proof
    )
    return after


def _pairs(cards: Sequence[Ciphertext]) -> list[tuple[bytes, bytes]]:
    return [(c.a, c.b) for c in cards]


def verify_shuffle_opening(
    before: Sequence[Ciphertext],
    after: Sequence[Ciphertext],
    key: bytes,
    opening: ShuffleOpening | ShuffleSecret,
    *,
    seat: int,
    key_secret: bytes | None = None,
) -> None:
    """Recompute an opened shuffle step; BadShuffle naming ``seat`` unless it matches.

    ``key_secret`` is the key's discrete log when it is known (at the audit every deck
    key is open): ``r*K`` is then ``(r*k)*G``, a fixed-base multiplication that costs a
    fraction of a variable-base one.  The caller has checked ``k*G == K``.
    """
    perm, rs = opening.permutation, opening.randomisers
    n = len(before)
    if len(after) != n or len(perm) != n or len(rs) != n:
        raise BadShuffle("shuffle changed the number of cards", seat=seat)
    if sorted(perm) != list(range(n)):
        raise BadShuffle("opened shuffle is not a permutation", seat=seat)
    try:
        for j, (p, r) in enumerate(zip(perm, rs, strict=True)):
            check_scalar(r, seat=seat)
            if key_secret is None:
                again = rerandomise(before[p], key, r)
            else:
                ct = before[p]
                again = Ciphertext(
                    add(ct.a, base_mul(r)), add(ct.b, base_mul(scalar_mul(r, key_secret)))
                )
            if again != after[j]:
                raise BadShuffle(f"output card {j} is not input {p} re-randomised", seat=seat)
    except (GroupError, BadProof) as exc:
        raise BadShuffle(f"bad re-randomiser: {exc}", seat=seat) from exc


def decryption_shares(
    key: DeckKey,
    table: bytes,
    seat: int,
    deck: str,
    step: str,
    cards: Mapping[int, Ciphertext],
    *,
    entropy: bytes | None = None,
    to_seat: int = JOINT,
    refs: Sequence[CardRef] = (),
) -> DecryptShares:
    """All of ``seat``'s shares ``D = x*A`` for ``cards`` by slot, batched, with one DLEQ
    proof for them all; ``to_seat`` (the drawing seat, or :data:`JOINT` for a public
    reveal) and ``refs`` (a pool's cards) say what the shares answer.

    The ciphertexts must have been validated (:meth:`Ciphertext.check`, blaming
    their producer) before their first use.
    """
    shares = [(slot, cards[slot].a, mul(key.secret, cards[slot].a)) for slot in sorted(cards)]
    proof = prove_shares(
        key.secret, key.public, shares, ProofContext(table, step, seat), entropy=entropy
    )
    return DecryptShares(
        deck, step, tuple(Share(slot, d) for slot, _, d in shares), proof, to_seat, tuple(refs)
    )


def check_answers(
    seat: int, msg: DecryptShares, to_seat: int = JOINT, refs: Sequence[CardRef] = ()
) -> None:
    """That ``seat``'s shares say they answer what we derived: a private draw for
    ``to_seat`` (or a public reveal, :data:`JOINT`) of the pool cards ``refs`` (none for
    a deck or held cards).  Raises BadProof naming ``seat`` (docs/protocol.md §7.6)."""
    if msg.to_seat != to_seat or msg.cards != tuple(refs):
        raise BadProof("shares do not say they answer the request they were sent for", seat=seat)


def verify_shares(
    table: bytes,
    seat: int,
    public: bytes,
    msg: DecryptShares,
    cards: Mapping[int, Ciphertext],
    *,
    to_seat: int = JOINT,
    refs: Sequence[CardRef] = (),
) -> dict[int, bytes]:
    """Check ``seat``'s batch of shares for exactly the slots of ``cards``, answering what
    ``to_seat`` and ``refs`` say (:func:`check_answers`); slot -> ``D``.

    Raises InvalidPoint or BadProof naming ``seat``.
    """
    check_answers(seat, msg, to_seat, refs)
    slots = [s.slot for s in msg.shares]
    if sorted(slots) != sorted(cards) or len(set(slots)) != len(slots):
        raise BadProof("shares do not cover exactly the requested cards", seat=seat)
    shares = [(s.slot, cards[s.slot].a, s.share) for s in msg.shares]
    try:
        # The proof's check multiplies every ``D``, and the multiplication refuses any point
        # that is not a valid (canonical) group element: a valid proof implies valid
        # shares, so the points are validated only to name the fault when the proof fails.
        verify_shares_proof(public, shares, msg.proof, ProofContext(table, msg.step, seat))
    except BadProof:
        for slot in slots:
            _not_the_provers_fault(cards[slot])
        for share in msg.shares:
            check_point(share.share, seat=seat, what="decryption share")
        raise
    return {s.slot: s.share for s in msg.shares}


def _not_the_provers_fault(ct: Ciphertext) -> None:
    """Before blaming a prover, make sure the ciphertext it was asked about is valid."""
    if not (is_valid_point(ct.a) and is_valid_point(ct.b)):
        raise InvalidPoint("the ciphertext itself is invalid: blame whoever produced it")


def strip_shares(ct: Ciphertext, shares: Iterable[bytes]) -> Ciphertext:
    """``(A, B - sum(D))``: remove verified shares (all of them: ``.b`` is the card point)."""
    b = ct.b
    for d in shares:
        b = sub(b, d)
    return Ciphertext(ct.a, b)


def open_held(key: DeckKey, held: Ciphertext) -> bytes:
    """The card point of a ciphertext under our key alone: ``B - x*A``."""
    return sub(held.b, mul(key.secret, held.a))


def hand_over(
    key: DeckKey,
    table: bytes,
    seat: int,
    deck: str,
    step: str,
    to_seat: int,
    target: bytes,
    held: Mapping[int, Ciphertext],
    *,
    entropy: bytes | None = None,
    places: Mapping[int, PoolPlace] | None = None,
) -> tuple[HandOver, dict[int, Ciphertext]]:
    """Re-encrypt held cards (by slot) to ``target`` (``to_seat``'s key, or H for JOINT);
    into the pools, ``places`` gives each card's pool and position by slot.

    Returns the :class:`HandOver` message and the new ciphertexts by slot.
    """
    items, fresh_by_slot = [], {}
    rng = ChanceStream(os.urandom(32) if entropy is None else entropy)
    for slot in sorted(held):
        ct = held[slot]
        point = open_held(key, ct)
        r = random_scalar(rng.take(64))
        fresh = Ciphertext(base_mul(r), add(point, mul(r, target)))
        ctx = ProofContext(table, step, seat, slot)
        proof = prove_reencryption(
            key.secret,
            r,
            key.public,
            (ct.a, ct.b),
            target,
            (fresh.a, fresh.b),
            ctx,
            entropy=None if entropy is None else rng.take(32),
        )
        items.append(HandOverItem(slot, fresh.to_bytes(), proof))
        fresh_by_slot[slot] = fresh
    placed = () if places is None else tuple(places[item.slot] for item in items)
    return HandOver(deck, step, to_seat, tuple(items), placed), fresh_by_slot


def verify_hand_over(
    table: bytes,
    seat: int,
    owner: bytes,
    target: bytes,
    msg: HandOver,
    held: Mapping[int, Ciphertext],
    *,
    places: Mapping[int, PoolPlace] | None = None,
) -> dict[int, Ciphertext]:
    """Check a hand-over by ``seat`` (key ``owner``) of exactly the cards ``held``, into
    the pools at ``places`` (by slot) if given.

    Returns the validated new ciphertexts by slot; InvalidPoint/BadProof name ``seat``.
    """
    slots = [item.slot for item in msg.cards]
    if sorted(slots) != sorted(held) or len(set(slots)) != len(slots):
        raise BadProof("hand-over does not cover exactly the held cards", seat=seat)
    if msg.places != (() if places is None else tuple(places[slot] for slot in slots)):
        raise BadProof("hand-over puts its cards at other places than the request's", seat=seat)
    out = {}
    for item in msg.cards:
        fresh = Ciphertext.parse(item.card, seat=seat)
        ct = held[item.slot]
        ctx = ProofContext(table, msg.step, seat, item.slot)
        try:
            verify_reencryption(owner, (ct.a, ct.b), target, (fresh.a, fresh.b), item.proof, ctx)
        except BadProof:
            _not_the_provers_fault(ct)
            raise
        out[item.slot] = fresh
    return out


def reveal_card(codebook: CardCodebook, ct: Ciphertext, shares: Iterable[bytes]) -> int:
    """Finish a decryption with every share (verified) and look the card up."""
    try:
        return codebook.index(strip_shares(ct, shares).b)
    except GroupError as exc:
        raise RemoteProtocolError("ciphertext cannot be decrypted") from exc
