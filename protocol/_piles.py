"""Piles: shuffles of the mental-poker deck, private deals, hand-overs and public flips,
and the complaints about a deal's shares or a shuffle's points.

:class:`PileExchange` owns what each deal published (kept to judge a complaint about
it) and which complaints it has judged; the decks and the cards dealt are the
session's :class:`~protocol._cards.CardLedger`.
"""

from __future__ import annotations

from typing import ClassVar

from fairtable.engine.requests import (
    Deal,
    DealAnswer,
    Flip,
    FlipAnswer,
    Request,
    Shuffle,
    ShuffleAnswer,
)

from ._cards import CardLedger, DeckRecord
from ._deck import (
    CardCodebook,
    Ciphertext,
    check_answers,
    decryption_shares,
    initial_deck,
    strip_shares,
    verify_shares,
    verify_shuffle_step,
)
from ._errors import BadProof, InvalidPoint, LocalProtocolError, RemoteProtocolError, blame
from ._events import CardsSeen, SeenWhy
from ._group import GroupError
from ._messages import JOINT, DecryptShares
from ._part_keys import PartKey, SharesPart, ShufflePart
from ._port import Port
from ._session_messages import Complaint
from ._verdict_kinds import VerdictKind

__all__ = ["PileExchange"]


class PileExchange:
    """Shuffle, Deal and Flip requests."""

    REQUESTS: ClassVar[dict[type, str]] = {Shuffle: "shuffle", Deal: "deal", Flip: "flip"}

    def __init__(self, port: Port, cards: CardLedger) -> None:
        self.port = port
        self.cards = cards
        self.dealt: dict[
            int, tuple[str, dict[int, Ciphertext], dict[int, DecryptShares], int]
        ] = {}  # step -> deck, cards, shares, recipient
        self.judged: set[tuple[int, PartKey]] = set()
        self.restarts: dict[int, str] = {}  # step -> its shuffle's deck label, restarted

    # -- complaints -------------------------------------------------------------------------
    def complaints(self) -> None:
        """Check every complaint about a step we have reached -- a deal's shares, or a
        shuffle or re-mix output with points outside the group: blame the seat whose shares
        or points fail, or the complainer if they were sound."""
        port = self.port
        for seat, key in list(port.complaints):
            msg = port.stored(seat, key)
            if (seat, key) in self.judged:
                continue
            if msg.step not in self.dealt:
                self.judge_shuffle_complaint(seat, key, msg)
                continue
            self.judged.add((seat, key))
            label, cards, found, recipient = self.dealt[msg.step]
            accused = found.get(msg.about)
            if accused is None or msg.about == seat:
                raise blame(
                    seat, VerdictKind.FALSE_COMPLAINT, f"seat {seat} complained about nothing"
                )
            try:
                verify_shares(
                    port.table,
                    msg.about,
                    self.cards.keys[msg.about],
                    accused,
                    cards,
                    to_seat=recipient,
                )
            except RemoteProtocolError as exc:
                raise blame(
                    msg.about, VerdictKind.BAD_PROOF, f"{exc} (reported by seat {seat})"
                ) from None
            raise blame(
                seat,
                VerdictKind.FALSE_COMPLAINT,
                f"seat {seat} complained about seat {msg.about}'s sound shares",
            )

    def judge_shuffle_complaint(self, seat: int, key: PartKey, msg: Complaint) -> None:
        """A complaint that ``msg.about``'s shuffle output at ``msg.step`` holds a point
        outside the group: validate it ourselves once we have it."""
        outputs = self.cards.shuffled.get((msg.step, msg.about))
        if outputs is None and msg.step >= self.port.step:
            return  # not reached yet
        self.judged.add((seat, key))
        if outputs is None or msg.about == seat:
            raise blame(seat, VerdictKind.FALSE_COMPLAINT, f"seat {seat} complained about nothing")
        for output in outputs:
            for ct in output:
                try:
                    ct.check(seat=msg.about)
                except InvalidPoint as exc:
                    raise blame(
                        msg.about, VerdictKind.INVALID_POINT, f"{exc} (reported by seat {seat})"
                    ) from None
        raise blame(
            seat,
            VerdictKind.FALSE_COMPLAINT,
            f"seat {seat} complained about seat {msg.about}'s sound shuffle",
        )

    # -- requests ---------------------------------------------------------------------------
    def shuffle(self, pending: tuple[Request, ...]) -> bool:
        req = pending[0]
        assert isinstance(req, Shuffle)
        port, ledger = self.port, self.cards
        if not ledger.need_keys():
            return False
        assert ledger.joint is not None
        k = port.step
        label = self.restarts.get(k, f"{req.pile}.{k}")
        if label not in ledger.decks:
            codebook = CardCodebook(port.table, label, len(req.cards))
            ledger.decks[label] = DeckRecord(
                label, req.cards, codebook, [initial_deck(codebook, ledger.joint)]
            )
            for point, card in zip(codebook.points, req.cards, strict=True):
                ledger.point_card[point] = card
        rec = ledger.decks[label]
        shufflers = port.seats  # every seat still at the table, in seat order
        while len(rec.steps) <= len(shufflers):
            seat = shufflers[len(rec.steps) - 1]
            step = f"s{k}/{seat}"
            if seat == port.me:
                ledger.my_shuffle(label, step, rec.steps[-1])
            msg = port.part(seat, ShufflePart(label, step))
            if msg is None:
                return False
            if seat != port.me:  # shuffle proof
                verify_shuffle_step(port.table, seat, msg, rec.steps[-1], ledger.joint)
            cards = ledger.shuffled_cards(seat, msg.cards)
            if len(cards) != len(rec.cards):
                raise BadProof("a shuffle step changed the number of cards", seat=seat)
            ledger.shuffles.append((seat, label, step, rec.steps[-1], cards))
            rec.steps.append(cards)
        ledger.current[req.pile] = label
        port.apply(ShuffleAnswer(req.pile))
        return True

    def _publish_shares(
        self, deck: str, k: int, cards: dict[int, Ciphertext], to_seat: int
    ) -> None:
        """Our decryption shares of ``deck``'s ``cards`` at step ``k`` (once): for the seat
        drawing them (a deal), or :data:`JOINT` (a flip, for everyone)."""
        port = self.port
        port.publish_once(
            SharesPart(deck, f"s{k}"),
            lambda me: decryption_shares(
                port.deck_key,
                port.table,
                me,
                deck,
                f"s{k}",
                cards,
                entropy=port.secret(f"shares/{deck}/{k}", 32),
                to_seat=to_seat,
            ),
        )

    def deal(self, pending: tuple[Request, ...]) -> bool:
        req = pending[0]
        assert isinstance(req, Deal)
        if req.giver is not None:
            return self.hand_over(req, req.giver)
        port, ledger = self.port, self.cards
        k, recipient, me = port.step, req.seat, port.me
        rec = ledger.decks[ledger.current[req.source]]
        final = rec.steps[-1]
        slots = list(range(rec.top, rec.top + req.count))
        cards = {slot: final[slot] for slot in slots}
        if me != recipient:
            self._publish_shares(rec.label, k, cards, recipient)
        found: dict[int, DecryptShares] = {}
        for seat in port.seats:
            if seat != recipient:
                msg = port.part(seat, SharesPart(rec.label, f"s{k}"))
                if msg is not None:
                    found[seat] = msg
        if len(found) < len(port.seats) - 1:
            return False
        self.dealt[k] = (rec.label, cards, found, recipient)
        stripped = dict(cards)
        for seat, msg in sorted(found.items()):
            check_answers(seat, msg, recipient)  # public: every peer checks it
            if sorted(s.slot for s in msg.shares) != slots:
                raise BadProof("shares do not cover exactly the dealt cards", seat=seat)
            if recipient == me or me is None:
                # Only the recipient needs these shares, so only it checks their proofs (and an
                # auditor, which checks everything); a bad one the recipient reports in a
                # Complaint that every other peer then checks too.
                try:
                    shares = verify_shares(
                        port.table, seat, ledger.keys[seat], msg, cards, to_seat=recipient
                    )
                except RemoteProtocolError:
                    port.publish(Complaint(k, seat))
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
            ledger.held[recipient][(rec.label, slot)] = stripped[slot]
        if recipient == me:
            ids = tuple(ledger.open_mine((rec.label, slot)) for slot in slots)
        rec.top += req.count
        before = port.next_handle()
        port.apply(DealAnswer(recipient, ids))
        ledger.note_dealt_handles(before, [(rec.label, slot) for slot in slots])
        if ids:
            port.emit(CardsSeen(ids, SeenWhy.DEALT))
        return True

    def hand_over(self, req: Deal, giver: int) -> bool:
        """Cards a seat chose (and re-encrypted in its move) go to ``req.seat``."""
        port, ledger = self.port, self.cards
        moved = ledger.transfers.pop((giver, req.seat), [])
        if len(moved) != req.count:
            raise LocalProtocolError("hand-over does not match the announced cards")
        ids = []
        for slot, fresh in moved:
            ledger.held[giver].pop(slot)
            ledger.mine.pop(slot, None) if giver == port.me else None
            ledger.held[req.seat][slot] = fresh
            if req.seat == port.me:
                ids.append(ledger.open_mine(slot))
        port.apply(DealAnswer(req.seat, tuple(ids) if req.seat == port.me else None))
        if ids:
            port.emit(CardsSeen(tuple(ids), SeenWhy.HANDED))
        return True

    def flip(self, pending: tuple[Request, ...]) -> bool:
        """The next cards of a pile turned face up: every seat's shares, checked by all."""
        req = pending[0]
        assert isinstance(req, Flip)
        port, ledger = self.port, self.cards
        if not ledger.need_keys():
            return False
        k = port.step
        rec = ledger.decks[ledger.current[req.pile]]
        final = rec.steps[-1]
        slots = list(range(rec.top, rec.top + req.count))
        if slots and slots[-1] >= len(final):
            raise LocalProtocolError(f"the {req.pile} pile has no {req.count} cards left")
        cards = {slot: final[slot] for slot in slots}
        self._publish_shares(rec.label, k, cards, JOINT)
        found = {seat: port.part(seat, SharesPart(rec.label, f"s{k}")) for seat in port.seats}
        if any(msg is None for msg in found.values()):
            return False
        stripped = dict(cards)
        for seat, msg in sorted(found.items()):
            assert msg is not None
            shares = verify_shares(port.table, seat, ledger.keys[seat], msg, cards)
            for slot in slots:
                stripped[slot] = strip_shares(stripped[slot], [shares[slot]])
        ids = []
        for slot in slots:
            card = ledger.point_card.get(stripped[slot].b)
            if card is None:  # every share checked out: the deck itself was tampered with
                port.early_audit = f"a flipped card of the {req.pile} pile is not a card"
                return True
            ids.append(card)
        rec.top += req.count
        port.apply(FlipAnswer(req.pile, tuple(ids)))
        return True
