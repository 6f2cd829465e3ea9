"""A seat that vanishes while a pool is open (issue 33, docs/protocol.md §7.5 and §11.11).

Reign's covert backing is revealed through pools: each placer hands its face-down cards over
to the joint key into the army's pool, the pool's placers re-mix it, then every seat opens it.
A seat that vanishes owing any of these no longer ends the game.  In-memory 4-seat Reign
tables whose leavers rule is ``go-on``; one seat goes silent for good after a number of its
entries chosen so that it owes, when the others agree it is gone:

- its hand-over into the pool: its covert cards are set aside unseen and the reveal is asked
  again without them, as a new step (no recovery share for any pooled card);
- its re-mix: the pools' cards are recovered and stripped of its layer, its step is skipped,
  the other placers' re-mixes suffice, and its cards are played (revealed with the army);
- its shares to open the pools: recovered and stripped, opened by the others; its cards played.

In every case the others finish on one digest with a real ending, nobody is blamed, the audit
and the spec-only verifier accept a survivor's log, and no card the vanished seat held is ever
recovered.
"""

from __future__ import annotations

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
from fairtable.engine.canonical import canonical_bytes
from fairtable.protocol.wire import HandOver, RecoveryShares, ShuffleStep

from . import spec_log
from .test_vanish_session import _bots, _parts

GO_ON = canonical_bytes({"leavers": "go-on"})
SEATS, SEED = 4, 1

HAND_OVER = (2, 29)  # seat 2 silent after 29 entries: its hand-over into the pools is owed
RE_MIX = (2, 30)  # after 30: its hand-over is in, its re-mix of a pool it placed in is owed
OPENING = (0, 15)  # seat 0 silent after 15 entries: its shares to open the pools are owed


def _vanished(silent: tuple[int, int]) -> tuple[P.TableSpec, list[P.TableSession], int, int]:
    """Play the table with ``silent`` = (seat, entries it sends); the survivors, checked for
    one real ending, no verdict, no recovered held card, and a log the audit accepts, a
    replay ends alike and the spec-only verifier (``spec_log``) accepts; the step the seat
    vanished at."""
    gone = silent[0]
    spec, sessions = PT.make_table(SEATS, SEED, game="reign", options=GO_ON)
    bots = _bots("reign", SEED, SEATS)
    run = PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        silenced=dict([silent]),
    )
    assert run.gone == [gone]
    survivors = [s for s in sessions if s.seat != gone]
    ends = {(s.finished.digest, s.finished.end) for s in survivors if s.finished is not None}
    assert all(s.verdict is None for s in survivors), [s.verdict for s in survivors]
    assert len(ends) == 1 and all(s.finished is not None for s in survivors), ends
    ((digest, end),) = ends
    assert end not in ("left", "resigned", "vanished")
    step = survivors[0].vanishing.vanished[gone]
    recovered = {
        share.share
        for s in survivors
        for part in _parts(survivors[0], s.seat)
        if isinstance(part, RecoveryShares)
        for share in part.shares
    }
    for s in survivors:
        assert s.game.departed == (gone,) and s.vanishing.vanished == {gone: step}
        escrow = s.vanishing.escrow
        assert escrow is not None
        for ct in s.exchanges.cards.held[gone].values():
            assert PC.mul(escrow.pieces[gone].secret, ct.a) not in recovered
    result = P.audit_log(spec, survivors[0].entries())
    assert result.ok, result.summary
    assert result.digest == digest and result.departed == (gone,)
    replay = P.replay_log(spec, survivors[0].entries())
    assert replay.ending.kind is P.EndingKind.FINISHED and replay.steps[-1].digest == digest
    checked = spec_log.verify_log(P.write_log(spec, survivors[0].entries()).decode())
    assert checked["pooled cards"] > 0 and checked["cards recovered"] > 0  # from the text alone
    return spec, survivors, gone, step


def _applied(survivor: P.TableSession) -> tuple[int, int, str, str]:
    """(seat, step, rule, what it owed) of the one vanishing the survivor applied."""
    ((seat, step, rule, owed),) = survivor.vanishing.applied
    return seat, step, rule.value, owed


def _pool_recoveries(survivor: P.TableSession, seat: int, step: int) -> list[RecoveryShares]:
    return [
        p
        for p in _parts(survivor, seat)
        if isinstance(p, RecoveryShares)
        and p.deck.startswith("pool")
        and p.step == f"s{step}/vanish"
    ]


def test_section_11_11_owing_its_hand_over_into_a_pool_its_cards_are_set_aside_and_the_reveal_asked_again() -> (  # noqa: E501
    None
):
    _, survivors, gone, k = _vanished(HAND_OVER)
    witness = survivors[0]
    assert _applied(witness) == (gone, k, "recover", "Pool hand-over")
    assert not any(_pool_recoveries(witness, s.seat, k) for s in survivors)  # nothing pooled
    for s in survivors:
        assert s.game.set_aside(gone), "its covert backing is set aside, never opened"
        # the reveal asked again as a new step, its pools built without the seat's cards
        later = [step for step in s.exchanges.reveals.members if step > k]
        assert later, "a reveal after the vanishing"
        again = s.exchanges.reveals.members[min(later)]
        assert all(ref.seat != gone for refs in again.values() for ref in refs)
    assert any(  # the others had handed their cards over at step k: never used
        isinstance(p, HandOver) and p.step.startswith(f"s{k}/pool")
        for s in survivors
        for p in _parts(witness, s.seat)
    )


def test_section_11_11_owing_its_re_mix_the_other_placers_re_mix_and_its_cards_are_played() -> None:
    _, survivors, gone, k = _vanished(RE_MIX)
    witness = survivors[0]
    assert _applied(witness) == (gone, k, "recover", "Pool re-mix")
    pools = witness.exchanges.reveals.members[k]
    placed = {label: {ref.seat for ref in refs} for label, refs in pools.items()}
    assert any(gone in seats and len(seats) > 1 for seats in placed.values())
    mixes = [p for p in _parts(witness, gone) if isinstance(p, ShuffleStep)]
    assert not any(p.step == f"s{k}/mix{gone}" for p in mixes)  # its step: skipped
    for s in survivors:  # every survivor recovered every pool of the step
        assert sorted(p.deck for p in _pool_recoveries(witness, s.seat, k)) == sorted(
            f"pool{label}" for label in pools
        )
        assert s.game.set_aside(gone) == frozenset()  # its covert cards were played
    for label, seats in placed.items():  # the other placers re-mixed their pools
        others = sorted(seats - {gone}) if len(pools[label]) > 1 else []
        mixed = sorted(
            seat
            for seat in others
            for p in _parts(witness, seat)
            if isinstance(p, ShuffleStep)
            and p.step == f"s{k}/mix{seat}"
            and p.deck == f"pool{label}"
        )
        assert mixed == others


def test_section_11_11_owing_its_shares_to_open_the_pools_the_others_open_them() -> None:
    _, survivors, gone, k = _vanished(OPENING)
    witness = survivors[0]
    assert _applied(witness) == (gone, k, "recover", "Pool opening")
    pools = witness.exchanges.reveals.members[k]
    for s in survivors:
        assert sorted(p.deck for p in _pool_recoveries(witness, s.seat, k)) == sorted(
            f"pool{label}" for label in pools
        )
        assert s.game.set_aside(gone) == frozenset()
