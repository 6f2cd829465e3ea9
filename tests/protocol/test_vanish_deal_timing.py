"""A vanishing among several deals in a row: a vote made void by the vanished seat's shares
holds deck recovery parts for cards dealt since, and they are never used (issue 33,
docs/protocol.md §11.11, "The vote").

A voter's deck recovery parts are for the cards face down when it voted, at
``s<k>/vanish``; a part is sent once.  They could go stale only if the face-down cards changed
while the engine stayed at step ``k`` -- a step holding several deals, flips or shuffles applied
one at a time.  No game asks that: a step holding several requests is a simultaneous decision,
which moves no card, and every deal, flip and shuffle is a step of its own.  So when the
vanished seat's shares for the deal of step ``k`` reach one survivor only, the others' votes
are void, the deal completes, and they vote again at ``k + 1`` with fresh parts for the cards
then face down: the table recovers, nobody is blamed.
"""

from __future__ import annotations

from typing import Any

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.client.games import bot_maker
from fairtable.engine.games import game_names, rules
from fairtable.engine.playout import seeded_players
from fairtable.engine.requests import Deal, Decision, Flip, Shuffle
from fairtable.protocol.wire import Present, RecoveryShares

from .helpers import deliver_all
from .test_vanish_session import GO_ON, _bots, _one_ending, _parts

SEATS, SEED, GONE = 4, 1, 2
DEALS = 39  # Reign's round-end deals: step 39 deals seat 1 cards of one pile, 40 of the other
ALONE = 3  # the survivor seat 2's shares for step 39 reach


@pytest.mark.parametrize("game", [g for g in game_names() if g != "highcard"])  # 2 seats: no go-on
@pytest.mark.parametrize("seed", [1, 2])
def test_section_11_11_every_deal_flip_and_shuffle_is_a_step(game: str, seed: int) -> None:
    """What keeps a voter's deck parts fresh: within a step no card of a deck moves."""
    state = rules(game).new_game(4)
    referee, players = seeded_players(seed, [bot_maker(game, "random")] * 4)
    while not state.over:
        pending = state.pending()
        if len(pending) > 1:  # several requests at one step: a simultaneous decision only
            assert all(isinstance(r, Decision) and r.simultaneous for r in pending), pending
        request, step = pending[0], state.serial
        if isinstance(request, Decision):
            answer = players[request.seat].decide(state.view(request.seat), request)
        else:
            answer = referee.answer(state, request)
        state.apply(answer)
        if isinstance(request, Deal | Flip | Shuffle):  # a deck moved: what follows is a new step
            assert state.over or state.serial > step, (request, step)


def _stuck_on_a_deal() -> tuple[P.TableSpec, list[P.TableSession], list[Any], list[bytes]]:
    """Every survivor waits on seat 2's shares for the deal of step 39 alone; seat 2's
    entry holding them (made, never sent)."""
    spec, sessions = PT.make_table(SEATS, SEED, game="reign", options=GO_ON)
    bots = _bots("reign", SEED, SEATS)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        until=lambda: sessions[GONE].game.serial >= DEALS,
    )
    late = sessions[GONE].outgoing()
    for data in sessions[GONE].entries():  # what it sent before, still in flight
        if data not in late:
            for s in sessions:
                s.receive(data)
    deliver_all(sessions, skip=(GONE,))
    for s in sessions:
        if s.seat != GONE:
            assert s.waiting == {GONE} and s.game.serial == DEALS
            (req,) = s.port.pending()
            assert isinstance(req, Deal) and req.seat not in (GONE, None)
    return spec, sessions, bots, late


def test_section_11_11_a_vote_void_by_the_vanished_seats_shares_for_a_deal_is_never_used() -> None:
    spec, sessions, bots, late = _stuck_on_a_deal()
    for data in late:
        assert sessions[ALONE].receive(data)  # seat 2's shares reach seat 3 alone: dealt
    assert sessions[ALONE].game.serial == DEALS + 1
    seen = len(sessions[0].log.entries(GONE))
    for s in (sessions[0], sessions[1]):
        s.vanish(GONE)  # they vote at step 39, their deck parts for the cards then face down
    deliver_all(sessions, skip=(GONE,))  # seat 3 answers `present` and passes the shares on
    assert Present(GONE, DEALS, seen) in _parts(sessions[0], ALONE)
    survivors = [s for s in sessions if s.seat != GONE]
    assert all(s.game.serial == DEALS + 1 and s.waiting == {GONE} for s in survivors)
    stale = [p for p in _parts(sessions[0], 0) if isinstance(p, RecoveryShares)]
    assert stale and {p.step for p in stale} == {f"s{DEALS}/vanish"}
    PT.run_table(  # they vote again at step 40, owing its shares for the next deal
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={GONE: 0},
    )
    digest, _end = _one_ending(survivors)
    for s in survivors:
        ((seat, step, rule, owed),) = s.vanishing.applied
        assert (seat, step, rule.value, owed) == (GONE, DEALS + 1, "recover", "Deal")
    fresh = [p for p in _parts(sessions[0], 0) if isinstance(p, RecoveryShares)][len(stale) :]
    assert fresh and {p.step for p in fresh} == {f"s{DEALS + 1}/vanish"}
    dealt = {(p.deck, sh.slot) for p in stale for sh in p.shares} - {
        (p.deck, sh.slot) for p in fresh for sh in p.shares
    }
    assert dealt  # the void vote's parts cover a card dealt since: never used, nobody blamed
    result = P.audit_log(spec, sessions[0].entries())
    assert result.ok and result.digest == digest, result.summary
