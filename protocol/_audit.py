"""The audit that ends every game: every seat opens its deck key.

After the game (or as soon as any peer finds the deck broken: an ``early/<step>``
opening) every seat publishes an :class:`AuditOpening`; every peer checks each key
against its key share and lets the game's rules judge the cards still face down under a
handle.  Shuffles, re-mixes and re-handles are not re-checked: each was proven on
arrival (docs/protocol.md §12.2).

:class:`AuditExchange` owns whether the audit is done; the records it checks are the
session's :class:`~protocol._cards.CardLedger`.
"""

from __future__ import annotations

from ._cards import CardLedger
from ._deck import Ciphertext
from ._errors import blame
from ._group import GroupError, base_mul, mul, sub
from ._part_keys import AuditPart
from ._port import Port
from ._session_messages import AuditOpening
from ._verdict_kinds import VerdictKind

__all__ = ["AuditExchange", "open_with_key"]


def open_with_key(point_card: dict[bytes, str], ct: Ciphertext, secret: bytes) -> str | None:
    """The card a held ciphertext hides, decrypted with its holder's (opened and checked)
    deck key: a card of a deck's codebook, or None if it decrypts to no card."""
    try:
        point = sub(ct.b, mul(secret, ct.a))
    except GroupError:
        return None
    return point_card.get(point)


class AuditExchange:
    """The end-of-game (or early) audit."""

    def __init__(self, port: Port, cards: CardLedger) -> None:
        self.port = port
        self.cards = cards
        self.audited = False

    def note_early_openings(self) -> None:
        """A seat that found the deck broken opened early: once we have reached the step its
        opening names, the deck is broken for us too (``port.early_audit``)."""
        port = self.port
        if not port.early_audit:
            for seat in port.seats:
                msg = port.stored(seat, AuditPart())
                if msg is None or msg.at_end:
                    continue
                # The seat found the deck broken at that step. We open once we have reached
                # it too, so every peer checks at least the shuffles it checked.
                at = msg.early_step
                if at is None or port.step >= at:
                    port.early_audit = f"seat {seat} found the deck broken"

    def _read_open(self, cards: dict[int, str], handle: int, ct: Ciphertext, secret: bytes) -> None:
        """Decrypt a card held under one (opened) key and file it under its handle."""
        card = open_with_key(self.cards.point_card, ct, secret)
        if card is not None:
            cards[handle] = card

    def audit_held_cards(self, secrets: dict[int, bytes]) -> None:
        """With every deck key open, read every card still face down under a handle and let
        the game's rules judge what was never revealed."""
        if not self.port.judges_hidden_cards or not self.cards.handle_slot:
            return
        cards: dict[int, str] = {}
        for handle, slot in sorted(self.cards.handle_slot.items()):
            for seat, held in self.cards.held.items():
                ct = held.get(slot)
                if ct is not None and seat in secrets:  # a seat that left opens nothing
                    self._read_open(cards, handle, ct, secrets[seat])
        # what peeks showed, from the peeking seat's copies (a peeked hand was re-handled
        # since, so its old cards are held under no handle any more)
        by_slot = {slot: handle for handle, slot in self.cards.handle_slot.items()}
        for _holder, peeker, copies in self.cards.peeked.values():
            for slot, ct in sorted(copies.items()):
                shown = by_slot.get(slot)
                if shown is not None and shown not in cards and peeker in secrets:
                    self._read_open(cards, shown, ct, secrets[peeker])
        found = self.port.audit_cards(cards)
        if found is not None:
            seat, reason = found
            raise blame(seat, VerdictKind.ILLEGAL_MOVE, f"opened at the audit: {reason}")

    def advance(self) -> bool:
        """Open our secrets, check everyone's; emit the result once."""
        if self.audited:
            return False
        secret = self.port.deck_key.secret
        early = self.port.early_audit
        self.port.publish(
            AuditOpening.early(self.port.step, secret) if early else AuditOpening.after_game(secret)
        )
        openings = {}
        for seat in self.port.seats:
            msg = self.port.part(seat, AuditPart())
            if msg is not None:
                openings[seat] = msg
        if len(openings) < len(self.port.seats):
            self.port.waiting_for_reveal = True
            return False
        for seat, msg in openings.items():
            try:
                if base_mul(msg.deck_secret) != self.cards.keys.get(seat, b""):
                    raise blame(
                        seat, VerdictKind.BAD_REVEAL, f"seat {seat}'s deck key does not match"
                    )
            except GroupError:
                raise blame(
                    seat, VerdictKind.BAD_REVEAL, f"seat {seat}'s deck key is invalid"
                ) from None
        # every shuffle, re-mix and re-handle was proven on arrival (docs/protocol.md §12.2), so
        # the audit opens none; the deck keys open the held cards and the hidden decisions.
        if not self.port.early_audit:
            self.audit_held_cards({seat: m.deck_secret for seat, m in openings.items()})
        self.audited = True
        if self.port.early_audit:
            raise blame(
                None,
                VerdictKind.INCONCLUSIVE,
                f"{self.port.early_audit}, but every shuffle and key checks out",
            )
        self.port.finish()
        return False
