"""The cryptography of docs/protocol.md written from its text alone (§1, §7.2, §8, §5), for
the spec-only log verifier (:mod:`tests.protocol.spec_log`): it imports nothing of ours,
only the standard library and ``rbcl`` (libsodium's ristretto255)."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import rbcl as na

ORDER = 2**252 + 27742317777372353535851937790883648493
G = na.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
VERSION = 10


def frame(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def u16(x: int) -> bytes:
    return x.to_bytes(2, "big")


def u32(x: int) -> bytes:
    return x.to_bytes(4, "big")


def sc(x: int) -> bytes:
    return (x % ORDER).to_bytes(32, "little")


def mul(x: int | bytes, p: bytes) -> bytes:
    return na.crypto_scalarmult_ristretto255(x if isinstance(x, bytes) else sc(x), p)


def add(p: bytes, q: bytes) -> bytes:
    return na.crypto_core_ristretto255_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return na.crypto_core_ristretto255_sub(p, q)


def total(points: list[bytes]) -> bytes:
    out = points[0]
    for p in points[1:]:
        out = add(out, p)
    return out


def hash_to_scalar(domain: bytes, *parts: bytes) -> bytes:
    return na.crypto_core_ristretto255_scalar_reduce(
        hashlib.sha512(domain + frame(*parts)).digest()
    )


def card_point(table: bytes, deck: str, i: int) -> bytes:
    digest = hashlib.sha512(b"fairtable/card/v2" + frame(table, deck.encode(), u32(i))).digest()
    return na.crypto_core_ristretto255_from_hash(digest)


def shuffle_verify(
    table: bytes,
    inputs: list[bytes],
    outputs: list[bytes],
    proof: bytes,
    key: bytes,
    step: bytes,
    seat: int,
    deck: bytes,
    seen: dict[str, Any] | None = None,
) -> bool:
    """§8.5's verifier; ``seen`` receives the transcript's intermediate values."""
    n = len(inputs)
    if len(outputs) != n or len(proof) != (128 * n + 160 if n else 0):
        return False
    if n == 0:
        return True

    def gen(*label: bytes) -> bytes:
        digest = hashlib.sha512(b"fairtable/proof/shuffle/v3/generator" + frame(*label))
        return na.crypto_core_ristretto255_from_hash(digest.digest())

    def neg(p: bytes) -> bytes:
        return sub(mul(1, p), add(p, p))

    q, h, hs = G, gen(b"chain"), [gen(b"h", u32(j)) for j in range(n)]
    a = [c[:32] for c in inputs] + [c[:32] for c in outputs]
    b = [c[32:] for c in inputs] + [c[32:] for c in outputs]
    pairs = [x for i in range(2 * n) for x in (a[i], b[i])]
    statement = hashlib.sha512(
        b"fairtable/proof/shuffle/v3/statement"
        + frame(table, step, u16(seat), u32(0), deck, u32(n), G, q, h, key, *pairs)
    ).digest()
    u = [proof[32 * i : 32 * i + 32] for i in range(n)]
    chain = [proof[32 * (n + i) : 32 * (n + i) + 32] for i in range(n)]
    scalars = [
        int.from_bytes(proof[64 * n + 32 * i : 64 * n + 32 * i + 32], "little")
        for i in range(2 * n + 5)
    ]
    if any(x >= ORDER for x in scalars):
        return False
    v, r_a, r_c, r_d, r_f = scalars[:5]
    r_b, r_e = scalars[5 : 5 + n], scalars[5 + n :]
    seed = hashlib.sha512(b"fairtable/proof/shuffle/v3/challenges" + frame(statement, *u)).digest()
    e = [
        int.from_bytes(
            hashlib.sha512(b"fairtable/proof/shuffle/v3/challenge" + frame(seed, u32(i))).digest()[
                :16
            ],
            "little",
        )
        for i in range(n)
    ]
    prod = 1
    for x in e:
        prod = prod * x % ORDER
    try:
        big_a = total([mul(x, p) for x, p in zip(e, u, strict=True)])
        big_c = sub(total(u), total(hs))
        big_d = sub(chain[-1], mul(prod, h))
        f_a = total([mul(x, p) for x, p in zip(e, a[:n], strict=True)])
        f_b = total([mul(x, p) for x, p in zip(e, b[:n], strict=True)])
        t = [
            total(
                [
                    mul(r_a, q),
                    *(mul(x, p) for x, p in zip(r_e, hs, strict=True)),
                    neg(mul(v, big_a)),
                ]
            )
        ]
        t += [
            total(
                [mul(r_b[j], q), mul(r_e[j], h if j == 0 else chain[j - 1]), neg(mul(v, chain[j]))]
            )
            for j in range(n)
        ]
        t += [total([mul(r_c, q), neg(mul(v, big_c))]), total([mul(r_d, q), neg(mul(v, big_d))])]
        t += [
            total(
                [
                    *(mul(x, p) for x, p in zip(r_e, a[n:], strict=True)),
                    neg(mul(r_f, G)),
                    neg(mul(v, f_a)),
                ]
            ),
            total(
                [
                    *(mul(x, p) for x, p in zip(r_e, b[n:], strict=True)),
                    neg(mul(r_f, key)),
                    neg(mul(v, f_b)),
                ]
            ),
        ]
    except (ValueError, RuntimeError, TypeError):  # libsodium refused a point or a result
        return False
    final = hashlib.sha512(b"fairtable/proof/shuffle/v3/final" + frame(seed, *chain, *t)).digest()
    if seen is not None:
        seen.update(statement=statement, seed=seed, generators=(q, h, hs), e=e)
    return int.from_bytes(final, "little") % ORDER == v


def schnorr_ok(table: bytes, seat: int, y: bytes, proof: bytes) -> bool:
    c, z = proof[:32], proof[32:]
    t = sub(mul(z, G), mul(c, y))
    return (
        hash_to_scalar(
            b"fairtable/proof/schnorr/v1", table, b"deck-key", u16(seat), u32(0), G, y, t
        )
        == c
    )


def dleq_ok(
    table: bytes,
    step: str,
    seat: int,
    y: bytes,
    cards: list[tuple[int, bytes, bytes]],
    proof: bytes,
) -> bool:
    c, z = proof[:32], proof[32:]
    statement: list[bytes] = [table, step.encode(), u16(seat), u32(0), u32(len(cards)), G, y]
    for slot, a, d in cards:
        statement += [u32(slot), a, d]
    try:
        ts = [sub(mul(z, G), mul(c, y))] + [sub(mul(z, a), mul(c, d)) for _, a, d in cards]
    except (ValueError, RuntimeError, TypeError):
        return False
    return hash_to_scalar(b"fairtable/proof/dleq/v2", *statement, *ts) == c


def reencrypt_ok(
    table: bytes,
    step: str,
    seat: int,
    slot: int,
    y: bytes,
    held: tuple[bytes, bytes],
    k: bytes,
    fresh: bytes,
    proof: bytes,
) -> bool:
    c, z1, z2 = proof[:32], proof[32:64], proof[64:]
    (a, c_pt), (a2, b2) = held, (fresh[:32], fresh[32:])
    try:
        t1 = sub(mul(z1, G), mul(c, y))
        t2 = sub(mul(z2, G), mul(c, a2))
        t3 = sub(sub(mul(z1, a), mul(z2, k)), mul(c, sub(c_pt, b2)))
    except (ValueError, RuntimeError, TypeError):
        return False
    return (
        hash_to_scalar(
            b"fairtable/proof/reencrypt/v1",
            table,
            step.encode(),
            u16(seat),
            u32(slot),
            G,
            y,
            a,
            c_pt,
            k,
            a2,
            b2,
            t1,
            t2,
            t3,
        )
        == c
    )


def commitment(table: bytes, seat: int, purpose: str, nonce: bytes, payload: bytes) -> bytes:
    p = purpose.encode()
    return hashlib.sha256(
        b"fairtable/commit/v1\x00"
        + table
        + u16(seat)
        + u16(len(p))
        + p
        + nonce
        + u32(len(payload))
        + payload
    ).digest()
