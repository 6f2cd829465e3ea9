"""Mental-poker decks: key shares, shuffles, draws, reveals, re-mix, hand-over, audit."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
import rbcl

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW

from .helpers import OTHER_TABLE, TABLE, deck_key, seed, wide

DECK = "main"
# What a peer can send instead of a group element (ristretto255 has no small-order points):
IDENTITY = bytes(32)  # the identity's encoding: libsodium calls it valid, the group refuses it
NON_CANONICAL = (2**255 - 19).to_bytes(32, "little")  # s = p: the identity again, non-reduced
NEGATIVE = (1).to_bytes(32, "little")  # s odd ("negative"): never a canonical encoding
NOT_ON_GROUP = b"\xff" * 31 + b"\x7f"  # s >= p
ED25519_BASE = bytes.fromhex("58" + "66" * 31)  # an ed25519 point: no ristretto encoding
INVALID = [IDENTITY, NON_CANONICAL, NEGATIVE, NOT_ON_GROUP, ED25519_BASE]


def negated(point: bytes) -> bytes:
    """``point``'s encoding with the sign bit of ``s`` flipped: always invalid."""
    return bytes([point[0] ^ 1]) + point[1:]


def high_bit(point: bytes) -> bytes:
    """``point``'s encoding with the unused top bit set: libsodium decodes it as ``point``."""
    return point[:31] + bytes([point[31] | 0x80])


class Table:
    """``n`` seats with deck keys, a joint key and a codebook of ``size`` cards."""

    def __init__(self, n: int, size: int) -> None:
        self.n = n
        self.keys = [deck_key(i) for i in range(n)]
        shares = [k.key_share(TABLE, i, entropy=seed(f"ks{i}")) for i, k in enumerate(self.keys)]
        self.pub = [PC.verify_key_share(TABLE, i, m) for i, m in enumerate(shares)]
        self.joint = PC.joint_key(self.pub)
        self.codebook = PC.CardCodebook(TABLE, DECK, size)

    def shuffle_all(self, start: list[PC.Ciphertext] | None = None, label: str = "shuffle"):
        """Every seat shuffles in turn (over the wire); returns final deck and the steps."""
        deck = PC.initial_deck(self.codebook, self.joint) if start is None else start
        steps = []
        for seat in range(self.n):
            msg, out, secret = PC.shuffle_step(
                DECK,
                f"{label}/{seat}",
                deck,
                self.joint,
                table=TABLE,
                seat=seat,
                entropy=seed(f"{label}/{seat}"),
            )
            wire = P.decode_as(P.encode(msg), PW.ShuffleStep)
            received = PC.verify_shuffle_step(TABLE, seat, wire, deck, self.joint)
            assert received == out
            steps.append((deck, received, secret))
            deck = received
        return deck, steps

    def shares(self, seat: int, cards: dict[int, PC.Ciphertext], step: str) -> dict[int, bytes]:
        """Seat ``seat`` makes shares, they cross the wire, a peer verifies them."""
        msg = PC.decryption_shares(self.keys[seat], TABLE, seat, DECK, step, cards)
        wire = P.decode_as(P.encode(msg), PW.DecryptShares)
        return PC.verify_shares(TABLE, seat, self.pub[seat], wire, cards)

    def private_draw(self, ct: PC.Ciphertext, slot: int, drawer: int) -> PC.Ciphertext:
        """Every other seat's shares: the public held ciphertext under the drawer's key."""
        others = [
            self.shares(s, {slot: ct}, f"draw/{slot}")[slot] for s in range(self.n) if s != drawer
        ]
        return PC.strip_shares(ct, others)

    def public_reveal(self, ct: PC.Ciphertext, slot: int, holders: list[int]) -> int:
        ds = [self.shares(s, {slot: ct}, f"reveal/{slot}")[slot] for s in holders]
        return PC.reveal_card(self.codebook, ct, ds)


def test_full_three_seat_game_recovers_the_card_set() -> None:
    table = Table(3, 102)
    deck, _ = table.shuffle_all()
    assert len({c.a for c in deck}) == 102
    seen = []
    for slot in range(30):  # private draws, 10 per seat
        drawer = slot % 3
        held = table.private_draw(deck[slot], slot, drawer)
        card = table.codebook.index(PC.open_held(table.keys[drawer], held))
        for other in set(range(3)) - {drawer}:  # the others cannot open it
            with pytest.raises(PC.UnknownCard):
                table.codebook.index(PC.open_held(table.keys[other], held))
        # later the drawer shows it: its own share alone finishes the public decryption
        assert table.public_reveal(held, slot, [drawer]) == card
        seen.append(card)
    # the remaining cards are revealed publicly with every seat's share, batched per seat
    rest = {slot: deck[slot] for slot in range(30, 102)}
    batches = [table.shares(s, rest, "reveal-rest") for s in range(3)]
    for slot, ct in rest.items():
        seen.append(PC.reveal_card(table.codebook, ct, [b[slot] for b in batches]))
    assert sorted(seen) == list(range(102))
    assert seen[:30] != sorted(seen[:30])  # shuffled


def test_shuffle_is_deterministic_given_entropy_and_reorders() -> None:
    table = Table(2, 20)
    deck = PC.initial_deck(table.codebook, table.joint)
    out1, s1 = PC.shuffle(deck, table.joint, entropy=seed("e"))
    out2, s2 = PC.shuffle(deck, table.joint, entropy=seed("e"))
    out3, _ = PC.shuffle(deck, table.joint, entropy=seed("f"))
    assert out1 == out2 and s1 == s2 and out1 != out3
    assert sorted(s1.permutation) == list(range(20)) and s1.permutation != tuple(range(20))
    PC.verify_shuffle_opening(deck, out1, table.joint, s1.opening(DECK, "s"), seat=0)


# ------------------------------------------------------------------ key shares


def test_key_share_proofs_bind_seat_and_table() -> None:
    key = deck_key(0)
    share = key.key_share(TABLE, 0)
    assert PC.verify_key_share(TABLE, 0, share) == key.public
    with pytest.raises(PC.BadProof) as err:
        PC.verify_key_share(TABLE, 1, share)  # replayed as seat 1's
    assert err.value.seat == 1
    with pytest.raises(PC.BadProof):
        PC.verify_key_share(OTHER_TABLE, 0, share)


def test_rogue_key_without_knowledge_is_rejected() -> None:
    # Seat 2 wants H = its chosen point by publishing Y2 = T - Y0 - Y1 (log unknown).
    y0, y1 = deck_key(0).public, deck_key(1).public
    target = PC.hash_to_point(b"attacker", b"t")
    rogue = PC.sub(PC.sub(target, y0), y1)
    stolen = deck_key(2).key_share(TABLE, 2)
    with pytest.raises(PC.BadProof) as err:
        PC.verify_key_share(TABLE, 2, PW.KeyShare(rogue, stolen.proof))
    assert err.value.seat == 2


@pytest.mark.parametrize("point", INVALID)
def test_key_share_rejects_invalid_points(point: bytes) -> None:
    with pytest.raises(P.InvalidPoint) as err:
        PC.verify_key_share(TABLE, 1, PW.KeyShare(point, bytes(64)))
    assert err.value.seat == 1


# ------------------------------------------------------------------ decryption shares


@pytest.fixture(scope="module")
def small() -> tuple[Table, list[PC.Ciphertext]]:
    table = Table(3, 10)
    deck, _ = table.shuffle_all()
    return table, deck


def _share_msg(table: Table, seat: int, cards: dict[int, PC.Ciphertext]) -> PW.DecryptShares:
    return PC.decryption_shares(table.keys[seat], TABLE, seat, DECK, "draw/x", cards)


def _edit_share(msg: PW.DecryptShares, **changes: object) -> PW.DecryptShares:
    return attrs.evolve(msg, shares=(attrs.evolve(msg.shares[0], **changes), *msg.shares[1:]))


def test_bad_dleq_proof_names_the_prover(small) -> None:
    table, deck = small
    msg = _share_msg(table, 1, {0: deck[0]})
    proof = bytearray(msg.proof)
    proof[40] ^= 1
    with pytest.raises(PC.BadProof) as err:
        PC.verify_shares(
            TABLE, 1, table.pub[1], attrs.evolve(msg, proof=bytes(proof)), {0: deck[0]}
        )
    assert err.value.seat == 1 and err.value.kind == "bad-proof"
    not_canonical = msg.proof[:32] + b"\xff" * 32
    with pytest.raises(PC.BadProof):
        PC.verify_shares(
            TABLE, 1, table.pub[1], attrs.evolve(msg, proof=not_canonical), {0: deck[0]}
        )


def test_wrong_share_is_rejected(small) -> None:
    table, deck = small
    msg = _share_msg(table, 2, {0: deck[0]})
    wrong = PC.add(msg.shares[0].share, PC.BASE)  # valid point, wrong value
    with pytest.raises(PC.BadProof) as err:
        PC.verify_shares(TABLE, 2, table.pub[2], _edit_share(msg, share=wrong), {0: deck[0]})
    assert err.value.seat == 2
    # seat 2 using another seat's proof, or a share made with a different key
    other = _share_msg(table, 0, {0: deck[0]})
    with pytest.raises(PC.BadProof):
        PC.verify_shares(TABLE, 2, table.pub[2], other, {0: deck[0]})


def test_proof_is_bound_to_slot_step_and_card(small) -> None:
    table, deck = small
    msg = _share_msg(table, 1, {0: deck[0]})
    with pytest.raises(PC.BadProof):  # claimed for another slot
        PC.verify_shares(TABLE, 1, table.pub[1], _edit_share(msg, slot=1), {1: deck[0]})
    with pytest.raises(PC.BadProof):  # another step label
        PC.verify_shares(TABLE, 1, table.pub[1], attrs.evolve(msg, step="draw/y"), {0: deck[0]})
    with pytest.raises(PC.BadProof):  # another card
        PC.verify_shares(TABLE, 1, table.pub[1], msg, {0: deck[1]})
    with pytest.raises(PC.BadProof):  # another table
        PC.verify_shares(OTHER_TABLE, 1, table.pub[1], msg, {0: deck[0]})


@pytest.mark.parametrize("point", INVALID)
def test_invalid_share_point_is_rejected(small, point: bytes) -> None:
    table, deck = small
    msg = _share_msg(table, 1, {0: deck[0]})
    with pytest.raises(P.InvalidPoint) as err:
        PC.verify_shares(TABLE, 1, table.pub[1], _edit_share(msg, share=point), {0: deck[0]})
    assert err.value.seat == 1


@pytest.mark.parametrize("spoil", [negated, high_bit])
def test_a_spoiled_share_fails_even_with_a_proof_made_for_it(small, spoil) -> None:
    # verify_shares validates a share only after its proof fails: the proof's own check
    # must refuse every encoding that is not a canonical group element -- including the
    # top-bit twin libsodium would decode as the honest share
    table, deck = small
    key, a = table.keys[1], deck[0].a
    tagged = spoil(PC.mul(key.secret, a))
    ctx = PC.ProofContext(TABLE, "reveal/0", 1)
    proof = PC.prove_shares(key.secret, key.public, [(0, a, tagged)], ctx)
    with pytest.raises(PC.BadProof):
        PC.verify_shares_proof(key.public, [(0, a, tagged)], proof, ctx)
    msg = PW.DecryptShares(DECK, "reveal/0", (PW.Share(0, tagged),), proof)
    with pytest.raises(P.InvalidPoint) as err:
        PC.verify_shares(TABLE, 1, key.public, msg, {0: deck[0]})
    assert err.value.seat == 1


def test_one_proof_covers_every_share_of_a_message(small) -> None:
    # one nonce and one challenge for all the cards: changing, moving or re-using any one
    # share breaks the proof of the whole message
    table, deck = small
    cards = {0: deck[0], 1: deck[1], 2: deck[2]}
    msg = _share_msg(table, 1, cards)
    assert len(msg.proof) == 64 and len(msg.shares) == 3
    assert PC.verify_shares(TABLE, 1, table.pub[1], msg, cards) == {
        slot: PC.mul(table.keys[1].secret, ct.a) for slot, ct in cards.items()
    }
    for index in range(3):
        one = msg.shares[index]
        wrong = attrs.evolve(one, share=PC.add(one.share, PC.BASE))
        changed = (*msg.shares[:index], wrong, *msg.shares[index + 1 :])
        with pytest.raises(PC.BadProof):
            PC.verify_shares(TABLE, 1, table.pub[1], attrs.evolve(msg, shares=changed), cards)
    a, b, c = msg.shares
    swapped = (attrs.evolve(a, share=b.share), attrs.evolve(b, share=a.share), c)
    with pytest.raises(PC.BadProof):
        PC.verify_shares(TABLE, 1, table.pub[1], attrs.evolve(msg, shares=swapped), cards)
    partial = _share_msg(table, 1, {0: deck[0], 1: deck[1]})  # another message's proof
    with pytest.raises(PC.BadProof):
        PC.verify_shares(TABLE, 1, table.pub[1], attrs.evolve(msg, proof=partial.proof), cards)


def test_shares_must_cover_exactly_the_requested_slots(small) -> None:
    table, deck = small
    msg = _share_msg(table, 0, {0: deck[0], 1: deck[1]})
    assert set(PC.verify_shares(TABLE, 0, table.pub[0], msg, {0: deck[0], 1: deck[1]})) == {0, 1}
    with pytest.raises(PC.BadProof):
        PC.verify_shares(TABLE, 0, table.pub[0], msg, {0: deck[0]})
    with pytest.raises(PC.BadProof):
        PC.verify_shares(TABLE, 0, table.pub[0], msg, {0: deck[0], 1: deck[1], 2: deck[2]})
    doubled = attrs.evolve(msg, shares=(msg.shares[0], msg.shares[0]))
    with pytest.raises(PC.BadProof):
        PC.verify_shares(TABLE, 0, table.pub[0], doubled, {0: deck[0], 1: deck[1]})


@pytest.mark.parametrize("point", INVALID)
def test_invalid_points_in_a_shuffle_name_the_shuffler(small, point: bytes) -> None:
    _, deck = small
    cards = [c.to_bytes() for c in deck]
    cards[3] = cards[3][:32] + point
    with pytest.raises(P.InvalidPoint) as err:
        PC.parse_cards(cards, seat=2)
    assert err.value.seat == 2
    cards[3] = point + deck[3].b
    with pytest.raises(P.InvalidPoint):
        PC.parse_cards(cards, seat=2)


@pytest.mark.parametrize("spoil", [negated, high_bit])
def test_a_second_encoding_of_a_card_is_rejected(small, spoil) -> None:
    # A card's point re-encoded (sign flipped, or the top bit libsodium ignores set) would
    # let a shuffler tag a card through later shuffles, or make one card two byte strings.
    _, deck = small
    tagged = spoil(deck[0].a)
    assert not PC.is_valid_point(tagged)
    with pytest.raises(P.InvalidPoint):
        PC.Ciphertext.parse(tagged + deck[0].b, seat=1)


def test_the_group_refuses_what_libsodium_alone_accepts(small) -> None:
    # the two traps the group's own checks close: the identity and the top-bit twin
    _, deck = small
    twin = high_bit(deck[0].a)
    assert rbcl.crypto_core_ristretto255_is_valid_point(IDENTITY)
    assert rbcl.crypto_core_ristretto255_is_valid_point(twin)
    two = (2).to_bytes(32, "little")
    assert rbcl.crypto_scalarmult_ristretto255(two, twin) == PC.mul(two, deck[0].a)
    assert not PC.is_valid_point(IDENTITY)
    assert not PC.is_valid_point(twin)
    assert PC.is_valid_point(deck[0].a)


# ------------------------------------------------------------------ audit openings


@pytest.mark.parametrize("secret_known", [False, True], ids=["key", "opened-key"])
def test_shuffle_openings_verify_and_catch_cheats(secret_known: bool) -> None:
    # at the audit every deck key is open, and the check multiplies the base point instead
    table = Table(3, 12)
    x = None
    if secret_known:
        x = table.keys[0].secret
        for key in table.keys[1:]:
            x = PC.scalar_add(x, key.secret)
        assert PC.base_mul(x) == table.joint
    deck, steps = table.shuffle_all()
    for seat, (before, after, secret) in enumerate(steps):
        opening = P.decode_as(P.encode(secret.opening(DECK, f"shuffle/{seat}")), PW.ShuffleOpening)
        PC.verify_shuffle_opening(before, after, table.joint, opening, seat=seat, key_secret=x)
    before, after, secret = steps[1]
    # a wrong randomiser, a wrong permutation, the wrong output
    bad_r = attrs.evolve(secret, randomisers=(secret.randomisers[1], *secret.randomisers[1:]))
    swapped = (secret.permutation[1], secret.permutation[0], *secret.permutation[2:])
    bad_p = attrs.evolve(secret, permutation=swapped)
    for opening, out in [(bad_r, after), (bad_p, after), (secret, steps[2][1])]:
        with pytest.raises(PC.BadShuffle) as err:
            PC.verify_shuffle_opening(before, out, table.joint, opening, seat=1, key_secret=x)
        assert err.value.seat == 1
    zero = attrs.evolve(secret, randomisers=(bytes(32), *secret.randomisers[1:]))
    with pytest.raises(PC.BadShuffle):
        PC.verify_shuffle_opening(before, after, table.joint, zero, seat=1, key_secret=x)


def test_shuffle_that_duplicates_a_card_fails_its_opening() -> None:
    table = Table(3, 12)
    deck = PC.initial_deck(table.codebook, table.joint)
    # Seat 1 cheats: card 0 appears twice and card 5 vanishes.
    perm = tuple([0, *range(1, 5), 0, *range(6, 12)])
    rs = tuple(PC.random_scalar(wide(f"r{i}")) for i in range(len(perm)))
    out = [PC.rerandomise(deck[p], table.joint, r) for p, r in zip(perm, rs, strict=True)]
    claimed = PC.ShuffleSecret(perm, rs)
    with pytest.raises(PC.BadShuffle, match="not a permutation") as err:
        PC.verify_shuffle_opening(deck, out, table.joint, claimed, seat=1)
    assert err.value.seat == 1
    honest_looking = PC.ShuffleSecret(tuple(range(12)), rs)  # any true permutation fails too
    with pytest.raises(PC.BadShuffle):
        PC.verify_shuffle_opening(deck, out, table.joint, honest_looking, seat=1)
    # before the audit the duplicate shows up as two equal revealed cards
    final, _ = table.shuffle_all(start=out, label="after-cheat")
    revealed = [table.public_reveal(ct, slot, [0, 1, 2]) for slot, ct in enumerate(final)]
    assert Counter(revealed)[0] == 2 and 5 not in revealed


def test_substituted_non_card_is_unknown_at_reveal() -> None:
    table = Table(2, 5)
    deck = PC.initial_deck(table.codebook, table.joint)
    junk = PC.hash_to_point(b"not a card", b"")
    deck[2] = PC.Ciphertext(PC.BASE, PC.add(junk, table.joint))
    final, _ = table.shuffle_all(start=deck)
    revealed = []
    for slot, ct in enumerate(final):
        try:
            revealed.append(table.public_reveal(ct, slot, [0, 1]))
        except PC.UnknownCard:
            revealed.append(None)
    assert revealed.count(None) == 1


# ------------------------------------------------------------------ re-mix and hand-over


def test_remix_hides_contributors_but_reveals_the_same_cards() -> None:
    table = Table(3, 30)
    deck, _ = table.shuffle_all()
    held = {seat: table.private_draw(deck[seat], seat, seat) for seat in range(3)}
    cards = {s: table.codebook.index(PC.open_held(table.keys[s], held[s])) for s in range(3)}
    # each seat puts its card face-down into a shared pool (re-encrypted to the joint key)
    pool = []
    for seat in range(3):
        msg, fresh = PC.hand_over(
            table.keys[seat],
            TABLE,
            seat,
            DECK,
            "covert/1",
            PW.JOINT,
            table.joint,
            {seat: held[seat]},
        )
        wire = P.decode_as(P.encode(msg), PW.HandOver)
        assert wire.to_seat == PW.JOINT
        got = PC.verify_hand_over(
            TABLE, seat, table.pub[seat], table.joint, wire, {seat: held[seat]}
        )
        assert got == fresh
        pool.append(got[seat])
    mixed, steps = table.shuffle_all(start=pool, label="remix")
    assert not {c.a for c in mixed} & {c.a for c in pool}
    assert not {c.b for c in mixed} & {c.b for c in pool}
    assert not {c.to_bytes() for c in mixed} & {c.to_bytes() for c in pool}
    revealed = [table.public_reveal(ct, i, [0, 1, 2]) for i, ct in enumerate(mixed)]
    assert Counter(revealed) == Counter(cards.values())
    for seat, (before, after, secret) in enumerate(steps):  # and the audit can check it
        PC.verify_shuffle_opening(before, after, table.joint, secret, seat=seat)


def test_hand_over_lets_only_the_recipient_read_the_card() -> None:
    table = Table(3, 20)
    deck, _ = table.shuffle_all()
    held = table.private_draw(deck[4], 4, 0)  # seat 0 holds slot 4
    card = table.codebook.index(PC.open_held(table.keys[0], held))
    msg, fresh = PC.hand_over(
        table.keys[0], TABLE, 0, DECK, "spoils/1", 1, table.pub[1], {4: held}, entropy=seed("h")
    )
    got = PC.verify_hand_over(TABLE, 0, table.pub[0], table.pub[1], msg, {4: held})[4]
    assert got == fresh[4]
    assert table.codebook.index(PC.open_held(table.keys[1], got)) == card
    for other in (0, 2):
        with pytest.raises(PC.UnknownCard):
            table.codebook.index(PC.open_held(table.keys[other], got))
    # the recipient can later show it to everyone
    assert table.public_reveal(got, 4, [1]) == card


def test_bad_hand_overs_are_rejected() -> None:
    table = Table(3, 10)
    deck, _ = table.shuffle_all()
    held = table.private_draw(deck[0], 0, 0)
    other = table.private_draw(deck[1], 1, 0)
    msg, _ = PC.hand_over(table.keys[0], TABLE, 0, DECK, "spoils/1", 1, table.pub[1], {0: held})
    verify = PC.verify_hand_over
    with pytest.raises(PC.BadProof):  # to someone else than claimed
        verify(TABLE, 0, table.pub[0], table.pub[2], msg, {0: held})
    with pytest.raises(PC.BadProof):  # not the held card
        verify(TABLE, 0, table.pub[0], table.pub[1], msg, {0: other})
    with pytest.raises(PC.BadProof):  # by another seat
        verify(TABLE, 2, table.pub[2], table.pub[1], msg, {0: held})
    item = msg.cards[0]
    # a different card substituted, with the proof of the honest one
    cheat, _ = PC.hand_over(table.keys[0], TABLE, 0, DECK, "spoils/1", 1, table.pub[1], {0: other})
    swapped = attrs.evolve(msg, cards=(attrs.evolve(item, card=cheat.cards[0].card),))
    with pytest.raises(PC.BadProof) as err:
        verify(TABLE, 0, table.pub[0], table.pub[1], swapped, {0: held})
    assert err.value.seat == 0
    twin = high_bit(item.card[:32]) + item.card[32:]
    broken = attrs.evolve(msg, cards=(attrs.evolve(item, card=twin),))
    with pytest.raises(P.InvalidPoint):
        verify(TABLE, 0, table.pub[0], table.pub[1], broken, {0: held})
    with pytest.raises(PC.BadProof):  # missing card
        verify(TABLE, 0, table.pub[0], table.pub[1], attrs.evolve(msg, cards=()), {0: held})


def test_drawer_alone_cannot_decrypt_a_deck_card(small) -> None:
    table, deck = small
    with pytest.raises(PC.UnknownCard):
        table.codebook.index(PC.open_held(table.keys[0], deck[0]))
    partial = table.private_draw(deck[0], 0, 0)
    with pytest.raises(PC.UnknownCard):  # everyone's shares but the drawer's: still hidden
        table.codebook.index(partial.b)


def test_an_invalid_card_is_not_blamed_on_the_prover(small) -> None:
    table, deck = small
    msg = _share_msg(table, 1, {0: deck[0]})
    broken = PC.Ciphertext(negated(deck[0].a), deck[0].b)
    with pytest.raises(P.InvalidPoint) as err:
        PC.verify_shares(TABLE, 1, table.pub[1], msg, {0: broken})
    assert err.value.seat is None
    with pytest.raises(P.InvalidPoint) as err:
        broken.check(seat=2)  # the producer, found by checking the signed deck
    assert err.value.seat == 2
