"""Decisions: a seat's Move (public answer, commitment, shown cards, hand-overs), and
simultaneous decisions committed first and revealed together.

:class:`DecisionExchange` owns what our own decisions published and which seats'
decisions the engine has taken; the cards a move shows, commits or hands over are read
from and written to the session's :class:`~protocol._cards.CardLedger`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fairtable.engine.requests import Decision, Request

from ._cards import CardLedger, Commitment, Slot, slot_bytes
from ._codec import decode_as, encode
from ._commit import commitment_digest, make_commitment, verify_reveal
from ._deck import Ciphertext, hand_over, verify_hand_over
from ._errors import DecodeError, LocalProtocolError, blame
from ._events import DecisionNeeded
from ._part_keys import CommitPart, HandOverPart, MovePart, NotePart, PartKey, RevealPart
from ._port import Port
from ._session_messages import Move
from ._verdict_kinds import VerdictKind

__all__ = ["DecisionExchange"]


class DecisionExchange:
    """Turning seats' decisions into moves, and moves into engine answers."""

    REQUESTS: ClassVar[dict[type, str]] = {Decision: "advance"}

    def __init__(self, port: Port, cards: CardLedger) -> None:
        self.port = port
        self.cards = cards
        self.my_answers: dict[int, Any] = {}
        self.applied: set[tuple[int, int]] = set()  # (seat, step) of every move taken
        self.asked: set[int] = set()
        self.held_back: dict[int, Any] = {}  # step -> our simultaneous reveal, not yet sent

    def advance(self, pending: tuple[Request, ...]) -> bool:
        port = self.port
        decisions = [r for r in pending if isinstance(r, Decision)]
        k = port.step
        for d in decisions:
            if d.seat == port.me and k not in self.asked:
                self.asked.add(k)
                if port.holds(d.seat, NotePart(k)):  # decided before a restart
                    if any(r.simultaneous for r in decisions) and k not in self.held_back:
                        answer = port.read_note(k)
                        self.my_answers[k] = answer
                        self.prepare(answer, k, True)
                else:
                    port.emit(DecisionNeeded(k, d, port.view(d.seat)))
        if any(d.simultaneous for d in decisions):
            return self.simultaneous(k)
        progressed = False
        for d in decisions:
            if (d.seat, k) in self.applied:
                continue
            msg = port.part(d.seat, MovePart(k))
            if msg is None:
                continue
            self.applied.add((d.seat, k))
            self.take_move(d.seat, msg)
            progressed = True
            if port.step != k:
                break
        return progressed

    def simultaneous(self, k: int) -> bool:
        """Simultaneous decisions: every deciding seat commits to its move, then all reveal,
        so nobody decides knowing another's choice."""
        port = self.port
        purpose = f"simul:s{k}"
        group = port.deciding_seats()
        commits = {seat: port.part(seat, CommitPart(purpose)) for seat in group}
        if any(c is None for c in commits.values()):
            return False
        if k in self.held_back:
            port.publish(self.held_back.pop(k))
        progressed = False
        for seat in group:
            if (seat, k) in self.applied:
                continue
            reveal = port.part(seat, RevealPart(purpose))
            if reveal is None:
                port.waiting_for_reveal = True
                continue
            payload = verify_reveal(port.table, seat, commits[seat], reveal)
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
        port = self.port
        me, k = port.me, port.step
        if me is None or port.over:
            raise LocalProtocolError("there is nothing for this peer to decide")
        asked = [d for d in port.pending() if isinstance(d, Decision) and d.seat == me]
        done: tuple[PartKey, ...] = (MovePart(k), NotePart(k))
        if not asked or any(port.holds(me, key) for key in done):
            raise LocalProtocolError("it is not this seat's turn to decide")
        port.check(answer)  # raises the engine's typed error; nothing changes
        port.publish(port.note(k, answer))
        self.prepare(answer, k, any(d.simultaneous for d in asked))

    def prepare(self, answer: Any, k: int, simultaneous: bool) -> None:
        """Everything our decision at step ``k`` publishes.  Deterministic from the answer
        and our secret seed: a restarted peer re-runs it from its note and gets the same."""
        port, cards, codec = self.port, self.cards, self.port.codec
        me = port.me
        assert me is not None
        by_card = {card: slot for slot, card in cards.mine.items()}
        commit = b""
        secret = codec.secret_cards(answer)
        if secret:
            slots = tuple(by_card[c] for c in secret)
            nonce = port.secret(f"commit/{k}", 32)
            commit = commitment_digest(port.table, me, f"move:s{k}", nonce, slot_bytes(slots))
            cards.my_openings[k] = (nonce, slots)
        shown = cards.shares_for([by_card[c] for c in codec.shown_cards(answer)], f"s{k}")
        gifts: dict[tuple[int, str], dict[int, Ciphertext]] = {}
        for recipient, card in codec.gifted_cards(answer):
            deck, slot = by_card[card]
            gifts.setdefault((recipient, deck), {})[slot] = cards.held[me][(deck, slot)]
        for (recipient, deck), held in sorted(gifts.items()):
            msg, _ = hand_over(
                port.deck_key,
                port.table,
                me,
                deck,
                f"s{k}",
                recipient,
                cards.keys[recipient],
                held,
                entropy=port.secret(f"handover/{k}/{recipient}/{deck}", 32),
            )
            port.publish(msg)
        self.my_answers[k] = answer
        move = Move(k, codec.encode(answer), commit, shown)
        if simultaneous:
            sealed, opening = make_commitment(
                port.table, me, f"simul:s{k}", encode(move), nonce=port.secret(f"simul/{k}", 32)
            )
            self.held_back[k] = opening
            port.publish(sealed)
        else:
            port.publish(move)

    def take_move(self, seat: int, msg: Move) -> None:
        port, codec = self.port, self.port.codec
        k = port.step
        if msg.step != k:
            raise blame(
                seat, VerdictKind.REPLAY, f"seat {seat}'s move is for step {msg.step}, not {k}"
            )
        if seat == port.me:
            answer = self.my_answers.get(k)
            if answer is None:  # replaying our own log after a restart
                answer = port.read_note(k)
                self.prepare(answer, k, False)
        else:
            answer = codec.decode(msg.answer, seat)
        claimed = codec.shown_cards(answer)
        shown = self.cards.read_shown(seat, msg.shown, f"s{k}")
        if sorted(shown) != sorted(c for c in claimed if c is not None):
            raise blame(
                seat, VerdictKind.BAD_REVEAL, f"seat {seat}'s shown cards are not what it claims"
            )
        self.take_gifts(seat, answer, k)
        if bool(msg.commit) != codec.rules.places_face_down(answer):
            raise blame(seat, VerdictKind.ILLEGAL_MOVE, f"seat {seat}'s move lacks its commitment")
        before = port.next_handle()
        port.apply(answer, seat)
        if msg.commit:
            handles = tuple(range(before, port.next_handle()))
            self.cards.commitments.append(Commitment(seat, k, msg.commit, handles))

    def take_gifts(self, seat: int, answer: Any, k: int) -> None:
        """The cards a move announces handing over, checked and kept for the hand-over deal."""
        counts = dict(self.port.rules.gift_counts(answer))
        if not counts:
            return
        port, cards = self.port, self.cards
        for recipient, count in sorted(counts.items()):
            moved: list[tuple[Slot, Ciphertext]] = []
            decks = sorted({d for d, _ in cards.held[seat]})
            for deck in decks:
                msg = port.stored(seat, HandOverPart(deck, f"s{k}", recipient))
                if msg is None:
                    continue
                held = {item.slot: cards.held[seat].get((deck, item.slot)) for item in msg.cards}
                if any(ct is None for ct in held.values()):
                    raise blame(
                        seat, VerdictKind.BAD_PROOF, f"seat {seat} hands over a card it lacks"
                    )
                present = {slot: ct for slot, ct in held.items() if ct is not None}
                fresh = verify_hand_over(
                    port.table, seat, cards.keys[seat], cards.keys[recipient], msg, present
                )
                moved += [((deck, slot), ct) for slot, ct in sorted(fresh.items())]
            if len(moved) != count:
                raise blame(
                    seat,
                    VerdictKind.ILLEGAL_MOVE,
                    f"seat {seat} announced {count} cards for "
                    f"seat {recipient} but handed over {len(moved)}",
                )
            cards.transfers[(seat, recipient)] = moved
