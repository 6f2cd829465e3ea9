"""The protocol state of one table session, shared by every exchange.

Keys, decks, who holds which ciphertext, commitments, shuffle records, and the
helpers every exchange uses: applying an answer to the engine, our decryption
shares for held cards, checking a seat's shown cards, our own shuffle steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from engine.canonical import canonical_bytes
from engine.errors import EngineError, IllegalReveal

from ._deck import (
    CardCodebook,
    Ciphertext,
    decryption_shares,
    open_held,
    parse_cards,
    remix,
    verify_shares,
)
from ._errors import (
    BadProof,
    InvalidPoint,
    UnknownCard,
)
from ._group import GroupError, sub
from ._messages import DecryptShares, ShuffleOpening, ShuffleStep
from ._randomness import JointRandomness
from ._session_messages import Complaint

if TYPE_CHECKING:
    from ._session import TableSession

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


class ExchangeCore:
    """The state the exchanges share (see :mod:`protocol._exchanges`)."""

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
        self.chance: dict[int, tuple[JointRandomness, Any]] = {}  # by randomness round
        self.chance_rounds: dict[int, int] = {}  # step -> its randomness round
        self.shuffles: list[tuple[int, str, str, list[Ciphertext], list[Ciphertext]]] = []
        self.my_shuffles: list[ShuffleOpening] = []
        self.pools: dict[int, dict[str, list[Ciphertext]]] = {}
        self.remixed: set[tuple[str, str, str]] = set()
        self.codec = session.codec
        self.handle_slot: dict[int, Slot] = {}  # engine handle -> held slot (games naming
        self.published_reveals: set[tuple[str, int, str] | tuple[str, int]] = set()  # cards
        self.peeked: dict[int, tuple[int, int, dict[Slot, Ciphertext]]] = {}  # by handle)
        self.rehandles: list[tuple[int, str, str, list[Ciphertext], list[Ciphertext]]] = []
        self.my_rehandle_order: dict[int, tuple[int, ...]] = {}
        self.held_back: dict[int, Any] = {}
        self.dealt: dict[int, tuple[str, dict[int, Ciphertext], dict[int, DecryptShares]]] = {}
        self.judged: set[tuple[int, str]] = set()
        self.shuffled: dict[tuple[int, int], list[list[Ciphertext]]] = {}  # (step, seat) ->
        # that seat's shuffle and re-mix outputs at that step, kept for complaints
        self.waiting_for_reveal = False
        self.audited = False
        self.early_audit = ""

    @property
    def me(self) -> int | None:
        return self.s.seat

    @property
    def step(self) -> int:
        return self.s.game.state.serial

    def apply(self, answer: Any, seat: int | None = None) -> None:
        """Apply an answer to our engine; a refusal blames ``seat`` (if any)."""
        from ._errors import blame
        from ._events import StepApplied

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
            raise blame(culprit, "illegal-move", str(exc)) from None
        if self.s.game.over or self.step != step:
            self.s.record_digest(step)
        if events:
            self.s.emit(StepApplied(step, tuple(events)))

    def open_mine(self, slot: Slot) -> str:
        """Decrypt a card we hold; a non-card means someone broke the deck."""
        try:
            point = open_held(self.s.deck_key, self.held[self.me][slot])  # type: ignore[index]
            card = self.point_card[point]
        except (GroupError, KeyError):
            raise IllegalReveal("a dealt card is not a card of the deck") from None
        self.mine[slot] = card
        return card

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

    def shuffled_cards(self, seat: int, raw: tuple[bytes, ...], *, last: int) -> list[Ciphertext]:
        """Seat ``seat``'s output in a round where the seats shuffle (or re-mix) in turn and
        ``last`` goes last, split into ciphertexts -- validated where we rely on it: the
        output we take as our own input (the seat just before us), and the round's final
        output. A point outside the group in the seat before us is reported in a Complaint
        that every peer then checks; other intermediate outputs are the next shuffler's to
        validate, and are kept here in case it complains (docs/protocol.md §7.1)."""
        me = self.me
        if seat == me:
            cards = parse_cards(raw, ours=True)
        elif me is None or seat == last:
            cards = parse_cards(raw, seat=seat)
        elif seat == me - 1:
            try:
                cards = parse_cards(raw, seat=seat)
            except InvalidPoint:
                self.s.publish(Complaint(self.step, seat))
                raise
        else:
            cards = parse_cards(raw, ours=True)  # split only: its next shuffler validates it
        self.shuffled.setdefault((self.step, seat), []).append(cards)
        return cards

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


def _slot_bytes(slots: tuple[Slot, ...] | list[Slot]) -> bytes:
    return canonical_bytes([[deck, slot] for deck, slot in slots])

