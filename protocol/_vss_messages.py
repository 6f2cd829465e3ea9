"""The message shapes of vanishing: a deck key shared among the other seats (docs §7.11).

This module owns the four data shapes that :mod:`protocol._vss` builds and checks: the deal
(Feldman commitments and one sealed share per holder), a holder's complaint about its share,
the dealer's public answer to it, and a holder's recovery shares for a departed seat's layer
of some ciphertexts.  Who sent one, for which table and in which order is the signed feed
entry around it, as for every other message.
"""

from __future__ import annotations

import attrs

from ._codec import blob, integer, item_bytes, items, label, message
from ._messages import MAX_CARDS, MAX_SEATS, CardRef, Share

__all__ = [
    "MAX_SHARE_BOX",
    "RecoveryShares",
    "ShareAnswer",
    "ShareBox",
    "ShareComplaint",
    "ShareDeal",
]

_SEAT_HI = MAX_SEATS - 1

MAX_SHARE_BOX = 2048
"""Largest sealed share box (every honest one is :func:`~protocol._vss.share_box_size` bytes)."""


@attrs.frozen
class ShareBox:
    """The sealed share for holder ``to_seat`` (a ``crypto_box_seal`` box, docs §9)."""

    to_seat: int = integer(lo=0, hi=_SEAT_HI)
    box: bytes = blob(max_len=MAX_SHARE_BOX)


@message("vss-deal")
@attrs.frozen
class ShareDeal:
    """The sender's deck key shared among the holders: Feldman commitments ``C_0..C_{t-1}``
    (``C_0`` is the sender's deck key ``Y``, ``t`` the threshold) and one box per holder, in
    seat order."""

    commitments: tuple[bytes, ...] = items(item_bytes(exact=32), max_items=MAX_SEATS)
    boxes: tuple[ShareBox, ...] = items(ShareBox, max_items=MAX_SEATS)


@message("vss-complaint")
@attrs.frozen
class ShareComplaint:
    """The sender's share in ``dealer``'s deal (named by its digest) did not open or does not
    match the deal's commitments; the dealer must answer with the share in the clear."""

    dealer: int = integer(lo=0, hi=_SEAT_HI)
    deal: bytes = blob(exact=32)


@message("vss-answer")
@attrs.frozen
class ShareAnswer:
    """The sender's (a dealer's) answer to ``complainer``'s complaint: its share, public."""

    complainer: int = integer(lo=0, hi=_SEAT_HI)
    share: bytes = blob(exact=32)


@message("vss-recover")
@attrs.frozen
class RecoveryShares:
    """The sender's recovery shares ``R = s*A`` of ``departed``'s layer for the cards of one
    step, with one DLEQ proof against its public share ``S`` (docs §7.11).  ``to_seat`` and
    ``cards`` say what they answer, exactly as in a ``shares`` message (§7.6)."""

    departed: int = integer(lo=0, hi=_SEAT_HI)
    deck: str = label()
    step: str = label()
    shares: tuple[Share, ...] = items(Share, max_items=MAX_CARDS)
    proof: bytes = blob(exact=64)
    to_seat: int = integer(lo=-1, hi=_SEAT_HI, default=-1)
    cards: tuple[CardRef, ...] = items(CardRef, max_items=MAX_CARDS, empty_default=True)
