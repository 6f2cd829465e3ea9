"""The kinds of verdict a table session can stop with, and which of them blame a seat.

This module owns :class:`VerdictKind`.  Each member's value is the text the verdict has
always carried (in a :class:`~protocol.Verdict`, in its reason, in a saved log's replay, in
netplay's ``verdict`` event and its JSON line), so a member compares, formats and encodes as
that text.  :attr:`VerdictKind.blames` says whether a verdict of this kind accuses a seat of
breaking the protocol, or only records that a game could not go on (a clock ran out, a seat
stayed away, nobody could be named for withheld parts): the client words the two apart.
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
    INCONCLUSIVE = "inconclusive"
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
        """Whether this verdict accuses its seat of breaking the protocol: every kind but a
        clock running out, a seat staying away and parts nobody can be named for."""
        return self not in _NO_BLAME


_NO_BLAME = frozenset({VerdictKind.OUT_OF_TIME, VerdictKind.ABANDONED, VerdictKind.STARVED})
