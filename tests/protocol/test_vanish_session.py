"""Vanishing in the table session (issue 33, docs/protocol.md §7.11 "Transcript" and §11.11).

In-memory tables (no sockets) whose leavers rule is ``go-on``: every seat's key is dealt at
the start; a seat that goes silent for good and that the table says vanished no longer ends
the game -- the others vote, recover exactly the deck cards they need of its layer, and
finish on one digest that the audit accepts.  A table whose rule is ``end`` sends no byte
more.  Cheats stay named: a bad deal, a wrong answer to a complaint, a bad recovery share;
a vanished seat's late part cannot fork the table; its hand is never opened.
"""

from __future__ import annotations

from typing import Any

import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
from fairtable.client.games import bots_for
from fairtable.client.replay import ending_words
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.rng import ChanceStream
from fairtable.protocol import _vanish
from fairtable.protocol.wire import (
    Batch,
    Leavers,
    Present,
    RecoveryShares,
    Share,
    ShareAnswer,
    ShareBox,
    ShareComplaint,
    ShareDeal,
    Vanish,
)

from . import spec_log
from .helpers import deliver_all

GO_ON = canonical_bytes({"leavers": "go-on"})


class _Pause(Exception):
    pass


def _bots(game: str, seed: int, players: int) -> list[Any]:
    root = ChanceStream.from_int(seed)
    return [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(players)]


def _parts(session: P.TableSession, seat: int) -> list[Any]:
    """Every part ``seat`` published in the feed ``session`` holds, in order."""
    out = []
    for entry in session.log.entries(seat):
        batch = entry.message()
        assert isinstance(batch, Batch)
        out += [P.decode(raw) for raw in batch.parts]
    return out


def _vanished_game(
    game: str, players: int, seed: int, gone: int, at: int, *, round_limit: int = 40
) -> tuple[P.TableSpec, list[P.TableSession]]:
    spec, sessions = PT.make_table(players, seed, game=game, round_limit=round_limit, options=GO_ON)
    bots = _bots(game, seed, players)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={gone: at},
    )
    return spec, sessions


def _one_ending(survivors: list[P.TableSession]) -> tuple[str, str]:
    ends = {(s.finished.digest, s.finished.end) for s in survivors if s.finished is not None}
    assert all(s.verdict is None for s in survivors), [s.verdict for s in survivors]
    assert len(ends) == 1 and all(s.finished is not None for s in survivors), ends
    ((digest, end),) = ends
    return digest, end


# -- setup ------------------------------------------------------------------------------------
def test_a_table_whose_rule_is_end_sends_no_key_sharing_part() -> None:
    _, sessions = PT.make_table(4, 1, game="reign", round_limit=2)
    assert sessions[0].leavers is Leavers.END
    for session in sessions:
        assert not any(
            isinstance(p, ShareDeal | ShareComplaint | ShareAnswer | RecoveryShares | Vanish)
            for p in _parts(session, session.seat)
        )
        assert session.vanishing.escrow is None
    with pytest.raises(P.LocalProtocolError, match="leavers: end"):
        sessions[0].vanish(1)


def test_at_a_go_on_table_every_seat_deals_its_key_with_its_key_share() -> None:
    _, sessions = PT.make_table(4, 1, game="reign", round_limit=2, options=GO_ON)
    first = [_parts(s, s.seat)[:3] for s in sessions]
    for parts in first:
        assert [type(p).__name__ for p in parts[:1]] == ["KeyShare"]
        assert any(isinstance(p, ShareDeal) for p in parts)
    deliver_all(sessions)
    for session in sessions:
        escrow = session.vanishing.escrow
        assert escrow is not None and escrow.settled()  # every deal taken, a piece of each


def test_a_two_seat_table_shares_nothing_even_with_go_on() -> None:
    _, sessions = PT.make_table(2, 1, game="sovereign", round_limit=2, options=GO_ON)
    assert all(s.vanishing.escrow is None for s in sessions)


def _tampered_deal(
    monkeypatch: pytest.MonkeyPatch, dealer: int, holder: int, *, answer_right: bool
) -> None:
    """Seat ``dealer`` seals a share for ``holder`` that does not fit its commitments (and,
    unless ``answer_right``, answers the complaint with that wrong share)."""
    original = _vanish.Vanishing.our_deal

    def our_deal(self: _vanish.Vanishing) -> ShareDeal | None:
        msg = original(self)
        if self.port.me != dealer or msg is None:
            return msg
        wrong = (7).to_bytes(32, "little")
        to = self.escrow._identities[holder]  # type: ignore[union-attr]
        box = PC.seal(
            to,
            table=self.port.table,
            sender=dealer,
            to_seat=holder,
            purpose="vss-share",
            payload=wrong,
        ).box
        boxes = tuple(ShareBox(b.to_seat, box) if b.to_seat == holder else b for b in msg.boxes)
        escrow = self.escrow
        assert escrow is not None
        if not answer_right:
            escrow._shares[holder] = wrong
        escrow._deals[dealer] = ShareDeal(msg.commitments, boxes)
        return escrow._deals[dealer]

    monkeypatch.setattr(_vanish.Vanishing, "our_deal", our_deal)


def test_a_bad_share_is_complained_of_and_a_right_answer_settles_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _tampered_deal(monkeypatch, dealer=1, holder=3, answer_right=True)
    _, sessions = _vanished_game("reign", 4, 2, gone=2, at=3)
    assert any(isinstance(p, ShareComplaint) for p in _parts(sessions[0], 3))
    assert any(isinstance(p, ShareAnswer) for p in _parts(sessions[0], 1))
    survivors = [s for s in sessions if s.seat != 2]
    _one_ending(survivors)
    assert all(s.game.departed == (2,) for s in survivors)


def test_a_wrong_answer_to_a_complaint_names_the_dealer(monkeypatch: pytest.MonkeyPatch) -> None:
    _tampered_deal(monkeypatch, dealer=1, holder=3, answer_right=False)
    _, sessions = PT.make_table(4, 2, game="reign", round_limit=2, options=GO_ON)
    deliver_all(sessions)
    for session in sessions:
        if session.seat != 1:
            assert session.verdict is not None, session.seat
            assert (session.verdict.seat, session.verdict.kind) == (1, P.VerdictKind.BAD_PROOF)


def test_a_deal_that_fails_the_public_checks_names_the_dealer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = _vanish.Vanishing.our_deal

    def our_deal(self: _vanish.Vanishing) -> ShareDeal | None:
        msg = original(self)
        if self.port.me != 2 or msg is None:
            return msg
        return ShareDeal((msg.commitments[1], *msg.commitments[1:]), msg.boxes)

    monkeypatch.setattr(_vanish.Vanishing, "our_deal", our_deal)
    _, sessions = PT.make_table(4, 2, game="reign", round_limit=2, options=GO_ON)
    deliver_all(sessions)
    for session in sessions:
        if session.seat != 2:
            assert session.verdict is not None
            assert (session.verdict.seat, session.verdict.kind) == (2, P.VerdictKind.BAD_PROOF)


# -- a vanishing ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "players", "seed", "gone", "at"),
    [
        ("reign", 4, 0, 1, 3),
        ("reign", 4, 7, 0, 1),
        ("reign", 6, 3, 4, 2),
        ("sovereign", 3, 1, 2, 4),
        ("sodalis", 4, 2, 3, 2),
    ],
)
def test_the_others_finish_on_one_digest_and_the_audit_accepts_it(
    game: str, players: int, seed: int, gone: int, at: int
) -> None:
    spec, sessions = _vanished_game(game, players, seed, gone, at)
    survivors = [s for s in sessions if s.seat != gone]
    digest, end = _one_ending(survivors)
    assert end not in ("left", "resigned", "vanished")
    step = survivors[0].vanishing.vanished[gone]
    for s in survivors:
        assert s.game.departed == (gone,)
        assert s.vanishing.vanished == {gone: step}
        assert gone not in s.port.seats
        result = P.audit_log(spec, s.entries())
        assert result.ok, result.summary
        assert result.digest == digest and result.departed == (gone,)
        assert f"seat {gone} vanished at step {step}" in result.summary
    replay = P.replay_log(spec, survivors[0].entries())
    assert replay.ending.kind is P.EndingKind.FINISHED
    assert replay.steps[-1].digest == digest


def test_a_vanishing_is_a_seat_left_event_not_a_verdict() -> None:
    spec, sessions = PT.make_table(4, 0, game="reign", round_limit=40, options=GO_ON)
    bots = _bots("reign", 0, 4)
    seen: list[Any] = []

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        return bots[seat].decide(event.view, event.decision)

    PT.run_table(sessions, decide, vanishings={1: 3})
    session = sessions[0]
    # an observer fed the whole log (a replay) applies the same vanishing
    again = P.TableSession(spec, None, saved=session.entries())
    while (event := again.next_event()) is not None:
        seen.append(event)
    left = [e for e in seen if isinstance(e, P.SeatLeft)]
    assert len(left) == 1 and left[0].seat == 1 and left[0].vanished
    assert again.verdict is None


def test_the_vanished_seats_hand_is_never_opened() -> None:
    gone = 2
    _, sessions = _vanished_game("reign", 4, 5, gone, 4)
    never_opened(sessions, gone)


def never_opened(sessions: list[P.TableSession], gone: int) -> None:
    """No survivor's recovery share (each naming ``gone``) strips the vanished seat's key, or
    its escrowed piece, from a card it held."""
    survivors = [s for s in sessions if s.seat != gone]
    witness = survivors[0]
    recovered: set[bytes] = set()
    for s in survivors:
        for part in _parts(witness, s.seat):
            if isinstance(part, RecoveryShares):
                assert part.departed == gone
                recovered.update(share.share for share in part.shares)
    assert recovered, "the survivors recovered the deck cards"
    secret = sessions[gone].deck_key.secret
    for s in survivors:
        hidden = s.exchanges.cards.held[gone]
        assert hidden, "the vanished seat held cards"
        piece = s.vanishing.escrow.pieces[gone]  # type: ignore[union-attr]
        for ct in hidden.values():
            assert PC.mul(piece.secret, ct.a) not in recovered  # no recovery share for it
            assert PC.mul(secret, ct.a) not in recovered


def test_a_bad_recovery_share_names_its_author(monkeypatch: pytest.MonkeyPatch) -> None:
    original = _vanish.Vanishing._recovery

    def recovery(self: _vanish.Vanishing, d: int, k: int) -> list[RecoveryShares]:
        parts = original(self, d, k)
        if self.port.me != 3:
            return parts
        first = parts[0]
        swapped = (Share(first.shares[0].slot, first.shares[1].share), *first.shares[1:])
        parts[0] = RecoveryShares(first.departed, first.deck, first.step, swapped, first.proof)
        return parts

    monkeypatch.setattr(_vanish.Vanishing, "_recovery", recovery)
    _, sessions = _vanished_game("reign", 4, 0, 1, 3)
    for s in (sessions[0], sessions[2]):
        assert s.verdict is not None
        assert (s.verdict.seat, s.verdict.kind) == (3, P.VerdictKind.BAD_PROOF)
        assert s.game.departed == ()


def test_a_second_vanishing_ends_the_game_for_everyone_without_a_verdict() -> None:
    spec, sessions = PT.make_table(5, 3, game="reign", round_limit=40, options=GO_ON)
    bots = _bots("reign", 3, 5)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={1: 2, 3: 4},
    )
    survivors = [sessions[s] for s in (0, 2, 4)]
    _digest, end = _one_ending(survivors)
    assert end == "vanished"
    for s in survivors:
        assert s.game.departed == (1,)
        assert s.resigned is not None and s.resigned.seat == 3 and s.resigned.vanished
        result = P.audit_log(spec, s.entries())
        assert result.ok and "seat 3 vanished (the table could not recover)" in result.summary
    checked = spec_log.verify_log(P.write_log(spec, survivors[0].entries()).decode())
    assert checked["cards recovered"] > 0 and checked["vanishings not recovered"] == 1


# -- a vanished seat's late part cannot fork the table ------------------------------------------
def _stuck_on(seed: int, gone: int, at: int) -> tuple[list[P.TableSession], list[Any], bytes]:
    """Play a 4-seat Reign table until ``gone`` is asked its ``at``-th decision; the entry
    with its honest answer is made but held back (the late part)."""
    _, sessions = PT.make_table(4, seed, game="reign", round_limit=40, options=GO_ON)
    bots = _bots("reign", seed, 4)
    asked: list[P.DecisionNeeded] = []

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        if seat == gone:
            asked.append(event)
            if len(asked) == at:
                raise _Pause
        return bots[seat].decide(event.view, event.decision)

    with pytest.raises(_Pause):
        PT.run_table(sessions, decide)
    deliver_all(sessions)
    lost, event = sessions[gone], asked[-1]
    lost.decide(bots[gone].decide(event.view, event.decision))
    (late,) = lost.outgoing()
    return sessions, bots, late


def _finish(sessions: list[P.TableSession], bots: list[Any], gone: int) -> None:
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={gone: 0},
    )


def test_a_late_part_a_survivor_took_before_voting_voids_the_vote_and_nobody_forks() -> None:
    gone = 1
    sessions, bots, late = _stuck_on(4, gone, 3)
    step = sessions[0].game.serial
    for s in (sessions[0], sessions[2]):
        s.vanish(gone)  # they vote at this step, and file no more of seat 1
    votes = [d for s in (sessions[0], sessions[2]) for d in s.outgoing()]
    assert sessions[3].receive(late)  # seat 3 takes the late part first: it plays on
    assert sessions[3].game.serial > step
    for data in votes:
        sessions[3].receive(data)
    answer = sessions[3].outgoing()
    assert any(isinstance(p, Present) for p in _parts(sessions[3], 3))
    for data in [*votes, *answer]:
        for s in (sessions[0], sessions[2]):
            s.receive(data)
    assert all(gone not in s.vanishing.mine for s in sessions)  # the votes are void
    deliver_all(sessions, skip=(gone,))  # seat 3 passes the late part on, as a peer floods
    assert len({s.game.serial for s in sessions if s.seat != gone}) == 1
    _finish(sessions, bots, gone)
    survivors = [s for s in sessions if s.seat != gone]
    _one_ending(survivors)
    assert len({s.game.departed for s in survivors}) == 1


def test_a_late_part_after_every_vote_changes_nothing() -> None:
    gone = 2
    sessions, bots, late = _stuck_on(6, gone, 2)
    survivors = [s for s in sessions if s.seat != gone]
    step = survivors[0].game.serial
    for s in survivors:
        s.vanish(gone)
    deliver_all(sessions, skip=(gone,))
    assert all(s.vanishing.vanished == {gone: step} for s in survivors)
    digests = {s.game.digest() for s in survivors}
    for s in survivors:
        assert not s.receive(late)  # past its vote: neither kept nor counted
    assert {s.game.digest() for s in survivors} == digests
    _finish(sessions, bots, gone)
    _one_ending(survivors)


# -- the log, checked from the spec text alone -------------------------------------------------
@pytest.mark.parametrize(
    ("game", "players", "seed", "silent", "owed"),
    [
        ("reign", 4, 0, (1, 12), "Decision"),
        ("sovereign", 3, 28, (2, 1), "Shuffle"),
        ("sovereign", 3, 33, (1, 6), "Deal"),
        ("reign", 5, 34, (0, 22), "Deal"),
    ],
)
def test_spec_alone_checks_a_log_where_a_seat_vanished(
    game: str, players: int, seed: int, silent: tuple[int, int], owed: str
) -> None:
    """§7.11 and §11.11 from the text alone (``tests/protocol/spec_log.py``): every deal's
    public checks, the survivors' recovery shares for exactly the face-down deck cards, each
    against its public share, combined and stripped; a shuffle owed restarts without the seat."""
    spec, sessions = PT.make_table(players, seed, game=game, options=GO_ON)
    bots = _bots(game, seed, players)
    run = PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        silenced=dict([silent]),
    )
    assert run.gone == [silent[0]]
    survivor = sessions[(silent[0] + 1) % players]
    assert survivor.finished is not None and survivor.verdict is None
    (applied,) = survivor.vanishing.applied
    assert applied[3] == owed and applied[2] is _vanish.Rule.RECOVER
    checked = spec_log.verify_log(P.write_log(spec, survivor.entries()).decode())
    assert checked["deals"] == players
    if owed == "Shuffle":  # its first shuffle: nothing was face down yet, a step abandoned
        assert checked["abandoned shuffle steps"] > 0
    else:
        assert checked["cards recovered"] > 0 and checked["recovery parts"] >= players - 1


def test_a_seat_still_here_answers_a_vote_about_it_and_plays_on() -> None:
    """Two of three others call a slow seat gone; it files their votes, answers ``present``,
    the votes are void, and the game goes on with it to one ending for all four."""
    slow = 2
    _, sessions = PT.make_table(4, 8, game="reign", round_limit=40, options=GO_ON)
    bots = _bots("reign", 8, 4)
    asked: list[P.DecisionNeeded] = []

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        if seat == slow:
            asked.append(event)
            if len(asked) == 3:
                raise _Pause
        return bots[seat].decide(event.view, event.decision)

    with pytest.raises(_Pause):
        PT.run_table(sessions, decide)
    deliver_all(sessions)
    for s in (sessions[0], sessions[1]):
        s.vanish(slow)
    deliver_all(sessions)
    assert any(isinstance(p, Present) for p in _parts(sessions[0], slow))
    assert all(not s.vanishing.mine for s in sessions)  # every vote is void
    lost = sessions[slow]
    lost.decide(bots[slow].decide(asked[-1].view, asked[-1].decision))
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    _one_ending(sessions)
    assert all(s.game.departed == () for s in sessions)


# -- a live spectator (§11.11, "Spectators and the audit") ---------------------------------------
def _watch(spectator: P.TableSession, source: P.TableSession, fed: set[bytes]) -> list[Any]:
    """Give ``spectator`` the entries ``source`` holds that it lacks, as a live stream does;
    the events it reports."""
    for data in source.entries():
        if data not in fed:
            fed.add(data)
            spectator.receive(data)
    events = []
    while (event := spectator.next_event()) is not None:
        events.append(event)
    return events


def test_a_live_spectator_follows_a_vanishing_to_the_survivors_digest() -> None:
    gone = 2
    sessions, bots, _late = _stuck_on(6, gone, 2)
    spectator, fed = P.TableSession(sessions[0].spec, None), set()
    _watch(spectator, sessions[0], fed)  # it watched the game up to the step seat 2 owes
    survivors = [s for s in sessions if s.seat != gone]
    step = survivors[0].game.serial
    for s in survivors:
        s.vanish(gone)
    deliver_all(sessions, skip=(gone,))
    seen = _watch(spectator, sessions[0], fed)  # the votes and what follows them
    assert [(e.seat, e.step, e.vanished) for e in seen if isinstance(e, P.SeatLeft)] == [
        (gone, step, True)
    ]
    _finish(sessions, bots, gone)
    digest, _end = _one_ending(survivors)
    _watch(spectator, sessions[0], fed)
    assert spectator.verdict is None and spectator.vanishing.vanished == {gone: step}
    assert spectator.finished is not None and spectator.finished.digest == digest


def test_a_live_spectator_that_took_a_late_part_before_the_votes_stops_naming_nobody() -> None:
    """The vanished seat's late part reached the spectator before the votes did: past the
    agreed ``seen`` it cannot follow the survivors (it has no seat to answer ``present``
    with), so it stops with ``cannot-follow``, naming nobody -- not an honest survivor for a
    digest it cannot share, not ``inconclusive`` (an early audit's), never another ending."""
    gone = 2
    sessions, bots, late = _stuck_on(6, gone, 2)
    spectator, fed = P.TableSession(sessions[0].spec, None), set()
    _watch(spectator, sessions[0], fed)
    assert spectator.receive(late)  # it files seat 2's late decision and plays it
    _watch(spectator, sessions[0], fed)
    survivors = [s for s in sessions if s.seat != gone]
    for s in survivors:
        s.vanish(gone)
    deliver_all(sessions, skip=(gone,))
    _finish(sessions, bots, gone)
    _one_ending(survivors)
    _watch(spectator, sessions[0], fed)
    verdict = spectator.verdict
    assert spectator.finished is None
    assert verdict is not None and verdict.seat is None
    assert verdict.kind is P.VerdictKind.CANNOT_FOLLOW and not verdict.kind.blames
    assert f"a later entry of seat {gone} was already played here" in verdict.reason


def test_the_audit_of_a_log_holding_a_late_part_past_the_votes_says_it_cannot_follow() -> None:
    """A log that holds the vanished seat's late part besides every vote about it (the audit
    files seat by seat, so the part comes first) cannot be followed past the vote: the audit
    and the replay say so in their own words, naming nobody -- not an early audit's
    ``inconclusive``, not a blame."""
    gone = 2
    sessions, bots, late = _stuck_on(6, gone, 2)
    spec = sessions[0].spec
    for s in sessions:
        if s.seat != gone:
            s.vanish(gone)
    deliver_all(sessions, skip=(gone,))
    _finish(sessions, bots, gone)
    entries = [*sessions[0].entries(), late]
    result = P.audit_log(spec, entries)
    assert not result.ok and result.blamed is None
    assert result.summary.startswith("the audit cannot follow the table: every other seat agreed")
    ending = P.replay_log(spec, entries).ending
    assert ending.verdict is P.VerdictKind.CANNOT_FOLLOW and ending.seat is None
    assert ending_words(ending).startswith(f"could not follow the table past step {ending.step}")
