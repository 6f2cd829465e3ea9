"""A survivor that cheats in the recovery of a pool (issue 33, docs/protocol.md §7.11, §11.11).

When a seat vanishes while the pools of a Reign covert reveal are complete, every other seat
sends, with its vote, one ``vss-recover`` part per pool: its piece of the vanished seat's key
times every pooled card's ``A``, with a DLEQ proof against its public share.  A survivor that
sends a wrong one -- a share swapped, a share for another card, a proof that does not hold, a
share that is no point, the part of another pool replayed, or no part for a pool -- is named by
every honest peer with the same verdict, nothing of the pools is opened, and no peer crashes.

The table is test_vanish_pools's: seat 2 goes silent owing its re-mix of the pools of step 62
(pool 0 of four cards, pools 1 and 2 of one card each); seat 3 is the cheat, seats 0 and 1
are honest.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.engine.requests import Reveal
from fairtable.protocol import _vanish
from fairtable.protocol.wire import RecoveryShares, Share

from .test_vanish_pools import GO_ON, RE_MIX, SEATS, SEED
from .test_vanish_session import _bots

CHEAT = 3
HONEST = (0, 1)
Tamper = Callable[[_vanish.Vanishing, int, int, list[RecoveryShares]], list[RecoveryShares]]


def _pool(parts: list[RecoveryShares], label: str) -> int:
    (index,) = [i for i, p in enumerate(parts) if p.deck == label]
    return index


def _swapped(
    _v: _vanish.Vanishing, _d: int, _k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """Two positions' shares of pool 0 swapped (each a right share, at the wrong place)."""
    i = _pool(parts, "pool0")
    first, second, *rest = parts[i].shares
    swapped = (Share(first.slot, second.share), Share(second.slot, first.share), *rest)
    parts[i] = attrs.evolve(parts[i], shares=swapped)
    return parts


def _other_cards(
    v: _vanish.Vanishing, d: int, k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """Shares of pool 0 made, with a proof that holds for them, for the pool's cards taken
    one place further: every share is for another card than its position's."""
    ((label, cards, refs),) = [p for p in v.exchanges.reveals.open_pools() if p[0] == "pool0"]
    rotated = {i: cards[(i + 1) % len(cards)] for i in cards}
    assert v.escrow is not None
    made = v.escrow.our_recovery(d, label, f"s{k}/vanish", rotated, refs=refs)
    parts[_pool(parts, "pool0")] = made
    return parts


def _bad_proof(
    _v: _vanish.Vanishing, _d: int, _k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """Pool 0's shares right, its DLEQ proof changed in one byte."""
    i = _pool(parts, "pool0")
    proof = bytearray(parts[i].proof)
    proof[40] ^= 1
    parts[i] = attrs.evolve(parts[i], proof=bytes(proof))
    return parts


def _no_point(
    _v: _vanish.Vanishing, _d: int, _k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """One share of pool 0 is 32 bytes that encode no group element."""
    i = _pool(parts, "pool0")
    first, *rest = parts[i].shares
    parts[i] = attrs.evolve(parts[i], shares=(Share(first.slot, b"\xff" * 32), *rest))
    return parts


def _replayed(
    _v: _vanish.Vanishing, _d: int, _k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """Pool 2's part (a right one, one card too) sent again as pool 1's, naming pool 1's card:
    the proof holds for pool 2's card only (its context names no pool)."""
    one, two = _pool(parts, "pool1"), _pool(parts, "pool2")
    parts[one] = attrs.evolve(parts[two], deck="pool1", cards=parts[one].cards)
    return parts


def _replayed_as_is(
    _v: _vanish.Vanishing, _d: int, _k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """Pool 2's part sent again as pool 1's, unchanged but for its label."""
    one, two = _pool(parts, "pool1"), _pool(parts, "pool2")
    parts[one] = attrs.evolve(parts[two], deck="pool1")
    return parts


def _missing(
    _v: _vanish.Vanishing, _d: int, _k: int, parts: list[RecoveryShares]
) -> list[RecoveryShares]:
    """No part for pool 1 (the vote goes out without it)."""
    del parts[_pool(parts, "pool1")]
    return parts


@pytest.mark.parametrize(
    ("tamper", "kind"),
    [
        (_swapped, P.VerdictKind.BAD_PROOF),
        (_other_cards, P.VerdictKind.BAD_PROOF),
        (_bad_proof, P.VerdictKind.BAD_PROOF),
        (_no_point, P.VerdictKind.INVALID_POINT),
        (_replayed, P.VerdictKind.BAD_PROOF),
        (_replayed_as_is, P.VerdictKind.BAD_PROOF),
        (_missing, P.VerdictKind.BAD_PROOF),
    ],
)
def test_section_11_11_a_wrong_pool_recovery_part_names_its_author_alike_everywhere(
    monkeypatch: pytest.MonkeyPatch, tamper: Tamper, kind: P.VerdictKind
) -> None:
    original = _vanish.Vanishing._recovery

    def recovery(self: _vanish.Vanishing, d: int, k: int) -> list[RecoveryShares]:
        parts = original(self, d, k)
        if self.port.me != CHEAT:
            return parts
        assert any(p.deck.startswith("pool") for p in parts), "the pools are complete"
        return tamper(self, d, k, parts)

    monkeypatch.setattr(_vanish.Vanishing, "_recovery", recovery)
    _spec, sessions = PT.make_table(SEATS, SEED, game="reign", options=GO_ON)
    bots = _bots("reign", SEED, SEATS)
    gone = RE_MIX[0]

    def decide(seat: int, event: P.DecisionNeeded) -> object:
        return bots[seat].decide(event.view, event.decision)

    run = PT.run_table(sessions, decide, silenced=dict([RE_MIX]))  # no peer raises
    assert run.gone == [gone]
    honest = [sessions[s] for s in HONEST]
    verdicts = {(s.verdict.seat, s.verdict.kind, s.verdict.reason) for s in honest if s.verdict}
    assert len(verdicts) == 1 and all(s.verdict is not None for s in honest), verdicts
    ((seat, got, _reason),) = verdicts
    assert (seat, got) == (CHEAT, kind)
    for s in honest:
        assert s.game.departed == () and s.vanishing.vanished == {}  # not applied
        assert s.finished is None
        # nothing of the pools was opened: the engine still asks the pooled reveal of the
        # step every remaining seat voted at
        ((k,),) = {(k,) for (d, k, _seen) in s.vanishing.votes if d == gone}
        assert s.game.serial == k
        (req,) = s.port.pending()
        assert isinstance(req, Reveal) and any(mixed for _g, _h, mixed in req.groups)
