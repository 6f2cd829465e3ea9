"""The proof of a correct shuffle (docs/protocol.md §8.5): honest proofs verify, every kind of
tampering, a wrong statement or context and a non-permutation are refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
from fairtable.protocol.crypto import (
    ORDER,
    ProofContext,
    add,
    base_mul,
    mul,
    proof_length,
    prove_shuffle,
    random_scalar,
    verify_shuffle,
)

TABLE = b"\x07" * 32
DECK = "main.3"


def _key(tag: int = 1) -> bytes:
    return base_mul(random_scalar(bytes([tag]) * 64))


def _pairs(cards: list[PC.Ciphertext]) -> list[tuple[bytes, bytes]]:
    return [(c.a, c.b) for c in cards]


def _step(n: int, *, key: bytes | None = None, entropy: bytes = b"\x05" * 32, rounds: int = 1):
    """An honest ``n``-card step (after ``rounds - 1`` earlier ones): inputs, outputs,
    secret, proof, context and key."""
    key = key or _key()
    cards = PC.initial_deck(PC.CardCodebook(TABLE, DECK, n), key)
    for r in range(rounds - 1):
        cards, _ = PC.shuffle(cards, key, entropy=bytes([r]) * 32)
    out, secret = PC.shuffle(cards, key, entropy=entropy)
    ctx = ProofContext(TABLE, "s3/1", 1)
    proof = prove_shuffle(
        ctx,
        DECK,
        key,
        _pairs(cards),
        _pairs(out),
        secret.permutation,
        secret.randomisers,
        entropy=entropy,
    )
    return _pairs(cards), _pairs(out), secret, proof, ctx, key


def _refused(ctx, deck, key, inputs, outputs, proof, kind=PC.BadShuffle):
    with pytest.raises(kind) as info:
        verify_shuffle(ctx, deck, key, inputs, outputs, proof)
    assert info.value.seat == ctx.seat
    return info.value


@pytest.mark.parametrize(("n", "rounds"), [(1, 1), (2, 1), (3, 2), (7, 3), (102, 2)])
def test_honest_proofs_verify(n: int, rounds: int) -> None:
    inputs, outputs, _, proof, ctx, key = _step(n, rounds=rounds)
    assert len(proof) == proof_length(n) == 128 * n + 160
    verify_shuffle(ctx, DECK, key, inputs, outputs, proof)


def test_an_empty_step_has_an_empty_proof() -> None:
    ctx = ProofContext(TABLE, "s", 0)
    assert prove_shuffle(ctx, DECK, _key(), [], [], [], []) == b""
    verify_shuffle(ctx, DECK, _key(), [], [], b"")
    _refused(ctx, DECK, _key(), [], [], b"\x00" * 160)


def test_the_proof_is_deterministic_given_its_entropy_and_hides_nothing_else() -> None:
    a = _step(5, entropy=b"\x01" * 32)[3]
    b = _step(5, entropy=b"\x01" * 32)[3]
    c = _step(5, entropy=b"\x02" * 32)[3]
    assert a == b and a != c


# Offsets of the proof's fields for n cards: u, B, v, k_A, k_C, k_D, k_F, k_B, k_E.
def _fields(n: int) -> dict[str, int]:
    scalars = 64 * n
    return {
        "u": 0,
        "B": 32 * n,
        "B_last": 64 * n - 32,
        "v": scalars,
        "k_A": scalars + 32,
        "k_C": scalars + 64,
        "k_D": scalars + 96,
        "k_F": scalars + 128,
        "k_B": scalars + 160,
        "k_E": scalars + 160 + 32 * n,
        "k_E_last": scalars + 128 + 64 * n,
    }


@pytest.mark.parametrize("field", list(_fields(4)))
def test_a_tampered_proof_field_is_refused(field: str) -> None:
    inputs, outputs, _, proof, ctx, key = _step(4)
    at = _fields(4)[field]
    if field in ("u", "B", "B_last"):  # another valid point
        spoiled = (
            proof[:at] + add(proof[at : at + 32], base_mul(random_scalar())) + proof[at + 32 :]
        )
    else:  # another canonical scalar
        bumped = (int.from_bytes(proof[at : at + 32], "little") + 1) % ORDER
        spoiled = proof[:at] + bumped.to_bytes(32, "little") + proof[at + 32 :]
    _refused(ctx, DECK, key, inputs, outputs, spoiled)


def test_a_non_canonical_scalar_or_an_invalid_proof_point_is_refused() -> None:
    inputs, outputs, _, proof, ctx, key = _step(3)
    at = _fields(3)["k_A"]
    big = (int.from_bytes(proof[at : at + 32], "little") + ORDER).to_bytes(32, "little")
    _refused(ctx, DECK, key, inputs, outputs, proof[:at] + big + proof[at + 32 :])
    for tagged in (
        bytes([proof[0] ^ 1]) + proof[1:32],  # sign flipped: no group element
        proof[:31] + bytes([proof[31] | 0x80]),  # top bit: libsodium's twin
        bytes(32),
    ):  # the identity
        err = _refused(ctx, DECK, key, inputs, outputs, tagged + proof[32:])
        assert "invalid point" in str(err)
    _refused(ctx, DECK, key, inputs, outputs, b"\xff" * 32 + proof[32:])


def test_a_wrong_length_is_refused() -> None:
    inputs, outputs, _, proof, ctx, key = _step(3)
    _refused(ctx, DECK, key, inputs, outputs, proof[:-32])
    _refused(ctx, DECK, key, inputs, outputs, proof + bytes(32))
    _refused(ctx, DECK, key, inputs, outputs[:-1], proof)
    _refused(ctx, DECK, key, inputs[:-1], outputs[:-1], proof)


def test_swapped_inputs_or_outputs_are_refused() -> None:
    inputs, outputs, _, proof, ctx, key = _step(4)
    _refused(ctx, DECK, key, [inputs[1], inputs[0], *inputs[2:]], outputs, proof)
    _refused(ctx, DECK, key, inputs, [outputs[1], outputs[0], *outputs[2:]], proof)


@pytest.mark.parametrize("what", ["table", "deck", "step", "seat", "key"])
def test_a_wrong_context_is_refused(what: str) -> None:
    inputs, outputs, _, proof, ctx, key = _step(3)
    deck = DECK + "x" if what == "deck" else DECK
    if what == "table":
        ctx = ProofContext(b"\x08" * 32, ctx.step, ctx.seat)
    elif what == "step":
        ctx = ProofContext(TABLE, "s3/2", ctx.seat)
    elif what == "seat":
        ctx = ProofContext(TABLE, ctx.step, 2)
    if what == "key":
        key = _key(9)
    _refused(ctx, deck, key, inputs, outputs, proof)


def test_a_duplicated_card_cannot_be_proven() -> None:
    """A cheater copies input card 0 (re-randomised) over another output: no witness
    exists, so neither the honest proof nor one made with a guessed witness verifies."""
    inputs, outputs, secret, proof, ctx, key = _step(4)
    src = inputs[secret.permutation[0]]
    r = random_scalar()
    copy = (add(src[0], base_mul(r)), add(src[1], mul(r, key)))
    forged = [outputs[0], copy, *outputs[2:]]
    _refused(ctx, DECK, key, inputs, forged, proof)
    claimed = (secret.permutation[0], *secret.permutation[1:])
    guessed = prove_shuffle(
        ctx, DECK, key, inputs, forged, claimed, (secret.randomisers[0], r, *secret.randomisers[2:])
    )
    _refused(ctx, DECK, key, inputs, forged, guessed)


def test_substituted_fresh_encryptions_cannot_be_proven() -> None:
    """The issue's attack: fresh encryptions of the cards in an order the shuffler chose
    (all points valid, no card repeated) -- the shuffler knows no witness."""
    n = 5
    key = _key()
    codebook = PC.CardCodebook(TABLE, DECK, n)
    inputs = _pairs(PC.initial_deck(codebook, key))
    rs = [random_scalar() for _ in range(n)]
    chosen = [3, 1, 4, 0, 2]
    forged = [
        (base_mul(r), add(codebook.points[c], mul(r, key))) for c, r in zip(chosen, rs, strict=True)
    ]
    ctx = ProofContext(TABLE, "s3/1", 1)
    guessed = prove_shuffle(ctx, DECK, key, inputs, forged, chosen, rs)
    _refused(ctx, DECK, key, inputs, forged, guessed)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda p: bytes([p[0] ^ 1]) + p[1:],  # sign flipped: no group element
        lambda p: p[:31] + bytes([p[31] | 0x80]),  # top bit set: libsodium's twin of p
        lambda p: bytes(32),  # the identity
    ],
    ids=["negated", "high-bit", "identity"],
)
@pytest.mark.parametrize("part", [0, 1])
def test_an_invalid_output_card_is_named_as_an_invalid_point(spoil, part: int) -> None:
    inputs, outputs, _, proof, ctx, key = _step(3)
    card = list(outputs[1])
    card[part] = spoil(card[part])
    tagged = [outputs[0], (card[0], card[1]), outputs[2]]
    _refused(ctx, DECK, key, inputs, tagged, proof, kind=P.InvalidPoint)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 6), seed=st.binary(min_size=32, max_size=32), flip=st.integers(0, 10**6))
def test_property_honest_small_shuffles_verify_and_any_flipped_byte_fails(
    n: int, seed: bytes, flip: int
) -> None:
    inputs, outputs, _, proof, ctx, key = _step(n, entropy=seed, rounds=2)
    verify_shuffle(ctx, DECK, key, inputs, outputs, proof)
    at = flip % len(proof)
    spoiled = proof[:at] + bytes([proof[at] ^ (1 << (flip % 8))]) + proof[at + 1 :]
    with pytest.raises((PC.BadShuffle, P.InvalidPoint)):
        verify_shuffle(ctx, DECK, key, inputs, outputs, spoiled)
