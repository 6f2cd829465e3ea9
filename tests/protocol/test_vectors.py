# ruff: noqa: E501 -- pasted test vectors are long lines
"""Test vectors: fixed keys and nonces give exactly these bytes (also in docs/protocol.md).

The values were produced by ``python -m tests.protocol.make_vectors`` and pasted
here and into the spec.  Besides recomputing them through the API, several are
recomputed from the spec text alone with hashlib/PyNaCl/rbcl, to keep the spec honest.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import nacl.signing
import pytest
import rbcl as na

import protocol as P
from engine.rng import ChanceStream

from .make_vectors import compute

SPEC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

VECTORS = {
    "table": "4c05f71badc19f773802a903912c3835786f8df13b157e171ec231620566d9bd",
    "identity.seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "identity.public_key": "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
    "identity.fingerprint": "56475aa75463474c0285df5dbf2bcab73da651358839e9b77481b2eab107708c",
    "identity.x25519_public": "4701d08488451f545a409fb58ae3e58581ca40ac3f7f114698cd71deac73ca01",
    "commit.digest": "2f04c6dbcba17047ee2fbfa94fbe4892534a6214142724a0ebe305a5ae50e710",
    "commit.message": "{\"digest\":\"LwTG28uhcEfuL7-pT75IklNKYhQUJySg6-MFpa5Q5xA\",\"purpose\":\"bid:round-1\",\"type\":\"commit\",\"v\":6}",
    "reveal.message": "{\"nonce\":\"QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI\",\"payload\":\"Mw\",\"purpose\":\"bid:round-1\",\"type\":\"reveal\",\"v\":6}",
    "entry0.header": "{\"body_hash\":\"xIglPm5yan2Abcmp_GAJg80hvvmvgXCSIZt8jWzI55w\",\"prev\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"seat\":0,\"seq\":0,\"table\":\"TAX3G63Bn3c4AqkDkSw4NXhvjfE7FX4XHsIxYgVm2b0\",\"type\":\"entry-header\",\"v\":6}",
    "entry0.sig": "8dbb08f2a1898afcd245dd4b6cad5391e8d7f86b74af4fb082e1dc24c43c0ee51f2bc79924158158305aef025cce059d8e73ff7d5c9062e3d639e821ec5d3f0c",
    "entry0.id": "34a3b6050a65a1adc3f0dc61f35f4cfa419b1cfb49aee0d4939cd682b620b729",
    "entry0.frame": "{\"body\":\"eyJkaWdlc3QiOiJMd1RHMjh1aGNFZnVMNy1wVDc1SWtsTktZaFFVSnlTZzYtTUZwYTVRNXhBIiwicHVycG9zZSI6ImJpZDpyb3VuZC0xIiwidHlwZSI6ImNvbW1pdCIsInYiOjZ9\",\"prev\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"seat\":0,\"seq\":0,\"sig\":\"jbsI8qGJivzSRd1LbK1TkejX-Gt0r0-wguHcJMQ8DuUfK8eZJBWBWDBa7wJczgWdjnP_fVyQYuPWOegh7F0_DA\",\"table\":\"TAX3G63Bn3c4AqkDkSw4NXhvjfE7FX4XHsIxYgVm2b0\",\"type\":\"entry\",\"v\":6}",
    "entry1.prev": "34a3b6050a65a1adc3f0dc61f35f4cfa419b1cfb49aee0d4939cd682b620b729",
    "entry1.id": "ee06f57ebaa2bcd040f043a591e0bf9ae15cde1f3a476bd64029f6da69c486b0",
    "chance.seed": "f2c1840b4468816267cafdd1f30e9794074710c067da3fbeb1f170a8c1769ecc",
    "chance.dice": "6 3 3 4 3",
    "chance.permutation10": "8 4 7 9 6 1 5 3 2 0",
    "card.main.0": "eac9cd119c255c6cc5b353c4811affe9a0a5f607bcae555d228d9b1ab8292372",
    "card.main.101": "bace40de1918a60319c072fff17bbb00add82789a916a858a6cc3538654ffd03",
    "deckkey0.secret": "0fec181d4019df2f52c96774b4986e1d198fde62f55bcf3127636dabeb7a1e02",
    "deckkey0.public": "547a2a7c3a09717057eb52da13f8aac2267588a94d383f688f685252e0b91004",
    "deckkey1.public": "607bf0c42ddbfe505c2a221348f8c2e8260ec45da8b3130003675fc47ab54653",
    "deckkey0.share_proof": "19e84a247ce0375b14cf6eac94258aff75d1dffe7bc6dc39571316fe10a6a609d2a0aba202f5af97fd682a0c5c133e26c4a67de272e8753a9d7ae0fe3de0dc0f",
    "joint_key": "1ecb92d3d562af970015f12ebc4a10992476db46bdbae5644b68aeeaa7b7da71",
    "initial.0": "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76a67b0965eaf34afd10b96574e123b3c5a9ef8e9e969c86ba3b8200ffe5544a39",
    "rerandomise.r": "53f3a44d670389eeaee975a6fd3b76fd04335e30b6396d1f60ae61ac93c80d0b",
    "rerandomise.0": "8ade0fb123967b2e79de280675d976c2a84c2ca163b4795932afef43f59d463f585dbb6eee5d8423d2a0bc38fecce987467b7b10802789992c43e67538ac5d23",
    "share.d": "7859e91022452b69bde03e1e14ca3b13a98def270a65f32f0f163e21035b7e6a",
    "share.proof": "bd29b482e908e3cc969da5661ca49fe4327b63ff55fbe0063852d033a07f130e9c13f56e4a09bc0afd949808895c7397c8728a2874f3d63a3f8f0df378d1e80e",
    "shuffle.permutation": "0 2 3 4 1",
    "shuffle.output_sha256": "a75571629e9f68c45e1fb919a7ec066365048a3544ebafeb0790e46f42c24128",
    "shuffle.generator.Q": "4433a79ee6cc3187beb1e0ac9a8a50b1a547236ecd4895662d6bc1f2bbb77f7f",
    "shuffle.generator.h": "029a3fa19ea918cff7cc81bd4e0036b3c607a864da72060ae7242c1356a8422c",
    "shuffle.generator.h0": "2e2685c7b5406f7e3dceb2b816066854c463216163d93da2487943f3414d2d1d",
    "shuffle.generator.h4": "fe7aa4738b36eec274c89ee5b49c650ecbe3bd1f934b69aaa4caa6e56a8ad95a",
    "shuffle.proof.statement": "d771e7151e5036cdfcedc1266f70d8b2768a4dc4addfc54682dd4925bc49888834b94b6f5d0d7b6c252bb3874e91af83dc235a595ba3bbcb519ff06de77e9a64",
    "shuffle.proof.challenge_seed": "dcc945ee2f71d02dcb4ee9c3284bdf208fbbf842548228244d98b5883bc5e60efbf9010c41f55b96f13f2cc4241bac1923de31fdf7cd99c9a1ddd6f3214932ee",
    "shuffle.proof.e0": "4e309d73c98a063001bd7c6e1f06e911",
    "shuffle.output": "504ec15d641d985981d6be24b64d03c584b8bfee7c1f33bd4004f62a4ab62d5098b3fc8fa8d1dd05617a18257684c96aa642a97f873047e992a52979c032243078bff3556aeb754c9acd61307fbafbf9d64e92d817932f509bdbed785d690263d40303acbbdc9366899a5a4a8e56d22d69cbc55b8541e62e2e244b8c8534513ea22e4f56ae925be3e7aaf652ca7d7d6bca2da0eb1e97ac97410996de0010ae66549fa18ffcb6c4bce6a3473f31540603949c1caab7e821254d44fc00436b952d00c5b679182559e5b5617b6112ddecf20b8b39a0753e444e09c03d97428e9854e2800b9d4842c5a76cf3bc20a396e5b388c1dde41fb813307764048994e4ce6b74206995a272c4f753d453539793972cf1054e2855ac450e989ad0ab3160ec32bc2fc7032b832c0d349d701dc6642427e5beed8a5e9fbf311c5cbd301300c164",
    "shuffle.proof": "44ed75fe42b782e2155dc92b886f448d81aafae0f4109abb7cbe3315b318f4752e5fc94d8d62cdb338ea4917aa094723c5b120f3ab56c3302564a1206701eb516ee6f60de2ba0fb1af824e8aa17c686b18a0c72649fbac596c2fb4fd7bebbd63f0b4fea49d9e585807119e476f5fc930c0070a4792f52d81f3299f14875503164a9aac14febb3d14c86247f4649f659281897b06a858021f67bc7d557841255b1ead733c568e8e5bd217903546a2050db2f416a19b8d3574f11736aefc85f70a9466f5c48ab420871f003967496e11d08422b430c6ceb8e8d946c999bf9ece1b1cc6fa69d453e54f3c0f4d81b5789e1636a9ba762d91e9cc3520efdc745a5019421e05fce23ac11b37fe89f0599c3cd172ba0153fe108eab68080b34987880646e3f82641e8032572ccd37b39e82a306eca0b8a17f4c79fe86de9e4ca78bd474ef92aeefcc31a4f920c8b8c3d81af8ce8a65d3195e4adebd4507f01dece4100cc01f65e82b1ddf298175063c0e7532a63750059fe63b03442c82ca64f8461e0821678115ee4362a3eca5595331dced97f6f9c0100fb1a18bacbd6cd5e964c108ee512a96a76979620ae1f18715db06502c2805895a336b8ad2514b30a863e6003f48c799139829eebf7401d5c42f482a62b2d3ec23667ce813ff9908dcace6013cbd7220687e38acc2a6f58356984370c5faf3f57fdba4dc670b9ce6ea6db90a9138357f5834a9cee7bfdd9dd6541f05aa8dfb8e0bcfa690618b581c466a5201f2de331a9d4b55ef94da48045337299c9664223d26b6266880873296404d0a0cde98daaa124eebd298394ab4493aa00ab09cfd38f413f4bfd285be0a32e0f30ea165131839607d19df3504d128587bec338cc20447c2d6cc88a3ec15a92878021c03cd66686c45c80f7f79e747038a6fc059789aec44c8337569aa88299ac20dc3adbd6bca670a82efed5cb392b365fca169895d7bf562752c5482d6f6417707896859f34ddf5ae0bef3e58075d94d0295dd5c40acb16d7c7b0e87283549be0a49896e70da6ff728a3dace6a78042202dfb51905cf9064beea07b758c4fb0909b52659696245b7a1d38e5b6e2980afc0f3053be18b5f377248ee7cbace39ae03",
    "shuffle.message_sha256": "4e51ae78652d7566fb0dbc4632631bfed2e1d2b429f4121b0f97ee1af25a1a55",
    "handover.held": "48356fb71c59435ebef1b80462c8b5aa9794d34daba58948ccd38b5a2738172aa00c61975afd67ed7830799d0f8bb73d6d75f4de602535526dfc1d349806d03a",
    "handover.card": "de86be9d4eb5028d1eed32bbcaa3047be8b90fe7bacc4591338cebb4c44ebc061efe3b94bcfaf9b9f86dca06f857114882ba2faf54c5d58b04d27f5348e9d309",
    "handover.proof": "60631241cc65ca8fb26e1f9bb78389b59ee6b008aff7f8ccfa2c8f20b4950f012d92ccab7ebf6918f6e0e1b985750c8b576bb6ddc4f6dedf673fa1cd86b56b04256c01f4363b6fbd6e9778d993d12c203a0cdb5919de196a6c8a6858b7fce00b",
    "sealed.header": "666169727461626c652f7365616c65642f763100000000204c05f71badc19f773802a903912c3835786f8df13b157e171ec231620566d9bd0000000200000000000200020000000873706f696c732f31",
}

COMPUTED = compute()


@pytest.mark.parametrize("name", list(VECTORS))
def test_vector(name: str) -> None:
    assert COMPUTED[name] == VECTORS[name]


def test_no_unlisted_vectors() -> None:
    assert set(COMPUTED) == set(VECTORS)


@pytest.mark.parametrize("name", list(VECTORS))
def test_vector_is_in_the_spec(name: str) -> None:
    assert VECTORS[name] in SPEC.read_text(encoding="utf-8"), name


def _h(name: str) -> bytes:
    return bytes.fromhex(VECTORS[name])


def _frame(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


TABLE = _h("table")


def test_spec_commitment_layout() -> None:
    raw = (
        b"fairtable/commit/v1\x00"
        + TABLE
        + (0).to_bytes(2, "big")
        + len(b"bid:round-1").to_bytes(2, "big")
        + b"bid:round-1"
        + b"\x42" * 32
        + (1).to_bytes(4, "big")
        + b"3"
    )
    assert hashlib.sha256(raw).hexdigest() == VECTORS["commit.digest"]


def test_spec_entry_signature_and_id() -> None:
    header = VECTORS["entry0.header"].encode()
    frame = json.loads(VECTORS["entry0.frame"])
    body = base64.urlsafe_b64decode(frame["body"] + "==")
    assert body == VECTORS["commit.message"].encode()
    assert json.loads(header)["body_hash"] == (
        base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
    )
    key = nacl.signing.VerifyKey(_h("identity.public_key"))
    key.verify(b"fairtable/entry/v1\x00" + header, _h("entry0.sig"))
    assert hashlib.sha256(header).hexdigest() == VECTORS["entry0.id"] == VECTORS["entry1.prev"]
    assert hashlib.sha256(_h("identity.public_key")).hexdigest() == VECTORS["identity.fingerprint"]
    log = P.FeedLog(TABLE, {0: P.PublicIdentity(_h("identity.public_key"))})
    assert log.add_bytes(VECTORS["entry0.frame"].encode())


def test_spec_joint_seed_and_dice() -> None:
    raw = b"fairtable/joint-seed/v1\x00" + TABLE + (6).to_bytes(2, "big") + b"roll/1"
    raw += (3).to_bytes(2, "big")
    for seat in range(3):
        raw += seat.to_bytes(2, "big") + bytes([seat + 1]) * 32
    seed = hashlib.sha256(raw).digest()
    assert seed.hex() == VECTORS["chance.seed"]
    # engine.rng: SHA-256 counter mode, masked rejection sampling
    block = hashlib.sha256(b"fairtable/chance/v1" + seed + (0).to_bytes(8, "big")).digest()
    first = next(b & 0b111 for b in block if b & 0b111 < 6)
    assert str(first + 1) == VECTORS["chance.dice"].split()[0]
    assert ChanceStream(seed).below(6) == first


def test_spec_card_point_and_initial_deck() -> None:
    digest = hashlib.sha512(
        b"fairtable/card/v2" + _frame(TABLE, b"main", (0).to_bytes(4, "big"))
    ).digest()
    point = na.crypto_core_ristretto255_from_hash(digest)
    assert point.hex() == VECTORS["card.main.0"]
    joint = na.crypto_core_ristretto255_add(_h("deckkey0.public"), _h("deckkey1.public"))
    assert joint.hex() == VECTORS["joint_key"]
    base = na.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    assert (base + na.crypto_core_ristretto255_add(point, joint)).hex() == VECTORS["initial.0"]


def test_spec_dleq_proof() -> None:
    ct = _h("rerandomise.0")
    a, d, proof, y = ct[:32], _h("share.d"), _h("share.proof"), _h("deckkey0.public")
    x = _h("deckkey0.secret")
    assert na.crypto_scalarmult_ristretto255(x, a) == d
    c, z = proof[:32], proof[32:]
    g = na.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    t1 = na.crypto_core_ristretto255_sub(
        na.crypto_scalarmult_ristretto255_base(z), na.crypto_scalarmult_ristretto255(c, y)
    )
    t2 = na.crypto_core_ristretto255_sub(
        na.crypto_scalarmult_ristretto255(z, a), na.crypto_scalarmult_ristretto255(c, d)
    )
    # one card: ctx (slot 0), the number of cards, G, Y, then (u32 slot, A, D) per card
    ctx = (TABLE, b"draw/1", (0).to_bytes(2, "big"), (0).to_bytes(4, "big"))
    statement = (*ctx, (1).to_bytes(4, "big"), g, y, (0).to_bytes(4, "big"), a, d)
    wide = hashlib.sha512(b"fairtable/proof/dleq/v2" + _frame(*statement, t1, t2)).digest()
    assert na.crypto_core_ristretto255_scalar_reduce(wide) == c
    # the prover's hedged nonce with the fixed entropy
    nonce = hashlib.sha512(
        b"fairtable/proof/nonce/v1" + _frame(x, b"\x08" * 32, *statement)
    ).digest()
    k = na.crypto_core_ristretto255_scalar_reduce(nonce)
    assert na.crypto_scalarmult_ristretto255_base(k) == t1
    # and through the API
    msg = P.DecryptShares("main", "draw/1", (P.Share(0, d),), proof)
    P.verify_shares(TABLE, 0, y, msg, {0: P.Ciphertext(a, ct[32:])})


def test_spec_key_share_and_hand_over_verify() -> None:
    y0, y1 = _h("deckkey0.public"), _h("deckkey1.public")
    P.verify_key_share(TABLE, 0, P.KeyShare(y0, _h("deckkey0.share_proof")))
    held = _h("handover.held")
    msg = P.HandOver(
        "main", "spoils/1", 1, (P.HandOverItem(0, _h("handover.card"), _h("handover.proof")),)
    )
    P.verify_hand_over(TABLE, 0, y0, y1, msg, {0: P.Ciphertext(held[:32], held[32:])})


def test_spec_sealed_header() -> None:
    expected = b"fairtable/sealed/v1\x00" + _frame(
        TABLE, (0).to_bytes(2, "big"), (2).to_bytes(2, "big"), b"spoils/1"
    )
    assert expected.hex() == VECTORS["sealed.header"]


def _spec_shuffle_verify(inputs: list[bytes], outputs: list[bytes], proof: bytes, key: bytes,
                         step: bytes, seat: int, deck: bytes) -> bool:
    """The §8.5 verifier written from the spec text alone (hashlib and libsodium)."""
    order = 2**252 + 27742317777372353535851937790883648493
    n = len(inputs)

    def sc(x: int) -> bytes:
        return (x % order).to_bytes(32, "little")

    def gen(*label: bytes) -> bytes:
        digest = hashlib.sha512(b"fairtable/proof/shuffle/v2/generator" + _frame(*label))
        return na.crypto_core_ristretto255_from_hash(digest.digest())

    def mul(x: int, p: bytes) -> bytes:
        return na.crypto_scalarmult_ristretto255(sc(x), p)

    def total(points: list[bytes]) -> bytes:
        out = points[0]
        for p in points[1:]:
            out = na.crypto_core_ristretto255_add(out, p)
        return out

    def neg(p: bytes) -> bytes:
        return na.crypto_core_ristretto255_sub(mul(1, p), na.crypto_core_ristretto255_add(p, p))

    g = na.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    q, h, hs = gen(b"commit"), gen(b"chain"), [gen(b"h", j.to_bytes(4, "big")) for j in range(n)]
    a = [c[:32] for c in inputs] + [c[:32] for c in outputs]
    b = [c[32:] for c in inputs] + [c[32:] for c in outputs]
    pairs = [x for i in range(2 * n) for x in (a[i], b[i])]
    statement = hashlib.sha512(b"fairtable/proof/shuffle/v2/statement" + _frame(
        TABLE, step, seat.to_bytes(2, "big"), (0).to_bytes(4, "big"), deck, n.to_bytes(4, "big"),
        g, q, h, key, *pairs)).digest()
    u = [proof[32 * i: 32 * i + 32] for i in range(n)]
    chain = [proof[32 * (n + i): 32 * (n + i) + 32] for i in range(n)]
    scalars = [int.from_bytes(proof[64 * n + 32 * i: 64 * n + 32 * i + 32], "little")
               for i in range(2 * n + 5)]
    v, r_a, r_c, r_d, r_f = scalars[:5]
    r_b, r_e = scalars[5: 5 + n], scalars[5 + n:]
    seed = hashlib.sha512(b"fairtable/proof/shuffle/v2/challenges" + _frame(statement, *u)).digest()
    e = [int.from_bytes(hashlib.sha512(b"fairtable/proof/shuffle/v2/challenge" + _frame(
        seed, i.to_bytes(4, "big"))).digest()[:16], "little") for i in range(n)]
    prod = 1
    for x in e:
        prod = prod * x % order
    big_a = total([mul(x, p) for x, p in zip(e, u, strict=True)])
    big_c = na.crypto_core_ristretto255_sub(total(u), total(hs))
    big_d = na.crypto_core_ristretto255_sub(chain[-1], mul(prod, h))
    f_a = total([mul(x, p) for x, p in zip(e, a[:n], strict=True)])
    f_b = total([mul(x, p) for x, p in zip(e, b[:n], strict=True)])
    t = [total([mul(r_a, q), *(mul(x, p) for x, p in zip(r_e, hs, strict=True)), neg(mul(v, big_a))])]
    t += [total([mul(r_b[j], q), mul(r_e[j], h if j == 0 else chain[j - 1]), neg(mul(v, chain[j]))])
          for j in range(n)]
    t += [total([mul(r_c, q), neg(mul(v, big_c))]), total([mul(r_d, q), neg(mul(v, big_d))])]
    t += [total([*(mul(x, p) for x, p in zip(r_e, a[n:], strict=True)), neg(mul(r_f, g)),
                 neg(mul(v, f_a))]),
          total([*(mul(x, p) for x, p in zip(r_e, b[n:], strict=True)), neg(mul(r_f, key)),
                 neg(mul(v, f_b))])]
    final = hashlib.sha512(b"fairtable/proof/shuffle/v2/final" + _frame(seed, *chain, *t)).digest()
    if seat == 0:  # the vectors' own statement
        assert statement.hex() == VECTORS["shuffle.proof.statement"]
        assert seed.hex() == VECTORS["shuffle.proof.challenge_seed"]
        assert [q.hex(), h.hex(), hs[0].hex(), hs[4].hex()] == [
            VECTORS["shuffle.generator.Q"], VECTORS["shuffle.generator.h"],
            VECTORS["shuffle.generator.h0"], VECTORS["shuffle.generator.h4"]]
        assert e[0].to_bytes(16, "little").hex() == VECTORS["shuffle.proof.e0"]
    return int.from_bytes(final, "little") % order == v


def test_spec_shuffle_proof_verifies_from_the_spec_alone() -> None:
    joint = _h("joint_key")
    g = na.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    inputs = []
    for i in range(5):
        digest = hashlib.sha512(
            b"fairtable/card/v2" + _frame(TABLE, b"small", i.to_bytes(4, "big"))).digest()
        inputs.append(g + na.crypto_core_ristretto255_add(
            na.crypto_core_ristretto255_from_hash(digest), joint))
    out = _h("shuffle.output")
    outputs = [out[64 * j: 64 * j + 64] for j in range(5)]
    assert hashlib.sha256(out).hexdigest() == VECTORS["shuffle.output_sha256"]
    proof = _h("shuffle.proof")
    assert len(proof) == 128 * 5 + 160
    assert _spec_shuffle_verify(inputs, outputs, proof, joint, b"s1/0", 0, b"small")
    spoiled = proof[:-1] + bytes([proof[-1] ^ 1])
    assert not _spec_shuffle_verify(inputs, outputs, spoiled, joint, b"s1/0", 0, b"small")
    assert not _spec_shuffle_verify(inputs, outputs, proof, joint, b"s1/0", 1, b"small")
    # and the whole message, through the API
    msg = P.ShuffleStep("small", "s1/0", tuple(outputs), proof)
    assert hashlib.sha256(P.encode(msg)).hexdigest() == VECTORS["shuffle.message_sha256"]
    cards = [P.Ciphertext(c[:32], c[32:]) for c in inputs]
    P.verify_shuffle_step(TABLE, 0, msg, cards, joint)
