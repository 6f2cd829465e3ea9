"""Compute the protocol test vectors (fixed keys and nonces -> exact bytes and hashes).

Run ``.venv/bin/python -m tests.protocol.make_vectors`` to print them as a
Markdown table (pasted into docs/protocol.md) and as a Python dict (pasted
into test_vectors.py).  The tests recompute them and compare with both.
"""

from __future__ import annotations

import hashlib
import pprint

import nacl.secret

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.engine.rng import ChanceStream
from fairtable.protocol import _group, _sealed, _shuffle_proof
from fairtable.protocol.crypto import NOTE_BLOCK, SEALED_BLOCK, pad
from fairtable.protocol.wire import Note


def compute() -> dict[str, str]:
    v: dict[str, str] = {}
    table = hashlib.sha256(b"fairtable test vector table").digest()
    v["table"] = table.hex()

    ident = P.Identity.from_seed(bytes(range(32)))
    v["identity.seed"] = bytes(range(32)).hex()
    v["identity.public_key"] = ident.public.key.hex()
    v["identity.fingerprint"] = ident.fingerprint
    v["identity.x25519_public"] = bytes(ident.public.seal_key()).hex()

    commit, reveal = PC.make_commitment(table, 0, "bid:round-1", b"3", nonce=b"\x42" * 32)
    v["commit.digest"] = commit.digest.hex()
    v["commit.message"] = P.encode(commit).decode()
    v["reveal.message"] = P.encode(reveal).decode()

    feed = PC.Feed(ident, table, 0)
    first = feed.append(commit)
    second = feed.append(PW.DigestCheck(1, b"\x11" * 32))
    assert first.header.signing_bytes() == PC.ENTRY_DOMAIN + P.encode(first.header)
    v["entry0.header"] = P.encode(first.header).decode()
    v["entry0.sig"] = first.sig.hex()
    v["entry0.id"] = first.entry_id().hex()
    v["entry0.frame"] = P.encode(first).decode()
    v["entry1.prev"] = second.prev.hex()
    v["entry1.id"] = second.entry_id().hex()

    values = {seat: bytes([seat + 1]) * 32 for seat in range(3)}
    seed = PC.joint_seed(table, "roll/1", values)
    stream = ChanceStream(seed)
    v["chance.seed"] = seed.hex()
    v["chance.dice"] = " ".join(str(stream.below(6) + 1) for _ in range(5))
    v["chance.permutation10"] = " ".join(map(str, stream.permutation(10)))

    codebook = PC.CardCodebook(table, "main", 102)
    v["card.main.0"] = codebook.points[0].hex()
    v["card.main.101"] = codebook.points[101].hex()

    key0 = PC.DeckKey.generate(entropy=hashlib.sha512(b"fairtable test vector deck key 0").digest())
    key1 = PC.DeckKey.generate(entropy=hashlib.sha512(b"fairtable test vector deck key 1").digest())
    v["deckkey0.secret"] = key0.secret.hex()
    v["deckkey0.public"] = key0.public.hex()
    v["deckkey1.public"] = key1.public.hex()
    v["deckkey0.share_proof"] = key0.key_share(table, 0, entropy=b"\x07" * 32).proof.hex()
    joint = PC.joint_key([key0.public, key1.public])
    v["joint_key"] = joint.hex()
    initial = PC.initial_deck(codebook, joint)
    v["initial.0"] = initial[0].to_bytes().hex()

    r = _group.hash_to_scalar(b"fairtable test vector r")
    v["rerandomise.r"] = r.hex()
    ct = PC.rerandomise(initial[0], joint, r)
    v["rerandomise.0"] = ct.to_bytes().hex()
    shares = PC.decryption_shares(key0, table, 0, "main", "draw/1", {0: ct}, entropy=b"\x08" * 32)
    v["share.d"] = shares.shares[0].share.hex()
    v["share.proof"] = shares.proof.hex()

    small = PC.CardCodebook(table, "small", 5)
    out, secret = PC.shuffle(PC.initial_deck(small, joint), joint, entropy=b"\x09" * 32)
    v["shuffle.permutation"] = " ".join(map(str, secret.permutation))
    v["shuffle.output_sha256"] = hashlib.sha256(b"".join(c.to_bytes() for c in out)).hexdigest()
    small_initial = PC.initial_deck(small, joint)
    step, proven, _ = PC.shuffle_step(
        "small", "s1/0", small_initial, joint, table=table, seat=0, entropy=b"\x09" * 32
    )
    assert proven == out
    q_base, h_base, hs = _shuffle_proof.generators(5)
    v["shuffle.generator.Q"] = q_base.hex()
    v["shuffle.generator.h"] = h_base.hex()
    v["shuffle.generator.h0"] = hs[0].hex()
    v["shuffle.generator.h4"] = hs[4].hex()
    pairs = [(c.a, c.b) for c in small_initial]
    statement = _shuffle_proof._statement(
        PC.ProofContext(table, "s1/0", 0), "small", joint, pairs, [(c.a, c.b) for c in out]
    )
    seed, es = _shuffle_proof._challenges(
        statement, [step.proof[32 * i : 32 * i + 32] for i in range(5)]
    )
    v["shuffle.proof.statement"] = statement.hex()
    v["shuffle.proof.challenge_seed"] = seed.hex()
    v["shuffle.proof.e0"] = es[0].to_bytes(16, "little").hex()
    v["shuffle.output"] = b"".join(c.to_bytes() for c in out).hex()
    v["shuffle.proof"] = step.proof.hex()
    v["shuffle.message_sha256"] = hashlib.sha256(P.encode(step)).hexdigest()

    held = PC.Ciphertext(
        _group.base_mul(r), _group.add(codebook.points[0], _group.mul(r, key0.public))
    )
    msg, _ = PC.hand_over(
        key0, table, 0, "main", "spoils/1", 1, key1.public, {0: held}, entropy=b"\x0a" * 32
    )
    v["handover.held"] = held.to_bytes().hex()
    v["handover.card"] = msg.cards[0].card.hex()
    v["handover.proof"] = msg.cards[0].proof.hex()

    # a departure (§11.10): seat 1 of three leaves; its shares strip its layer from a deck card
    key2 = PC.DeckKey.generate(entropy=hashlib.sha512(b"fairtable test vector deck key 2").digest())
    v["deckkey1.secret"] = key1.secret.hex()
    v["deckkey2.public"] = key2.public.hex()
    joint3 = PC.joint_key([key0.public, key1.public, key2.public])
    v["leave.joint_key"] = joint3.hex()
    face_down = PC.rerandomise(PC.initial_deck(codebook, joint3)[0], joint3, r)
    v["leave.card"] = face_down.to_bytes().hex()
    left = PC.decryption_shares(
        key1, table, 1, "main.4", "s7/leave", {0: face_down}, entropy=b"\x0c" * 32
    )
    v["leave.share.d"] = left.shares[0].share.hex()
    v["leave.share.proof"] = left.proof.hex()
    v["leave.shares_sha256"] = hashlib.sha256(P.encode(left)).hexdigest()
    v["leave.message"] = P.encode(PW.Leave(7)).decode()
    stripped = PC.strip_shares(face_down, [left.shares[0].share])
    v["leave.stripped"] = stripped.to_bytes().hex()
    v["leave.survivors_key"] = _group.sub(joint3, key1.public).hex()

    v["sealed.header"] = _sealed._header(table, 0, 2, "spoils/1").hex()
    sealed_inner = _sealed._header(table, 0, 2, "spoils/1") + pad(b"the ace of cups", SEALED_BLOCK)
    v["sealed.inner_sha256"] = hashlib.sha256(sealed_inner).hexdigest()

    decision = b'{"cards":["r-1-iron-legion"],"count":1,"seat":0,"type":"Bid"}'
    note_key = hashlib.sha256(b"fairtable test vector note key").digest()
    padded = pad(decision, NOTE_BLOCK)
    box = nacl.secret.SecretBox(note_key).encrypt(padded, b"\x0b" * 24)
    v["note.key"] = note_key.hex()
    v["note.padded_sha256"] = hashlib.sha256(padded).hexdigest()
    v["note.message_sha256"] = hashlib.sha256(P.encode(Note(4, bytes(box)))).hexdigest()
    return v


def markdown(v: dict[str, str]) -> str:
    lines = ["| name | value |", "|---|---|"]
    for name, value in v.items():
        if len(value) > 130:
            continue
        lines.append(f"| `{name}` | `{value}` |")
    out = "\n".join(lines) + "\n"
    for name, value in v.items():
        if len(value) > 130:
            out += f"\n`{name}`:\n\n```\n{value}\n```\n"
    return out


if __name__ == "__main__":
    vectors = compute()
    print(markdown(vectors))
    print("VECTORS = ", end="")
    pprint.pprint(vectors, width=100, sort_dicts=False)
