"""One seat's book of vanishing at a table: the deals it made and took, and recoveries.

This module owns the bookkeeping a table session needs to use :mod:`protocol._vss`, sans I/O:
:class:`KeyEscrow` makes the seat's ``vss-deal``, takes every other seat's deal (public checks,
its own share opened), answers complaints about its own deal and settles complaints by others'
answers, and after a departure makes this seat's ``vss-recover`` and combines everyone's into the
departed seat's decryption shares.  It decides nothing about *when*: the session calls it as
parts arrive (docs/protocol.md §7.11, "Transcript").  Every fault a peer can be blamed for is a
typed error naming that peer; a fault only we can see becomes the complaint to publish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._deck import Ciphertext, DeckKey
from ._errors import BadProof, LocalProtocolError, RemoteProtocolError
from ._identity import Identity, PublicIdentity
from ._messages import JOINT, CardRef
from ._vss import (
    KeyPiece,
    answer_complaint,
    combine,
    deal,
    deal_digest,
    holders_of,
    open_share,
    recovery_shares,
    share_key,
    table_threshold,
    verify_answer,
    verify_deal,
    verify_recovery,
)
from ._vss_messages import RecoveryShares, ShareAnswer, ShareComplaint, ShareDeal

__all__ = ["KeyEscrow"]


class KeyEscrow:
    """Seat ``seat``'s view of every key shared at a table of ``len(identities)`` seats."""

    def __init__(
        self,
        table: bytes,
        seat: int | None,
        identity: Identity | None,
        identities: Sequence[PublicIdentity],
        deck_keys: Sequence[bytes] = (),
    ) -> None:
        """``seat`` None (and no ``identity``): an observer's book, which checks everything
        public and holds no piece.  ``deck_keys`` (every seat's verified key) may come later,
        by :meth:`know_keys`, before any deal is taken."""
        self.table, self.seat, self.n = table, seat, len(identities)
        self.threshold = table_threshold(self.n)
        if seat is not None and (identity is None or identity.public != identities[seat]):
            raise LocalProtocolError("a seat's book needs that seat's identity")
        self._identity = identity
        self._identities = tuple(identities)
        self._deck_keys: tuple[bytes, ...] = ()
        if deck_keys:
            self.know_keys(deck_keys)
        self._shares: dict[int, bytes] = {}  # our deal's shares by holder (to answer)
        self._deals: dict[int, ShareDeal] = {}  # every seat's checked deal
        self.pieces: dict[int, KeyPiece] = {}  # dealer -> our piece of its key
        self.complaints: dict[tuple[int, int], bytes] = {}  # (dealer, complainer) -> digest
        self._partials: dict[tuple[int, str, str], dict[int, dict[int, bytes]]] = {}

    def know_keys(self, deck_keys: Sequence[bytes]) -> None:
        """Every seat's verified deck key, in seat order."""
        if len(deck_keys) != self.n:
            raise LocalProtocolError("one verified deck key per seat")
        self._deck_keys = tuple(deck_keys)

    # ------------------------------------------------------------------ setup

    def our_deal(self, key: DeckKey, *, entropy: bytes) -> ShareDeal:
        """Our ``vss-deal``; ``entropy`` (32 bytes from the seat's secret seed) fixes the
        shares, so a restarted seat can still answer a complaint about a deal it sent."""
        if self.seat is None or self._deck_keys and key.public != self._deck_keys[self.seat]:
            raise LocalProtocolError("deal our own verified deck key")
        holders = {j: self._identities[j] for j in holders_of(self.seat, self.n)}
        msg, self._shares = deal(
            key, self.table, self.seat, holders, self.threshold, entropy=entropy
        )
        self._deals[self.seat] = msg
        return msg

    def take_deal(self, dealer: int, msg: ShareDeal) -> ShareComplaint | None:
        """Check ``dealer``'s deal (BadProof / InvalidPoint naming it) and open our share:
        None when it is good, else the complaint we must publish."""
        if dealer == self.seat or not 0 <= dealer < self.n or dealer in self._deals:
            raise LocalProtocolError(f"a deal from seat {dealer} is not ours to take now")
        if not self._deck_keys:
            raise LocalProtocolError("take a deal once every deck key is verified")
        holders = holders_of(dealer, self.n)
        verify_deal(dealer, self._deck_keys[dealer], holders, self.threshold, msg)
        self._deals[dealer] = msg
        if self._identity is None or self.seat is None:
            return None  # an observer holds no share
        got = open_share(self._identity, self.table, dealer, self.seat, msg)
        if isinstance(got, ShareComplaint):
            self.complaints[dealer, self.seat] = got.deal
            return got
        self.pieces[dealer] = got
        return None

    def take_complaint(self, complainer: int, msg: ShareComplaint) -> ShareAnswer | None:
        """File ``complainer``'s complaint (BadProof naming it if it names no deal it holds a
        share of); our answer when the deal is ours, None otherwise."""
        dealt = self._deals.get(msg.dealer)
        if (
            dealt is None
            or complainer == msg.dealer
            or complainer not in holders_of(msg.dealer, self.n)
            or msg.deal != deal_digest(self.table, msg.dealer, dealt)
        ):
            raise BadProof("a complaint about a deal the seat holds no share of", seat=complainer)
        if msg.dealer == self.seat:  # our answer settles it for us as we send it
            return answer_complaint(self._shares, complainer)
        self.complaints[msg.dealer, complainer] = msg.deal
        return None

    def take_answer(self, dealer: int, msg: ShareAnswer) -> None:
        """Settle a complaint by ``dealer``'s answer; BadProof naming the dealer if it does
        not fit its commitments or answers no complaint."""
        if (dealer, msg.complainer) not in self.complaints or dealer not in self._deals:
            raise BadProof("an answer to no complaint", seat=dealer)
        piece = verify_answer(dealer, self._deals[dealer].commitments, msg)
        del self.complaints[dealer, msg.complainer]
        if msg.complainer == self.seat:
            self.pieces[dealer] = piece

    def settled(self) -> bool:
        """As far as we have seen: every seat's deal is in, we hold a piece of each other key,
        no complaint is open (the session decides when no more complaints can come, §7.11)."""
        pieces = 0 if self.seat is None else self.n - 1
        return len(self._deals) == self.n and not self.complaints and len(self.pieces) == pieces

    def dealt(self, dealer: int) -> bool:
        """Whether ``dealer``'s deal is in, checked, and no complaint about it is open."""
        return dealer in self._deals and not any(d == dealer for d, _ in self.complaints)

    def open_complaints(self) -> list[int]:
        """The dealers that owe an answer to a complaint, in seat order (once each)."""
        return sorted({dealer for dealer, _ in self.complaints})

    # ------------------------------------------------------------------ after a departure

    def our_recovery(
        self,
        departed: int,
        deck: str,
        step: str,
        cards: Mapping[int, Ciphertext],
        *,
        to_seat: int = JOINT,
        refs: Sequence[CardRef] = (),
        entropy: bytes | None = None,
    ) -> RecoveryShares:
        """Our recovery shares of ``departed``'s layer for ``cards`` (validated ciphertexts the
        game would have asked ``departed`` to share: never its own held cards)."""
        piece = self.pieces.get(departed)
        if piece is None or self.seat is None or not self.settled():
            raise LocalProtocolError(f"no settled piece of seat {departed}'s key")
        msg = recovery_shares(
            piece, self.table, deck, step, cards, to_seat=to_seat, refs=refs, entropy=entropy
        )
        self._partials.setdefault((departed, deck, step), {})[self.seat] = {
            s.slot: s.share for s in msg.shares
        }
        return msg

    def take_recovery(
        self,
        holder: int,
        msg: RecoveryShares,
        cards: Mapping[int, Ciphertext],
        *,
        to_seat: int = JOINT,
        refs: Sequence[CardRef] = (),
    ) -> dict[int, bytes] | None:
        """Check ``holder``'s recovery shares (BadProof / InvalidPoint naming it); once the
        threshold's worth are in, the departed seat's decryption shares by slot."""
        departed = msg.departed
        if departed not in self._deals or holder not in holders_of(departed, self.n):
            raise BadProof("recovery shares for a key the seat holds no piece of", seat=holder)
        public = share_key(self._deals[departed].commitments, holder)
        got = verify_recovery(self.table, holder, public, msg, cards, to_seat=to_seat, refs=refs)
        partials = self._partials.setdefault((departed, msg.deck, msg.step), {})
        partials[holder] = got
        if len(partials) < self.threshold:
            return None
        return combine(partials, self.threshold)

    def fits(
        self,
        holder: int,
        msg: RecoveryShares,
        cards: Mapping[int, Ciphertext],
        refs: Sequence[CardRef],
    ) -> bool:
        """Whether ``holder``'s recovery shares hold for ``cards`` (a pool's, for the joint
        key): nothing blamed, nothing kept."""
        if msg.departed not in self._deals or holder not in holders_of(msg.departed, self.n):
            return False
        public = share_key(self._deals[msg.departed].commitments, holder)
        try:
            verify_recovery(self.table, holder, public, msg, cards, refs=refs)
        except RemoteProtocolError:
            return False
        return True
