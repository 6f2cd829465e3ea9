"""Decisions: a seat's Move (public answer, commitment, shown cards, hand-overs), and
simultaneous decisions committed first and revealed together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.requests import (
    Decision,
)

from ._codec import decode_as, encode
from ._commit import commitment_digest, make_commitment, verify_reveal
from ._deck import (
    Ciphertext,
    hand_over,
    verify_hand_over,
)
from ._errors import (
    DecodeError,
    LocalProtocolError,
)
from ._exchange_core import Commitment, ExchangeCore, Slot, _slot_bytes
from ._session_messages import Move

if TYPE_CHECKING:
    pass


class DecisionExchanges(ExchangeCore):
    """Turning seats' decisions into moves, and moves into engine answers."""

    def decisions(self, pending: list[Decision]) -> bool:
        from ._events import DecisionNeeded

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
        secret = self.codec.secret_cards(answer)
        if secret:
            slots = tuple(by_card[c] for c in secret)
            nonce = self.s.secret(f"commit/{k}", 32)
            commit = commitment_digest(self.s.table, me, f"move:s{k}", nonce, _slot_bytes(slots))
            self.my_openings[k] = (nonce, slots)
        shown = self.shares_for([by_card[c] for c in self.codec.shown_cards(answer)], f"s{k}")
        gifts: dict[tuple[int, str], dict[int, Ciphertext]] = {}
        for recipient, card in self.codec.gifted_cards(answer):
            deck, slot = by_card[card]
            gifts.setdefault((recipient, deck), {})[slot] = self.held[me][(deck, slot)]
        for (recipient, deck), held in sorted(gifts.items()):
            msg, _ = hand_over(self.s.deck_key, self.s.table, me, deck, f"s{k}", recipient,
                               self.keys[recipient], held,
                               entropy=self.s.secret(f"handover/{k}/{recipient}/{deck}", 32))
            self.s.publish(msg)
        self.my_answers[k] = answer
        move = Move(k, self.codec.encode(answer), commit, shown)
        if simultaneous:
            sealed, opening = make_commitment(self.s.table, me, f"simul:s{k}", encode(move),
                                              nonce=self.s.secret(f"simul/{k}", 32))
            self.held_back[k] = opening
            self.s.publish(sealed)
        else:
            self.s.publish(move)

    def take_move(self, seat: int, msg: Move) -> None:
        from ._errors import blame

        k = self.step
        if msg.step != k:
            raise blame(seat, "replay", f"seat {seat}'s move is for step {msg.step}, not {k}")
        if seat == self.me:
            answer = self.my_answers.get(k)
            if answer is None:  # replaying our own log after a restart
                answer = self.s.read_note(k)
                self.prepare(answer, k, False)
        else:
            answer = self.codec.decode(msg.answer, seat)
        claimed = self.codec.shown_cards(answer)
        shown = self.read_shown(seat, msg.shown, f"s{k}")
        if sorted(shown) != sorted(c for c in claimed if c is not None):
            raise blame(seat, "bad-reveal", f"seat {seat}'s shown cards are not what it claims")
        self.take_gifts(seat, answer, k)
        if bool(msg.commit) != self.codec.rules.places_face_down(answer):
            raise blame(seat, "illegal-move", f"seat {seat}'s move lacks its commitment")
        before = self.s.game.state.next_handle
        self.apply(answer, seat)
        if msg.commit:
            handles = tuple(range(before, self.s.game.state.next_handle))
            self.commitments.append(Commitment(seat, k, msg.commit, handles))

    def take_gifts(self, seat: int, answer: Any, k: int) -> None:
        from ._errors import blame

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
                    raise blame(seat, "bad-proof", f"seat {seat} hands over a card it lacks")
                fresh = verify_hand_over(self.s.table, seat, self.keys[seat],
                                         self.keys[recipient], msg, held)  # type: ignore[arg-type]
                moved += [((deck, slot), ct) for slot, ct in sorted(fresh.items())]
            if len(moved) != count:
                raise blame(seat, "illegal-move", f"seat {seat} announced {count} cards for "
                            f"seat {recipient} but handed over {len(moved)}")
            self.transfers[(seat, recipient)] = moved
