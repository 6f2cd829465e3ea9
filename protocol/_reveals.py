"""Reveals (bids: openings with shares; armies: openings, re-encryption into pools,
re-mixing, public decryption) and the audit that ends every game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import IllegalReveal
from engine.requests import (
    Reveal,
    RevealAnswer,
)

from ._commit import commitment_digest
from ._deck import (
    Ciphertext,
    decryption_shares,
    hand_over,
    strip_shares,
    verify_hand_over,
    verify_shares,
    verify_shuffle_opening,
)
from ._errors import (
    BadCommitment,
    BadProof,
    LocalProtocolError,
)
from ._exchange_core import Commitment, ExchangeCore, Slot, _slot_bytes
from ._group import GroupError, base_mul, mul, scalar_add, sub
from ._messages import JOINT
from ._session_messages import AuditOpening, HeldSlot, Opening

if TYPE_CHECKING:
    pass


class RevealExchanges(ExchangeCore):
    """Making face-down cards public, and opening everything at the end."""

    def reveal_request(self, req: Reveal) -> bool:
        if req.label == "bids":
            return self.reveal_bids(req)
        if self.held_reveal(req):  # type: ignore[attr-defined]
            return self.reveal_held(req)  # type: ignore[attr-defined]
        return self.reveal_armies(req)

    def commitment_for(self, handle: int) -> Commitment:
        for c in self.commitments:
            if handle in c.handles:
                return c
        raise LocalProtocolError(f"no commitment covers face-down card {handle}")

    def opened_slots(self, c: Commitment, extra: str = "") -> Opening | None:
        """Publish our opening of ``c`` (if ours) and return the seat's opening, checked."""
        if c.seat == self.me:
            nonce, slots = self.my_openings[c.step]
            shown = self.shares_for(list(slots), f"s{self.step}") if not extra else ()
            self.s.publish(Opening(c.step, nonce, tuple(HeldSlot(d, s) for d, s in slots), shown))
        msg = self.s.part(c.seat, f"open:{c.step}")
        if msg is None:
            self.waiting_for_reveal = True
            return None
        slots = tuple((h.deck, h.slot) for h in msg.slots)
        expected = commitment_digest(self.s.table, c.seat, f"move:s{c.step}", msg.nonce,
                                     _slot_bytes(slots))
        if expected != c.digest:
            raise BadCommitment(f"seat {c.seat}'s opening does not match its commitment",
                                seat=c.seat)
        if len(slots) != len(c.handles) or len(set(slots)) != len(slots):
            raise BadCommitment(f"seat {c.seat} opened the wrong number of cards", seat=c.seat)
        if any(slot not in self.held[c.seat] for slot in slots):
            raise BadCommitment(f"seat {c.seat} committed to cards it does not hold",
                                seat=c.seat)
        return msg

    def reveal_bids(self, req: Reveal) -> bool:
        k = self.step
        openings = {}
        for group, handles, _mixed in req.groups:
            c = self.commitment_for(handles[0])
            msg = self.opened_slots(c)
            if msg is not None:
                openings[group] = (c, msg)
        if len(openings) < len(req.groups):
            return False
        answer = []
        for group, _handles, _mixed in req.groups:
            c, msg = openings[group]
            order = [(h.deck, h.slot) for h in msg.slots]
            cards = dict(zip(order, self.read_slots(c.seat, msg, order, f"s{k}"), strict=True))
            answer.append((group, tuple(cards[slot] for slot in order)))
        self.apply(RevealAnswer("bids", tuple(answer)))
        return True

    def read_slots(self, seat: int, msg: Opening, order: list[Slot], step: str) -> list[str]:
        from ._errors import blame

        if sorted((m.deck, s.slot) for m in msg.shown for s in m.shares) != sorted(order):
            raise blame(seat, "bad-reveal", f"seat {seat}'s opening lacks shares for its cards")
        by_slot: dict[Slot, str] = {}
        for one in msg.shown:
            ids = self.read_shown(seat, (one,), step)
            for share, card in zip(one.shares, ids, strict=True):
                by_slot[(one.deck, share.slot)] = card
        return [by_slot[slot] for slot in order]

    def reveal_armies(self, req: Reveal) -> bool:
        k = self.step
        assert self.joint is not None
        if k not in self.pools:
            pools = self.pool_contributions(req)
            if pools is None:
                return False
            self.pools[k] = pools
        pools = self.pools[k]
        stage = self.remixed
        for seat in self.s.seats:
            step = f"s{k}/mix{seat}"
            if seat == self.me:
                for army in sorted(pools):
                    label = f"pool{army}"
                    if (str(seat), label, step) not in stage:
                        self.my_shuffle(label, step, pools[army])
            done = True
            for army in sorted(pools):
                label = f"pool{army}"
                if (str(seat), label, step) in stage:
                    continue
                msg = self.s.part(seat, f"shuffle:{label}:{step}")
                if msg is None:
                    done = False
                    continue
                cards = self.shuffled_cards(seat, msg.cards, last=self.s.seats[-1])
                if len(cards) != len(pools[army]):
                    raise BadProof("a re-mix changed the number of cards", seat=seat)
                self.shuffles.append((seat, label, step, pools[army], cards))
                pools[army] = cards
                stage.add((str(seat), label, step))
            if not done:
                return False
        step = f"s{k}/open"
        if self.me is not None:
            for army in sorted(pools):
                label = f"pool{army}"
                self.s.publish(decryption_shares(
                    self.s.deck_key, self.s.table, self.me, label, step,
                    dict(enumerate(pools[army])),
                    entropy=self.s.secret(f"open/{label}/{step}", 32)))
        shares: dict[str, list[dict[int, bytes]]] = {}
        for army in sorted(pools):
            label = f"pool{army}"
            for seat in self.s.seats:
                msg = self.s.part(seat, f"shares:{label}:{step}")
                if msg is not None:
                    shares.setdefault(label, []).append(verify_shares(
                        self.s.table, seat, self.keys[seat], msg, dict(enumerate(pools[army]))))
        if any(len(shares.get(f"pool{a}", [])) < len(self.s.seats) for a in pools):
            return False
        answer = []
        for group, _handles, _mixed in req.groups:
            label = f"pool{group}"
            ids = []
            for index, ct in enumerate(pools[group]):
                point = strip_shares(ct, [d[index] for d in shares[label]]).b
                if point not in self.point_card:
                    raise IllegalReveal("a pooled card is not a card")
                ids.append(self.point_card[point])
            answer.append((group, tuple(sorted(ids))))
        self.apply(RevealAnswer(req.label, tuple(answer)))
        return True

    def pool_contributions(self, req: Reveal) -> dict[str, list[Ciphertext]] | None:
        """Every placer opens its commitments and re-encrypts those cards into the pools."""
        assert self.joint is not None
        k = self.step
        commitments: dict[int, Commitment] = {}
        for _group, handles, _mixed in req.groups:
            for h in handles:
                c = self.commitment_for(h)
                commitments[c.step] = c
        fresh_by_handle: dict[int, Ciphertext] = {}
        complete = True
        for c in sorted(commitments.values(), key=lambda c: c.step):
            step = f"s{k}/pool{c.step}"
            if c.seat == self.me:
                _, mine = self.my_openings[c.step]
                by_deck: dict[str, dict[int, Ciphertext]] = {}
                for deck, index in mine:
                    by_deck.setdefault(deck, {})[index] = self.held[c.seat][(deck, index)]
                for deck, held in sorted(by_deck.items()):
                    msg, _ = hand_over(self.s.deck_key, self.s.table, c.seat, deck, step, JOINT,
                                       self.joint, held,
                                       entropy=self.s.secret(f"pool/{step}/{deck}", 32))
                    self.s.publish(msg)
            opening = self.opened_slots(c, extra="pool")
            if opening is None:
                complete = False
                continue
            opened = [(h.deck, h.slot) for h in opening.slots]
            fresh: dict[Slot, Ciphertext] = {}
            for deck in sorted({d for d, _ in opened}):
                msg = self.s.part(c.seat, f"handover:{deck}:{step}:{JOINT}")
                if msg is None:
                    complete = False
                    break
                held = {n: self.held[c.seat][(deck, n)] for d, n in opened if d == deck}
                got = verify_hand_over(self.s.table, c.seat, self.keys[c.seat], self.joint,
                                       msg, held)
                fresh.update({(deck, n): ct for n, ct in got.items()})
            else:
                for handle, slot in zip(c.handles, opened, strict=True):
                    fresh_by_handle[handle] = fresh[slot]
        if not complete:
            self.waiting_for_reveal = True
            return None
        for c in commitments.values():
            opening = self.s.parts[(c.seat, f"open:{c.step}")]
            for h in opening.slots:
                self.held[c.seat].pop((h.deck, h.slot))
                self.mine.pop((h.deck, h.slot), None)
        return {group: [fresh_by_handle[h] for h in handles]
                for group, handles, _mixed in req.groups}

    def _read_open(self, cards: dict[int, str], handle: int, ct: Ciphertext,
                   secret: bytes) -> None:
        """Decrypt a card held under one (opened) key and file it under its handle."""
        try:
            point = sub(ct.b, mul(secret, ct.a))
        except GroupError:
            return
        card = self.point_card.get(point)
        if card is not None:
            cards[handle] = card

    def audit_held_cards(self, secrets: dict[int, bytes]) -> None:
        """With every deck key open, read every card still face down under a handle (a
        Sovereign forge, say) and let the game's rules judge what was never revealed."""
        from ._errors import blame

        judge = self.s.rules.audit_cards
        if judge is None or not self.handle_slot:
            return
        cards: dict[int, str] = {}
        for handle, slot in sorted(self.handle_slot.items()):
            for seat, held in self.held.items():
                ct = held.get(slot)
                if ct is not None:
                    self._read_open(cards, handle, ct, secrets[seat])
        # what breaches showed, from the peeking seat's copies (a breached hand was re-handled
        # since, so its old cards are held under no handle any more)
        by_slot = {slot: handle for handle, slot in self.handle_slot.items()}
        for _holder, peeker, copies in self.peeked.values():
            for slot, ct in sorted(copies.items()):
                shown = by_slot.get(slot)
                if shown is not None and shown not in cards:
                    self._read_open(cards, shown, ct, secrets[peeker])
        found = judge(self.s.game, cards)
        if found is not None:
            seat, reason = found
            raise blame(seat, "illegal-move", f"opened at the audit: {reason}")

    def audit(self) -> bool:
        """Open our secrets, check everyone's; emit the result once."""
        from ._errors import blame
        from ._events import GameFinished

        if self.audited:
            return False
        when = f"early/{self.step}" if self.early_audit else "end"
        self.s.publish(AuditOpening(when, self.s.deck_key.secret, tuple(self.my_shuffles)))
        openings = {}
        for seat in self.s.seats:
            msg = self.s.part(seat, "audit")
            if msg is not None:
                openings[seat] = msg
        if len(openings) < len(self.s.seats):
            self.waiting_for_reveal = True
            return False
        for seat, msg in openings.items():
            try:
                if base_mul(msg.deck_secret) != self.keys.get(seat, b""):
                    raise blame(seat, "bad-reveal", f"seat {seat}'s deck key does not match")
            except GroupError:
                raise blame(seat, "bad-reveal", f"seat {seat}'s deck key is invalid") from None
        opened = {(seat, o.deck, o.step): o for seat, m in openings.items() for o in m.shuffles}
        joint_secret = None  # every key is open now: the joint key's discrete log
        if self.joint is not None:  # (no deck was ever shuffled without one)
            for seat in sorted(openings):
                x = openings[seat].deck_secret
                joint_secret = x if joint_secret is None else scalar_add(joint_secret, x)
            if joint_secret is None or base_mul(joint_secret) != self.joint:
                raise LocalProtocolError("the opened deck keys do not add up to the joint key")
        for seat, deck, step, before, after in self.shuffles:
            opening = opened.get((seat, deck, step))
            if opening is None:
                raise blame(seat, "bad-shuffle", f"seat {seat} did not open its shuffle {step}")
            assert self.joint is not None
            verify_shuffle_opening(before, after, self.joint, opening, seat=seat,
                                   key_secret=joint_secret)
        for seat, deck, step, before, after in self.rehandles:  # under the seat's own key
            opening = opened.get((seat, deck, step))
            if opening is None:
                raise blame(seat, "bad-shuffle", f"seat {seat} did not open its re-handle {step}")
            verify_shuffle_opening(before, after, self.keys[seat], opening, seat=seat,
                                   key_secret=openings[seat].deck_secret)
        if not self.early_audit:
            self.audit_held_cards({seat: m.deck_secret for seat, m in openings.items()})
        self.audited = True
        if self.early_audit:
            raise blame(None, "inconclusive", f"{self.early_audit}, but every shuffle and key "
                        "checks out")
        game = self.s.game
        self.s.finished = GameFinished(game.winner, game.digest(), game.state.over)
        self.s.emit(self.s.finished)
        return False
