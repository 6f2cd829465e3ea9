"""The kinds of verdict a table session can stop with, and which of them blame a seat.

This module owns :class:`VerdictKind`.  Each member's value is the text the verdict has
always carried (in a :class:`~protocol.Verdict`, in its reason, in a saved log's replay, in
netplay's ``verdict`` event and its JSON line), so a member compares, formats and encodes as
that text.  :attr:`VerdictKind.blames` says whether a verdict of this kind accuses a seat of
breaking the protocol, or only records that a game could not go on (a clock ran out, a seat
stayed away, nobody could be named for withheld parts, a spectator could not follow): the
client words the two apart.  Two kinds name nobody and have words of their own
(``client/ending.py``): ``inconclusive``, an early audit that found the deck broken but no seat
at fault (the game stops there, so its log ends before the game does), and ``cannot-follow``, a
live spectator that cannot follow the survivors of a vanishing (nothing is wrong at the table).
"""

from __future__ import annotations

import enum

__all__ = ["VerdictKind"]


class VerdictKind(enum.StrEnum):
    """Why a table session stopped (docs/protocol.md §12)."""

    # a seat's feed or frames
    DECODE = "decode"
    OVERSIZE = "oversize"
    VERSION = "version"
    MISADDRESSED = "misaddressed"
    BAD_SIGNATURE = "bad-signature"
    BROKEN_CHAIN = "broken-chain"
    EQUIVOCATION = "equivocation"
    INVALID_EVIDENCE = "invalid-evidence"
    REPLAY = "replay"
    AFTER_RESIGNATION = "after-resignation"
    BAD_LEAVE = "bad-leave"
    FLOOD = "flood"
    WRONG_DIGEST = "wrong-digest"
    INCONCLUSIVE = "inconclusive"  # an early audit found the deck broken, but no seat at fault
    CANNOT_FOLLOW = "cannot-follow"  # a spectator cannot follow a vanishing (§11.11)
    # the cryptography
    BAD_REVEAL = "bad-reveal"
    WITHHELD_REVEAL = "withheld-reveal"
    INVALID_POINT = "invalid-point"
    BAD_PROOF = "bad-proof"
    BAD_SHUFFLE = "bad-shuffle"
    UNKNOWN_CARD = "unknown-card"
    BAD_SEALED = "bad-sealed"
    FALSE_COMPLAINT = "false-complaint"
    # the game
    ILLEGAL_MOVE = "illegal-move"
    ENGINE = "engine"
    # time and absence
    TIMEOUT = "timeout"
    OUT_OF_TIME = "out-of-time"
    ABANDONED = "abandoned"
    STARVED = "starved"
    # a peer erred in a way no narrower kind names
    REMOTE = "remote"

    @property
    def blames(self) -> bool:
        """Whether this verdict accuses its seat of breaking the protocol (or, naming nobody,
        records a fault nobody can be named for): every kind but a clock running out, a seat
        staying away, parts nobody can be named for and a spectator that cannot follow."""
        return self not in _NO_BLAME


_NO_BLAME = frozenset(
    {
        VerdictKind.OUT_OF_TIME,
        VerdictKind.ABANDONED,
        VerdictKind.STARVED,
        VerdictKind.CANNOT_FOLLOW,
    }
)
