"""A seat's book of vanishing (protocol/_vanishing.py, docs/protocol.md §7.11): deals taken,
complaints settled or blamed, and a departed seat's shares recovered, over encoded messages."""

from __future__ import annotations

import hashlib

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.protocol.crypto import BadProof

TABLE = hashlib.sha256(b"vanishing test table").digest()
N = 4


def _wire(msg: object) -> object:
    return P.decode(P.encode(msg))


def _seats() -> tuple[list[P.Identity], list[PC.DeckKey], list[PC.KeyEscrow]]:
    ids = [P.Identity.from_seed(bytes([s + 1]) * 32) for s in range(N)]
    keys = [PC.DeckKey.generate(entropy=bytes([s + 9]) * 64) for s in range(N)]
    publics = [k.public for k in keys]
    books = [PC.KeyEscrow(TABLE, s, ids[s], [i.public for i in ids], publics) for s in range(N)]
    return ids, keys, books


def _deals(keys: list[PC.DeckKey], books: list[PC.KeyEscrow]) -> list[PW.ShareDeal]:
    return [b.our_deal(keys[s], entropy=bytes([s]) * 32) for s, b in enumerate(books)]


def _exchange(books: list[PC.KeyEscrow], deals: list[PW.ShareDeal]) -> dict[int, object]:
    complaints = {}
    for seat, book in enumerate(books):
        for dealer, msg in enumerate(deals):
            if dealer != seat:
                got = book.take_deal(dealer, _wire(msg))  # type: ignore[arg-type]
                if got is not None:
                    complaints[seat] = got
    return complaints


def test_honest_seats_settle_every_deal_without_a_word_more() -> None:
    _, keys, books = _seats()
    assert _exchange(books, _deals(keys, books)) == {}
    assert all(b.settled() for b in books)


def test_a_complaint_is_settled_by_the_dealers_answer() -> None:
    ids, keys, books = _seats()
    deals = _deals(keys, books)
    bad = PC.seal(
        ids[2].public,
        table=TABLE,
        sender=1,
        to_seat=2,
        purpose="vss-share",
        payload=b"\x01" + bytes(31),
    )
    deals[1] = attrs.evolve(
        deals[1],
        boxes=tuple(PW.ShareBox(2, bad.box) if b.to_seat == 2 else b for b in deals[1].boxes),
    )
    complaints = _exchange(books, deals)
    assert list(complaints) == [2] and not books[2].settled()
    # the cheating dealer (seat 1) answers with the share it should have sealed
    holders = {j: ids[j].public for j in (0, 2, 3)}
    share = PC.deal(keys[1], TABLE, 1, holders, 3, entropy=bytes([1]) * 32)[1][2]
    answer = PW.ShareAnswer(2, share)
    for book in (books[0], books[2], books[3]):
        if book.seat != 2:
            assert book.take_complaint(2, _wire(complaints[2])) is None  # type: ignore[arg-type]
        book.take_answer(1, _wire(answer))  # type: ignore[arg-type]
    assert all(b.settled() for b in (books[0], books[2], books[3]))


def test_a_wrong_answer_names_the_dealer_and_a_stray_complaint_its_author() -> None:
    ids, keys, books = _seats()
    deals = _deals(keys, books)
    _exchange(books, deals)
    wrong_digest = PW.ShareComplaint(1, bytes(32))
    with pytest.raises(BadProof) as stray:
        books[0].take_complaint(2, wrong_digest)
    assert stray.value.seat == 2
    with pytest.raises(BadProof) as self_complaint:
        books[0].take_complaint(1, PW.ShareComplaint(1, PC.deal_digest(TABLE, 1, deals[1])))
    assert self_complaint.value.seat == 1
    with pytest.raises(BadProof) as unasked:
        books[0].take_answer(1, PW.ShareAnswer(2, bytes(32)))
    assert unasked.value.seat == 1
    complaint = PW.ShareComplaint(1, PC.deal_digest(TABLE, 1, deals[1]))
    books[0].take_complaint(2, complaint)
    with pytest.raises(BadProof) as wrong:
        books[0].take_answer(1, PW.ShareAnswer(2, (5).to_bytes(32, "little")))
    assert wrong.value.seat == 1


def test_after_a_vanishing_each_survivor_recovers_the_departed_seats_shares() -> None:
    _, keys, books = _seats()
    _exchange(books, _deals(keys, books))
    joint = PC.joint_key(k.public for k in keys)
    book = PC.CardCodebook(TABLE, "main", 8)
    out, secret = PC.shuffle(PC.initial_deck(book, joint), joint)
    cards = dict(enumerate(out))
    departed = 3
    survivors = [b for b in books if b.seat != departed]
    msgs = {b.seat: b.our_recovery(departed, "main", "s7/open", cards) for b in survivors}
    real = PC.decryption_shares(keys[departed], TABLE, departed, "main", "x", cards)
    for me in survivors:
        results = [
            me.take_recovery(j, _wire(m), cards)  # type: ignore[arg-type]
            for j, m in msgs.items()
            if j != me.seat
        ]
        assert results[:-1] == [None] * (len(results) - 1)
        assert results[-1] == {s.slot: s.share for s in real.shares}
        recovered = results[-1]
        for slot, ct in cards.items():
            others = [
                PC.decryption_shares(keys[s], TABLE, s, "main", "f", {slot: ct}).shares[0].share
                for s in range(N)
                if s != departed
            ]
            assert PC.reveal_card(book, ct, [recovered[slot], *others]) == secret.permutation[slot]


def test_recovery_shares_from_a_seat_holding_no_piece_name_it() -> None:
    _, keys, books = _seats()
    _exchange(books, _deals(keys, books))
    cards = {0: PC.initial_deck(PC.CardCodebook(TABLE, "main", 1), keys[0].public)[0]}
    msg = books[1].our_recovery(3, "main", "s", cards)
    with pytest.raises(BadProof) as caught:
        books[0].take_recovery(1, attrs.evolve(msg, departed=1), cards)
    assert caught.value.seat == 1
    with pytest.raises(P.LocalProtocolError):
        books[3].our_recovery(3, "main", "s", cards)


def test_the_honest_dealer_answers_a_complaint_at_once() -> None:
    _, keys, books = _seats()
    deals = _deals(keys, books)
    _exchange(books, deals)
    complaint = PW.ShareComplaint(1, PC.deal_digest(TABLE, 1, deals[1]))
    answer = books[1].take_complaint(3, complaint)
    assert answer is not None and answer.complainer == 3
    assert books[0].take_complaint(3, complaint) is None and not books[0].settled()
    books[0].take_answer(1, answer)
    assert books[0].settled() and books[1].settled()


def test_two_decks_recovered_at_one_step_are_combined_apart() -> None:
    _, keys, books = _seats()
    _exchange(books, _deals(keys, books))
    joint = PC.joint_key(k.public for k in keys)
    decks = {
        name: dict(enumerate(PC.initial_deck(PC.CardCodebook(TABLE, name, 3), joint)))
        for name in ("military", "event")
    }
    survivors = [b for b in books if b.seat != 0]
    sent = {
        (b.seat, name): b.our_recovery(0, name, "s4/vanish", cards)
        for b in survivors
        for name, cards in decks.items()
    }
    me = survivors[0]
    for name, cards in decks.items():
        got = [me.take_recovery(j, sent[j, name], cards) for j in (2, 3)]
        real = PC.decryption_shares(keys[0], TABLE, 0, name, "x", cards)
        assert got == [None, {s.slot: s.share for s in real.shares}]
