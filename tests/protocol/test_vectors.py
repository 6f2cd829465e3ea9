# ruff: noqa: E501 -- pasted test vectors are long lines
"""Test vectors: fixed keys and nonces give exactly these bytes (also in docs/protocol.md).

The values were produced by ``python -m tests.protocol.make_vectors`` and pasted
here and into the spec.  Besides recomputing them through the API, several are
recomputed from the spec text alone with hashlib/PyNaCl, to keep the spec honest.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import nacl.bindings as na
import nacl.signing
import pytest

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
    "commit.message": "{\"digest\":\"LwTG28uhcEfuL7-pT75IklNKYhQUJySg6-MFpa5Q5xA\",\"purpose\":\"bid:round-1\",\"type\":\"commit\",\"v\":5}",
    "reveal.message": "{\"nonce\":\"QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI\",\"payload\":\"Mw\",\"purpose\":\"bid:round-1\",\"type\":\"reveal\",\"v\":5}",
    "entry0.header": "{\"body_hash\":\"OaUBhlDSmqe32W3osvhwf6_hnwViKAsgmhJ57WE-Vlw\",\"prev\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"seat\":0,\"seq\":0,\"table\":\"TAX3G63Bn3c4AqkDkSw4NXhvjfE7FX4XHsIxYgVm2b0\",\"type\":\"entry-header\",\"v\":5}",
    "entry0.sig": "f9c7b14875aee0b4bf14503e2bef06f522beb3650b34687e34aceef1bf4241a4031c08d4897daa241dffb055434e4044a8a77bedac968a5ce81ffd36ab3de002",
    "entry0.id": "45f0e133baad56827ef561c7bc2636216a4384cbbadb48b3afe66c3d898e93cb",
    "entry0.frame": "{\"body\":\"eyJkaWdlc3QiOiJMd1RHMjh1aGNFZnVMNy1wVDc1SWtsTktZaFFVSnlTZzYtTUZwYTVRNXhBIiwicHVycG9zZSI6ImJpZDpyb3VuZC0xIiwidHlwZSI6ImNvbW1pdCIsInYiOjV9\",\"prev\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\"seat\":0,\"seq\":0,\"sig\":\"-cexSHWu4LS_FFA-K-8G9SK-s2ULNGh-NKzu8b9CQaQDHAjUiX2qJB3_sFVDTkBEqKd77ayWilzoH_02qz3gAg\",\"table\":\"TAX3G63Bn3c4AqkDkSw4NXhvjfE7FX4XHsIxYgVm2b0\",\"type\":\"entry\",\"v\":5}",
    "entry1.prev": "45f0e133baad56827ef561c7bc2636216a4384cbbadb48b3afe66c3d898e93cb",
    "entry1.id": "a6fe16173162d39c28ee1532f35e364005a78ed2674ab329b3d791f38190c6fa",
    "chance.seed": "f2c1840b4468816267cafdd1f30e9794074710c067da3fbeb1f170a8c1769ecc",
    "chance.dice": "6 3 3 4 3",
    "chance.permutation10": "8 4 7 9 6 1 5 3 2 0",
    "card.main.0": "e8fd76ce3a40fe0fa3d29d5c1627ad576ed162d1e4a22279660b795dc4ff7670",
    "card.main.101": "73ed87f2d9ebed1137ea92b452bb0181a72b4c57049be631741bc7e3771dea25",
    "deckkey0.secret": "0fec181d4019df2f52c96774b4986e1d198fde62f55bcf3127636dabeb7a1e02",
    "deckkey0.public": "ea1b320609fb5040a20b001b7303e4b9b7be3d415829cade66acbf2a4d0ff35b",
    "deckkey1.public": "683bb0225f9c16a818fd044707158cc1efa6442993ee627b6a318a6c5a4c154f",
    "deckkey0.share_proof": "b6b4c2a1b3a0a3f1651682dccad75f319d0d1b4d98b52d562927aa5bc7798e08bd68f005bbb8ddf5598f8eebc7140038739c30fdb239d2176400442362805503",
    "joint_key": "bfb7e1dc44ea3bbc3056b48768d24a4ff9139841c1f86a1e0bce67c03257ebc7",
    "initial.0": "58666666666666666666666666666666666666666666666666666666666666662a5d34848b0fa3b02bf728434c5b2251ce8b0ad54553e1cb581c10d7b001938d",
    "rerandomise.r": "53f3a44d670389eeaee975a6fd3b76fd04335e30b6396d1f60ae61ac93c80d0b",
    "rerandomise.0": "d0ca77492048f955ce1c71796fd167c0ac5e0651dcc816bc9538e8ecca2a63bbd98aafe5440bc4ecac8c271c28d3c12ea62edc90606d06b5896d84b2efe420c8",
    "share.d": "6048dfbe1179a2769f402941354843713f53ab3a2c34e28390f21ee1794e2fd0",
    "share.proof": "62f557bc5d938cd45e8dcf5bf837d2d0dc00e74e1a46f285b6809fef6e64f30abd5ce9baa0c87a80ed7957364862d5dbe5109398ecbeb5033ba7b7e29c98a503",
    "shuffle.permutation": "0 2 3 4 1",
    "shuffle.output_sha256": "6b981bdc77fe6ca0b0df1502a6506dfd6af4736a192fd49157b38287529ed74d",
    "shuffle.generator.Q": "ed06389c42dc4f04245a0deae0140c1639be4cd252553efa01244c5cf8ec3321",
    "shuffle.generator.h": "c5a9693ba56d3bb1004ea40f3dc6650e913aa818a91f0e6edd9143eaccb86831",
    "shuffle.generator.h0": "982f0de9a7f68c943d1f388b036980c57f46196cc9409306eb8642bc938836e0",
    "shuffle.generator.h4": "3d77c60be3b105f7f8cbfea311c9c989c400fe7ba1c7fd3a9d5c88e76b7c9e81",
    "shuffle.proof.statement": "652eb40ad285b42d85427b5809423b4f4ae46607f67c2b0b8eece7b64005a1b9ce5a24bc93338775d80a138cad3421b8e34727326d801eeb739faddc38fc72b1",
    "shuffle.proof.challenge_seed": "700e0f7481040ca4e9a5cb924bc00dfb35b23bfa8accc45ddfcb7638d7c62c739262bffd1854d747ba9e5fa3e6fd0908e855c9bef1988dfd83de382cb598a4b4",
    "shuffle.proof.e0": "95e2fe1c843b244f8a0c41bc575fa648",
    "shuffle.output": "3ee7029279137ec312a4ac9345d8b9b095eaf2f248792eae786cea52750b80969bd3935c69f1ff037373f453e7413c3c23ac4e639d5861fc2dd60d119ee996edc475f1d5fe7fb292126850eb09b5cae24f1c3386d628ef120d1976a61bce70469a58713af014ace2b2b7131f052f956eaf7b92a2a076395c349a8655a2d9c6119eca54738a0b698bae179d08c68e4741e715cfe980e4c89b43d6f8c2641d5d6a8fa603ffbc4208211382824448947c971e85478d7f39647b5c33944f6edf9c58bf6fd48d821fa36e0625d8847a81539ac435d45c47ba160db939b94e098155264185910ea20d328d6091033cf384ca8b0b4b32be6ee62cb13411846528862a4e91ac60768b1548b54e92fee13ee7ffd683eb71cd248184f4b21ca7a65812413fe17d85ed707d1041046728bec550a430827529a6cdfc5cf99d294573972b6e19",
    "shuffle.proof": "13aaa16ed41d14caa1162c2d4465e4c254300cf4ea421b7052e4a27fa5a52cb772b94c3e90867f1857203fca8110a02fdad487edbab6a7315be3b78a95d0610844ea036cc689ce286475e76209e0ee92f086d12992caa08113e8f1fd037b9d96973f1357db6c7e32c4fd51715cdeba736e066555b36281e702adfc9dbb5991f214d5cc9710b6bf5850bd97e634faf7ef7ffaeebbca5328fb2dde5773c88169312c0b51facdf0c9a368ebd05c425ff67b197b702609ef14f2de226987aa0566940cdb51afcd26c47111dd063b8525e96ef53b8fba0dce9aa493e9465b308d31bd7a51824707eba0bb6bac2ff809927c6771044b7dbfdeeb0db1357877601a13c9e0d93d82f0054374930f0f4833b28264c65972437a33599737dbb2c12de004c5fe5d5cf1b86fb0d6a2a34052f2c2f9d615159bc4b66e1b0cfdb521a7fb5d7af10640f2fbc614c7cf37e15df50e70f9b2cb386d4c960e1c3d0096b348620cbe032ffb2dbff948d36157e84d9dacd69bdc6dce5cdd44b010af7b8a461bd7d41a0a6ea5b84d7b1ea42540344a1ea4a36efbb194f8d4bbc3cf5aee8e56f44a6264043f9607e58b192f5e93aa550def799e18dc2d3133702941b4614c6e8744c0650e16b113b3bc1b6b9a937cc77d41479f235f1ad981cf76f2536997c1935c1e950120051ed2ee366811bb6379aeb23046858979c7a2f7fee1917634afc76894bf08e07396616ae29d76d59c230602989ab17c5bed0a5ce250a42f186cf22bbfdc051d3636a87b434090aebe14cda059e386db9d4ccba649d3ff19290a79983adc0017c3974a771ba02237f203c5447ef501720bd25576e357f9805c6e20c7224c0388b2bbc5967e1554fffac05fb6846790115f637f5ab2eb7be3807a8487293b0227ea8dd609c75a1f47f258979fb6b4f451029e2c7b51a4c01d9daeba01afb008769989eb778794fa2bde5ede9b7aca0c53cafa74abbec7ae6602d37cd4bd550d0c80b2c0ab2f61ad35a48fde575e0b165e2912ac40ffe81514264ebb467ea708559ebf327d46720afc42ade659df309d5d660ab5e1fd1ebeda52152066a8b40b16776933f72ce9fcce5ef7f420d661e1a83d6c167d50b28a2166266a91329105",
    "shuffle.message_sha256": "581fa84febea5b53c09d022031e49ff95ca23f7593d7cf5c9878bd193b4caf1b",
    "handover.held": "817ee5327e8cfd40a0424cc3da1404fd18f2043fab9db89cef7e9231a5de635a455c8f3a08b3b1ef25b98e7858d2913f8082408cacaeed398475c9609c01cc6d",
    "handover.card": "b203355106d127cafdc248c3e032428bdb0e492a0880af3966c5c4815e9940e191a8e5f30faa82e5467ed664e1a3e54c27353abdb54d42fd82188e5d077f012e",
    "handover.proof": "1c8579a09e904720e5d8530dc06fc922173fd0a878d3bbebcc4ee252a3e9cb074cccfc1be523552b9b55276708b1c5078f0aeab24acf838e7985e7edc7a5230ed1ce39d2f24d0140c13fd320424c2ababdb8543caded4b5bd806fc99692f9a04",
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
    digest = hashlib.sha256(
        b"fairtable/card/v1" + _frame(TABLE, b"main", (0).to_bytes(4, "big"))
    ).digest()
    point = na.crypto_core_ed25519_from_uniform(digest)
    assert point.hex() == VECTORS["card.main.0"]
    joint = na.crypto_core_ed25519_add(_h("deckkey0.public"), _h("deckkey1.public"))
    assert joint.hex() == VECTORS["joint_key"]
    base = na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
    assert (base + na.crypto_core_ed25519_add(point, joint)).hex() == VECTORS["initial.0"]


def test_spec_dleq_proof() -> None:
    ct = _h("rerandomise.0")
    a, d, proof, y = ct[:32], _h("share.d"), _h("share.proof"), _h("deckkey0.public")
    x = _h("deckkey0.secret")
    assert na.crypto_scalarmult_ed25519_noclamp(x, a) == d
    c, z = proof[:32], proof[32:]
    g = na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
    t1 = na.crypto_core_ed25519_sub(
        na.crypto_scalarmult_ed25519_base_noclamp(z), na.crypto_scalarmult_ed25519_noclamp(c, y)
    )
    t2 = na.crypto_core_ed25519_sub(
        na.crypto_scalarmult_ed25519_noclamp(z, a), na.crypto_scalarmult_ed25519_noclamp(c, d)
    )
    # one card: ctx (slot 0), the number of cards, G, Y, then (u32 slot, A, D) per card
    ctx = (TABLE, b"draw/1", (0).to_bytes(2, "big"), (0).to_bytes(4, "big"))
    statement = (*ctx, (1).to_bytes(4, "big"), g, y, (0).to_bytes(4, "big"), a, d)
    wide = hashlib.sha512(b"fairtable/proof/dleq/v2" + _frame(*statement, t1, t2)).digest()
    assert na.crypto_core_ed25519_scalar_reduce(wide) == c
    # the prover's hedged nonce with the fixed entropy
    nonce = hashlib.sha512(
        b"fairtable/proof/nonce/v1" + _frame(x, b"\x08" * 32, *statement)
    ).digest()
    k = na.crypto_core_ed25519_scalar_reduce(nonce)
    assert na.crypto_scalarmult_ed25519_base_noclamp(k) == t1
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
        digest = hashlib.sha256(b"fairtable/proof/shuffle/v1/generator" + _frame(*label))
        return na.crypto_core_ed25519_from_uniform(digest.digest())

    def mul(x: int, p: bytes) -> bytes:
        return na.crypto_scalarmult_ed25519_noclamp(sc(x), p)

    def total(points: list[bytes]) -> bytes:
        out = points[0]
        for p in points[1:]:
            out = na.crypto_core_ed25519_add(out, p)
        return out

    def neg(p: bytes) -> bytes:
        return na.crypto_core_ed25519_sub(mul(1, p), na.crypto_core_ed25519_add(p, p))

    g = na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
    q, h, hs = gen(b"commit"), gen(b"chain"), [gen(b"h", j.to_bytes(4, "big")) for j in range(n)]
    a = [c[:32] for c in inputs] + [c[:32] for c in outputs]
    b = [c[32:] for c in inputs] + [c[32:] for c in outputs]
    pairs = [x for i in range(2 * n) for x in (a[i], b[i])]
    statement = hashlib.sha512(b"fairtable/proof/shuffle/v1/statement" + _frame(
        TABLE, step, seat.to_bytes(2, "big"), (0).to_bytes(4, "big"), deck, n.to_bytes(4, "big"),
        g, q, h, key, *pairs)).digest()
    u = [proof[32 * i: 32 * i + 32] for i in range(n)]
    chain = [proof[32 * (n + i): 32 * (n + i) + 32] for i in range(n)]
    scalars = [int.from_bytes(proof[64 * n + 32 * i: 64 * n + 32 * i + 32], "little")
               for i in range(2 * n + 5)]
    v, r_a, r_c, r_d, r_f = scalars[:5]
    r_b, r_e = scalars[5: 5 + n], scalars[5 + n:]
    seed = hashlib.sha512(b"fairtable/proof/shuffle/v1/challenges" + _frame(statement, *u)).digest()
    e = [int.from_bytes(hashlib.sha512(b"fairtable/proof/shuffle/v1/challenge" + _frame(
        seed, i.to_bytes(4, "big"))).digest()[:16], "little") for i in range(n)]
    prod = 1
    for x in e:
        prod = prod * x % order
    big_a = total([mul(x, p) for x, p in zip(e, u, strict=True)])
    big_c = na.crypto_core_ed25519_sub(total(u), total(hs))
    big_d = na.crypto_core_ed25519_sub(chain[-1], mul(prod, h))
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
    final = hashlib.sha512(b"fairtable/proof/shuffle/v1/final" + _frame(seed, *chain, *t)).digest()
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
    g = na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
    inputs = []
    for i in range(5):
        digest = hashlib.sha256(
            b"fairtable/card/v1" + _frame(TABLE, b"small", i.to_bytes(4, "big"))).digest()
        inputs.append(g + na.crypto_core_ed25519_add(na.crypto_core_ed25519_from_uniform(digest),
                                                     joint))
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
