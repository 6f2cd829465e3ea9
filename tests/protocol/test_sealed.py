"""Sealed payloads: only the addressed seat can read them, in their place."""

from __future__ import annotations

import attrs
import nacl.public
import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.protocol import _sealed
from fairtable.protocol.crypto import NOTE_BLOCK, SEALED_BLOCK, BadPadding, pad, padded_size, unpad

from .helpers import OTHER_TABLE, TABLE, identity


def _seal(payload: bytes = b"the ace of cups") -> PW.Sealed:
    return PC.seal(
        identity(2).public, table=TABLE, sender=0, to_seat=2, purpose="spoils/1", payload=payload
    )


def test_recipient_opens_it() -> None:
    msg = P.decode_as(P.encode(_seal()), PW.Sealed)
    opened = PC.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=msg)
    assert opened == b"the ace of cups"
    assert b"ace" not in msg.box


def test_others_cannot_open_it() -> None:
    msg = _seal()
    with pytest.raises(PC.BadSealedPayload) as err:
        PC.unseal(identity(1), table=TABLE, sender=0, seat=2, msg=msg)
    assert err.value.seat == 0
    with pytest.raises(P.LocalProtocolError):  # not addressed to seat 1
        PC.unseal(identity(1), table=TABLE, sender=0, seat=1, msg=msg)


def test_a_copied_box_is_rejected() -> None:
    msg = _seal()
    places: tuple[tuple[bytes, int], ...] = (
        (TABLE, 1),  # seat 1 copied seat 0's box into its own feed
        (OTHER_TABLE, 0),  # replayed at another table
    )
    for table, sender in places:
        with pytest.raises(PC.BadSealedPayload):
            PC.unseal(identity(2), table=table, sender=sender, seat=2, msg=msg)
    with pytest.raises(PC.BadSealedPayload):  # relabelled for another purpose
        PC.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=attrs.evolve(msg, purpose="x"))


def test_tampered_box_is_rejected() -> None:
    msg = _seal()
    box = bytearray(msg.box)
    box[-1] ^= 1
    with pytest.raises(PC.BadSealedPayload):
        PC.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=attrs.evolve(msg, box=bytes(box)))
    with pytest.raises(PC.BadSealedPayload):
        PC.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=attrs.evolve(msg, box=b"short"))


def test_sealing_key_is_derived_from_the_identity() -> None:
    ident = identity(3)
    assert bytes(ident.unseal_key().public_key) == bytes(ident.public.seal_key())


def test_section_9_1_every_payload_within_a_block_makes_a_box_of_one_size() -> None:
    sizes = {len(P.encode(_seal(b"x" * n))) for n in (0, 1, 15, 300, SEALED_BLOCK - 4)}
    assert len(sizes) == 1
    assert len(_seal(b"x" * (SEALED_BLOCK - 3)).box) > len(_seal().box)  # the next block


def _sealed_inner(inner_payload: bytes) -> PW.Sealed:
    """A box whose plaintext after the header is ``inner_payload``, padded or not."""
    header = _sealed._header(TABLE, 0, 2, "spoils/1")
    box = nacl.public.SealedBox(identity(2).public.seal_key()).encrypt(header + inner_payload)
    return PW.Sealed(2, "spoils/1", bytes(box))


@pytest.mark.parametrize(
    "inner",
    [
        b"\x00\x00\x00\x03abc",  # not padded at all
        b"\xff" * 4 + b"abc" + bytes(SEALED_BLOCK - 7),  # declares more than it holds
        (SEALED_BLOCK).to_bytes(4, "big") + bytes(SEALED_BLOCK - 4),  # past the end
        (3).to_bytes(4, "big") + b"abc" + bytes(2 * SEALED_BLOCK - 7),  # a block too many
        (3).to_bytes(4, "big") + b"abc" + b"\x01" + bytes(SEALED_BLOCK - 8),  # non-zero padding
    ],
)
def test_section_9_1_a_badly_padded_payload_is_bad_sealed_naming_the_sender(inner: bytes) -> None:
    with pytest.raises(PC.BadSealedPayload, match="padd") as err:
        PC.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=_sealed_inner(inner))
    assert err.value.seat == 0
    good = (3).to_bytes(4, "big") + b"abc" + bytes(SEALED_BLOCK - 7)
    assert PC.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=_sealed_inner(good)) == b"abc"


@pytest.mark.parametrize("size", [0, 1, NOTE_BLOCK - 4, NOTE_BLOCK - 3, 3 * NOTE_BLOCK])
def test_section_9_1_padding_round_trips_in_whole_blocks(size: int) -> None:
    data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    padded = pad(data, NOTE_BLOCK)
    assert len(padded) == padded_size(size, NOTE_BLOCK)
    assert len(padded) % NOTE_BLOCK == 0 and len(padded) - NOTE_BLOCK < size + 4
    assert unpad(padded, NOTE_BLOCK) == data
    with pytest.raises(BadPadding):
        unpad(padded[:-1], NOTE_BLOCK)
