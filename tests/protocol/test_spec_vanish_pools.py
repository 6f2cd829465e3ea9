"""The spec-only verifier reads "the pools were complete" from the log itself (issue 33,
docs/protocol.md §11.11; ``tests/protocol/spec_log.py`` and ``spec_vanish.py``).

Whether the pools of the step a seat vanished at were complete -- every placer's hand-over in
-- decides whether the survivors recover them.  The verifier reads it from the hand-overs of
the vanished seat and from whether the pools were re-mixed or opened at that step, never from
which recovery parts happen to be there: a log from which the survivors' pool recovery parts
were taken out, or whose voter sent its parts after its vote, is refused, for that reason.
The logs are test_vanish_pools's, re-signed by the test (it holds every seat's key).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.protocol.wire import RecoveryShares, Vanish

from . import spec_log
from .helpers import resigned
from .test_vanish_pools import GO_ON, HAND_OVER, OPENING, RE_MIX, SEATS, SEED
from .test_vanish_session import _bots

Rewrite = Callable[[int, list[list[object]]], list[list[object]]]
"""(seat, its feed's entries as lists of parts) -> the entries to sign instead."""


def _survivor_log(silent: tuple[int, int]) -> tuple[P.TableSpec, list[bytes]]:
    spec, sessions = PT.make_table(SEATS, SEED, game="reign", options=GO_ON)
    bots = _bots("reign", SEED, SEATS)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        silenced=dict([silent]),
    )
    survivor = sessions[(silent[0] + 1) % SEATS]
    assert survivor.finished is not None and survivor.verdict is None
    return spec, survivor.entries()


def _resigned(spec: P.TableSpec, entries: list[bytes], rewrite: Rewrite) -> str:
    """The log with every feed rewritten and signed again by its seat's key."""
    return P.write_log(spec, resigned(spec, SEED, entries, rewrite)).decode()


def _is_pool_recovery(part: object) -> bool:
    return isinstance(part, RecoveryShares) and part.deck.startswith("pool")


def _unchanged(_seat: int, feed: list[list[object]]) -> list[list[object]]:
    return feed


def test_the_re_signed_logs_verify_as_they_are() -> None:
    for silent in (HAND_OVER, RE_MIX, OPENING):
        spec, entries = _survivor_log(silent)
        assert spec_log.verify_log(_resigned(spec, entries, _unchanged))["cards recovered"] > 0


@pytest.mark.parametrize("silent", [RE_MIX, OPENING])
def test_complete_pools_without_the_survivors_recovery_parts_are_refused(
    silent: tuple[int, int],
) -> None:
    """Every survivor's pool recovery parts taken out: the pools were complete all the same
    (the vanished seat's hand-overs are in, the pools were re-mixed and opened at the step)."""
    spec, entries = _survivor_log(silent)

    def without(_seat: int, feed: list[list[object]]) -> list[list[object]]:
        return [[p for p in parts if not _is_pool_recovery(p)] for parts in feed]

    log = _resigned(spec, entries, without)
    with pytest.raises(spec_log.SpecFailure, match="without exactly the complete pools"):
        spec_log.verify_log(log)


def test_one_survivors_missing_pool_part_names_it() -> None:
    spec, entries = _survivor_log(RE_MIX)

    def without(seat: int, feed: list[list[object]]) -> list[list[object]]:
        if seat != 3:
            return feed
        drop = lambda p: _is_pool_recovery(p) and p.deck == "pool1"  # noqa: E731
        return [[p for p in parts if not drop(p)] for parts in feed]

    with pytest.raises(spec_log.SpecFailure, match="^seat 3: recovers 2 at s62 without exactly"):
        spec_log.verify_log(_resigned(spec, entries, without))


def test_recovery_parts_after_the_vote_are_refused() -> None:
    """Seat 3's recovery parts moved to an entry of their own after its vote."""
    spec, entries = _survivor_log(RE_MIX)

    def later(seat: int, feed: list[list[object]]) -> list[list[object]]:
        if seat != 3:
            return feed
        out: list[list[object]] = []
        for parts in feed:
            if any(isinstance(p, Vanish) for p in parts):
                moved = [p for p in parts if isinstance(p, RecoveryShares)]
                out += [[p for p in parts if not isinstance(p, RecoveryShares)], moved]
            else:
                out.append(parts)
        return out

    with pytest.raises(spec_log.SpecFailure, match="^seat 3: recovery shares of .* after its vote"):
        spec_log.verify_log(_resigned(spec, entries, later))


def test_incomplete_pools_with_recovery_parts_for_them_are_refused() -> None:
    """The vanished seat owed its hand-over (the pools never complete), and a survivor's
    recovery parts name a pool all the same: seat 3's shares of a deck relabelled as a pool."""
    spec, entries = _survivor_log(HAND_OVER)

    def extra(seat: int, feed: list[list[object]]) -> list[list[object]]:
        if seat != 3:
            return feed
        out = []
        for parts in feed:
            fake = [
                RecoveryShares(p.departed, "pool0", p.step, p.shares, p.proof)
                for p in parts
                if isinstance(p, RecoveryShares)
            ][:1]
            out.append(fake + parts)
        return out

    with pytest.raises(spec_log.SpecFailure, match="pools that were never complete"):
        spec_log.verify_log(_resigned(spec, entries, extra))
