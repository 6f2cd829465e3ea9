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
Chance     joint randomness: every seat commits, then reveals
Shuffle    every seat in seat order re-randomises and permutes the deck
Deal       every other seat publishes its decryption shares for the dealt
           slots; only the recipient can finish the decryption
Reveal     each placer opens its commitment (bids: with its shares; army cards:
           re-encrypted into a pool), pools are re-mixed by every seat in turn,
           then every seat publishes shares for the pooled cards
=========  ==================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from engine.canonical import canonical_bytes
from engine.errors import EngineError, IllegalReveal
from engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Decision,
    Reveal,
    RevealAnswer,
    Shuffle,
    ShuffleAnswer,
)

from ._answers import decode_answer, encode_answer, gifted_cards, secret_cards, shown_cards
from ._codec import decode_as, encode
from ._commit import commitment_digest, make_commitment, verify_reveal
from ._deck import (
    CardCodebook,
    Ciphertext,
    decryption_shares,
    hand_over,
    initial_deck,
    joint_key,
    open_held,
    parse_cards,
    remix,
    strip_shares,
    verify_hand_over,
    verify_key_share,
    verify_shares,
    verify_shuffle_opening,
)
from ._errors import (
    BadCommitment,
    BadProof,
    DecodeError,
    LocalProtocolError,
    RemoteProtocolError,
    UnknownCard,
)
from ._group import GroupError, base_mul, sub
from ._messages import JOINT, DecryptShares, ShuffleOpening, ShuffleStep
from ._randomness import JointRandomness
from ._session_messages import AuditOpening, Complaint, HeldSlot, Move, Opening

if TYPE_CHECKING:
    from ._session import TableSession

EXCHANGES: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    ("Decision", (
        ("deciding seat", "move", "Move: public answer, commitment, shown-card shares, "
         "hand-overs"),
    )),
    ("Simultaneous decisions", (
        ("every deciding seat", "commit", "Commit simul:s<k> to its Move"),
        ("every deciding seat", "reveal", "Reveal simul:s<k>: the Move"),
    )),
    ("Chance", (
        ("every seat", "commit", "Commit chance:s<k>"),
        ("every seat", "reveal", "Reveal chance:s<k>"),
    )),
    ("Shuffle", (
        ("seat 0, then 1, ... in turn", "shuffle", "ShuffleStep <pile>.<k> s<k>/<seat>"),
    )),
    ("Deal", (
        ("every seat but the recipient", "shares", "DecryptShares <deck> s<k>"),
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

Slot = tuple[str, int]


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


class Exchanges:
    """The protocol state of one session: keys, decks, held cards, commitments."""

    def __init__(self, session: TableSession) -> None:
        self.s = session
        self.keys: dict[int, bytes] = {}
        self.joint: bytes | None = None
        self.decks: dict[str, DeckRecord] = {}
        self.current: dict[str, str] = {}
        self.generation: dict[str, int] = {}
        self.point_card: dict[bytes, str] = {}
        self.held: dict[int, dict[Slot, Ciphertext]] = {seat: {} for seat in session.seats}
        self.mine: dict[Slot, str] = {}
        self.commitments: list[Commitment] = []
        self.my_openings: dict[int, tuple[bytes, tuple[Slot, ...]]] = {}
        self.my_answers: dict[int, Any] = {}
        self.applied: set[tuple[int, int]] = set()
        self.asked: set[int] = set()
        self.transfers: dict[tuple[int, int], list[tuple[Slot, Ciphertext]]] = {}
        self.chance: dict[int, tuple[JointRandomness, Any]] = {}
        self.shuffles: list[tuple[int, str, str, list[Ciphertext], list[Ciphertext]]] = []
        self.my_shuffles: list[ShuffleOpening] = []
        self.pools: dict[int, dict[str, list[Ciphertext]]] = {}
        self.remixed: set[tuple[str, str, str]] = set()
        self.held_back: dict[int, Any] = {}
        self.dealt: dict[int, tuple[str, dict[int, Ciphertext], dict[int, DecryptShares]]] = {}
        self.judged: set[tuple[int, str]] = set()
        self.waiting_for_reveal = False
        self.audited = False
        self.early_audit = ""

    @property
    def me(self) -> int | None:
        return self.s.seat

    @property
    def step(self) -> int:
        return self.s.game.state.serial

    # -- driving ---------------------------------------------------------------------------
    def advance(self) -> bool:
        """Complete the pending request if everything it needs is here."""
        self.waiting_for_reveal = False
        game = self.s.game
        if not self.early_audit:
            for seat in self.s.seats:
                msg = self.s.parts.get((seat, "audit"))
                if msg is not None and msg.when == "early":
                    self.early_audit = f"seat {seat} found the deck broken"
        self.complaints()
        if game.over or self.early_audit:
            return self.audit()
        pending = game.pending()
        first = pending[0]
        if isinstance(first, Decision):
            return self.decisions([r for r in pending if isinstance(r, Decision)])
        if isinstance(first, Chance):
            return self.chance_request(first)
        if isinstance(first, Shuffle):
            return self.shuffle_request(first)
        if isinstance(first, Deal):
            return self.deal_request(first)
        if isinstance(first, Reveal):
            return self.reveal_request(first)
        raise LocalProtocolError(f"no exchange for {type(first).__name__}")

    def apply(self, answer: Any, seat: int | None = None) -> None:
        """Apply an answer to our engine; a refusal blames ``seat`` (if any)."""
        from ._session import Blame, StepApplied

        step = self.step
        try:
            events = self.s.game.apply(answer)
        except EngineError as exc:
            culprit = exc.seat if isinstance(exc, IllegalReveal) else None
            culprit = seat if culprit is None else culprit
            if culprit is None:
                # Cards the protocol proved (a deal, a reveal) that the rules say cannot be:
                # the deck itself was tampered with.  Everyone opens; the audit names who.
                self.early_audit = str(exc)
                return
            raise Blame(culprit, "illegal-move", str(exc)) from None
        if self.s.game.over or self.step != step:
            self.s.record_digest(step)
        if events:
            self.s.emit(StepApplied(step, tuple(events)))

    # -- keys -------------------------------------------------------------------------------
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

    # -- complaints -------------------------------------------------------------------------
    def complaints(self) -> None:
        """Check every complaint about a deal we have reached: blame the seat whose shares
        fail, or the complainer if they were sound."""
        from ._session import Blame

        for seat, key in list(self.s.complaints):
            msg = self.s.parts[(seat, key)]
            if (seat, key) in self.judged or msg.step not in self.dealt:
                continue
            self.judged.add((seat, key))
            label, cards, found = self.dealt[msg.step]
            accused = found.get(msg.about)
            if accused is None or msg.about == seat:
                raise Blame(seat, "false-complaint", f"seat {seat} complained about nothing")
            try:
                verify_shares(self.s.table, msg.about, self.keys[msg.about], accused, cards)
            except RemoteProtocolError as exc:
                raise Blame(msg.about, "bad-proof", f"{exc} (reported by seat {seat})") from None
            raise Blame(seat, "false-complaint",
                        f"seat {seat} complained about seat {msg.about}'s sound shares")

    # -- chance -----------------------------------------------------------------------------
    def chance_request(self, req: Chance) -> bool:
        k = self.step
        if k not in self.chance:
            jr = JointRandomness(self.s.table, f"s{k}", self.s.seats)
            reveal = None
            if self.me is not None:
                commit, reveal = jr.contribute(self.me, value=self.s.secret(f"chance/{k}", 32))
                self.s.publish(commit)
            self.chance[k] = (jr, reveal)
        jr, reveal = self.chance[k]
        for seat in jr.missing_commits():
            msg = self.s.part(seat, f"commit:{jr.purpose}")
            if msg is not None:
                jr.add_commit(seat, msg)
        if jr.missing_commits():
            return False
        if reveal is not None:
            self.s.publish(reveal)
        for seat in jr.missing_reveals():
            msg = self.s.part(seat, f"reveal:{jr.purpose}")
            if msg is not None:
                jr.add_reveal(seat, msg)
        if jr.missing_reveals():
            self.waiting_for_reveal = True
            return False
        order = jr.stream().permutation(req.n)
        self.apply(ChanceAnswer(tuple(order[: req.k])))
        return True

    # -- shuffles ---------------------------------------------------------------------------
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
            cards = parse_cards(msg.cards, seat=seat)
            if len(cards) != len(rec.cards):
                raise BadProof("a shuffle step changed the number of cards", seat=seat)
            self.shuffles.append((seat, label, step, rec.steps[-1], cards))
            rec.steps.append(cards)
        self.current[req.pile] = label
        self.apply(ShuffleAnswer(req.pile))
        return True

    # -- deals ------------------------------------------------------------------------------
    def deal_request(self, req: Deal) -> bool:
        from ._session import CardsSeen

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
        self.apply(DealAnswer(recipient, ids))
        if ids:
            self.s.emit(CardsSeen(ids, "dealt"))
        return True

    def open_mine(self, slot: Slot) -> str:
        """Decrypt a card we hold; a non-card means someone broke the deck."""
        try:
            point = open_held(self.s.deck_key, self.held[self.me][slot])  # type: ignore[index]
            card = self.point_card[point]
        except (GroupError, KeyError):
            raise IllegalReveal("a dealt card is not a card of the deck") from None
        self.mine[slot] = card
        return card

    def hand_over_request(self, req: Deal, giver: int) -> bool:
        from ._session import CardsSeen

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

    # -- decisions --------------------------------------------------------------------------
    def decisions(self, pending: list[Decision]) -> bool:
        from ._session import DecisionNeeded

        k = self.step
        for d in pending:
            if d.seat == self.me and k not in self.asked:
                self.asked.add(k)
                if (d.seat, f"note:{k}") in self.s.parts:  # decided before a restart
                    if any(r.simultaneous for r in pending) and k not in self.held_back:
                        answer = self.s.read_note(k)
                        self.my_answers[k] = answer
                        self.prepare(answer, k, True)
                else:
                    self.s.emit(DecisionNeeded(k, d, self.s.game.view(d.seat)))
        if any(d.simultaneous for d in pending):
            return self.simultaneous_decisions(k)
        progressed = False
        for d in pending:
            if (d.seat, k) in self.applied:
                continue
            msg = self.s.part(d.seat, f"move:{k}")
            if msg is None:
                continue
            self.applied.add((d.seat, k))
            self.take_move(d.seat, msg)
            progressed = True
            if self.step != k:
                break
        return progressed

    def simultaneous_decisions(self, k: int) -> bool:
        """Simultaneous decisions: every deciding seat commits to its move, then all reveal,
        so nobody decides knowing another's choice."""
        purpose = f"simul:s{k}"
        group = sorted(r.seat for r in self.s.game.state.pending if isinstance(r, Decision))
        commits = {seat: self.s.part(seat, f"commit:{purpose}") for seat in group}
        if any(c is None for c in commits.values()):
            return False
        if k in self.held_back:
            self.s.publish(self.held_back.pop(k))
        progressed = False
        for seat in group:
            if (seat, k) in self.applied:
                continue
            reveal = self.s.part(seat, f"reveal:{purpose}")
            if reveal is None:
                self.waiting_for_reveal = True
                continue
            payload = verify_reveal(self.s.table, seat, commits[seat], reveal)
            try:
                move = decode_as(payload, Move)
            except DecodeError:
                raise DecodeError("a revealed move does not decode", seat=seat) from None
            self.applied.add((seat, k))
            self.take_move(seat, move)
            progressed = True
        return progressed

    def decide(self, answer: Any) -> None:
        """Our seat's answer: checked by a trial engine, then published as a Move."""
        me, k = self.me, self.step
        if me is None or self.s.game.over:
            raise LocalProtocolError("there is nothing for this peer to decide")
        asked = [d for d in self.s.game.pending() if isinstance(d, Decision) and d.seat == me]
        done = {f"move:{k}", f"note:{k}"}
        if not asked or any((me, key) in self.s.parts for key in done):
            raise LocalProtocolError("it is not this seat's turn to decide")
        self.s.game.check(answer)  # raises the engine's typed error; nothing changes
        self.s.publish(self.s.note(k, answer))
        self.prepare(answer, k, any(d.simultaneous for d in asked))

    def prepare(self, answer: Any, k: int, simultaneous: bool) -> None:
        """Everything our decision at step ``k`` publishes.  Deterministic from the answer
        and our secret seed: a restarted peer re-runs it from its note and gets the same."""
        me = self.me
        assert me is not None
        by_card = {card: slot for slot, card in self.mine.items()}
        commit = b""
        secret = secret_cards(answer)
        if secret:
            slots = tuple(by_card[c] for c in secret)
            nonce = self.s.secret(f"commit/{k}", 32)
            commit = commitment_digest(self.s.table, me, f"move:s{k}", nonce, _slot_bytes(slots))
            self.my_openings[k] = (nonce, slots)
        shown = self.shares_for([by_card[c] for c in shown_cards(answer)], f"s{k}")
        gifts: dict[tuple[int, str], dict[int, Ciphertext]] = {}
        for recipient, card in gifted_cards(answer):
            deck, slot = by_card[card]
            gifts.setdefault((recipient, deck), {})[slot] = self.held[me][(deck, slot)]
        for (recipient, deck), held in sorted(gifts.items()):
            msg, _ = hand_over(self.s.deck_key, self.s.table, me, deck, f"s{k}", recipient,
                               self.keys[recipient], held,
                               entropy=self.s.secret(f"handover/{k}/{recipient}/{deck}", 32))
            self.s.publish(msg)
        self.my_answers[k] = answer
        move = Move(k, encode_answer(answer), commit, shown)
        if simultaneous:
            sealed, opening = make_commitment(self.s.table, me, f"simul:s{k}", encode(move),
                                              nonce=self.s.secret(f"simul/{k}", 32))
            self.held_back[k] = opening
            self.s.publish(sealed)
        else:
            self.s.publish(move)

    def shares_for(self, slots: list[Slot], step: str) -> tuple[DecryptShares, ...]:
        """Our decryption shares (with proofs) for held slots, one message per deck."""
        me = self.me
        assert me is not None
        by_deck: dict[str, dict[int, Ciphertext]] = {}
        for deck, slot in slots:
            by_deck.setdefault(deck, {})[slot] = self.held[me][(deck, slot)]
        return tuple(
            decryption_shares(self.s.deck_key, self.s.table, me, deck, step, cards,
                              entropy=self.s.secret(f"shown/{step}/{deck}", 32))
            for deck, cards in sorted(by_deck.items())
        )

    def my_shuffle(self, label: str, step: str, cards: list[Ciphertext]) -> None:
        """Our shuffle (or re-mix) step: deterministic from our secret seed, so a restarted
        peer replaying its log makes exactly the same one and can still open it."""
        if any(o.deck == label and o.step == step for o in self.my_shuffles):
            return
        assert self.joint is not None
        out, secret = remix(cards, self.joint, entropy=self.s.secret(f"shuffle/{label}/{step}", 32))
        self.my_shuffles.append(secret.opening(label, step))
        self.s.publish(ShuffleStep(label, step, tuple(c.to_bytes() for c in out)))

    def read_shown(self, seat: int, shown: tuple[DecryptShares, ...], step: str) -> list[str]:
        """Check a seat's shares for cards it shows and decrypt them (held slots only)."""
        out: list[str] = []
        seen: set[Slot] = set()
        for msg in shown:
            if msg.step != step:
                raise BadProof("shares for another step", seat=seat)
            cards = {}
            for share in msg.shares:
                slot = (msg.deck, share.slot)
                if slot not in self.held[seat] or slot in seen:
                    raise BadProof("shows a card it does not hold", seat=seat)
                seen.add(slot)
                cards[share.slot] = self.held[seat][slot]
            found = verify_shares(self.s.table, seat, self.keys[seat], msg, cards)
            for share in msg.shares:
                try:
                    point = sub(cards[share.slot].b, found[share.slot])
                    out.append(self.point_card[point])
                except (GroupError, KeyError):
                    raise UnknownCard("a shown card is not a card", seat=seat) from None
        for slot in seen:
            self.held[seat].pop(slot)
            self.mine.pop(slot, None)
        return out

    def take_move(self, seat: int, msg: Move) -> None:
        from ._session import Blame

        k = self.step
        if msg.step != k:
            raise Blame(seat, "replay", f"seat {seat}'s move is for step {msg.step}, not {k}")
        if seat == self.me:
            answer = self.my_answers.get(k)
            if answer is None:  # replaying our own log after a restart
                answer = self.s.read_note(k)
                self.prepare(answer, k, False)
        else:
            answer = decode_answer(msg.answer, seat)
        claimed = shown_cards(answer)
        shown = self.read_shown(seat, msg.shown, f"s{k}")
        if sorted(shown) != sorted(c for c in claimed if c is not None):
            raise Blame(seat, "bad-reveal", f"seat {seat}'s shown cards are not what it claims")
        self.take_gifts(seat, answer, k)
        if bool(msg.commit) != bool(secret_cards(answer) or getattr(answer, "count", 0)
                                    or getattr(answer, "targets", ())):
            raise Blame(seat, "illegal-move", f"seat {seat}'s move lacks its commitment")
        before = self.s.game.state.next_handle
        self.apply(answer, seat)
        if msg.commit:
            handles = tuple(range(before, self.s.game.state.next_handle))
            self.commitments.append(Commitment(seat, k, msg.commit, handles))

    def take_gifts(self, seat: int, answer: Any, k: int) -> None:
        from ._session import Blame

        counts = dict(getattr(answer, "counts", ()) or ())
        if not counts:
            return
        for recipient, count in sorted(counts.items()):
            moved: list[tuple[Slot, Ciphertext]] = []
            decks = sorted({d for d, _ in self.held[seat]})
            for deck in decks:
                msg = self.s.parts.get((seat, f"handover:{deck}:s{k}:{recipient}"))
                if msg is None:
                    continue
                held = {item.slot: self.held[seat].get((deck, item.slot)) for item in msg.cards}
                if any(ct is None for ct in held.values()):
                    raise Blame(seat, "bad-proof", f"seat {seat} hands over a card it lacks")
                fresh = verify_hand_over(self.s.table, seat, self.keys[seat],
                                         self.keys[recipient], msg, held)  # type: ignore[arg-type]
                moved += [((deck, slot), ct) for slot, ct in sorted(fresh.items())]
            if len(moved) != count:
                raise Blame(seat, "illegal-move", f"seat {seat} announced {count} cards for "
                            f"seat {recipient} but handed over {len(moved)}")
            self.transfers[(seat, recipient)] = moved

    # -- reveals ----------------------------------------------------------------------------
    def reveal_request(self, req: Reveal) -> bool:
        if req.label == "bids":
            return self.reveal_bids(req)
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
        from ._session import Blame

        if sorted((m.deck, s.slot) for m in msg.shown for s in m.shares) != sorted(order):
            raise Blame(seat, "bad-reveal", f"seat {seat}'s opening lacks shares for its cards")
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
                cards = parse_cards(msg.cards, seat=seat)
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

    # -- the end-of-game audit --------------------------------------------------------------
    def audit(self) -> bool:
        """Open our secrets, check everyone's; emit the result once."""
        from ._session import Blame, GameFinished

        if self.audited:
            return False
        when = "early" if self.early_audit else "end"
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
                    raise Blame(seat, "bad-reveal", f"seat {seat}'s deck key does not match")
            except GroupError:
                raise Blame(seat, "bad-reveal", f"seat {seat}'s deck key is invalid") from None
        opened = {(seat, o.deck, o.step): o for seat, m in openings.items() for o in m.shuffles}
        for seat, deck, step, before, after in self.shuffles:
            opening = opened.get((seat, deck, step))
            if opening is None:
                raise Blame(seat, "bad-shuffle", f"seat {seat} did not open its shuffle {step}")
            assert self.joint is not None
            verify_shuffle_opening(before, after, self.joint, opening, seat=seat)
        self.audited = True
        if self.early_audit:
            raise Blame(None, "inconclusive", f"{self.early_audit}, but every shuffle and key "
                        "checks out")
        game = self.s.game
        self.s.finished = GameFinished(game.winner, game.digest(), game.state.over)
        self.s.emit(self.s.finished)
        return False


def _slot_bytes(slots: tuple[Slot, ...] | list[Slot]) -> bytes:
    return canonical_bytes([[deck, slot] for deck, slot in slots])

