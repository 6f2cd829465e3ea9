"""When the parts of a vanishing arrive: "pools complete" and the verdict are the same on every
peer, whatever a survivor sends late, early, or in another order (issue 33, docs/protocol.md
§11.11, "The vote").

Each peer decides from its own state whether the pools of the step were complete and which
recovery parts it holds.  The table is test_vanish_pools's: seat 2 goes silent owing its
re-mix of the pools of step 62 (its 31st entry, the re-mix, is made but never sent), seats 0, 1
and 3 are told it vanished.

- A survivor whose recovery parts come in an entry after its vote: a peer that files the
  vote alone would blame it while one that got both would apply the vanishing.  A part counts
  only if it was filed before its voter's vote, so every peer names the survivor.
- Recovery parts in an earlier entry than the vote, in another order: they count alike.
- The vanished seat's re-mix reaches one survivor only, after the others voted: their votes
  are void, and the shares they sent for the pools are for the pools before that re-mix; a
  part is sent once, so they cannot send them again at that step.  The table cannot recover:
  the game ends ``vanished`` for everyone, nobody blamed (an honest seat was blamed before).
- A survivor whose vote comes before its own hand-over into the pools: the other seats voted
  once they had it, but a live spectator that files every vote first would apply the vanishing
  to pools it holds incomplete and part ways with the table.  A peer applies a vote only once
  it waits on nobody but the vanished seat, so the spectator waits for the hand-over.
"""

from __future__ import annotations

from typing import Any

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.protocol import _vanish
from fairtable.protocol.wire import HandOver, Opening, Present, RecoveryShares, Vanish

from . import spec_log
from .helpers import deliver_all, resigned
from .test_vanish_pools import GO_ON, RE_MIX, SEATS, SEED
from .test_vanish_session import _bots, _one_ending, _parts

GONE, CHEAT = 2, 3


def _stuck() -> tuple[P.TableSpec, list[P.TableSession], list[Any], bytes]:
    """The table with every survivor waiting on seat 2's re-mix alone; seat 2's re-mix entry
    (made, never sent)."""
    spec, sessions = PT.make_table(SEATS, SEED, game="reign", options=GO_ON)
    bots = _bots("reign", SEED, SEATS)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        until=lambda: len(sessions[GONE].log.entries(GONE)) > 30,
    )
    (late,) = sessions[GONE].outgoing()
    deliver_all(sessions, skip=(GONE,))
    assert all(s.waiting == {GONE} for s in sessions if s.seat != GONE)
    return spec, sessions, bots, late


def _finish(sessions: list[P.TableSession], bots: list[Any]) -> None:
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={GONE: 0},
    )


def _split_vote(monkeypatch: pytest.MonkeyPatch, *, parts_first: bool) -> None:
    """Seat 3 sends its vote and its recovery parts (in reverse order) in two entries: the
    parts once it files another seat's vote (``parts_first`` False: after its vote), or its
    vote then (``parts_first``: the parts before it)."""
    held: list[Any] = []
    vote, filed = _vanish.Vanishing._vote, _vanish.Vanishing.filed

    def split(self: _vanish.Vanishing, v: tuple[int, int, int]) -> None:
        if self.port.me != CHEAT:
            vote(self, v)
            return
        d, k, seen = v
        assert self.rule(d) is _vanish.Rule.RECOVER
        parts = list(reversed(self._recovery(d, k)))
        assert any(p.deck.startswith("pool") for p in parts)
        first, later = (
            (parts, [Vanish(d, k, seen)]) if parts_first else ([Vanish(d, k, seen)], parts)
        )
        for part in first:
            self.port.publish(part)
        held.extend(later)
        self.votes.setdefault(v, set()).add(CHEAT)
        self.mine[d], self.frozen[d] = v, seen

    def then(self: _vanish.Vanishing, seat: int, msg: Any) -> None:
        filed(self, seat, msg)
        if self.port.me == CHEAT and isinstance(msg, Vanish) and held:
            for part in held:
                self.port.publish(part)
            held.clear()

    monkeypatch.setattr(_vanish.Vanishing, "_vote", split)
    monkeypatch.setattr(_vanish.Vanishing, "filed", then)


def test_section_11_11_recovery_parts_after_the_vote_name_the_voter_in_any_arrival_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _split_vote(monkeypatch, parts_first=False)
    _spec, sessions, _bots_, _late = _stuck()
    for s in sessions:
        if s.seat != GONE:
            s.vanish(GONE)
    (zero,), (one,), (vote,) = (sessions[s].outgoing() for s in (0, 1, CHEAT))
    sessions[CHEAT].receive(zero)
    (parts,) = sessions[CHEAT].outgoing()  # its recovery parts, one entry after its vote
    sessions[0].receive(one)
    sessions[0].receive(vote)  # seat 0 has every vote, and seat 3's vote alone
    sessions[1].receive(zero)
    sessions[1].receive(parts)  # seat 1 gets the parts first (held: a gap before them)
    sessions[1].receive(vote)  # then files the vote and the parts together
    deliver_all(sessions, skip=(GONE,))
    verdicts = {(s.verdict.seat, s.verdict.kind, s.verdict.reason) for s in sessions if s.verdict}
    assert [s.seat for s in sessions if s.verdict is not None] == [0, 1]
    ((seat, kind, reason),) = verdicts
    assert (seat, kind) == (CHEAT, P.VerdictKind.BAD_PROOF)
    assert "voted without its recovery shares" in reason
    assert all(sessions[s].vanishing.vanished == {} for s in (0, 1))  # nothing applied


def test_section_11_11_recovery_parts_before_the_vote_in_another_order_count_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _split_vote(monkeypatch, parts_first=True)
    _spec, sessions, bots, _late = _stuck()
    for s in sessions:
        if s.seat != GONE:
            s.vanish(GONE)
    (zero,), (one,), (parts,) = (sessions[s].outgoing() for s in (0, 1, CHEAT))
    sessions[CHEAT].receive(zero)
    (vote,) = sessions[CHEAT].outgoing()  # its vote, one entry after its recovery parts
    assert any(isinstance(p, Vanish) for p in _parts(sessions[CHEAT], CHEAT)[-1:])
    sessions[0].receive(parts)
    sessions[0].receive(one)
    sessions[0].receive(vote)
    sessions[1].receive(vote)  # held until the parts before it come
    sessions[1].receive(zero)
    sessions[1].receive(parts)
    deliver_all(sessions, skip=(GONE,))
    survivors = [s for s in sessions if s.seat != GONE]
    assert all(s.vanishing.vanished == {GONE: 62} for s in survivors)
    _finish(sessions, bots)
    _one_ending(survivors)


def test_section_11_11_a_vote_void_by_the_vanished_seats_re_mix_ends_the_game_blaming_nobody() -> (
    None
):
    spec, sessions, bots, late = _stuck()
    assert sessions[1].receive(late)  # seat 2's re-mix reaches seat 1 alone
    for s in (sessions[0], sessions[CHEAT]):
        s.vanish(GONE)  # they vote with their shares for the pools before that re-mix
    deliver_all(sessions, skip=(GONE,))  # seat 1 answers `present` and passes the re-mix on
    assert [p for p in _parts(sessions[0], 1) if isinstance(p, Present)] == [Present(GONE, 62, 30)]
    _finish(sessions, bots)  # everyone votes again once it waits on seat 2's opening shares
    survivors = [s for s in sessions if s.seat != GONE]
    digest, end = _one_ending(survivors)
    assert end == "vanished"
    for s in survivors:
        ((seat, step, rule, owed),) = s.vanishing.applied
        assert (seat, step, rule, owed) == (GONE, 62, _vanish.Rule.END, "Pool opening")
    recovered = [p for p in _parts(sessions[0], 0) if isinstance(p, RecoveryShares)]
    assert any(p.deck.startswith("pool") for p in recovered)  # sent once, with the void vote
    result = P.audit_log(spec, sessions[0].entries())
    assert result.ok and result.digest == digest, result.summary
    checked = spec_log.verify_log(P.write_log(spec, sessions[0].entries()).decode())
    assert checked["vanishings not recovered"] == 1  # the spec's rule, from the text alone


def test_section_11_11_a_spectator_waits_for_a_voters_hand_over_that_comes_after_its_vote() -> None:
    spec, sessions = PT.make_table(SEATS, SEED, game="reign", options=GO_ON)
    bots = _bots("reign", SEED, SEATS)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        silenced=dict([RE_MIX]),
    )
    survivors = [s for s in sessions if s.seat != GONE]
    digest, _end = _one_ending(survivors)

    def hand_over_late(seat: int, feed: list[list[object]]) -> list[list[object]]:
        """Seat 3's hand-over into the pools of step 62 (and its opening) moved from its
        entry to an entry of their own right after its vote."""
        if seat != CHEAT:
            return feed
        pooled = [
            i
            for i, parts in enumerate(feed)
            if any(isinstance(p, HandOver) and p.step.startswith("s62/pool") for p in parts)
        ]
        (i,) = pooled
        (vote,) = [j for j, parts in enumerate(feed) if any(isinstance(p, Vanish) for p in parts)]
        late = [p for p in feed[i] if isinstance(p, HandOver | Opening)]
        kept = [p for p in feed[i] if not isinstance(p, HandOver | Opening)]
        return [*feed[:i], kept, *feed[i + 1 : vote + 1], late, *feed[vote + 1 :]]

    entries = resigned(spec, SEED, sessions[0].entries(), hand_over_late)
    feeds = [[e for e in entries if P.decode(e).seat == seat] for seat in range(SEATS)]
    late = next(
        n
        for n, raw in enumerate(feeds[CHEAT])
        if any(isinstance(P.decode(p), HandOver) for p in P.decode(raw).message().parts)
        and n > 0
        and any(
            isinstance(P.decode(p), Vanish) for p in P.decode(feeds[CHEAT][n - 1]).message().parts
        )
    )
    spectator = P.TableSession(spec, None)
    for raw in [*feeds[0], *feeds[1], *feeds[GONE], *feeds[CHEAT][:late]]:
        spectator.receive(raw)  # every vote, and seat 3's feed up to its vote
    assert spectator.vanishing.vanished == {}  # it waits on seat 3's hand-over
    assert spectator.waiting == {CHEAT}
    for raw in feeds[CHEAT][late:]:
        spectator.receive(raw)
    assert spectator.verdict is None and spectator.vanishing.vanished == {GONE: 62}
    assert spectator.finished is not None and spectator.finished.digest == digest
