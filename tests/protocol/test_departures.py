"""Departures: a seat leaves a game of three or more and the others play on (issue 33).

In-memory Reign tables (no sockets): the survivors finish on one digest with a real ending
and the audit of their log accepts it; the departed seat's hidden cards are never opened
(nothing it published decrypts them); and a leaving seat that cheats -- bad shares, a
leave at a step already past or where it owes nothing, parts after its leave -- is named,
or changes nothing, while a survivor that cheats after a departure is still named.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
from fairtable.client.games import bots_for
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.crypto import sign_entry
from fairtable.protocol.testing import peer_secrets
from fairtable.protocol.wire import (
    AuditPart,
    Batch,
    DecryptShares,
    Leave,
    Move,
    Opening,
    Resign,
    Share,
)

from .helpers import deliver_all


class _Pause(Exception):
    pass


def _bots(seed: int, players: int) -> list[Any]:
    root = ChanceStream.from_int(seed)
    return [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(players)]


def _left_game(
    seed: int, players: int, leaver: int, at: int
) -> tuple[P.TableSpec, list[P.TableSession]]:
    spec, sessions = PT.make_table(players, seed, game="reign", round_limit=60)
    bots = _bots(seed, players)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        departures={leaver: at},
    )
    return spec, sessions


def _paused(
    seed: int, players: int, leaver: int, at: int
) -> tuple[P.TableSpec, list[P.TableSession], list[Any]]:
    """Play until ``leaver`` is asked its ``at``-th decision; every entry delivered."""
    spec, sessions = PT.make_table(players, seed, game="reign", round_limit=60)
    bots = _bots(seed, players)
    asked = 0

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        nonlocal asked
        if seat == leaver:
            asked += 1
            if asked == at:
                raise _Pause
        return bots[seat].decide(event.view, event.decision)

    with pytest.raises(_Pause):
        PT.run_table(sessions, decide)
    deliver_all(sessions)
    return spec, sessions, bots


def _signed(sessions: list[P.TableSession], seed: int, seat: int, parts: list[Any]) -> bytes:
    """An entry continuing ``seat``'s feed (as the others hold it) with ``parts``."""
    feed = sessions[(seat + 1) % len(sessions)].log.entries(seat)
    prev = feed[-1].entry_id() if feed else PC.ZERO_HASH
    body = P.encode(Batch(tuple(P.encode(p) for p in parts)))
    identity, _ = peer_secrets(seed, seat)
    return P.encode(sign_entry(identity, sessions[0].spec.table_id, seat, len(feed), prev, body))


def _play_on(sessions: list[P.TableSession], bots: list[Any]) -> None:
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))


@pytest.mark.parametrize(("seed", "leaver", "at"), [(0, 1, 3), (7, 0, 1), (11, 3, 6)])
def test_reign_four_seats_the_others_finish_on_one_digest_and_the_audit_accepts_it(
    seed: int, leaver: int, at: int
) -> None:
    spec, sessions = _left_game(seed, 4, leaver, at)
    gone = sessions[leaver]
    assert gone.left is not None and gone.left.seat == leaver
    assert gone.finished is not None and gone.finished.end == "left"
    survivors = [s for s in sessions if s.seat != leaver]
    ends = {(s.finished.digest, s.finished.end) for s in survivors if s.finished}
    assert len(ends) == 1 and all(s.verdict is None for s in survivors)
    ((digest, end),) = ends
    assert end not in ("left", "resigned")
    for s in survivors:
        assert s.game.departed == (leaver,)
        assert s.departures.gone == {leaver: gone.left.step}
        assert s.exchanges.audit.audited  # the survivors opened their keys at the end
        result = P.audit_log(spec, s.entries())
        assert result.ok, result.summary
        assert result.departed == (leaver,) and result.digest == digest
        assert f"seat {leaver} left at step {gone.left.step}" in result.summary


def test_two_seats_leave_one_after_the_other_and_the_rest_finish() -> None:
    _, sessions = PT.make_table(5, 3, game="reign", round_limit=60)
    bots = _bots(3, 5)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        departures={1: 2, 3: 5},
    )
    survivors = [sessions[s] for s in (0, 2, 4)]
    assert len({s.finished.digest for s in survivors if s.finished}) == 1
    assert all(s.verdict is None and s.game.departed == (1, 3) for s in survivors)


def _published_shares(session: P.TableSession, seat: int) -> set[bytes]:
    """Every decryption share ``seat`` ever published in its feed."""
    found: set[bytes] = set()
    for entry in session.log.entries(seat):
        batch = entry.message()
        assert isinstance(batch, Batch)
        for raw in batch.parts:
            msg = P.decode(raw)
            groups: tuple[DecryptShares, ...] = ()
            if isinstance(msg, DecryptShares):
                groups = (msg,)
            elif isinstance(msg, Move | Opening):
                groups = msg.shown
            found.update(share.share for group in groups for share in group.shares)
    return found


@pytest.mark.parametrize(("seed", "leaver", "at"), [(0, 1, 3), (5, 2, 4), (11, 3, 6)])
def test_the_departed_seats_hand_is_never_opened(seed: int, leaver: int, at: int) -> None:
    _, sessions = _left_game(seed, 4, leaver, at)
    secret = sessions[leaver].deck_key.secret
    published = _published_shares(sessions[1 if leaver != 1 else 0], leaver)
    for survivor in (s for s in sessions if s.seat != leaver):
        ledger = survivor.exchanges.cards
        hidden = ledger.held[leaver]
        assert hidden, "the departed seat held cards when it left"
        aside = survivor.game.set_aside(leaver)
        assert {ledger.handle_slot[h] for h in aside} <= set(hidden)
        for ct in hidden.values():
            # the only share that opens it: x_L * A -- never published by the leaver
            assert PC.mul(secret, ct.a) not in published
        keys = {
            s.seat: s.deck_key.secret for s in sessions if s.seat != leaver and s.seat is not None
        }
        assert not survivor.parts.get((leaver, AuditPart()))  # its key never opened
        for ct in hidden.values():  # nor do the survivors' opened keys open it
            for key in keys.values():
                assert PC.sub(ct.b, PC.mul(key, ct.a)) not in ledger.point_card


def test_a_leave_with_a_bad_share_names_the_leaver() -> None:
    seed, leaver = 0, 1
    _, sessions, _ = _paused(seed, 4, leaver, 3)
    parts = sessions[leaver].departures.leave_parts()
    first = parts[0]
    assert isinstance(first, DecryptShares) and len(first.shares) > 1
    swapped = (Share(first.shares[0].slot, first.shares[1].share), *first.shares[1:])
    parts[0] = DecryptShares(first.deck, first.step, swapped, first.proof, first.to_seat)
    entry = _signed(sessions, seed, leaver, parts)
    for s in sessions:
        if s.seat != leaver:
            s.receive(entry)
            assert s.verdict is not None and s.verdict.seat == leaver
            assert s.verdict.kind == P.VerdictKind.BAD_PROOF
            assert s.game.departed == ()


def test_a_leave_without_its_shares_names_the_leaver() -> None:
    seed, leaver = 0, 1
    _, sessions, _ = _paused(seed, 4, leaver, 3)
    step = sessions[leaver].game.serial
    entry = _signed(sessions, seed, leaver, [Leave(step)])
    for s in sessions:
        if s.seat != leaver:
            s.receive(entry)
            assert s.verdict is not None and s.verdict.seat == leaver
            assert s.verdict.kind == P.VerdictKind.BAD_LEAVE


def test_a_leave_at_a_step_already_past_names_the_leaver() -> None:
    seed, leaver = 0, 1
    _, sessions, _ = _paused(seed, 4, leaver, 3)
    parts = sessions[leaver].departures.leave_parts()
    parts[-1] = Leave(sessions[leaver].game.serial - 1)
    entry = _signed(sessions, seed, leaver, parts)
    for s in sessions:
        if s.seat != leaver:
            s.receive(entry)
            assert s.verdict is not None and s.verdict.seat == leaver
            assert s.verdict.kind == P.VerdictKind.BAD_LEAVE and "past" in s.verdict.reason


def test_a_leave_where_the_seat_owes_no_decision_names_it() -> None:
    seed, leaver = 0, 1
    _, sessions, _ = _paused(seed, 4, leaver, 3)
    other = next(s for s in (0, 2, 3) if not sessions[s].departures.owes_decision(s))
    parts = sessions[other].departures.leave_parts()
    entry = _signed(sessions, seed, other, parts)
    for s in sessions:
        if s.seat != other:
            s.receive(entry)
            assert s.verdict is not None and s.verdict.seat == other
            assert s.verdict.kind == P.VerdictKind.BAD_LEAVE


def test_parts_a_seat_sends_after_it_left_change_nothing() -> None:
    seed, leaver = 0, 1
    _, sessions, bots = _paused(seed, 4, leaver, 3)
    sessions[leaver].resign()
    assert sessions[leaver].left is not None
    deliver_all(sessions)
    late = _signed(sessions, seed, leaver, [Resign(sessions[0].game.serial)])
    fork = _signed(sessions, seed, leaver, [Move(sessions[0].game.serial, b"{}", b"", ())])
    for s in sessions:
        if s.seat != leaver:
            assert s.receive(late) is False and s.receive(fork) is False  # not even kept
            assert s.verdict is None and s.game.departed == (leaver,)
    _play_on(sessions, bots)
    survivors = [s for s in sessions if s.seat != leaver]
    assert len({s.finished.digest for s in survivors if s.finished}) == 1
    assert all(s.verdict is None for s in survivors)


def test_a_seat_asked_to_leave_while_others_decide_leaves_at_its_next_decision() -> None:
    seed, leaver = 0, 1
    _, sessions, bots = _paused(seed, 4, leaver, 3)
    waiting = next(s for s in (0, 2, 3) if not sessions[s].departures.owes_decision(s))
    sessions[waiting].resign()
    assert sessions[waiting].left is None and sessions[waiting].finished is None
    paused = sessions[leaver]  # it was asked, and answers now
    paused.decide(bots[leaver].decide(paused.game.view(leaver), paused.game.pending()[0]))
    _play_on(sessions, bots)
    assert sessions[waiting].left is not None
    survivors = [s for s in sessions if s.seat != waiting]
    assert all(s.verdict is None and s.game.departed == (waiting,) for s in survivors)
    assert len({s.finished.digest for s in survivors if s.finished}) == 1


class _LateBadProof(P.TableSession):
    """Flips a bit of the proof of its first decryption shares after a seat left."""

    cheated = False

    def publish(self, msg: Any) -> None:
        if (
            not self.cheated
            and self.game.departed
            and isinstance(msg, DecryptShares)
            and msg.shares
        ):
            self.cheated = True
            msg = attrs.evolve(msg, proof=bytes([msg.proof[0] ^ 1]) + msg.proof[1:])
        super().publish(msg)


def test_a_survivor_that_cheats_after_a_departure_is_still_named() -> None:
    seed, leaver, cheater = 4, 0, 2
    _, sessions = PT.make_table(
        4, seed, game="reign", round_limit=60, session_class=_LateBadProof, cheaters=[cheater]
    )
    bots = _bots(seed, 4)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        departures={leaver: 1},
    )
    assert isinstance(sessions[cheater], _LateBadProof) and sessions[cheater].cheated
    for s in sessions:
        if s.seat not in (leaver, cheater):
            assert s.verdict is not None and s.verdict.seat == cheater, s.verdict
            assert s.game.departed == (leaver,)


@pytest.mark.parametrize("cheat", ["bad-proof", "bad-shuffle", "equivocation"])
def test_a_seat_that_cheats_in_a_game_with_a_departure_is_named(cheat: str) -> None:
    seed, leaver, cheater = 4, 0, 2
    _, sessions = PT.make_table(
        4,
        seed,
        game="reign",
        round_limit=60,
        session_class=PT.cheating_session(cheat),
        cheaters=[cheater],
    )
    bots = _bots(seed, 4)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        departures={leaver: 1},
    )
    for s in sessions:
        if s.seat not in (leaver, cheater) and s.left is None:
            assert s.verdict is not None and s.verdict.seat == cheater, s.verdict


@pytest.mark.parametrize(
    ("game", "players", "seed", "leaver", "at"),
    [
        ("sovereign", 4, 0, 1, 3),
        ("sodalis", 4, 0, 1, 3),
    ],
)
def test_sovereign_and_sodalis_tables_go_on_after_a_departure(
    game: str, players: int, seed: int, leaver: int, at: int
) -> None:
    """The other two games let a seat leave too (their engines' rules): the others finish on
    one digest, the engine answering for the departed seat where the game asks it."""
    spec, sessions = PT.make_table(players, seed, game=game, round_limit=60)
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(players)]
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        departures={leaver: at},
    )
    assert sessions[leaver].left is not None
    survivors = [s for s in sessions if s.seat != leaver]
    assert all(s.verdict is None and s.game.departed == (leaver,) for s in survivors)
    assert len({s.finished.digest for s in survivors if s.finished}) == 1
    assert P.audit_log(spec, survivors[0].entries()).ok


def test_the_audit_of_a_log_that_stops_at_a_seats_leave_says_so() -> None:
    """The seat that left keeps the log only up to its leave (its node stops): the audit says
    where the log stops and that the seat left there."""
    spec, sessions, _ = _paused(0, 4, 1, 3)
    sessions[1].resign()
    deliver_all(sessions)
    result = P.audit_log(spec, sessions[1].entries())
    assert not result.ok and result.departed == (1,)
    assert "seat 1 left at step" in result.summary and "up to its leave" in result.summary
    # partial, not failed: everything it holds checks out, and a seat still at the table
    # holds the rest (the screen tells the seat that left to audit its copy)
    assert result.partial and not result.unchecked and result.blamed is None
    assert "checks out up to step" in result.summary


def test_a_stopped_log_with_nobody_gone_is_not_partial() -> None:
    """A log cut short at a table nobody left is no seat's whole copy: it fails."""
    spec, sessions, _ = _paused(0, 4, 1, 3)
    result = P.audit_log(spec, sessions[1].entries())
    assert not result.ok and not result.partial and result.departed == ()
