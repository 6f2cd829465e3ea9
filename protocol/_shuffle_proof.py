"""Zero-knowledge proof of a correct shuffle of ElGamal ciphertexts (Terelius-Wikstroem).

This module owns the proof that a shuffle step's output is a permutation of
re-encryptions of its input under one key ``K``: for inputs ``w_0..w_{N-1}``
and outputs ``w'_0..w'_{N-1}`` the prover knows a permutation ``p`` and scalars
``s_j`` with ``w'_j = w_{p(j)} + (s_j*G, s_j*K)``.  It is the permutation-matrix
argument of Terelius and Wikstroem (AFRICACRYPT 2010) in the form Wikstroem
specifies for the Verificatum verifier, made non-interactive with Fiat-Shamir
(SHA-512, domain ``fairtable/proof/shuffle/v3``) over the whole statement and its
:class:`~protocol._dleq.ProofContext` (docs/protocol.md section 8.5 is the
byte-exact specification; this docstring is the outline).

Generators: the commitment base ``Q = G`` (the group's generator, as Verificatum's
Pedersen commitments use it; since protocol version 7, so that every ``x*Q`` is libsodium's
faster base-point multiplication), a chain base ``h`` and ``h_0..h_{N-1}``, each
``hash_to_point`` of a domain-separated label, so nobody knows a relation among them or
with ``G``.  The prover, with ``q`` the inverse of ``p``:

1. commits to the permutation matrix, ``u_i = rho_i*Q + h_{q(i)}`` for every input ``i``;
2. derives 128-bit challenges ``e_i`` from the statement and ``u``; ``e'_j = e_{p(j)}``;
3. commits to the chain ``B_j = b_j*Q + e'_j*B_{j-1}`` (``B_{-1} = h``), so
   ``B_{N-1} = bbar*Q + (prod e'_j)*h``;
4. proves by one sigma protocol (challenge ``v``) knowledge of ``k_A, k_B, k_C, k_D,
   k_E, k_F`` with ``A = sum e_i*u_i = k_A*Q + sum e'_j*h_j``,
   ``B_j = k_B_j*Q + e'_j*B_{j-1}``, ``C = sum u_i - sum h_j = k_C*Q``,
   ``D = B_{N-1} - (prod e_i)*h = k_D*Q`` and
   ``sum e'_j*w'_j - (k_F*G, k_F*K) = sum e_i*w_i``.

The proof is sent in compact form ``u || B || v || k_A || k_C || k_D || k_F || k_B ||
k_E`` (``128*N + 160`` bytes); the verifier recomputes the sigma commitments from the
responses and checks ``v``.  Every received point (``u``, ``B``, the output cards) is
multiplied during verification, and ``_group.mul`` refuses any point that is not a
valid ristretto255 encoding (libsodium's check plus the top bit), so an accepted proof
implies valid points; on a failure the points are checked one by one to name the fault.

Scalar arithmetic is on Python integers modulo ``L``; every group operation is
libsodium's (through :mod:`protocol._group`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Sequence

from ._dleq import ProofContext
from ._errors import BadShuffle, InvalidPoint, LocalProtocolError, RemoteProtocolError
from ._group import (
    BASE,
    ORDER,
    GroupError,
    add,
    base_mul,
    frame,
    hash_to_point,
    is_valid_point,
    mul,
    sub,
    sum_points,
)

__all__ = [
    "DOMAIN",
    "Card",
    "generators",
    "proof_length",
    "prove_shuffle",
    "verify_shuffle",
]

DOMAIN = b"fairtable/proof/shuffle/v3"
_GENERATOR = DOMAIN + b"/generator"
_STATEMENT = DOMAIN + b"/statement"
_CHALLENGES = DOMAIN + b"/challenges"
_CHALLENGE = DOMAIN + b"/challenge"
_FINAL = DOMAIN + b"/final"
_NONCE = DOMAIN + b"/nonce"

Card = tuple[bytes, bytes]
"""A ciphertext ``(A, B)`` as two 32-byte points."""


def proof_length(n: int) -> int:
    """The length in bytes of a proof for ``n`` cards (``0`` for an empty step)."""
    return 0 if n == 0 else 128 * n + 160


@functools.lru_cache(maxsize=4)
def _base_points() -> tuple[bytes, bytes]:
    return BASE, hash_to_point(_GENERATOR, b"chain")


@functools.lru_cache(maxsize=2048)
def _generator(j: int) -> bytes:
    return hash_to_point(_GENERATOR, b"h", j.to_bytes(4, "big"))


@functools.lru_cache(maxsize=64)
def _generator_sum(n: int) -> bytes:
    """``h_0 + ... + h_{n-1}``: public, so computed once per deck size (``n - 1`` additions
    every verification saved)."""
    return sum_points(_generator(j) for j in range(n))


def generators(n: int) -> tuple[bytes, bytes, list[bytes]]:
    """``(Q, h, [h_0..h_{n-1}])``: the commitment base ``Q = G``, the chain base and the
    vector bases, each ``hash_to_point("fairtable/proof/shuffle/v3/generator", label...)``."""
    q, h = _base_points()
    return q, h, [_generator(j) for j in range(n)]


def _sc(x: int) -> bytes:
    return (x % ORDER).to_bytes(32, "little")


def _int(b: bytes) -> int:
    return int.from_bytes(b, "little")


def _statement(
    ctx: ProofContext, deck: str, key: bytes, inputs: Sequence[Card], outputs: Sequence[Card]
) -> bytes:
    q, h = _base_points()
    parts = [*ctx.parts(), deck.encode("ascii"), len(inputs).to_bytes(4, "big"), BASE, q, h, key]
    for a, b in inputs:
        parts += [a, b]
    for a, b in outputs:
        parts += [a, b]
    return hashlib.sha512(_STATEMENT + frame(*parts)).digest()


def _challenges(statement: bytes, u: Sequence[bytes]) -> tuple[bytes, list[int]]:
    seed = hashlib.sha512(_CHALLENGES + frame(statement, *u)).digest()
    es = [
        int.from_bytes(
            hashlib.sha512(_CHALLENGE + frame(seed, i.to_bytes(4, "big"))).digest()[:16], "little"
        )
        for i in range(len(u))
    ]
    return seed, es


def _final(seed: bytes, b: Sequence[bytes], commitments: Sequence[bytes]) -> int:
    digest = hashlib.sha512(_FINAL + frame(seed, *b, *commitments)).digest()
    return _int(digest) % ORDER


def _mul(x: int, point: bytes) -> bytes:
    if point == BASE:
        return base_mul(_sc(x))
    return mul(_sc(x), point)


def _combination(scalars: Sequence[int], points: Sequence[bytes]) -> bytes:
    """``sum x_i * P_i``, one multiplication per distinct point (a deck's first step has
    ``A = G`` for every input card)."""
    merged: dict[bytes, int] = {}
    for x, point in zip(scalars, points, strict=True):
        merged[point] = (merged.get(point, 0) + x) % ORDER
    return sum_points(_mul(x, point) for point, x in merged.items())


def prove_shuffle(
    ctx: ProofContext,
    deck: str,
    key: bytes,
    inputs: Sequence[Card],
    outputs: Sequence[Card],
    permutation: Sequence[int],
    randomisers: Sequence[bytes],
    *,
    entropy: bytes | None = None,
) -> bytes:
    """Prove ``outputs[j] = inputs[permutation[j]] + (r_j*G, r_j*key)``.

    ``entropy`` (32 bytes) makes the proof deterministic (a restarted peer must publish
    the same one; test vectors); the prover's scalars are then hashed from it, the
    witness and the statement, so a repeated ``entropy`` never reuses them for another
    statement.
    """
    n = len(inputs)
    if len(outputs) != n or len(permutation) != n or len(randomisers) != n:
        raise LocalProtocolError("a shuffle proof needs equally long inputs and outputs")
    if sorted(permutation) != list(range(n)):
        raise LocalProtocolError("not a permutation")
    if n == 0:
        return b""
    q_base, h_base, hs = generators(n)
    statement = _statement(ctx, deck, key, inputs, outputs)
    noise = os.urandom(32) if entropy is None else entropy
    witness = frame(*(j.to_bytes(4, "big") for j in permutation), *randomisers)
    nonce_seed = hashlib.sha512(_NONCE + frame(noise, witness, statement)).digest()
    counter = iter(range(1 << 32))

    def fresh() -> int:
        wide = hashlib.sha512(nonce_seed + next(counter).to_bytes(4, "big")).digest()
        return _int(wide) % ORDER or 1

    inverse = [0] * n
    for j, i in enumerate(permutation):
        inverse[i] = j
    rho = [fresh() for _ in range(n)]
    u = [add(_mul(rho[i], q_base), hs[inverse[i]]) for i in range(n)]
    seed, e = _challenges(statement, u)
    e_out = [e[i] for i in permutation]
    b = [fresh() for _ in range(n)]
    chain, prev, bbar = [], h_base, 0
    for j in range(n):
        prev = add(_mul(b[j], q_base), _mul(e_out[j], prev))
        chain.append(prev)
        bbar = (b[j] + e_out[j] * bbar) % ORDER
    k_a = sum(ei * ri for ei, ri in zip(e, rho, strict=True)) % ORDER
    k_c = sum(rho) % ORDER
    k_d = bbar
    k_f = sum(ej * _int(r) for ej, r in zip(e_out, randomisers, strict=True)) % ORDER
    w_a, w_c, w_d, w_f = fresh(), fresh(), fresh(), fresh()
    w_b = [fresh() for _ in range(n)]
    w_e = [fresh() for _ in range(n)]
    a_t = sum_points([_mul(w_a, q_base), *(_mul(w, hj) for w, hj in zip(w_e, hs, strict=True))])
    b_t = [
        add(_mul(w_b[j], q_base), _mul(w_e[j], h_base if j == 0 else chain[j - 1]))
        for j in range(n)
    ]
    c_t = _mul(w_c, q_base)
    d_t = _mul(w_d, q_base)
    f_ta = sub(
        sum_points(_mul(w, a) for w, (a, _) in zip(w_e, outputs, strict=True)), _mul(w_f, BASE)
    )
    f_tb = sub(
        sum_points(_mul(w, bb) for w, (_, bb) in zip(w_e, outputs, strict=True)), _mul(w_f, key)
    )
    v = _final(seed, chain, [a_t, *b_t, c_t, d_t, f_ta, f_tb])
    scalars = [v, w_a + v * k_a, w_c + v * k_c, w_d + v * k_d, w_f + v * k_f]
    scalars += [w_b[j] + v * b[j] for j in range(n)]
    scalars += [w_e[j] + v * e_out[j] for j in range(n)]
    return b"".join(u) + b"".join(chain) + b"".join(_sc(x) for x in scalars)


def _fault(
    msg: str, seat: int, outputs: Sequence[Card], points: Sequence[bytes]
) -> RemoteProtocolError:
    """The error for a proof that failed: an invalid point named as such, else BadShuffle."""
    for a, b in outputs:
        if not (is_valid_point(a) and is_valid_point(b)):
            return InvalidPoint("a shuffled card is not a valid group element", seat=seat)
    if not all(is_valid_point(p) for p in points):
        return BadShuffle("the shuffle proof carries an invalid point", seat=seat)
    return BadShuffle(msg, seat=seat)


def verify_shuffle(
    ctx: ProofContext,
    deck: str,
    key: bytes,
    inputs: Sequence[Card],
    outputs: Sequence[Card],
    proof: bytes,
) -> None:
    """Check a :func:`prove_shuffle` proof; BadShuffle (or InvalidPoint for an invalid
    output card) naming ``ctx.seat`` unless it holds.

    ``inputs`` and ``key`` must be valid already; ``outputs`` need not be (the check
    multiplies every output point, which refuses an invalid one).
    """
    seat, n = ctx.seat, len(inputs)
    if len(outputs) != n:
        raise BadShuffle("a shuffle step changed the number of cards", seat=seat)
    if type(proof) is not bytes or len(proof) != proof_length(n):
        raise BadShuffle("the shuffle proof has the wrong length", seat=seat)
    if n == 0:
        return
    u = [proof[32 * i : 32 * i + 32] for i in range(n)]
    chain = [proof[32 * (n + j) : 32 * (n + j) + 32] for j in range(n)]
    raw = proof[64 * n :]
    scalars = [_int(raw[32 * i : 32 * i + 32]) for i in range(2 * n + 5)]
    if any(x >= ORDER for x in scalars):
        raise BadShuffle("the shuffle proof carries a non-canonical scalar", seat=seat)
    v, k_a, k_c, k_d, k_f = scalars[:5]
    k_b, k_e = scalars[5 : 5 + n], scalars[5 + n :]
    q_base, h_base, hs = generators(n)
    statement = _statement(ctx, deck, key, inputs, outputs)
    seed, e = _challenges(statement, u)
    prod = 1
    for ei in e:
        prod = prod * ei % ORDER
    try:
        big_a = sum_points(_mul(ei, ui) for ei, ui in zip(e, u, strict=True))
        big_c = sub(sum_points(u), _generator_sum(n))
        big_d = sub(chain[-1], _mul(prod, h_base))
        f_a = _combination(e, [a for a, _ in inputs])
        f_b = _combination(e, [b for _, b in inputs])
        neg_v = ORDER - v
        a_t = sum_points(
            [
                _mul(k_a, q_base),
                _mul(neg_v, big_a),
                *(_mul(k, hj) for k, hj in zip(k_e, hs, strict=True)),
            ]
        )
        b_t = [
            sum_points(
                [
                    _mul(k_b[j], q_base),
                    _mul(k_e[j], h_base if j == 0 else chain[j - 1]),
                    _mul(neg_v, chain[j]),
                ]
            )
            for j in range(n)
        ]
        c_t = add(_mul(k_c, q_base), _mul(neg_v, big_c))
        d_t = add(_mul(k_d, q_base), _mul(neg_v, big_d))
        f_ta = sum_points(
            [
                *(_mul(k, a) for k, (a, _) in zip(k_e, outputs, strict=True)),
                _mul(ORDER - k_f, BASE),
                _mul(neg_v, f_a),
            ]
        )
        f_tb = sum_points(
            [
                *(_mul(k, b) for k, (_, b) in zip(k_e, outputs, strict=True)),
                _mul(ORDER - k_f, key),
                _mul(neg_v, f_b),
            ]
        )
    except GroupError as exc:
        raise _fault("the shuffle proof does not verify", seat, outputs, [*u, *chain]) from exc
    if _final(seed, chain, [a_t, *b_t, c_t, d_t, f_ta, f_tb]) != v:
        raise _fault("the shuffle proof does not verify", seat, outputs, [*u, *chain])
