"""Held cards named by handle: a public reveal by their holder, and a private peek.

Some games (Sovereign) name the cards in a seat's hand by the engine's opaque
handles: a private deal gives each dealt card the next handle, in slot order, so
every peer knows which held ciphertext a handle stands for (never its identity).

- **Reveal by the holder**: a ``Reveal`` whose groups are unmixed and whose handles
  are all held cards is answered by the holder alone: it publishes its decryption
  shares for those slots (``DecryptShares <deck> s<k>``, with proofs); every peer
  checks them and reads the cards.
- **Re-handle** (``Rehandle(s, handles)``): after a breach the holder
  re-randomises the named cards under its own key and permutes them
  (``ShuffleStep hand<s>.<k> s<k>/rehandle``), so the seat that peeked no longer
  knows which card is which; the new cards get the new handles.  Nobody can check the
  step until the end-of-game audit, where the holder opens it (as every shuffle).
- **Peek**: the holder re-encrypts the peeked cards to the peeking seat's key (a
  ``HandOver`` to that seat, step ``s<k>/peek``, with re-encryption proofs) without
  giving them up; every peer checks the proofs and only the peeking seat can open the
  copies.  A holder that never answers is timed out like any silent seat.
"""

from __future__ import annotations

from engine.requests import (
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Reveal,
    RevealAnswer,
)

from ._deck import Ciphertext, hand_over, open_held, parse_cards, shuffle, verify_hand_over
from ._errors import BadProof, LocalProtocolError
from ._exchange_core import ExchangeCore, Slot
from ._group import GroupError
from ._messages import DecryptShares, ShuffleStep


class HeldCardExchanges(ExchangeCore):
    """Reveals and peeks of held cards named by handle."""

    def note_dealt_handles(self, before: int, slots: list[Slot]) -> None:
        """After a deal: the handles the engine gave the dealt cards stand for ``slots``."""
        after = getattr(self.s.game.state, "next_handle", before)
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

    def held_reveal(self, req: Reveal) -> bool:
        """Whether ``req`` names only unmixed held cards (revealed by their holders)."""
        return all(not mixed and all(self.holder_of(h) is not None for h in handles)
                   for _, handles, mixed in req.groups)

    def reveal_held(self, req: Reveal) -> bool:
        from ._errors import blame

        k, step = self.step, f"s{self.step}"
        plan: list[tuple[str, int, list[Slot]]] = []
        for group, handles, _ in req.groups:
            owners = {self.holder_of(h) for h in handles}
            seats = {o[0] for o in owners if o is not None}
            if len(seats) != 1:
                raise LocalProtocolError(f"reveal group {group} spans several holders")
            seat = seats.pop()
            slots = [self.handle_slot[h] for h in handles]
            plan.append((group, seat, slots))
            if seat == self.me and ("shown", k, group) not in self.published_reveals:
                self.published_reveals.add(("shown", k, group))
                for msg in self.shares_for(slots, step):
                    self.s.publish(msg)
        found: dict[tuple[int, str], DecryptShares] = {}
        for _, seat, slots in plan:
            for deck in sorted({d for d, _ in slots}):
                msg = self.s.part(seat, f"shares:{deck}:{step}")
                if msg is None:
                    self.waiting_for_reveal = True
                    return False
                found[(seat, deck)] = msg
        answer = []
        for group, seat, slots in plan:
            by_slot: dict[Slot, str] = {}
            for deck in sorted({d for d, _ in slots}):
                msg = found[(seat, deck)]
                wanted = sorted(s for d, s in slots if d == deck)
                if sorted(share.slot for share in msg.shares) != wanted:
                    raise blame(seat, "bad-reveal",
                                f"seat {seat}'s shares are not for the cards to reveal")
                ids = self.read_shown(seat, (msg,), step)
                for share, card in zip(msg.shares, ids, strict=True):
                    by_slot[(deck, share.slot)] = card
            answer.append((group, tuple(by_slot[slot] for slot in slots)))
        self.apply(RevealAnswer(req.label, tuple(answer)))
        return True

    def peek_request(self, req: Peek) -> bool:
        from ._errors import blame
        from ._events import CardsSeen

        k = self.step  # a peek follows deals: every seat's key is in
        step = f"s{k}/peek"
        owners = {self.holder_of(h) for h in req.handles}
        if None in owners:
            raise LocalProtocolError("a peek names a card that is not held")
        seats = {o[0] for o in owners if o is not None}
        if len(seats) != 1:
            raise LocalProtocolError("a peek spans several holders")
        holder = seats.pop()
        slots = [self.handle_slot[h] for h in req.handles]
        decks = sorted({d for d, _ in slots})
        if holder == self.me and ("peek", k) not in self.published_reveals:
            self.published_reveals.add(("peek", k))
            for deck in decks:
                held = {s: self.held[holder][(d, s)] for d, s in slots if d == deck}
                msg, _ = hand_over(self.s.deck_key, self.s.table, holder, deck, step, req.seat,
                                   self.keys[req.seat], held,
                                   entropy=self.s.secret(f"peek/{k}/{deck}", 32))
                self.s.publish(msg)
        copies: dict[Slot, Ciphertext] = {}
        for deck in decks:
            msg = self.s.part(holder, f"handover:{deck}:{step}:{req.seat}")
            if msg is None:
                self.waiting_for_reveal = True
                return False
            held = {s: self.held[holder][(d, s)] for d, s in slots if d == deck}
            try:
                fresh = verify_hand_over(self.s.table, holder, self.keys[holder],
                                         self.keys[req.seat], msg, held)
            except Exception as exc:  # BadProof / InvalidPoint name the holder
                raise blame(holder, "bad-proof", f"seat {holder}'s peek copies: {exc}") from None
            copies.update({(deck, s): ct for s, ct in fresh.items()})
        cards: tuple[str, ...] | None = None
        if req.seat == self.me:
            ids = []
            for slot in slots:
                try:
                    ids.append(self.point_card[open_held(self.s.deck_key, copies[slot])])
                except (GroupError, KeyError):  # proven copies of a broken card: the deck was
                    self.early_audit = "a peeked card is not a card"  # tampered with
                    return True
            cards = tuple(ids)
        self.peeked[k] = (holder, req.seat, copies)
        self.apply(PeekAnswer(req.label, req.seat, cards))
        if cards:
            self.s.emit(CardsSeen(cards, "peeked"))
        return True

    def rehandle_request(self, req: Rehandle) -> bool:
        """A seat's own face-down cards re-randomised and permuted under its own key."""
        from ._events import CardsSeen

        k, holder = self.step, req.seat
        label, step = f"hand{holder}.{k}", f"s{k}/rehandle"
        owners = [self.holder_of(h) for h in req.handles]
        if not req.handles or any(o is None or o[0] != holder for o in owners):
            raise LocalProtocolError("a re-handle names cards its seat does not hold")
        old = [self.handle_slot[h] for h in req.handles]
        before = [self.held[holder][slot] for slot in old]
        if holder == self.me and not any(o.deck == label for o in self.my_shuffles):
            out, secret = shuffle(before, self.keys[holder],
                                  entropy=self.s.secret(f"rehandle/{k}", 32))
            self.my_shuffles.append(secret.opening(label, step))
            self.s.publish(ShuffleStep(label, step, tuple(c.to_bytes() for c in out)))
            self.my_rehandle_order[k] = secret.permutation
        msg = self.s.part(holder, f"shuffle:{label}:{step}")
        if msg is None:
            return False
        after = parse_cards(msg.cards, seat=holder, ours=holder == self.me)
        if len(after) != len(before):
            raise BadProof("a re-handle changed the number of cards", seat=holder)
        self.rehandles.append((holder, label, step, before, after))
        cards = [self.mine.pop(slot, None) for slot in old] if holder == self.me else []
        for slot in old:
            self.held[holder].pop(slot)
        new = [(label, j) for j in range(len(after))]
        for slot, ct in zip(new, after, strict=True):
            self.held[holder][slot] = ct
        ids: tuple[str, ...] | None = None
        if holder == self.me:
            order = self.my_rehandle_order[k]
            ids = tuple(cards[p] for p in order)  # type: ignore[misc]
            for slot, card in zip(new, ids, strict=True):
                self.mine[slot] = card
        before_handle = getattr(self.s.game.state, "next_handle", 0)
        self.apply(RehandleAnswer(holder, ids))
        self.note_dealt_handles(before_handle, new)
        if ids:
            self.s.emit(CardsSeen(ids, "re-handled"))
        return True
