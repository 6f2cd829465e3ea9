"""Vanishing: a seat's deck key shared among the others by Feldman VSS (docs/protocol.md §7.11).

This module owns the cryptography that lets a table open what it needs of a seat that has
vanished for good, without ever rebuilding that seat's key:

* **Deal.** Dealer ``i`` (deck key ``x``, ``Y = x*G``) draws a polynomial
  ``f(z) = x + a_1 z + ... + a_{t-1} z^{t-1}`` over the scalars mod ``L``, publishes the
  Feldman commitments ``C_0 = Y, C_k = a_k*G`` and sends holder ``j`` its share
  ``s_j = f(j + 1)`` in a sealed box (``_sealed``), all in one ``vss-deal``.
* **Checks.** Anyone checks a deal's form (:func:`verify_deal`); holder ``j`` opens its box
  and checks ``s_j*G == S_j = sum_k (j+1)^k * C_k`` (:func:`open_share`).  A box that does not
  open or match gives a ``vss-complaint``; the dealer answers with the share in the clear and
  anyone checks the answer against ``S_j`` (:func:`verify_answer`), so either the holder gets
  a good share or the dealer is named.
* **Recovery.** After seat ``d`` vanishes, each holder ``j`` publishes ``R_j = s_j*A`` for the
  ciphertexts' ``A`` with one DLEQ proof against ``S_j`` (:func:`recovery_shares`,
  :func:`verify_recovery`); any ``t`` valid ones combine by Lagrange interpolation at zero into
  ``x_d*A`` (:func:`combine`), exactly the decryption share ``d`` would have sent.

The table's threshold is :func:`table_threshold`: every other seat (``t = n - 1`` of the
``n - 1`` holders), so no coalition smaller than all the others learns anything of a key
(docs/threat-model.md).  Nothing here is new cryptography: it composes the group's operations
(``_group``), the DLEQ proof (``_dleq``) and the sealed box (``_sealed``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence

import attrs

from ._deck import Ciphertext, DeckKey
from ._dleq import ProofContext, prove_shares, verify_shares_proof
from ._errors import BadProof, BadSealedPayload, InvalidPoint, LocalProtocolError
from ._group import (
    ORDER,
    GroupError,
    add,
    base_mul,
    check_point,
    check_scalar,
    frame,
    hash_to_scalar,
    is_valid_point,
    mul,
    scalar_add,
    scalar_mul,
    sum_points,
)
from ._identity import Identity, PublicIdentity
from ._messages import JOINT, CardRef, Sealed, Share
from ._padding import SEALED_BLOCK
from ._sealed import SEAL_DOMAIN, seal, unseal
from ._vss_messages import RecoveryShares, ShareAnswer, ShareBox, ShareComplaint, ShareDeal

__all__ = [
    "COEFFICIENT_DOMAIN",
    "DEAL_DOMAIN",
    "SHARE_PURPOSE",
    "KeyPiece",
    "answer_complaint",
    "combine",
    "deal",
    "deal_digest",
    "holders_of",
    "interpolate",
    "lagrange_at_zero",
    "open_share",
    "recovery_context",
    "recovery_shares",
    "share_box_size",
    "share_key",
    "table_threshold",
    "verify_answer",
    "verify_deal",
    "verify_recovery",
]

SHARE_PURPOSE = "vss-share"
"""The sealed box purpose of a share (its header binds table, dealer and holder, §9)."""

COEFFICIENT_DOMAIN = b"fairtable/vss/coefficient/v1"
DEAL_DOMAIN = b"fairtable/vss/deal/v1"
_SEALBYTES = 48  # crypto_box_SEALBYTES


def table_threshold(seats: int) -> int:
    """The threshold at a table of ``seats``: every other seat, ``n - 1``.

    Two seats cannot share: the one other seat would hold the key alone (and a game of one
    cannot go on anyway), so a table of fewer than three refuses."""
    if not 3 <= seats <= 16:
        raise LocalProtocolError("a key is shared at tables of 3 to 16 seats")
    return seats - 1


def holders_of(dealer: int, seats: int) -> tuple[int, ...]:
    """The seats that hold pieces of ``dealer``'s key: every other seat, in order."""
    return tuple(s for s in range(seats) if s != dealer)


def _point(seat: int) -> int:
    """Seat ``j``'s evaluation point ``j + 1`` (never zero, where the secret sits)."""
    return seat + 1


def _sc(value: int) -> bytes:
    return (value % ORDER).to_bytes(32, "little")


@attrs.frozen
class KeyPiece:
    """Holder ``holder``'s piece of ``dealer``'s key: ``secret`` ``s`` and ``public = s*G``."""

    dealer: int
    holder: int
    secret: bytes = attrs.field(repr=False)
    public: bytes


def share_box_size() -> int:
    """The size of every honest share box: the sealed header, one padded block, the seal."""
    header = SEAL_DOMAIN + frame(bytes(32), bytes(2), bytes(2), SHARE_PURPOSE.encode("ascii"))
    return len(header) + SEALED_BLOCK + _SEALBYTES


def _coefficients(
    key: DeckKey, table: bytes, dealer: int, threshold: int, entropy: bytes | None
) -> list[bytes]:
    noise = os.urandom(32) if entropy is None else entropy
    return [
        hash_to_scalar(COEFFICIENT_DOMAIN, key.secret, noise, table, _u16(dealer), _u32(k))
        for k in range(1, threshold)
    ]


def _u16(x: int) -> bytes:
    return x.to_bytes(2, "big")


def _u32(x: int) -> bytes:
    return x.to_bytes(4, "big")


def _evaluate(secret: bytes, coefficients: Sequence[bytes], holder: int) -> bytes:
    """``f(holder + 1)`` by Horner's rule, with libsodium's scalar arithmetic."""
    z = _sc(_point(holder))
    acc = bytes(32)
    for a in reversed(coefficients):
        acc = scalar_add(scalar_mul(acc, z), a)
    return scalar_add(scalar_mul(acc, z), secret)


def deal(
    key: DeckKey,
    table: bytes,
    dealer: int,
    holders: Mapping[int, PublicIdentity],
    threshold: int,
    *,
    entropy: bytes | None = None,
) -> tuple[ShareDeal, dict[int, bytes]]:
    """Share ``key`` among ``holders`` (seat -> identity), any ``threshold`` of them enough.

    Returns the ``vss-deal`` message and the shares by holder, which the dealer keeps to
    answer a complaint.  ``entropy`` (32 bytes) fixes the coefficients, for test vectors; a
    table derives it from the seat's secret seed so a restarted seat deals the same shares.
    """
    seats = sorted(holders)
    if dealer in holders or not 1 <= threshold <= len(seats):
        raise LocalProtocolError("a deal needs 1..len(holders) as threshold, dealer excluded")
    coefficients = _coefficients(key, table, dealer, threshold, entropy)
    commitments = (key.public, *(base_mul(a) for a in coefficients))
    shares = {j: _evaluate(key.secret, coefficients, j) for j in seats}
    if any(s == bytes(32) for s in shares.values()):  # probability ~2**-252
        raise GroupError("a zero share")
    boxes = tuple(
        ShareBox(
            j,
            seal(
                holders[j],
                table=table,
                sender=dealer,
                to_seat=j,
                purpose=SHARE_PURPOSE,
                payload=shares[j],
            ).box,
        )
        for j in seats
    )
    return ShareDeal(commitments, boxes), shares


def verify_deal(
    dealer: int, dealer_key: bytes, holders: Sequence[int], threshold: int, msg: ShareDeal
) -> None:
    """The public checks of a deal: ``threshold`` commitments, the first the dealer's
    verified deck key, every one a valid point, and one box of the honest size for each of
    ``holders`` in seat order.  Raises InvalidPoint or BadProof naming ``dealer``."""
    if len(msg.commitments) != threshold:
        raise BadProof(f"a deal needs {threshold} commitments", seat=dealer)
    if msg.commitments[0] != dealer_key:
        raise BadProof("a deal's first commitment is not the dealer's deck key", seat=dealer)
    for c in msg.commitments:
        check_point(c, seat=dealer, what="deal commitment")
    if tuple(b.to_seat for b in msg.boxes) != tuple(sorted(holders)):
        raise BadProof("a deal needs one box for each holder, in seat order", seat=dealer)
    if any(len(b.box) != share_box_size() for b in msg.boxes):
        raise BadProof("a deal's box has not the size of a share box", seat=dealer)


def deal_digest(table: bytes, dealer: int, msg: ShareDeal) -> bytes:
    """What a complaint names the deal by: ``SHA-256(domain || frame(table, u16(dealer),
    u32(t), C_0..C_{t-1}, u32(#boxes), (u16(to), box)...))``."""
    parts = [table, _u16(dealer), _u32(len(msg.commitments)), *msg.commitments]
    parts.append(_u32(len(msg.boxes)))
    for b in msg.boxes:
        parts += [_u16(b.to_seat), b.box]
    return hashlib.sha256(DEAL_DOMAIN + frame(*parts)).digest()


def share_key(commitments: Sequence[bytes], holder: int) -> bytes:
    """Holder's public share ``S = sum_k (holder+1)^k * C_k`` (verified commitments)."""
    z = _point(holder)
    terms = [commitments[0]]
    terms += [mul(_sc(z**k), c) for k, c in enumerate(commitments[1:], start=1)]
    return sum_points(terms)


def open_share(
    identity: Identity, table: bytes, dealer: int, holder: int, msg: ShareDeal
) -> KeyPiece | ShareComplaint:
    """Open our share of a publicly verified deal (:func:`verify_deal`) and check it against
    the commitments: our :class:`KeyPiece`, or the complaint to publish if the box does not
    open, is not a canonical non-zero scalar, or does not match ``S``.  Only we can see the
    fault, so it is no verdict: the dealer's answer settles it (:func:`verify_answer`)."""
    box = next((b.box for b in msg.boxes if b.to_seat == holder), None)
    if box is None:
        raise LocalProtocolError(f"the deal has no box for seat {holder}")
    public = share_key(msg.commitments, holder)
    try:
        secret = unseal(
            identity,
            table=table,
            sender=dealer,
            seat=holder,
            msg=Sealed(holder, SHARE_PURPOSE, box),
        )
        check_scalar(secret, seat=dealer, what="share")
        if base_mul(secret) != public:
            raise BadProof("share does not match the commitments", seat=dealer)
    except (BadSealedPayload, BadProof, GroupError):
        return ShareComplaint(dealer, deal_digest(table, dealer, msg))
    return KeyPiece(dealer, holder, secret, public)


def answer_complaint(shares: Mapping[int, bytes], complainer: int) -> ShareAnswer:
    """The dealer's answer to ``complainer``'s complaint (the complaint's feed author): its
    share, in the clear.  It leaks nothing an honest seat minds: an honest dealer's box was
    good, so the complainer lied, and a lying holder could hand its share to anyone anyway
    (docs/threat-model.md)."""
    if complainer not in shares:
        raise LocalProtocolError(f"seat {complainer} holds no share of this deal")
    return ShareAnswer(complainer, shares[complainer])


def verify_answer(dealer: int, commitments: Sequence[bytes], answer: ShareAnswer) -> KeyPiece:
    """Check a dealer's answer against the commitments: the complainer's piece (now public)
    or BadProof naming the dealer."""
    try:
        check_scalar(answer.share, seat=dealer, what="answered share")
        public = base_mul(answer.share)
        if public == share_key(commitments, answer.complainer):
            return KeyPiece(dealer, answer.complainer, answer.share, public)
    except GroupError:
        pass
    raise BadProof("the answered share does not match the commitments", seat=dealer)


def recovery_context(table: bytes, departed: int, step: str, holder: int) -> ProofContext:
    """The DLEQ context of ``holder``'s recovery shares: step ``recover/<departed>/<step>``."""
    return ProofContext(table, f"recover/{departed}/{step}", holder)


def recovery_shares(
    piece: KeyPiece,
    table: bytes,
    deck: str,
    step: str,
    cards: Mapping[int, Ciphertext],
    *,
    to_seat: int = JOINT,
    refs: Sequence[CardRef] = (),
    entropy: bytes | None = None,
) -> RecoveryShares:
    """Our recovery shares ``R = s*A`` of the departed seat's layer for ``cards`` (slot ->
    validated ciphertext), with one DLEQ proof that ``log_G(S) = log_A(R)`` for them all."""
    triples = [(slot, cards[slot].a, mul(piece.secret, cards[slot].a)) for slot in sorted(cards)]
    ctx = recovery_context(table, piece.dealer, step, piece.holder)
    proof = prove_shares(piece.secret, piece.public, triples, ctx, entropy=entropy)
    shares = tuple(Share(slot, r) for slot, _, r in triples)
    return RecoveryShares(piece.dealer, deck, step, shares, proof, to_seat, tuple(refs))


def verify_recovery(
    table: bytes,
    holder: int,
    public: bytes,
    msg: RecoveryShares,
    cards: Mapping[int, Ciphertext],
    *,
    to_seat: int = JOINT,
    refs: Sequence[CardRef] = (),
) -> dict[int, bytes]:
    """Check ``holder``'s recovery shares for exactly the slots of ``cards`` against its
    public share ``public`` (:func:`share_key` of the departed seat's commitments); slot ->
    ``R``.  Raises BadProof or InvalidPoint naming ``holder``."""
    if msg.to_seat != to_seat or msg.cards != tuple(refs):
        raise BadProof("recovery shares do not answer the request", seat=holder)
    slots = [s.slot for s in msg.shares]
    if sorted(slots) != sorted(cards) or len(set(slots)) != len(slots):
        raise BadProof("recovery shares do not cover exactly the requested cards", seat=holder)
    triples = [(s.slot, cards[s.slot].a, s.share) for s in msg.shares]
    ctx = recovery_context(table, msg.departed, msg.step, holder)
    try:
        verify_shares_proof(public, triples, msg.proof, ctx)
    except BadProof:
        if not all(is_valid_point(cards[s].a) for s in slots):
            raise InvalidPoint("the ciphertext itself is invalid") from None
        for s in msg.shares:
            check_point(s.share, seat=holder, what="recovery share")
        raise
    return {s.slot: s.share for s in msg.shares}


def lagrange_at_zero(holders: Sequence[int]) -> dict[int, bytes]:
    """Holder -> ``lambda_j = prod_{m != j} e_m / (e_m - e_j) mod L`` with ``e = seat + 1``
    (public values, so plain integer arithmetic)."""
    points = {j: _point(j) for j in holders}
    if len(points) != len(holders) or not holders:
        raise LocalProtocolError("interpolate over distinct holders")
    out = {}
    for j, ej in points.items():
        num, den = 1, 1
        for m, em in points.items():
            if m != j:
                num = num * em % ORDER
                den = den * (em - ej) % ORDER
        out[j] = _sc(num * pow(den, -1, ORDER))
    return out


def interpolate(partials: Mapping[int, Mapping[int, bytes]]) -> dict[int, bytes]:
    """``sum_j lambda_j * R_j`` for every slot, over exactly the holders given (holder ->
    slot -> verified ``R``); with fewer than the threshold it is not the departed's share."""
    coefficients = lagrange_at_zero(sorted(partials))
    slots = {frozenset(p) for p in partials.values()}
    if len(slots) != 1:
        raise LocalProtocolError("every holder's recovery shares must cover the same slots")
    out = {}
    for slot in sorted(next(iter(slots))):
        total = None
        for j in sorted(partials):
            term = mul(coefficients[j], partials[j][slot])
            total = term if total is None else add(total, term)
        assert total is not None
        out[slot] = total
    return out


def combine(partials: Mapping[int, Mapping[int, bytes]], threshold: int) -> dict[int, bytes]:
    """The departed seat's decryption shares ``x*A`` by slot from verified recovery shares of
    at least ``threshold`` holders (the ``threshold`` lowest seats are used)."""
    if len(partials) < threshold:
        raise LocalProtocolError(f"recovery needs {threshold} holders, got {len(partials)}")
    chosen = sorted(partials)[:threshold]
    return interpolate({j: partials[j] for j in chosen})
