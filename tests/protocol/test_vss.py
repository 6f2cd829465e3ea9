"""Vanishing (docs/protocol.md §7.11): Feldman sharing of deck keys, complaints, recovery.

The survivors of a departure turn their pieces of the departed seat's key into exactly the
decryption share that seat would have sent -- checked here against the real deck code -- and
nobody short of the threshold can form it.
"""

from __future__ import annotations

import hashlib
import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.protocol.crypto import BadProof, InvalidPoint

TABLE = hashlib.sha256(b"vss test table").digest()
DECK = "main"


def _ident(seat: int) -> P.Identity:
    return P.Identity.from_seed(hashlib.sha256(b"vss seat %d" % seat).digest())


def _key(seat: int, salt: bytes = b"") -> PC.DeckKey:
    return PC.DeckKey.generate(entropy=hashlib.sha512(b"vss key %d" % seat + salt).digest())


@attrs.frozen
class Table:
    """``n`` seats, each dealt its deck key to all the others, every deal checked."""

    n: int
    idents: list[P.Identity]
    keys: list[PC.DeckKey]
    deals: list[PW.ShareDeal]
    pieces: dict[tuple[int, int], PC.KeyPiece]  # (dealer, holder) -> piece

    @classmethod
    def seated(cls, n: int) -> Table:
        idents = [_ident(s) for s in range(n)]
        keys = [_key(s) for s in range(n)]
        t = PC.table_threshold(n)
        deals = []
        for dealer in range(n):
            holders = {j: idents[j].public for j in PC.holders_of(dealer, n)}
            msg, _ = PC.deal(keys[dealer], TABLE, dealer, holders, t)
            deals.append(msg)
        pieces = {}
        for dealer, msg in enumerate(deals):
            PC.verify_deal(dealer, keys[dealer].public, PC.holders_of(dealer, n), t, msg)
            for j in PC.holders_of(dealer, n):
                piece = PC.open_share(idents[j], TABLE, dealer, j, msg)
                assert isinstance(piece, PC.KeyPiece)
                pieces[dealer, j] = piece
        return cls(n, idents, keys, deals, pieces)

    def joint(self) -> bytes:
        return PC.joint_key(k.public for k in self.keys)

    def deck(self, size: int = 12) -> dict[int, PC.Ciphertext]:
        book = PC.CardCodebook(TABLE, DECK, size)
        out, _ = PC.shuffle(PC.initial_deck(book, self.joint()), self.joint(), entropy=bytes(32))
        return dict(enumerate(out))

    def recover(
        self, departed: int, cards: dict[int, PC.Ciphertext], holders: list[int] | None = None
    ) -> dict[int, dict[int, bytes]]:
        """Every (or the named) holders' recovery shares, each checked as a peer would."""
        out = {}
        for j in PC.holders_of(departed, self.n) if holders is None else holders:
            msg = PC.recovery_shares(self.pieces[departed, j], TABLE, DECK, "draw/4", cards)
            public = PC.share_key(self.deals[departed].commitments, j)
            out[j] = PC.verify_recovery(TABLE, j, public, P.decode(P.encode(msg)), cards)
        return out


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_recovered_shares_are_the_departed_seats_decryption_shares(n: int) -> None:
    table = Table.seated(n)
    cards = table.deck()
    for departed in range(n):
        recovered = PC.combine(table.recover(departed, cards), PC.table_threshold(n))
        real = PC.decryption_shares(table.keys[departed], TABLE, departed, DECK, "draw/4", cards)
        assert recovered == {s.slot: s.share for s in real.shares}


def test_the_survivors_open_every_card_with_the_recovered_share() -> None:
    table = Table.seated(4)
    book = PC.CardCodebook(TABLE, DECK, 12)
    out, secret = PC.shuffle(PC.initial_deck(book, table.joint()), table.joint())
    cards = dict(enumerate(out))
    departed = 2
    recovered = PC.combine(table.recover(departed, cards), 3)
    for slot, ct in cards.items():
        shares = [recovered[slot]] + [
            PC.decryption_shares(table.keys[s], TABLE, s, DECK, "f", {slot: ct}).shares[0].share
            for s in range(4)
            if s != departed
        ]
        assert PC.reveal_card(book, ct, shares) == secret.permutation[slot]


@pytest.mark.parametrize("n", [0, 1, 2, 17])
def test_a_table_of_fewer_than_three_shares_nothing(n: int) -> None:
    with pytest.raises(P.LocalProtocolError):
        PC.table_threshold(n)


def _general(holders: list[int], t: int, salt: bytes) -> tuple[PC.DeckKey, PW.ShareDeal, dict]:
    key = _key(0, salt)
    msg, _ = PC.deal(key, TABLE, 0, {j: _ident(j).public for j in holders}, t)
    pieces = {j: PC.open_share(_ident(j), TABLE, 0, j, msg) for j in holders}
    return key, msg, pieces


@settings(max_examples=12, deadline=None)
@given(
    holders=st.lists(st.integers(1, 15), min_size=1, max_size=6, unique=True),
    threshold=st.data(),
    salt=st.binary(max_size=8),
)
def test_any_threshold_of_valid_shares_gives_the_one_result(
    holders: list[int], threshold: st.DataObject, salt: bytes
) -> None:
    t = threshold.draw(st.integers(1, len(holders)))
    key, msg, pieces = _general(holders, t, salt)
    ct = {0: Table.seated(3).deck(1)[0]}
    partials = {}
    for j, piece in pieces.items():
        assert isinstance(piece, PC.KeyPiece)
        rec = PC.recovery_shares(piece, TABLE, DECK, "s", ct)
        partials[j] = PC.verify_recovery(TABLE, j, PC.share_key(msg.commitments, j), rec, ct)
    truth = PC.mul(key.secret, ct[0].a)
    for subset in itertools.combinations(sorted(holders), t):
        assert PC.interpolate({j: partials[j] for j in subset}) == {0: truth}
    assert PC.combine(partials, t) == {0: truth}
    if t > 1:
        for subset in itertools.combinations(sorted(holders), t - 1):
            fewer = {j: partials[j] for j in subset}
            assert PC.interpolate(fewer) != {0: truth}  # t-1 pieces interpolate to noise
            with pytest.raises(P.LocalProtocolError):
                PC.combine(fewer, t)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(3, 6),
    data=st.data(),
    how=st.sampled_from(["other point", "other piece", "other departed", "proof bit"]),
)
def test_a_wrong_recovery_share_fails_its_proof_and_names_its_author(
    n: int, data: st.DataObject, how: str
) -> None:
    table = TABLES[n]
    departed = data.draw(st.integers(0, n - 1))
    liar = data.draw(st.sampled_from(PC.holders_of(departed, n)))
    cards = table.deck(3)
    piece = table.pieces[departed, liar]
    msg = PC.recovery_shares(piece, TABLE, DECK, "draw/4", cards)
    if how == "other point":
        bad = PW.Share(msg.shares[0].slot, PC.add(msg.shares[0].share, PC.BASE))
        msg = attrs.evolve(msg, shares=(bad, *msg.shares[1:]))
    elif how == "other piece":  # a piece of another dealer's key, proven honestly for it
        other = next(d for d in range(n) if d not in (departed, liar))
        msg = attrs.evolve(
            PC.recovery_shares(table.pieces[other, liar], TABLE, DECK, "draw/4", cards),
            departed=departed,
        )
    elif how == "other departed":  # honest shares for one departure replayed for another
        msg = attrs.evolve(msg, departed=(departed + 1) % n)
    else:
        msg = attrs.evolve(msg, proof=msg.proof[:40] + bytes([msg.proof[40] ^ 1]) + msg.proof[41:])
    public = PC.share_key(table.deals[departed].commitments, liar)
    with pytest.raises(BadProof) as caught:
        PC.verify_recovery(TABLE, liar, public, msg, cards)
    assert caught.value.seat == liar
    # the honest holders' shares still combine once the liar answers honestly
    assert PC.combine(table.recover(departed, cards), n - 1) == {
        s.slot: s.share
        for s in PC.decryption_shares(
            table.keys[departed], TABLE, departed, DECK, "x", cards
        ).shares
    }


TABLES = {n: Table.seated(n) for n in range(3, 7)}


def test_a_recovery_share_that_is_no_point_is_named() -> None:
    table, cards = TABLES[3], TABLES[3].deck(2)
    msg = PC.recovery_shares(table.pieces[0, 1], TABLE, DECK, "d", cards)
    msg = attrs.evolve(msg, shares=(PW.Share(0, b"\xff" * 32), msg.shares[1]))
    with pytest.raises(InvalidPoint) as caught:
        PC.verify_recovery(TABLE, 1, PC.share_key(table.deals[0].commitments, 1), msg, cards)
    assert caught.value.seat == 1


def test_recovery_shares_must_answer_the_request_and_cover_its_cards() -> None:
    table, cards = TABLES[4], TABLES[4].deck(3)
    msg = PC.recovery_shares(table.pieces[3, 0], TABLE, DECK, "d", cards, to_seat=1)
    public = PC.share_key(table.deals[3].commitments, 0)
    PC.verify_recovery(TABLE, 0, public, msg, cards, to_seat=1)
    for wrong in (
        {"to_seat": PW.JOINT},
        {"to_seat": 1, "refs": (PW.CardRef(2, "pool", 0),)},
    ):
        with pytest.raises(BadProof) as caught:
            PC.verify_recovery(TABLE, 0, public, msg, cards, **wrong)  # type: ignore[arg-type]
        assert caught.value.seat == 0
    fewer = {k: v for k, v in cards.items() if k != 2}
    with pytest.raises(BadProof):
        PC.verify_recovery(TABLE, 0, public, msg, fewer, to_seat=1)


# --------------------------------------------------------------------------- deals


def _deal(n: int = 4, dealer: int = 1) -> tuple[PW.ShareDeal, dict[int, bytes]]:
    holders = {j: _ident(j).public for j in PC.holders_of(dealer, n)}
    return PC.deal(_key(dealer), TABLE, dealer, holders, PC.table_threshold(n))


def test_a_deal_survives_the_wire_and_binds_the_dealers_deck_key() -> None:
    msg, shares = _deal()
    assert P.decode(P.encode(msg)) == msg
    assert msg.commitments[0] == _key(1).public
    assert [b.to_seat for b in msg.boxes] == [0, 2, 3]
    assert {len(b.box) for b in msg.boxes} == {PC.share_box_size()}
    for j, s in shares.items():
        assert PC.base_mul(s) == PC.share_key(msg.commitments, j)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda m: attrs.evolve(m, commitments=m.commitments[:2]), BadProof),
        (lambda m: attrs.evolve(m, commitments=(*m.commitments, PC.BASE)), BadProof),
        (lambda m: attrs.evolve(m, commitments=(PC.BASE, *m.commitments[1:])), BadProof),
        (lambda m: attrs.evolve(m, commitments=(*m.commitments[:2], b"\xff" * 32)), InvalidPoint),
        (lambda m: attrs.evolve(m, commitments=(*m.commitments[:2], bytes(32))), InvalidPoint),
        (lambda m: attrs.evolve(m, boxes=m.boxes[:2]), BadProof),
        (lambda m: attrs.evolve(m, boxes=m.boxes[::-1]), BadProof),
        (lambda m: attrs.evolve(m, boxes=(*m.boxes[:2], PW.ShareBox(1, m.boxes[2].box))), BadProof),
        (lambda m: attrs.evolve(m, boxes=(*m.boxes[:2], PW.ShareBox(3, b"short"))), BadProof),
    ],
)
def test_a_malformed_deal_names_its_dealer(change: object, error: type[Exception]) -> None:
    msg, _ = _deal()
    bad = change(msg)  # type: ignore[operator]
    with pytest.raises(error) as caught:
        PC.verify_deal(1, _key(1).public, (0, 2, 3), 3, bad)
    assert caught.value.seat == 1  # type: ignore[attr-defined]


def _with_box(msg: PW.ShareDeal, holder: int, payload: bytes, *, sender: int = 1) -> PW.ShareDeal:
    sealed = PC.seal(
        _ident(holder).public,
        table=TABLE,
        sender=sender,
        to_seat=holder,
        purpose="vss-share",
        payload=payload,
    )
    boxes = tuple(PW.ShareBox(holder, sealed.box) if b.to_seat == holder else b for b in msg.boxes)
    return attrs.evolve(msg, boxes=boxes)


@pytest.mark.parametrize(
    "payload_of",
    [
        lambda s: PC.scalar_add(s, (1).to_bytes(32, "little")),  # another scalar
        lambda s: s[:31],  # too short
        lambda s: b"\xff" * 32,  # not canonical
        lambda s: bytes(32),  # zero
    ],
)
def test_a_share_that_does_not_match_gives_a_complaint_the_dealer_must_answer(
    payload_of: object,
) -> None:
    msg, shares = _deal()
    bad = _with_box(msg, 2, payload_of(shares[2]))  # type: ignore[operator]
    PC.verify_deal(1, _key(1).public, (0, 2, 3), 3, bad)  # nobody else can see the fault
    complaint = PC.open_share(_ident(2), TABLE, 1, 2, bad)
    assert complaint == PW.ShareComplaint(1, PC.deal_digest(TABLE, 1, bad))
    assert isinstance(PC.open_share(_ident(0), TABLE, 1, 0, bad), PC.KeyPiece)
    # the honest answer settles it: the piece is public and right
    answer = P.decode(P.encode(PC.answer_complaint(shares, 2)))
    piece = PC.verify_answer(1, bad.commitments, answer)
    assert piece == PC.KeyPiece(1, 2, shares[2], PC.share_key(bad.commitments, 2))
    # a wrong answer names the dealer
    for share in (payload_of(shares[2]), b"\xff" * 32, bytes(32)):  # type: ignore[operator]
        if len(share) != 32:
            continue
        with pytest.raises(BadProof) as caught:
            PC.verify_answer(1, bad.commitments, PW.ShareAnswer(2, share))
        assert caught.value.seat == 1


def test_a_box_sealed_by_another_seat_or_for_another_holder_gives_a_complaint() -> None:
    msg, shares = _deal()
    copied = _with_box(msg, 2, shares[2], sender=0)  # a box of seat 0's, pasted in
    assert isinstance(PC.open_share(_ident(2), TABLE, 1, 2, copied), PW.ShareComplaint)
    swapped = attrs.evolve(
        msg, boxes=(msg.boxes[0], PW.ShareBox(2, msg.boxes[0].box), msg.boxes[2])
    )
    assert isinstance(PC.open_share(_ident(2), TABLE, 1, 2, swapped), PW.ShareComplaint)


def test_a_complaint_names_the_exact_deal() -> None:
    msg, _ = _deal()
    other, _ = _deal()  # fresh coefficients and boxes
    assert PC.deal_digest(TABLE, 1, msg) != PC.deal_digest(TABLE, 1, other)
    assert PC.deal_digest(TABLE, 1, msg) != PC.deal_digest(TABLE, 2, msg)


def test_fixed_entropy_deals_the_same_shares_again() -> None:
    holders = {j: _ident(j).public for j in (0, 2, 3)}
    one = PC.deal(_key(1), TABLE, 1, holders, 3, entropy=b"\x05" * 32)
    two = PC.deal(_key(1), TABLE, 1, holders, 3, entropy=b"\x05" * 32)
    assert one[0].commitments == two[0].commitments and one[1] == two[1]
    assert one[0].boxes != two[0].boxes  # each box has its own ephemeral key


def test_a_bad_local_request_is_refused() -> None:
    holders = {j: _ident(j).public for j in (0, 2)}
    for t in (0, 3):
        with pytest.raises(P.LocalProtocolError):
            PC.deal(_key(1), TABLE, 1, holders, t)
    with pytest.raises(P.LocalProtocolError):
        PC.deal(_key(1), TABLE, 1, {**holders, 1: _ident(1).public}, 2)
    msg, shares = _deal()
    with pytest.raises(P.LocalProtocolError):
        PC.answer_complaint(shares, 1)
    with pytest.raises(P.LocalProtocolError):
        PC.open_share(_ident(1), TABLE, 1, 1, msg)
    with pytest.raises(P.LocalProtocolError):
        PC.lagrange_at_zero([])


# --------------------------------------------------------------------------- hostile input

_TYPED = (BadProof, InvalidPoint)


@settings(max_examples=40, deadline=None)
@given(
    commitments=st.lists(st.binary(min_size=32, max_size=32), max_size=4),
    boxes=st.lists(st.tuples(st.integers(0, 15), st.binary(max_size=1200)), max_size=4),
    keep=st.integers(0, 3),
)
def test_any_deal_from_a_peer_is_taken_or_refused_with_a_typed_error(
    commitments: list[bytes], boxes: list[tuple[int, bytes]], keep: int
) -> None:
    """A peer's deal, however made, gives the dealer's verdict, a piece or a complaint: never
    another exception, and never a piece that does not fit the commitments."""
    msg, _ = _deal()
    hostile = PW.ShareDeal(
        tuple(msg.commitments[:keep]) + tuple(commitments),
        tuple(msg.boxes[:keep]) + tuple(PW.ShareBox(j, b) for j, b in boxes),
    )
    try:
        PC.verify_deal(1, _key(1).public, (0, 2, 3), 3, hostile)
    except _TYPED as exc:
        assert exc.seat in (1, None)
        return
    for holder in (0, 2, 3):
        got = PC.open_share(_ident(holder), TABLE, 1, holder, hostile)
        if isinstance(got, PC.KeyPiece):
            assert PC.base_mul(got.secret) == PC.share_key(hostile.commitments, holder)


@settings(max_examples=40, deadline=None)
@given(
    shares=st.lists(st.tuples(st.integers(0, 3), st.binary(min_size=32, max_size=32)), max_size=4),
    proof=st.binary(min_size=64, max_size=64),
    departed=st.integers(0, 15),
    answer=st.binary(min_size=32, max_size=32),
)
def test_any_recovery_or_answer_from_a_peer_is_refused_with_a_typed_error_naming_it(
    shares: list[tuple[int, bytes]], proof: bytes, departed: int, answer: bytes
) -> None:
    table, cards = TABLES[4], TABLES[4].deck(3)
    msg = PW.RecoveryShares(departed, DECK, "d", tuple(PW.Share(s, r) for s, r in shares), proof)
    public = PC.share_key(table.deals[3].commitments, 0)
    with pytest.raises(_TYPED) as caught:
        PC.verify_recovery(TABLE, 0, public, msg, cards)
    assert caught.value.seat == 0
    with pytest.raises(BadProof) as named:
        PC.verify_answer(3, table.deals[3].commitments, PW.ShareAnswer(0, answer))
    assert named.value.seat == 3


@settings(max_examples=20, deadline=None)
@given(junk=st.binary(min_size=1153, max_size=1153))
def test_a_box_of_the_right_size_holding_junk_gives_a_complaint(junk: bytes) -> None:
    msg, _ = _deal()
    hostile = attrs.evolve(msg, boxes=(msg.boxes[0], PW.ShareBox(2, junk), msg.boxes[2]))
    PC.verify_deal(1, _key(1).public, (0, 2, 3), 3, hostile)
    assert PC.open_share(_ident(2), TABLE, 1, 2, hostile) == PW.ShareComplaint(
        1, PC.deal_digest(TABLE, 1, hostile)
    )
