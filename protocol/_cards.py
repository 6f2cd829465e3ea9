"""The card ledger of one table session: keys, decks and who holds which ciphertext.

Every card exchange (piles, decisions, held cards, reveals, the audit) reads and writes
these records, so they live in one object of their own rather than in any exchange:
the seats' deck keys and the joint key, the decks and their shuffle steps, the
ciphertext each seat holds per slot (and the identities of ours), the slots named by
engine handles, the commitments to face-down cards, and every shuffle, re-handle and
peek the audit re-checks.  Its helpers are the card operations several exchanges share:
opening a card of ours, our shares for held slots, reading a seat's shown cards, our
own shuffle steps, and the record of a round's shuffle outputs (checked by their proofs).
"""

from __future__ import annotations

import attrs

from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.errors import IllegalReveal

from ._deck import (
    CardCodebook,
    Ciphertext,
    decryption_shares,
    joint_key,
    open_held,
    parse_cards,
    shuffle_step,
    verify_key_share,
    verify_shares,
)
from ._errors import BadProof, LocalProtocolError, UnknownCard
from ._group import GroupError, sub
from ._messages import CardRef, DecryptShares, ShuffleOpening
from ._part_keys import KeySharePart
from ._port import Port

__all__ = ["CardLedger", "Commitment", "DeckRecord", "Slot", "slot_bytes"]

Slot = tuple[str, int]
ShuffleRecord = tuple[int, str, str, list[Ciphertext], list[Ciphertext]]
"""(seat, deck, step, cards before, cards after) of one shuffle, re-mix or re-handle."""


@attrs.define
class DeckRecord:
    label: str
    cards: tuple[str, ...]
    codebook: CardCodebook
    steps: list[list[Ciphertext]]
    top: int = 0


@attrs.define
class Commitment:
    seat: int
    step: int
    digest: bytes
    handles: tuple[int, ...]


def slot_bytes(slots: tuple[Slot, ...] | list[Slot]) -> bytes:
    """The committed bytes of the slots a move placed face down."""
    return canonical_bytes([[deck, slot] for deck, slot in slots])


class CardLedger:
    """The cards of one session (see the module docstring)."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.keys: dict[int, bytes] = {}
        self.joint: bytes | None = None
        self.decks: dict[str, DeckRecord] = {}
        self.current: dict[str, str] = {}  # pile -> the label of its deck now
        self.point_card: dict[bytes, str] = {}
        self.held: dict[int, dict[Slot, Ciphertext]] = {seat: {} for seat in port.seats}
        self.mine: dict[Slot, str] = {}
        self.handle_slot: dict[int, Slot] = {}  # engine handle -> held slot
        self.commitments: list[Commitment] = []
        self.my_openings: dict[int, tuple[bytes, tuple[Slot, ...]]] = {}
        self.transfers: dict[tuple[int, int], list[tuple[Slot, Ciphertext]]] = {}
        self.shuffles: list[ShuffleRecord] = []  # under the joint key, for the audit
        self.rehandles: list[ShuffleRecord] = []  # under the holder's own key
        self.my_shuffles: list[ShuffleOpening] = []
        self.peeked: dict[int, tuple[int, int, dict[Slot, Ciphertext]]] = {}  # by step
        self.shuffled: dict[tuple[int, int], list[list[Ciphertext]]] = {}  # (step, seat) ->
        # that seat's shuffle and re-mix outputs at that step, kept for complaints

    # -- keys -------------------------------------------------------------------------------
    def need_keys(self) -> bool:
        """Whether every seat's deck key is in (checked) and the joint key made."""
        if self.joint is not None:
            return True
        port = self.port
        for seat in port.seats:
            if seat not in self.keys:
                msg = port.part(seat, KeySharePart())
                if msg is not None:
                    self.keys[seat] = verify_key_share(port.table, seat, msg)
        if len(self.keys) < len(port.seats):
            return False
        self.joint = joint_key(self.keys[s] for s in port.seats)
        return True

    # -- handles ----------------------------------------------------------------------------
    def note_dealt_handles(self, before: int, slots: list[Slot]) -> None:
        """After a deal: the handles the engine gave the dealt cards stand for ``slots``."""
        after = self.port.next_handle()
        if after - before == len(slots):
            for handle, slot in zip(range(before, after), slots, strict=True):
                self.handle_slot[handle] = slot

    def holder_of(self, handle: int) -> tuple[int, Slot] | None:
        slot = self.handle_slot.get(handle)
        if slot is None:
            return None
        for seat, held in self.held.items():
            if slot in held:
                return seat, slot
        return None

    def commitment_for(self, handle: int) -> Commitment:
        for c in self.commitments:
            if handle in c.handles:
                return c
        raise LocalProtocolError(f"no commitment covers face-down card {handle}")

    # -- card operations --------------------------------------------------------------------
    def open_mine(self, slot: Slot) -> str:
        """Decrypt a card we hold; a non-card means someone broke the deck."""
        try:
            point = open_held(self.port.deck_key, self.held[self.port.me][slot])  # type: ignore[index]
            card = self.point_card[point]
        except (GroupError, KeyError):
            raise IllegalReveal("a dealt card is not a card of the deck") from None
        self.mine[slot] = card
        return card

    def shares_for(self, slots: list[Slot], step: str) -> tuple[DecryptShares, ...]:
        """Our decryption shares (with proofs) for held slots, one message per deck."""
        port = self.port
        me = port.me
        assert me is not None
        by_deck: dict[str, dict[int, Ciphertext]] = {}
        for deck, slot in slots:
            by_deck.setdefault(deck, {})[slot] = self.held[me][(deck, slot)]
        return tuple(
            decryption_shares(
                port.deck_key,
                port.table,
                me,
                deck,
                step,
                cards,
                entropy=port.secret(f"shown/{step}/{deck}", 32),
            )
            for deck, cards in sorted(by_deck.items())
        )

    def shuffled_cards(self, seat: int, raw: tuple[bytes, ...]) -> list[Ciphertext]:
        """Seat ``seat``'s output in a round where the seats shuffle (or re-mix) in turn,
        split into ciphertexts and kept for a complaint about it.

        Only split, never validated again: our own output is valid by construction, and
        every other seat's output was checked on arrival by its shuffle proof
        (:func:`~protocol._deck.verify_shuffle_step`), whose check multiplies every output
        point -- ``_group.mul`` refuses any point that is not a valid ristretto255
        encoding -- so a verified proof implies valid points (an invalid one
        is blamed there as ``invalid-point``; docs/protocol.md §8.5).  Validating them here
        too cost two point checks per card per step."""
        cards = parse_cards(raw, ours=True)
        self.shuffled.setdefault((self.port.step, seat), []).append(cards)
        return cards

    def my_shuffle(
        self, label: str, step: str, cards: list[Ciphertext], inputs: tuple[CardRef, ...] = ()
    ) -> None:
        """Our shuffle (or re-mix) step: deterministic from our secret seed, so a restarted
        peer replaying its log makes exactly the same one and can still open it.  A re-mix
        names its pool's cards (``inputs``); a deck's step names none."""
        if any(o.deck == label and o.step == step for o in self.my_shuffles):
            return
        assert self.joint is not None and self.port.me is not None  # a seat, not an observer
        entropy = self.port.secret(f"shuffle/{label}/{step}", 32)
        msg, _, secret = shuffle_step(
            label,
            step,
            cards,
            self.joint,  # shuffle proof
            table=self.port.table,
            seat=self.port.me,
            entropy=entropy,
            inputs=inputs,
        )
        self.my_shuffles.append(secret.opening(label, step))
        self.port.publish(msg)

    def read_shown(self, seat: int, shown: tuple[DecryptShares, ...], step: str) -> list[str]:
        """Check a seat's shares for cards it shows and decrypt them (held slots only)."""
        out: list[str] = []
        seen: set[Slot] = set()
        held = self.held[seat]
        for msg in shown:
            if msg.step != step:
                raise BadProof("shares for another step", seat=seat)
            cards = {}
            for share in msg.shares:
                slot = (msg.deck, share.slot)
                if slot not in held or slot in seen:
                    raise BadProof("shows a card it does not hold", seat=seat)
                seen.add(slot)
                cards[share.slot] = held[slot]
            found = verify_shares(self.port.table, seat, self.keys[seat], msg, cards)
            for share in msg.shares:
                try:
                    point = sub(cards[share.slot].b, found[share.slot])
                    out.append(self.point_card[point])
                except (GroupError, KeyError):
                    raise UnknownCard("a shown card is not a card", seat=seat) from None
        for slot in seen:
            held.pop(slot)
            self.mine.pop(slot, None)
        return out

    def hand_out(self, seat: int, slots: list[Slot]) -> None:
        """Slots ``seat`` no longer holds (its cards opened into a pool)."""
        for slot in slots:
            self.held[seat].pop(slot)
            self.mine.pop(slot, None)
