# ruff: noqa: E501 -- pasted test vectors are long lines
"""Test vectors of vanishing (docs/protocol.md §7.11): fixed keys and entropy give exactly
these bytes, through the API and from the spec text alone (hashlib and ``rbcl``).

Produced by ``python -m tests.protocol.make_vss_vectors`` and pasted here and into the spec.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import rbcl as na

from . import spec_crypto as S
from .make_vss_vectors import compute

SPEC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

VECTORS = {
    "vss.x1": "f398fcc424b71d572ec0b64fb7e06e5baa51959ddb79477ad50bd1786217bb06",
    "vss.C0": "141686803ebf797639b26047752f3fc4fbbcc1c56990fca910e95a5522864863",
    "vss.C1": "ee2da743877b0667b71fe5d365df681c363500cf4c255623e2815d34131b9210",
    "vss.C2": "b4b707b73cca1a3adae4201b8851b48c33ac3b4a99b8bec9b3a09c2e91e78462",
    "vss.s0": "9e15b4028da20be8edeb5ef7f6ebdbcc6252ce9460abf4d419ec42e0a3257c04",
    "vss.S0": "02cacfae5e0e70619e37617e1bb029148b1b56e3974579f9721416bec8e7a215",
    "vss.s2": "de6b68a4e0dc80bc0aed7e88d9ef758574b90634f86271fb67ee839c49db5904",
    "vss.S2": "dc61c9ff056bb97c2c8171db66f5125fa59737dfd706323c0ffef16a05c4251b",
    "vss.s3": "73456508cc2b080068c2f6717ce8a2cccd1f06dc0ae940c7711053f1ad827606",
    "vss.S3": "80032af8269e4e61b095b0cf2bbb82827b21e940804fd4fa48edfa2c2ad2ba40",
    "vss.box_size": "1153",
    "vss.deal_digest": "3a5841dedcda139304419f581f7a70c81e6ad45741ccc5384c6b406693c32813",
    "vss.lambda0": "0200000000000000000000000000000000000000000000000000000000000000",
    "vss.lambda2": "ebd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
    "vss.lambda3": "0100000000000000000000000000000000000000000000000000000000000000",
    "vss.A": "727177fba155c34d3bfd47afeea199f72e1045f8c6e9884cd37366cb7ebeeb77",
    "vss.R0": "1a53dac540c90221b1278acd770f4c49e1442775bdd9e2ebed9b524132039f5b",
    "vss.R0.proof": "9312cc612c7220e5b33d8f4544166083219cb641b68bc81b4e11b2c2013cbd0ae8cfdf9e256e8453e895cf00e7c3b100c06906d9167b868765e9c2da2afe3802",
    "vss.R2": "08f6356b235070932178ffc69f2b4c7d5f43110d82535f08947066e8965de754",
    "vss.R2.proof": "0304bdb95c3e6235fea0ef2d5c2f1f7b3c59b9c70276ef91d88ef8d4c9933c0e0c44ee80278635637ed36946cd88974e2cbbacfad1e648708b3d3bc24fb7930e",
    "vss.R3": "c2b7cbc0c0780466b6301c4c357dafc6184f0ab6625d5dea35507438ff7f6b05",
    "vss.R3.proof": "eade9e4023a1354bb780f518f981566d78f99d5f06b0532c33cc717a07cea6004f35ca1e8052da54f602979c9ebff783d1b92ab8d29686469e184747f8b87f04",
    "vss.recovered": "14906f654766f94fb45ec4e6ee61cbe7196fb55f76bfdae3da71ce7cffda0f5a",
}

COMPUTED = compute()


@pytest.mark.parametrize("name", list(VECTORS))
def test_vss_vector(name: str) -> None:
    assert COMPUTED[name] == VECTORS[name]


def test_no_unlisted_vss_vectors() -> None:
    assert set(COMPUTED) == set(VECTORS)


@pytest.mark.parametrize("name", list(VECTORS))
def test_vss_vector_is_in_the_spec(name: str) -> None:
    assert f"| `{name}` | `{VECTORS[name]}` |" in SPEC.read_text(encoding="utf-8"), name


def _h(name: str) -> bytes:
    return bytes.fromhex(VECTORS[name])


TABLE = hashlib.sha256(b"fairtable test vector table").digest()
HOLDERS = (0, 2, 3)


def test_spec_alone_deal_commitments_and_shares() -> None:
    x = hashlib.sha512(b"fairtable test vector vss key 1").digest()
    x = na.crypto_core_ristretto255_scalar_reduce(x)
    assert x == _h("vss.x1")
    coefficients = [
        S.hash_to_scalar(
            b"fairtable/vss/coefficient/v1", x, b"\x0c" * 32, TABLE, S.u16(1), S.u32(k)
        )
        for k in (1, 2)
    ]
    assert S.mul(x, S.G) == _h("vss.C0")
    assert [S.mul(a, S.G) for a in coefficients] == [_h("vss.C1"), _h("vss.C2")]
    poly = [int.from_bytes(c, "little") for c in (x, *coefficients)]
    for j in HOLDERS:
        share = sum(c * (j + 1) ** k for k, c in enumerate(poly)) % S.ORDER
        assert S.sc(share) == _h(f"vss.s{j}")
        public = S.total([_h("vss.C0")] + [S.mul((j + 1) ** k, _h(f"vss.C{k}")) for k in (1, 2)])
        assert public == _h(f"vss.S{j}") == S.mul(share, S.G)


def test_spec_alone_box_size_and_deal_digest() -> None:
    header = b"fairtable/sealed/v1\x00" + S.frame(TABLE, S.u16(1), S.u16(0), b"vss-share")
    assert len(header) + 1024 + 48 == int(VECTORS["vss.box_size"])
    parts = [TABLE, S.u16(1), S.u32(3), _h("vss.C0"), _h("vss.C1"), _h("vss.C2"), S.u32(3)]
    for j in HOLDERS:
        parts += [S.u16(j), b"\x0e" * 1153]
    digest = hashlib.sha256(b"fairtable/vss/deal/v1" + S.frame(*parts)).digest()
    assert digest == _h("vss.deal_digest")


def test_spec_alone_recovery_shares_proofs_and_combination() -> None:
    a = S.mul(S.hash_to_scalar(b"fairtable test vector vss r"), S.G)
    assert a == _h("vss.A")
    total = None
    for j in HOLDERS:
        r = _h(f"vss.R{j}")
        assert r == S.mul(_h(f"vss.s{j}"), a)
        assert S.dleq_ok(
            TABLE, "recover/1/draw/9", j, _h(f"vss.S{j}"), [(7, a, r)], _h(f"vss.R{j}.proof")
        )
        assert not S.dleq_ok(
            TABLE, "draw/9", j, _h(f"vss.S{j}"), [(7, a, r)], _h(f"vss.R{j}.proof")
        )
        num, den = 1, 1
        for m in HOLDERS:
            if m != j:
                num, den = num * (m + 1), den * (m - j)
        lam = S.sc(num * pow(den, -1, S.ORDER))
        assert lam == _h(f"vss.lambda{j}")
        term = S.mul(lam, r)
        total = term if total is None else S.add(total, term)
    assert total == _h("vss.recovered") == S.mul(_h("vss.x1"), a)
