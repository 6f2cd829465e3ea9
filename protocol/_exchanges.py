"""Exchanges: how each engine request becomes messages between the seats.

``Exchanges.advance`` looks at the engine's pending request (step ``k``, the
engine's request serial) and either completes it -- every part it needs has
arrived and checked out, so the answer is applied -- or names the seats it is
waiting for.  Labels are ``s<k>`` (plus a suffix for multi-round exchanges), so
a part is tied to exactly one step.

=========  ==================================================================
request    exchange
=========  ==================================================================
Decision   the seat's :class:`Move` (public answer; commitment to the slots of
           any face-down cards; decryption shares proving face-up cards;
           re-encryptions of handed-over cards)
Chance     joint randomness: every seat commits, then reveals (a Roll too:
           its dice are read from the same joint seed)
Shuffle    every seat in seat order re-randomises and permutes the deck
Deal       every other seat publishes its decryption shares for the dealt
           slots; only the recipient can finish the decryption
Flip       every seat publishes its decryption shares for the pile's next
           slots; everyone checks them all and reads the cards
Reveal     each placer opens its commitment (bids: with its shares; army cards:
           re-encrypted into a pool), pools are re-mixed by every seat in turn,
           then every seat publishes shares for the pooled cards
=========  ==================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Decision,
    Flip,
    FlipAnswer,
    Peek,
    Rehandle,
    Reveal,
    Roll,
    RollAnswer,
    Shuffle,
    ShuffleAnswer,
)

from ._decisions import DecisionExchanges
from ._deck import (
    CardCodebook,
    decryption_shares,
    initial_deck,
    joint_key,
    strip_shares,
    verify_key_share,
    verify_shares,
)
from ._errors import (
    BadProof,
    InvalidPoint,
    LocalProtocolError,
    RemoteProtocolError,
)
from ._exchange_core import DeckRecord
from ._group import GroupError
from ._held_cards import HeldCardExchanges
from ._messages import DecryptShares
from ._randomness import JointRandomness
from ._reveals import RevealExchanges
from ._session_messages import Complaint

if TYPE_CHECKING:
    pass


EXCHANGES: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    ("Decision", (
        ("deciding seat", "move", "Move: public answer, commitment, shown-card shares, "
         "hand-overs"),
    )),
    ("Simultaneous decisions", (
        ("every deciding seat", "commit", "Commit simul:s<k> to its Move"),
        ("every deciding seat", "reveal", "Reveal simul:s<k>: the Move"),
    )),
    ("Chance or Roll", (
        ("every seat", "commit", "Commit chance:c<n> (sent with the reveal of c<n-1>)"),
        ("every seat", "reveal", "Reveal chance:c<n>"),
    )),
    ("Shuffle", (
        ("seat 0, then 1, ... in turn", "shuffle", "ShuffleStep <pile>.<k> s<k>/<seat>"),
    )),
    ("Deal", (
        ("every seat but the recipient", "shares", "DecryptShares <deck> s<k>"),
    )),
    ("Flip", (
        ("every seat", "shares", "DecryptShares <deck> s<k> for the pile's next cards"),
    )),
    ("Rehandle", (
        ("the holder", "rehandle", "ShuffleStep hand<seat>.<k> s<k>/rehandle (own key)"),
    )),
    ("Peek", (
        ("the holder", "copy", "HandOver <deck> s<k>/peek to the peeking seat (not moved)"),
    )),
    ("Reveal held cards", (
        ("each holder", "shares", "DecryptShares <deck> s<k> for the named held cards"),
    )),
    ("Reveal bids", (
        ("each bidder", "open", "Opening (nonce, slots, own shares)"),
    )),
    ("Reveal armies", (
        ("each placer", "pool", "Opening + HandOver to the joint key"),
        ("seat 0, then 1, ... in turn", "remix", "ShuffleStep pool<army> s<k>/mix<seat>"),
        ("every seat", "open", "DecryptShares pool<army> s<k>/open"),
    )),
    ("Game over", (
        ("every seat", "audit", "AuditOpening (deck key secret, shuffle openings)"),
    )),
)
"""Each engine request, and the rounds of parts that complete it (docs/protocol.md §11)."""


def state_diagram() -> str:
    """The session state machine as a Mermaid diagram, generated from :data:`EXCHANGES`."""
    lines = ["stateDiagram-v2", "    [*] --> keys: every seat publishes KeyShare"]
    lines.append("    keys --> request: next engine request (step k)")
    for request, rounds in EXCHANGES:
        node = request.replace(" ", "_").lower()
        lines.append(f"    request --> {node}_{rounds[0][1]}: {request}")
        for (who, name, part), nxt in zip(rounds, (*rounds[1:], None), strict=True):
            here = f"{node}_{name}"
            lines.append(f"    {here}: {name} -- {who} sends {part}")
            target = f"{node}_{nxt[1]}" if nxt else ("done" if request == "Game over"
                                                     else "request")
            lines.append(f"    {here} --> {target}: all parts in and checked")
    lines.append("    request --> verdict: a check fails / a waited-for seat times out")
    lines.append("    done --> [*]")
    lines.append("    verdict --> [*]")
    return "\n".join(lines)


class Exchanges(DecisionExchanges, RevealExchanges, HeldCardExchanges):
    """The protocol state of one session and the exchange for each kind of request."""

    def advance(self) -> bool:
        """Complete the pending request if everything it needs is here."""
        self.waiting_for_reveal = False
        game = self.s.game
        if not self.early_audit:
            for seat in self.s.seats:
                msg = self.s.parts.get((seat, "audit"))
                if msg is None or msg.when == "end":
                    continue
                # "early/<step>": the seat found the deck broken at that step. We open once we
                # have reached it too, so every peer checks at least the shuffles it checked.
                _, _, at = msg.when.partition("/")
                if not at.isdigit() or self.step >= int(at):
                    self.early_audit = f"seat {seat} found the deck broken"
        self.complaints()
        if game.over or self.early_audit:
            return self.audit()
        pending = game.pending()
        first = pending[0]
        if isinstance(first, Decision):
            return self.decisions([r for r in pending if isinstance(r, Decision)])
        if isinstance(first, Chance | Roll):
            return self.chance_request(first)
        if isinstance(first, Shuffle):
            return self.shuffle_request(first)
        if isinstance(first, Deal):
            return self.deal_request(first)
        if isinstance(first, Flip):
            return self.flip_request(first)
        if isinstance(first, Peek):
            return self.peek_request(first)
        if isinstance(first, Rehandle):
            return self.rehandle_request(first)
        if isinstance(first, Reveal):
            return self.reveal_request(first)
        raise LocalProtocolError(f"no exchange for {type(first).__name__}")

    def need_keys(self) -> bool:
        if self.joint is not None:
            return True
        for seat in self.s.seats:
            if seat not in self.keys:
                msg = self.s.part(seat, "key")
                if msg is not None:
                    self.keys[seat] = verify_key_share(self.s.table, seat, msg)
        if len(self.keys) < len(self.s.seats):
            return False
        self.joint = joint_key(self.keys[s] for s in self.s.seats)
        return True

    def complaints(self) -> None:
        """Check every complaint about a step we have reached -- a deal's shares, or a
        shuffle or re-mix output with points outside the group: blame the seat whose shares
        or points fail, or the complainer if they were sound."""
        from ._errors import blame

        for seat, key in list(self.s.complaints):
            msg = self.s.parts[(seat, key)]
            if (seat, key) in self.judged:
                continue
            if msg.step not in self.dealt:
                self.judge_shuffle_complaint(seat, key, msg)
                continue
            self.judged.add((seat, key))
            label, cards, found = self.dealt[msg.step]
            accused = found.get(msg.about)
            if accused is None or msg.about == seat:
                raise blame(seat, "false-complaint", f"seat {seat} complained about nothing")
            try:
                verify_shares(self.s.table, msg.about, self.keys[msg.about], accused, cards)
            except RemoteProtocolError as exc:
                raise blame(msg.about, "bad-proof", f"{exc} (reported by seat {seat})") from None
            raise blame(seat, "false-complaint",
                        f"seat {seat} complained about seat {msg.about}'s sound shares")

    def judge_shuffle_complaint(self, seat: int, key: str, msg: Complaint) -> None:
        """A complaint that ``msg.about``'s shuffle output at ``msg.step`` holds a point
        outside the group: validate it ourselves once we have it."""
        from ._errors import blame

        outputs = self.shuffled.get((msg.step, msg.about))
        if outputs is None and msg.step >= self.step:
            return  # not reached yet
        self.judged.add((seat, key))
        if outputs is None or msg.about == seat:
            raise blame(seat, "false-complaint", f"seat {seat} complained about nothing")
        for output in outputs:
            for ct in output:
                try:
                    ct.check(seat=msg.about)
                except InvalidPoint as exc:
                    raise blame(msg.about, "invalid-point",
                                f"{exc} (reported by seat {seat})") from None
        raise blame(seat, "false-complaint",
                    f"seat {seat} complained about seat {msg.about}'s sound shuffle")

    def chance_round(self, n: int) -> tuple[JointRandomness, Any]:
        """Joint-randomness round ``n`` (the n-th Chance or Roll of the game), our commitment
        to it published."""
        if n not in self.chance:
            jr = JointRandomness(self.s.table, f"c{n}", self.s.seats)
            reveal = None
            if self.me is not None:
                commit, reveal = jr.contribute(self.me, value=self.s.secret(f"chance/{n}", 32),
                                               nonce=self.s.secret(f"chance-nonce/{n}", 32))
                self.s.publish(commit)
            self.chance[n] = (jr, reveal)
        return self.chance[n]

    def chance_request(self, req: Chance | Roll) -> bool:
        """Every seat commits, then reveals.  Each seat commits to round 0 with its key share
        and to round ``n + 1`` in the same batch as its reveal for round ``n``, so a Chance or
        Roll costs one network round: every commitment is already in when the request comes."""
        k = self.step
        n = self.chance_rounds.setdefault(k, len(self.chance_rounds))
        jr, reveal = self.chance_round(n)
        for seat in jr.missing_commits():
            msg = self.s.part(seat, f"commit:{jr.purpose}")
            if msg is not None:
                jr.add_commit(seat, msg)
        if jr.missing_commits():
            return False
        if reveal is not None:
            self.s.publish(reveal)
            self.chance_round(n + 1)
        for seat in jr.missing_reveals():
            msg = self.s.part(seat, f"reveal:{jr.purpose}")
            if msg is not None:
                jr.add_reveal(seat, msg)
        if jr.missing_reveals():
            self.waiting_for_reveal = True
            return False
        if isinstance(req, Roll):
            self.apply(RollAnswer(jr.stream().dice(req.sides)))
        else:
            order = jr.stream().permutation(req.n)
            self.apply(ChanceAnswer(tuple(order[: req.k])))
        return True

    def shuffle_request(self, req: Shuffle) -> bool:
        if not self.need_keys():
            return False
        assert self.joint is not None
        k = self.step
        label = f"{req.pile}.{k}"
        if label not in self.decks:
            codebook = CardCodebook(self.s.table, label, len(req.cards))
            self.decks[label] = DeckRecord(label, req.cards, codebook,
                                           [initial_deck(codebook, self.joint)])
            for point, card in zip(codebook.points, req.cards, strict=True):
                self.point_card[point] = card
        rec = self.decks[label]
        while len(rec.steps) <= len(self.s.seats):
            seat = len(rec.steps) - 1
            step = f"s{k}/{seat}"
            if seat == self.me:
                self.my_shuffle(label, step, rec.steps[-1])
            msg = self.s.part(seat, f"shuffle:{label}:{step}")
            if msg is None:
                return False
            cards = self.shuffled_cards(seat, msg.cards, last=self.s.seats[-1])
            if len(cards) != len(rec.cards):
                raise BadProof("a shuffle step changed the number of cards", seat=seat)
            self.shuffles.append((seat, label, step, rec.steps[-1], cards))
            rec.steps.append(cards)
        self.current[req.pile] = label
        self.apply(ShuffleAnswer(req.pile))
        return True

    def deal_request(self, req: Deal) -> bool:
        from ._events import CardsSeen

        if req.source.startswith("hand:"):
            return self.hand_over_request(req, int(req.source[5:]))
        k, recipient = self.step, req.seat
        rec = self.decks[self.current[req.source]]
        final = rec.steps[-1]
        slots = list(range(rec.top, rec.top + req.count))
        cards = {slot: final[slot] for slot in slots}
        if self.me is not None and self.me != recipient:
            self.s.publish(decryption_shares(self.s.deck_key, self.s.table, self.me, rec.label,
                                             f"s{k}", cards,
                                             entropy=self.s.secret(f"shares/{rec.label}/{k}", 32)))
        found: dict[int, DecryptShares] = {}
        for seat in self.s.seats:
            if seat != recipient:
                msg = self.s.part(seat, f"shares:{rec.label}:s{k}")
                if msg is not None:
                    found[seat] = msg
        if len(found) < len(self.s.seats) - 1:
            return False
        self.dealt[k] = (rec.label, cards, found)
        stripped = dict(cards)
        for seat, msg in sorted(found.items()):
            if sorted(s.slot for s in msg.shares) != slots:
                raise BadProof("shares do not cover exactly the dealt cards", seat=seat)
            if recipient == self.me or self.me is None:
                # Only the recipient needs these shares, so only it checks their proofs (and an
                # auditor, which checks everything); a bad one the recipient reports in a
                # Complaint that every other peer then checks too.
                try:
                    shares = verify_shares(self.s.table, seat, self.keys[seat], msg, cards)
                except RemoteProtocolError:
                    self.s.publish(Complaint(k, seat))
                    raise
            else:
                shares = {s.slot: s.share for s in msg.shares}
            for slot in slots:
                try:
                    stripped[slot] = strip_shares(stripped[slot], [shares[slot]])
                except GroupError:  # not ours to judge: the recipient will complain
                    stripped[slot] = cards[slot]
        ids: tuple[str, ...] | None = None
        for slot in slots:
            self.held[recipient][(rec.label, slot)] = stripped[slot]
        if recipient == self.me:
            ids = tuple(self.open_mine((rec.label, slot)) for slot in slots)
        rec.top += req.count
        before = getattr(self.s.game.state, "next_handle", 0)
        self.apply(DealAnswer(recipient, ids))
        self.note_dealt_handles(before, [(rec.label, slot) for slot in slots])
        if ids:
            self.s.emit(CardsSeen(ids, "dealt"))
        return True

    def hand_over_request(self, req: Deal, giver: int) -> bool:
        from ._events import CardsSeen

        moved = self.transfers.pop((giver, req.seat), [])
        if len(moved) != req.count:
            raise LocalProtocolError("hand-over does not match the spoils")
        ids = []
        for slot, fresh in moved:
            self.held[giver].pop(slot)
            self.mine.pop(slot, None) if giver == self.me else None
            self.held[req.seat][slot] = fresh
            if req.seat == self.me:
                ids.append(self.open_mine(slot))
        self.apply(DealAnswer(req.seat, tuple(ids) if req.seat == self.me else None))
        if ids:
            self.s.emit(CardsSeen(tuple(ids), "handed"))
        return True

    def flip_request(self, req: Flip) -> bool:
        """The next cards of a pile turned face up: every seat's shares, checked by all."""
        if not self.need_keys():
            return False
        k = self.step
        rec = self.decks[self.current[req.pile]]
        final = rec.steps[-1]
        slots = list(range(rec.top, rec.top + req.count))
        if slots and slots[-1] >= len(final):
            raise LocalProtocolError(f"the {req.pile} pile has no {req.count} cards left")
        cards = {slot: final[slot] for slot in slots}
        if self.me is not None:
            self.s.publish(decryption_shares(self.s.deck_key, self.s.table, self.me, rec.label,
                                             f"s{k}", cards,
                                             entropy=self.s.secret(f"shares/{rec.label}/{k}", 32)))
        found = {seat: self.s.part(seat, f"shares:{rec.label}:s{k}") for seat in self.s.seats}
        if any(msg is None for msg in found.values()):
            return False
        stripped = dict(cards)
        for seat, msg in sorted(found.items()):
            assert msg is not None
            shares = verify_shares(self.s.table, seat, self.keys[seat], msg, cards)
            for slot in slots:
                stripped[slot] = strip_shares(stripped[slot], [shares[slot]])
        ids = []
        for slot in slots:
            card = self.point_card.get(stripped[slot].b)
            if card is None:  # every share checked out: the deck itself was tampered with
                self.early_audit = f"a flipped card of the {req.pile} pile is not a card"
                return True
            ids.append(card)
        rec.top += req.count
        self.apply(FlipAnswer(req.pile, tuple(ids)))
        return True
