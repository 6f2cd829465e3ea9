"""Held cards named by handle: a public reveal by their holder, and a private peek.

A game may name the cards in a seat's hand by the engine's opaque handles: a private
deal gives each dealt card the next handle, in slot order, so every peer knows which held
ciphertext a handle stands for (never its identity).

- **Reveal by the holder**: a ``Reveal`` whose groups are unmixed and whose handles
  are all held cards is answered by the holder alone: it publishes its decryption
  shares for those slots (``DecryptShares <deck> s<k>``, with proofs); every peer
  checks them and reads the cards.
- **Re-handle** (``Rehandle(s, handles)``): after a peek the holder
  re-randomises the named cards under its own key and permutes them
  (``ShuffleStep hand<s>.<k> s<k>/rehandle``), so the seat that peeked no longer
  knows which card is which; the new cards get the new handles.  The step carries a
  proof of a correct shuffle under the holder's key, which every peer checks on arrival.
- **Peek**: the holder re-encrypts the peeked cards to the peeking seat's key (a
  ``HandOver`` to that seat, step ``s<k>/peek``, with re-encryption proofs) without
  giving them up; every peer checks the proofs and only the peeking seat can open the
  copies.  A holder that never answers is timed out like any silent seat.

:class:`HeldCardExchange` owns which of these reveals and peeks we already published;
the held slots and handles are the session's :class:`~protocol._cards.CardLedger`.
"""

from __future__ import annotations

from typing import ClassVar

from fairtable.engine.requests import (
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Request,
    Reveal,
    RevealAnswer,
)

from ._cards import CardLedger, Slot
from ._deck import (
    Ciphertext,
    hand_over,
    open_held,
    parse_cards,
    shuffle_step,
    verify_hand_over,
    verify_shuffle_step,
)
from ._errors import BadProof, LocalProtocolError, blame
from ._events import CardsSeen, SeenWhy
from ._group import GroupError
from ._messages import CardRef, DecryptShares
from ._part_keys import HandOverPart, SharesPart, ShufflePart
from ._port import Port
from ._verdict_kinds import VerdictKind

__all__ = ["HeldCardExchange"]


class HeldCardExchange:
    """Reveals, peeks and re-handles of held cards named by handle."""

    REQUESTS: ClassVar[dict[type, str]] = {Peek: "peek", Rehandle: "rehandle"}

    def __init__(self, port: Port, cards: CardLedger) -> None:
        self.port = port
        self.cards = cards
        self.published: set[tuple[str, int, str] | tuple[str, int]] = set()
        self.my_rehandle_order: dict[int, tuple[int, ...]] = {}

    def names_held(self, req: Reveal) -> bool:
        """Whether ``req`` names only unmixed held cards (revealed by their holders)."""
        holder_of = self.cards.holder_of
        return all(
            not mixed and all(holder_of(h) is not None for h in handles)
            for _, handles, mixed in req.groups
        )

    def reveal(self, req: Reveal) -> bool:
        port, ledger = self.port, self.cards
        k = port.step
        step = f"s{k}"
        plan: list[tuple[str, int, list[Slot]]] = []
        for group, handles, _ in req.groups:
            owners = {ledger.holder_of(h) for h in handles}
            seats = {o[0] for o in owners if o is not None}
            if len(seats) != 1:
                raise LocalProtocolError(f"reveal group {group} spans several holders")
            seat = seats.pop()
            slots = [ledger.handle_slot[h] for h in handles]
            plan.append((group, seat, slots))
            if seat == port.me and ("shown", k, group) not in self.published:
                self.published.add(("shown", k, group))
                for msg in ledger.shares_for(slots, step):
                    port.publish(msg)
        found: dict[tuple[int, str], DecryptShares] = {}
        for _, seat, slots in plan:
            for deck in sorted({d for d, _ in slots}):
                msg = port.part(seat, SharesPart(deck, step))
                if msg is None:
                    port.waiting_for_reveal = True
                    return False
                found[(seat, deck)] = msg
        answer = []
        for group, seat, slots in plan:
            by_slot: dict[Slot, str] = {}
            for deck in sorted({d for d, _ in slots}):
                msg = found[(seat, deck)]
                wanted = sorted(s for d, s in slots if d == deck)
                if sorted(share.slot for share in msg.shares) != wanted:
                    raise blame(
                        seat,
                        VerdictKind.BAD_REVEAL,
                        f"seat {seat}'s shares are not for the cards to reveal",
                    )
                ids = ledger.read_shown(seat, (msg,), step)
                for share, card in zip(msg.shares, ids, strict=True):
                    by_slot[(deck, share.slot)] = card
            answer.append((group, tuple(by_slot[slot] for slot in slots)))
        port.apply(RevealAnswer(req.label, tuple(answer)))
        return True

    def peek(self, pending: tuple[Request, ...]) -> bool:
        req = pending[0]
        assert isinstance(req, Peek)
        port, ledger = self.port, self.cards
        k = port.step  # a peek follows deals: every seat's key is in
        step = f"s{k}/peek"
        owners = {ledger.holder_of(h) for h in req.handles}
        if None in owners:
            raise LocalProtocolError("a peek names a card that is not held")
        seats = {o[0] for o in owners if o is not None}
        if len(seats) != 1:
            raise LocalProtocolError("a peek spans several holders")
        holder = seats.pop()
        slots = [ledger.handle_slot[h] for h in req.handles]
        decks = sorted({d for d, _ in slots})
        if holder == port.me and ("peek", k) not in self.published:
            self.published.add(("peek", k))
            for deck in decks:
                held = {s: ledger.held[holder][(d, s)] for d, s in slots if d == deck}
                msg, _ = hand_over(
                    port.deck_key,
                    port.table,
                    holder,
                    deck,
                    step,
                    req.seat,
                    ledger.keys[req.seat],
                    held,
                    entropy=port.secret(f"peek/{k}/{deck}", 32),
                )
                port.publish(msg)
        copies: dict[Slot, Ciphertext] = {}
        for deck in decks:
            msg = port.part(holder, HandOverPart(deck, step, req.seat))
            if msg is None:
                port.waiting_for_reveal = True
                return False
            held = {s: ledger.held[holder][(d, s)] for d, s in slots if d == deck}
            try:
                fresh = verify_hand_over(
                    port.table, holder, ledger.keys[holder], ledger.keys[req.seat], msg, held
                )
            except Exception as exc:  # BadProof / InvalidPoint name the holder
                raise blame(
                    holder, VerdictKind.BAD_PROOF, f"seat {holder}'s peek copies: {exc}"
                ) from None
            copies.update({(deck, s): ct for s, ct in fresh.items()})
        cards: tuple[str, ...] | None = None
        if req.seat == port.me:
            ids = []
            for slot in slots:
                try:
                    ids.append(ledger.point_card[open_held(port.deck_key, copies[slot])])
                except (GroupError, KeyError):  # proven copies of a broken card: the deck was
                    port.early_audit = "a peeked card is not a card"  # tampered with
                    return True
            cards = tuple(ids)
        ledger.peeked[k] = (holder, req.seat, copies)
        port.apply(PeekAnswer(req.label, req.seat, cards))
        if cards:
            port.emit(CardsSeen(cards, SeenWhy.PEEKED))
        return True

    def rehandle(self, pending: tuple[Request, ...]) -> bool:
        """A seat's own face-down cards re-randomised and permuted under its own key."""
        req = pending[0]
        assert isinstance(req, Rehandle)
        port, ledger = self.port, self.cards
        k, holder = port.step, req.seat
        label, step = f"hand{holder}.{k}", f"s{k}/rehandle"
        owners = [ledger.holder_of(h) for h in req.handles]
        if not req.handles or any(o is None or o[0] != holder for o in owners):
            raise LocalProtocolError("a re-handle names cards its seat does not hold")
        old = [ledger.handle_slot[h] for h in req.handles]
        before = [ledger.held[holder][slot] for slot in old]
        inputs = tuple(CardRef(holder, deck, slot) for deck, slot in old)  # the request's order
        if holder == port.me and not any(o.deck == label for o in ledger.my_shuffles):
            published, _, secret = shuffle_step(  # shuffle proof
                label,
                step,
                before,
                ledger.keys[holder],
                table=port.table,
                seat=holder,
                entropy=port.secret(f"rehandle/{k}", 32),
                inputs=inputs,
            )
            ledger.my_shuffles.append(secret.opening(label, step))
            port.publish(published)
            self.my_rehandle_order[k] = secret.permutation
        msg = port.part(holder, ShufflePart(label, step))
        if msg is None:
            return False
        after = (
            parse_cards(msg.cards, ours=True)
            if holder == port.me
            # shuffle proof
            else verify_shuffle_step(
                port.table, holder, msg, before, ledger.keys[holder], inputs=inputs
            )
        )
        if len(after) != len(before):
            raise BadProof("a re-handle changed the number of cards", seat=holder)
        ledger.rehandles.append((holder, label, step, before, after))
        cards = [ledger.mine.pop(slot, None) for slot in old] if holder == port.me else []
        for slot in old:
            ledger.held[holder].pop(slot)
        new = [(label, j) for j in range(len(after))]
        for slot, ct in zip(new, after, strict=True):
            ledger.held[holder][slot] = ct
        ids: tuple[str, ...] | None = None
        if holder == port.me:
            order = self.my_rehandle_order[k]
            ids = tuple(cards[p] for p in order)  # type: ignore[misc]
            for slot, card in zip(new, ids, strict=True):
                ledger.mine[slot] = card
        before_handle = port.next_handle()
        port.apply(RehandleAnswer(holder, ids))
        ledger.note_dealt_handles(before_handle, new)
        if ids:
            port.emit(CardsSeen(ids, SeenWhy.REHANDLED))
        return True
