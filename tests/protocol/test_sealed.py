"""Sealed payloads: only the addressed seat can read them, in their place."""

from __future__ import annotations

import attrs
import pytest

import protocol as P

from .helpers import OTHER_TABLE, TABLE, identity


def _seal(payload: bytes = b"the ace of cups") -> P.Sealed:
    return P.seal(
        identity(2).public, table=TABLE, sender=0, to_seat=2, purpose="spoils/1", payload=payload
    )


def test_recipient_opens_it() -> None:
    msg = P.decode_as(P.encode(_seal()), P.Sealed)
    opened = P.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=msg)
    assert opened == b"the ace of cups"
    assert b"ace" not in msg.box


def test_others_cannot_open_it() -> None:
    msg = _seal()
    with pytest.raises(P.BadSealedPayload) as err:
        P.unseal(identity(1), table=TABLE, sender=0, seat=2, msg=msg)
    assert err.value.seat == 0
    with pytest.raises(P.LocalProtocolError):  # not addressed to seat 1
        P.unseal(identity(1), table=TABLE, sender=0, seat=1, msg=msg)


def test_a_copied_box_is_rejected() -> None:
    msg = _seal()
    for kwargs in (
        {"table": TABLE, "sender": 1},  # seat 1 copied seat 0's box into its own feed
        {"table": OTHER_TABLE, "sender": 0},  # replayed at another table
    ):
        with pytest.raises(P.BadSealedPayload):
            P.unseal(identity(2), seat=2, msg=msg, **kwargs)
    with pytest.raises(P.BadSealedPayload):  # relabelled for another purpose
        P.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=attrs.evolve(msg, purpose="x"))


def test_tampered_box_is_rejected() -> None:
    msg = _seal()
    box = bytearray(msg.box)
    box[-1] ^= 1
    with pytest.raises(P.BadSealedPayload):
        P.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=attrs.evolve(msg, box=bytes(box)))
    with pytest.raises(P.BadSealedPayload):
        P.unseal(identity(2), table=TABLE, sender=0, seat=2, msg=attrs.evolve(msg, box=b"short"))


def test_sealing_key_is_derived_from_the_identity() -> None:
    ident = identity(3)
    assert bytes(ident.unseal_key().public_key) == bytes(ident.public.seal_key())
