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
from typing import Any

import nacl.secret
import nacl.signing
import pytest
import rbcl as na

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.crypto import NOTE_BLOCK, BadPadding, unpad

from . import spec_crypto, spec_log, spec_vanish
from .make_vectors import compute

SPEC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

VECTORS = {
    "table": "4c05f71badc19f773802a903912c3835786f8df13b157e171ec231620566d9bd",
    "identity.seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "identity.public_key": "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
    "identity.fingerprint": "56475aa75463474c0285df5dbf2bcab73da651358839e9b77481b2eab107708c",
    "identity.x25519_public": "4701d08488451f545a409fb58ae3e58581ca40ac3f7f114698cd71deac73ca01",
    "commit.digest": "2f04c6dbcba17047ee2fbfa94fbe4892534a6214142724a0ebe305a5ae50e710",
    "commit.message": '{"digest":"LwTG28uhcEfuL7-pT75IklNKYhQUJySg6-MFpa5Q5xA","purpose":"bid:round-1","type":"commit","v":10}',
    "reveal.message": '{"nonce":"QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI","payload":"Mw","purpose":"bid:round-1","type":"reveal","v":10}',
    "entry0.header": '{"body_hash":"BCqFNiFtVgpmtSSzSfrSHhemuL-1YCt7IRjoY6pzSwM","prev":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","seat":0,"seq":0,"table":"TAX3G63Bn3c4AqkDkSw4NXhvjfE7FX4XHsIxYgVm2b0","type":"entry-header","v":10}',
    "entry0.sig": "460ab80236e59a17bd5978918d83b32ba1812f0396817b4a262ee6a0f7f882a7216052f6058ed3efe18fcacf901f5c8891dbd2d4114c9be050c16fcd21c7cd0c",
    "entry0.id": "f9d841a3b84b4025349bbe1c6658921004f48d15f763d292868d592effb5c430",
    "entry0.frame": '{"body":"eyJkaWdlc3QiOiJMd1RHMjh1aGNFZnVMNy1wVDc1SWtsTktZaFFVSnlTZzYtTUZwYTVRNXhBIiwicHVycG9zZSI6ImJpZDpyb3VuZC0xIiwidHlwZSI6ImNvbW1pdCIsInYiOjEwfQ","prev":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","seat":0,"seq":0,"sig":"Rgq4Ajblmhe9WXiRjYOzK6GBLwOWgXtKJi7moPf4gqchYFL2BY7T7-GPys-QH1yIkdvS1BFMm-BQwW_NIcfNDA","table":"TAX3G63Bn3c4AqkDkSw4NXhvjfE7FX4XHsIxYgVm2b0","type":"entry","v":10}',
    "entry1.prev": "f9d841a3b84b4025349bbe1c6658921004f48d15f763d292868d592effb5c430",
    "entry1.id": "9220c08a3453f5baf71cdd11da787cd09b93ffb6f635e7d03785918114ddb8e5",
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
    "shuffle.generator.Q": "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "shuffle.generator.h": "bc1c85e814a4a774e45698db29541e277342e1c9d3ea79a2b9d72de56b16bd2d",
    "shuffle.generator.h0": "4e1638f5e22374678d77fb46ec3d7c7324d98a5192ef78bbf87a0e13d2e1b351",
    "shuffle.generator.h4": "88fc39df5693b3482c23572671121061bbc982b4b858c3ae55aa4e1810132d29",
    "shuffle.proof.statement": "d434f93ef555655beb64b4737f4c196f973b7a6285ccc7dfd448a4646c7341bdd160d41637046635462a0820350389b1029544c18ff78caa633ba4bb670c0229",
    "shuffle.proof.challenge_seed": "7aa5817461c9e1d1276d960c5cd58610c5aa080277930a46afbed19235575077678592507004e5a4450fa8af77358add74009edb3da74a552be0cb667d055f99",
    "shuffle.proof.e0": "0263a639cfc98a9567f39e062709a15c",
    "shuffle.output": "504ec15d641d985981d6be24b64d03c584b8bfee7c1f33bd4004f62a4ab62d5098b3fc8fa8d1dd05617a18257684c96aa642a97f873047e992a52979c032243078bff3556aeb754c9acd61307fbafbf9d64e92d817932f509bdbed785d690263d40303acbbdc9366899a5a4a8e56d22d69cbc55b8541e62e2e244b8c8534513ea22e4f56ae925be3e7aaf652ca7d7d6bca2da0eb1e97ac97410996de0010ae66549fa18ffcb6c4bce6a3473f31540603949c1caab7e821254d44fc00436b952d00c5b679182559e5b5617b6112ddecf20b8b39a0753e444e09c03d97428e9854e2800b9d4842c5a76cf3bc20a396e5b388c1dde41fb813307764048994e4ce6b74206995a272c4f753d453539793972cf1054e2855ac450e989ad0ab3160ec32bc2fc7032b832c0d349d701dc6642427e5beed8a5e9fbf311c5cbd301300c164",
    "shuffle.proof": "84210ad2ce14fb0f4d7fce60d2e7c5667efc047dd3e90fc7c63ebab828a4c93a141ed5a5209421c2f59cdb47556f62e291771f55995ec72bec7a3b7a1af2ec136a4999e7585577dd16c91700549133f1d8868c8f583180af92b18aeba350c256903ff1dd3fc6c32c5a2ccc541ec1532ad4adec0d14cfc0649ebf4de65b4a2a2a98595fa101def03316a1f85c132ba6779c098f0d589300ecb3a38c8a2abc743e9cde3f49eefbb00f3fe67da0a4f64d1b77a5883be96beac7d6ad6bcce4d10149aefb065eb40dcd72ebe9f26fa21a5f626a47fc9ef31ed9567fe85d5eb79fdd37a87fde672294da8000e59212970677497878ca28f77622b5215cb8d52d20fb2f58428f4f82ef4c57f30e58a4ba8dfcfc3ff22d1093d41528431448a68a9c94534088105f54b9f6ce8435055fd7c71b9a403d1615a409ba4765eb37a4cace85149f20184ae3a991c3cd8f3b6f298dc8739010e113e0a596b4dee9b286a9c530038b8dc8e5e5c1058d5ac0cc5fe8d397401cbfba3239ab0d81887a7cdb8ed40d08b632c2946a29532b6e94706ff9e1b4a338be09b28298ab5714ed533b41bf7e0ba78ce7a12e9ae048f1f7736f48109801f78f0efa185e8af7433e549ff2f1e904858ec5cefd9bce5b41864483bc3b79f10947163bf35ea212cf301fc69701300554b57b1360c98c6c1adce2b64ee295e1048469a91ffba662179d6d3b5046420612e06ea995a847528635316a17606e0db2e485a47c792a6a415a28febcd6180daefbc51fd7dbdde460f09eb8ea173c39898e0881cac4d1f6846c92a4c030da094f5446d91dabf6a00a6a22f2363ea9eed88d69677198f40a27c3293f6dcc100e97f79dac1699c92e574d05a711b1df7d6f09cfacf91fa0b24e2afd501455ba000ec456fd7dc8d05d9ad2c6a7ba1aa64a6a8bd9f1d8cce4bc30fea9b6e4be0f00102a6773552711f5ebeef78a9e19e8fccf67d712fed6b305888521c2a1700f0736f8cd028a65eb52977bb22b88138a91f4ba6345edd5db904622f1178cfcc40547a0c0b557f99f741026a5d5a6de2524d04b16b9cd071c0f2ce51c1d6e51240416912874ae5216513ff9d6338457f794423782a11519d0f73d99df460d77a007",
    "shuffle.message_sha256": "77a6febbe6685aebda998a087b4f2f6c32808eeea7b638f428854f2d1e834779",
    "handover.held": "48356fb71c59435ebef1b80462c8b5aa9794d34daba58948ccd38b5a2738172aa00c61975afd67ed7830799d0f8bb73d6d75f4de602535526dfc1d349806d03a",
    "handover.card": "de86be9d4eb5028d1eed32bbcaa3047be8b90fe7bacc4591338cebb4c44ebc061efe3b94bcfaf9b9f86dca06f857114882ba2faf54c5d58b04d27f5348e9d309",
    "handover.proof": "60631241cc65ca8fb26e1f9bb78389b59ee6b008aff7f8ccfa2c8f20b4950f012d92ccab7ebf6918f6e0e1b985750c8b576bb6ddc4f6dedf673fa1cd86b56b04256c01f4363b6fbd6e9778d993d12c203a0cdb5919de196a6c8a6858b7fce00b",
    "deckkey1.secret": "d1152c2f66536687b3e51268efc8fd8b27aa3ab0d18e73d4b23fab0a9773b602",
    "deckkey2.public": "4829dba1eb35402ce8b9bb9489bfee9778ff2a94ecc857a850ed0a0706743d7c",
    "leave.joint_key": "00fff0c6d30ef2d1e9527fb9e1cd392a93c457efe4890cbdd0fc01358ab53d78",
    "leave.card": "8ade0fb123967b2e79de280675d976c2a84c2ca163b4795932afef43f59d463fda55ed58175496535a6b284ae053adffa292b61201b48c3815442918fd8eca58",
    "leave.share.d": "709269209e4fedbc478a76b14fa3abe23e5be5cca0a67cbaf856c86f5dbd3829",
    "leave.share.proof": "764ba26c12b22c343d42299f42087b5fe5530819707f5c060e77825cf96c4609c476061d16810e0cd068c9629bf3a4be0a8063c386b31b4c18ce72b222488000",
    "leave.shares_sha256": "a4cf4a8b21776567524e54aab0f043aad657cc3f86c6d217d44d787d60b859ee",
    "leave.message": '{"step":7,"type":"leave","v":10}',
    "leave.stripped": "8ade0fb123967b2e79de280675d976c2a84c2ca163b4795932afef43f59d463f7675f53be024b48ab466c168b320729c4c816d7f007c86dc0dd10287c9d14155",
    "leave.survivors_key": "72dee6e2c96f09bbdb3ffd834b49e40c07b3ddd9e5bc360592f35f45becd0867",
    "sealed.header": "666169727461626c652f7365616c65642f763100000000204c05f71badc19f773802a903912c3835786f8df13b157e171ec231620566d9bd0000000200000000000200020000000873706f696c732f31",
    "sealed.inner_sha256": "40c70a62a8f6f23af5d332639b9eb47955cd8f541a4af26150991b12a8ce9783",
    "note.key": "cc145f0659c16f56ce99925b90dabb6b7094f3ff53136227e129033eecaa2628",
    "note.padded_sha256": "5df065b3dfe0f4d6af21d2f63e23930d0a58728c7b65b1d0eb2447e976816247",
    "note.message_sha256": "6fa551a8dc765745b8cffa4bf3f9f3c3d22387c9e283d21fe03b8d42e615da9a",
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
    log = PC.FeedLog(TABLE, {0: P.PublicIdentity(_h("identity.public_key"))})
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
    msg = PW.DecryptShares("main", "draw/1", (PW.Share(0, d),), proof)
    PC.verify_shares(TABLE, 0, y, msg, {0: PC.Ciphertext(a, ct[32:])})


def test_spec_key_share_and_hand_over_verify() -> None:
    y0, y1 = _h("deckkey0.public"), _h("deckkey1.public")
    PC.verify_key_share(TABLE, 0, PW.KeyShare(y0, _h("deckkey0.share_proof")))
    held = _h("handover.held")
    msg = PW.HandOver(
        "main", "spoils/1", 1, (PW.HandOverItem(0, _h("handover.card"), _h("handover.proof")),)
    )
    PC.verify_hand_over(TABLE, 0, y0, y1, msg, {0: PC.Ciphertext(held[:32], held[32:])})


def test_spec_sealed_header() -> None:
    expected = b"fairtable/sealed/v1\x00" + _frame(
        TABLE, (0).to_bytes(2, "big"), (2).to_bytes(2, "big"), b"spoils/1"
    )
    assert expected.hex() == VECTORS["sealed.header"]


def _spec_pad(data: bytes, block: int) -> bytes:
    """§9.1 from the text: u32 length, the data, zero bytes up to whole blocks (at least one)."""
    size = block
    while size < 4 + len(data):
        size += block
    return len(data).to_bytes(4, "big") + data + bytes(size - 4 - len(data))


def _spec_unpad(padded: bytes, block: int) -> bytes | None:
    """§9.1's checks on opening, from the text: None where the spec says reject."""
    if len(padded) == 0 or len(padded) % block:
        return None
    n = int.from_bytes(padded[:4], "big")
    if n > len(padded) - 4 or _spec_pad(padded[4 : 4 + n], block) != padded:
        return None
    return padded[4 : 4 + n]


def test_spec_padded_note_and_sealed_payload() -> None:
    header = bytes.fromhex(VECTORS["sealed.header"])
    inner = header + _spec_pad(b"the ace of cups", 1024)
    assert hashlib.sha256(inner).hexdigest() == VECTORS["sealed.inner_sha256"]
    decision = b'{"cards":["r-1-iron-legion"],"count":1,"seat":0,"type":"Bid"}'
    padded = _spec_pad(decision, 1024)
    assert len(padded) == 1024
    assert hashlib.sha256(padded).hexdigest() == VECTORS["note.padded_sha256"]
    box = nacl.secret.SecretBox(_h("note.key")).encrypt(padded, b"\x0b" * 24)
    note = {
        "box": base64.urlsafe_b64encode(bytes(box)).rstrip(b"=").decode(),
        "step": 4,
        "type": "note",
        "v": P.PROTOCOL_VERSION,
    }
    message = json.dumps(note, sort_keys=True, separators=(",", ":")).encode()
    assert hashlib.sha256(message).hexdigest() == VECTORS["note.message_sha256"]
    opened = nacl.secret.SecretBox(_h("note.key")).decrypt(bytes(box))
    assert _spec_unpad(opened, 1024) == decision
    # the spec's rejections, and the API's typed error for each
    for bad in (
        opened[:-1],
        opened + bytes(1024),
        opened[:-1] + b"\x01",
        (5000).to_bytes(4, "big") + opened[4:],
        decision,
    ):
        assert _spec_unpad(bad, 1024) is None
        with pytest.raises(BadPadding):
            unpad(bad, NOTE_BLOCK)


def _spec_shuffle_verify(
    inputs: list[bytes],
    outputs: list[bytes],
    proof: bytes,
    key: bytes,
    step: bytes,
    seat: int,
    deck: bytes,
) -> bool:
    """The §8.5 verifier written from the spec text alone (``spec_log``: hashlib, libsodium)."""
    seen: dict[str, Any] = {}
    ok = spec_crypto.shuffle_verify(TABLE, inputs, outputs, proof, key, step, seat, deck, seen)
    if seat == 0 and seen:  # the vectors' own statement
        q, h, hs = seen["generators"]
        assert seen["statement"].hex() == VECTORS["shuffle.proof.statement"]
        assert seen["seed"].hex() == VECTORS["shuffle.proof.challenge_seed"]
        assert [q.hex(), h.hex(), hs[0].hex(), hs[4].hex()] == [
            VECTORS["shuffle.generator.Q"],
            VECTORS["shuffle.generator.h"],
            VECTORS["shuffle.generator.h0"],
            VECTORS["shuffle.generator.h4"],
        ]
        assert seen["e"][0].to_bytes(16, "little").hex() == VECTORS["shuffle.proof.e0"]
    return ok


def test_spec_shuffle_proof_verifies_from_the_spec_alone() -> None:
    joint = _h("joint_key")
    g = na.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    inputs = []
    for i in range(5):
        digest = hashlib.sha512(
            b"fairtable/card/v2" + _frame(TABLE, b"small", i.to_bytes(4, "big"))
        ).digest()
        inputs.append(
            g
            + na.crypto_core_ristretto255_add(na.crypto_core_ristretto255_from_hash(digest), joint)
        )
    out = _h("shuffle.output")
    outputs = [out[64 * j : 64 * j + 64] for j in range(5)]
    assert hashlib.sha256(out).hexdigest() == VECTORS["shuffle.output_sha256"]
    proof = _h("shuffle.proof")
    assert len(proof) == 128 * 5 + 160
    assert _spec_shuffle_verify(inputs, outputs, proof, joint, b"s1/0", 0, b"small")
    spoiled = proof[:-1] + bytes([proof[-1] ^ 1])
    assert not _spec_shuffle_verify(inputs, outputs, spoiled, joint, b"s1/0", 0, b"small")
    assert not _spec_shuffle_verify(inputs, outputs, proof, joint, b"s1/0", 1, b"small")
    # and the whole message, through the API
    msg = PW.ShuffleStep("small", "s1/0", tuple(outputs), proof)
    assert hashlib.sha256(P.encode(msg)).hexdigest() == VECTORS["shuffle.message_sha256"]
    cards = [PC.Ciphertext(c[:32], c[32:]) for c in inputs]
    PC.verify_shuffle_step(TABLE, 0, msg, cards, joint)


# -- a whole log, checked from the spec alone (tests/protocol/spec_log.py imports nothing of ours)


def _log(
    game: str,
    players: int,
    seed: int,
    session_class: type[P.TableSession] = P.TableSession,
    cheater: int = 0,
) -> str:
    from fairtable.client.games import bots_for
    from fairtable.engine.games import rules

    spec, sessions = PT.make_table(
        players,
        seed,
        game=game,
        session_class=session_class,
        round_limit=rules(game).default_round_limit,
        cheaters=[cheater],
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(players)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    honest = sessions[1 - cheater]
    return P.write_log(spec, honest.entries()).decode()


def test_spec_log_verifier_imports_nothing_of_ours() -> None:
    imported = set()
    for module in (spec_log, spec_crypto, spec_vanish):
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        imported |= {
            line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))
        }
    assert {name.split(".")[0] for name in imported} - {""} <= {
        "__future__",
        "base64",
        "hashlib",
        "json",
        "re",
        "collections",
        "typing",
        "nacl",
        "rbcl",
    }
    assert {name for name in imported if name.startswith(".")} == {".spec_crypto", ".spec_vanish"}


def test_spec_alone_checks_every_pool_re_mix_and_its_shares_in_a_reign_log() -> None:
    checked = spec_log.verify_log(_log("reign", 3, 1))
    assert checked["re-mix steps"] and checked["pooled cards"] and checked["hand-over cards"]
    assert checked["deck shuffle steps"] == 6 and checked["key shares"] == 3
    assert checked["shares parts"] and checked["public cards"] and checked["commitments opened"]


@pytest.mark.parametrize(("seed", "leaver", "at"), [(0, 1, 3), (3, 0, 1)])
def test_spec_alone_checks_a_reign_log_where_a_seat_left(seed: int, leaver: int, at: int) -> None:
    """§11.10 from the text alone: the leaving seat's shares cover exactly the face-down deck
    cards and strip its layer; the later shuffles, deals and pools are the other seats'."""
    from fairtable.client.games import bots_for

    spec, sessions = PT.make_table(4, seed, game="reign", round_limit=60)
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(4)]
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        departures={leaver: at},
    )
    survivor = sessions[(leaver + 1) % 4]
    assert survivor.finished is not None and survivor.game.departed == (leaver,)
    checked = spec_log.verify_log(P.write_log(spec, survivor.entries()).decode())
    assert checked["cards stripped"] > 0 and checked["shares parts"] and checked["public cards"]


def test_spec_alone_checks_every_re_handle_and_peek_in_a_sovereign_log() -> None:
    checked = spec_log.verify_log(_log("sovereign", 2, 2))
    assert checked["re-handles"] and checked["hand-over cards"] and checked["shares parts"]


@pytest.mark.parametrize(
    ("liar", "failure"),
    [
        ("_LyingRemix", "^seat 1: names other cards of pool"),
        ("_LyingPoolShares", "^seat 1: names other cards of pool"),
        ("_LyingPlacer", "^pool.*(places are not|two cards at place)"),  # not pinned on a seat
    ],
)
def test_spec_alone_finds_a_part_that_names_other_pool_cards(liar: str, failure: str) -> None:
    from . import test_named_inputs

    log = _log("reign", 5, 7, getattr(test_named_inputs, liar), cheater=1)
    with pytest.raises(spec_log.SpecFailure, match=failure):
        spec_log.verify_log(log)


def test_spec_alone_names_the_seat_whose_re_handle_names_other_cards() -> None:
    from .test_named_inputs import _LyingRehandle

    with pytest.raises(spec_log.SpecFailure, match="^seat 0: re-handle proof"):
        spec_log.verify_log(_log("sovereign", 2, 2, _LyingRehandle, cheater=0))


def test_spec_alone_refuses_a_tampered_log() -> None:
    lines = _log("reign", 3, 1).splitlines()
    entry = json.loads(lines[5])
    entry["seq"] += 1
    lines[5] = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    with pytest.raises(spec_log.SpecFailure):
        spec_log.verify_log("\n".join(lines))
