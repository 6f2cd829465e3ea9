"""Compute the test vectors of vanishing (docs/protocol.md §7.11), as make_vectors does.

Run ``.venv/bin/python -m tests.protocol.make_vss_vectors`` to print them as a Markdown
table (pasted into §7.11) and as a Python dict (pasted into test_vss_vectors.py).  The
tests recompute them and compare with both, and recompute them from the spec text alone.
"""

from __future__ import annotations

import hashlib
import pprint

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW

from .make_vectors import markdown

SEATS = 4
DEALER = 1


def keys() -> list[PC.DeckKey]:
    """``x_s = SHA-512("fairtable test vector vss key " || s) mod L`` for seats 0..3."""
    return [
        PC.DeckKey.generate(
            entropy=hashlib.sha512(b"fairtable test vector vss key %d" % s).digest()
        )
        for s in range(SEATS)
    ]


def compute() -> dict[str, str]:
    v: dict[str, str] = {}
    table = hashlib.sha256(b"fairtable test vector table").digest()
    key = keys()[DEALER]
    holders = {j: P.Identity.from_seed(bytes([j]) * 32).public for j in (0, 2, 3)}
    threshold = PC.table_threshold(SEATS)
    msg, shares = PC.deal(key, table, DEALER, holders, threshold, entropy=b"\x0c" * 32)
    v["vss.x1"] = key.secret.hex()
    for k, c in enumerate(msg.commitments):
        v[f"vss.C{k}"] = c.hex()
    for j in sorted(shares):
        v[f"vss.s{j}"] = shares[j].hex()
        v[f"vss.S{j}"] = PC.share_key(msg.commitments, j).hex()
    v["vss.box_size"] = str(PC.share_box_size())
    fixed = PW.ShareDeal(
        msg.commitments,
        tuple(PW.ShareBox(j, bytes([0x0E]) * PC.share_box_size()) for j in sorted(shares)),
    )
    v["vss.deal_digest"] = PC.deal_digest(table, DEALER, fixed).hex()
    for j, lam in PC.lagrange_at_zero(sorted(shares)).items():
        v[f"vss.lambda{j}"] = lam.hex()
    a = PC.base_mul(PC.hash_to_scalar(b"fairtable test vector vss r"))
    card = PC.Ciphertext(a, PC.hash_to_point(b"fairtable test vector vss card"))
    v["vss.A"] = a.hex()
    partials = {}
    for j in sorted(shares):
        piece = PC.KeyPiece(DEALER, j, shares[j], PC.base_mul(shares[j]))
        rec = PC.recovery_shares(piece, table, "main", "draw/9", {7: card}, entropy=b"\x0d" * 32)
        v[f"vss.R{j}"] = rec.shares[0].share.hex()
        v[f"vss.R{j}.proof"] = rec.proof.hex()
        partials[j] = {7: rec.shares[0].share}
    v["vss.recovered"] = PC.combine(partials, threshold)[7].hex()
    return v


if __name__ == "__main__":
    vectors = compute()
    print(markdown(vectors))
    print("VECTORS = ", end="")
    pprint.pprint(vectors, width=100, sort_dicts=False)
