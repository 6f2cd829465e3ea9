"""Resigning: a seat gives the game up with a signed part in its own feed.

In-memory tables (no sockets) of all three games: every peer ends with the same
resignation, only the seat itself can resign, a resignation after the end changes
nothing, forged or replayed ones are refused, and the audit of any peer's log accepts
a log that ends in a resignation and says so.
"""

from __future__ import annotations

from typing import Any

import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
from fairtable.client.games import bots_for
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.crypto import sign_entry
from fairtable.protocol.testing import peer_secrets
from fairtable.protocol.wire import Batch, Resign

from .helpers import OTHER_TABLE, deliver_all


class _Pause(Exception):
    pass


def _resigned_game(
    game: str, players: int, seed: int, resigner: int, at_decision: int
) -> tuple[P.TableSpec, list[P.TableSession]]:
    """Play until ``resigner``'s ``at_decision``-th decision, where it resigns instead."""
    spec, sessions = PT.make_table(players, seed, game=game, round_limit=60)
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(players)]
    asked = 0

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        nonlocal asked
        if seat == resigner:
            asked += 1
            if asked == at_decision:
                raise _Pause
        return bots[seat].decide(event.view, event.decision)

    with pytest.raises(_Pause):
        PT.run_table(sessions, decide)
    sessions[resigner].resign(leave=False)
    deliver_all(sessions)
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return spec, sessions


@pytest.mark.parametrize(
    ("game", "players", "seed", "resigner", "at"),
    [
        ("reign", 3, 4, 2, 3),
        ("sodalis", 2, 5, 1, 2),
        ("sovereign", 2, 6, 0, 4),
    ],
)
def test_every_peer_ends_with_the_resignation_and_the_audit_reports_it(
    game: str, players: int, seed: int, resigner: int, at: int
) -> None:
    spec, sessions = _resigned_game(game, players, seed, resigner, at)
    ends = {s.resigned for s in sessions}
    assert len(ends) == 1
    (end,) = ends
    assert end is not None and end.seat == resigner
    assert end.step == sessions[resigner].game.state.serial
    for session in sessions:
        assert session.verdict is None
        assert session.finished is not None and session.finished.end == "resigned"
        assert not session.exchanges.audit.audited  # no deck keys opened after a resignation
        result = P.audit_log(spec, session.entries())
        assert result.ok, result.summary
        assert result.resigned == resigner
        assert result.summary.endswith(f"seat {resigner} resigned at step {end.step}")


def test_the_resigning_peer_reports_it_too_and_sends_nothing_more() -> None:
    _, sessions = _resigned_game("reign", 3, 4, 2, 3)
    resigner = sessions[2]
    own = resigner.log.entries(2)
    last = own[-1].message()
    assert isinstance(last, Batch)
    kinds = [type(P.decode(raw)).__name__ for raw in last.parts]
    assert "Resign" in kinds and kinds[kinds.index("Resign") + 1 :] in ([], ["DigestCheck"])
    with pytest.raises(P.LocalProtocolError, match="already over"):
        resigner.resign()


def test_a_resigned_seat_restarted_from_its_log_still_ends_resigned() -> None:
    spec, sessions = _resigned_game("reign", 3, 4, 2, 3)
    identity, secret_seed = peer_secrets(4, 2)
    revived = P.TableSession(
        spec, 2, identity, secret_seed=secret_seed, saved=sessions[2].entries()
    )
    assert revived.resigned == sessions[2].resigned
    assert revived.outgoing() == []


def test_a_spectator_cannot_resign_and_a_finished_game_cannot_be_resigned() -> None:
    spec, sessions = PT.make_table(2, 9, game="sodalis", round_limit=60)
    with pytest.raises(P.LocalProtocolError, match="only a seat"):
        P.TableSession(spec, None).resign()
    root = ChanceStream.from_int(9)
    bots = [bots_for("sodalis")["random"](root.child(f"bot/{s}")) for s in range(2)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    assert sessions[0].finished is not None and sessions[0].finished.end != "resigned"
    before = sessions[0].entries()
    with pytest.raises(P.LocalProtocolError, match="already over"):
        sessions[0].resign()
    assert sessions[0].entries() == before and sessions[0].outgoing() == []


def _signed_resign(
    sessions: list[P.TableSession],
    seat: int,
    as_seat: int | None = None,
    table: bytes | None = None,
) -> bytes:
    """A resignation entry continuing ``seat``'s feed, signed with ``seat``'s key but
    claiming seat ``as_seat`` (a forgery when they differ)."""
    spec = sessions[0].spec
    claimed = seat if as_seat is None else as_seat
    feed = sessions[0].log.entries(claimed)
    prev = feed[-1].entry_id() if feed else PC.ZERO_HASH
    body = P.encode(Batch((P.encode(Resign(sessions[0].game.state.serial)),)))
    identity, _ = peer_secrets(_SEED, seat)
    return P.encode(sign_entry(identity, table or spec.table_id, claimed, len(feed), prev, body))


_SEED = 12


def _midgame() -> tuple[P.TableSpec, list[P.TableSession], list[Any]]:
    spec, sessions = PT.make_table(3, _SEED, game="reign", round_limit=60)
    root = ChanceStream.from_int(_SEED)
    bots = [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(3)]
    asked = 0

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        nonlocal asked
        asked += 1
        if asked == 6:
            raise _Pause
        return bots[seat].decide(event.view, event.decision)

    with pytest.raises(_Pause):
        PT.run_table(sessions, decide)
    deliver_all(sessions)
    return spec, sessions, bots


def test_a_forged_resignation_is_refused_and_changes_nothing() -> None:
    _, sessions, _ = _midgame()
    victim = sessions[0]
    forged = _signed_resign(sessions, seat=1, as_seat=2)  # seat 1 signs in seat 2's name
    digest = victim.game.digest()
    assert victim.receive(forged) is False
    assert victim.resigned is None and victim.verdict is None and victim.finished is None
    assert victim.game.digest() == digest


def test_a_resignation_replayed_from_another_table_is_refused() -> None:
    _, sessions, _ = _midgame()
    elsewhere = _signed_resign(sessions, seat=2, table=OTHER_TABLE)
    assert sessions[0].receive(elsewhere) is False
    assert sessions[0].resigned is None and sessions[0].verdict is None


def test_a_resignation_delivered_again_changes_nothing() -> None:
    _, sessions, _ = _midgame()
    sessions[2].resign(leave=False)
    entry = sessions[2].outgoing()[-1]
    assert sessions[0].receive(entry) is True
    first = sessions[0].resigned
    assert first is not None and first.seat == 2
    assert sessions[0].receive(entry) is False
    assert sessions[0].resigned == first and sessions[0].verdict is None


def test_a_second_resignation_in_a_new_entry_is_a_replay_and_is_blamed() -> None:
    _, sessions, _ = _midgame()
    far_ahead = sessions[0].game.state.serial + 10_000  # never reached: the first waits
    feed = sessions[0].log.entries(2)
    identity, _ = peer_secrets(_SEED, 2)
    body = P.encode(Batch((P.encode(Resign(far_ahead)),)))
    first = sign_entry(identity, sessions[0].spec.table_id, 2, len(feed), feed[-1].entry_id(), body)
    second = sign_entry(
        identity, sessions[0].spec.table_id, 2, len(feed) + 1, first.entry_id(), body
    )
    assert sessions[0].receive(P.encode(first)) is True
    assert sessions[0].resigned is None  # it names a step not reached yet
    sessions[0].receive(P.encode(second))
    verdict = sessions[0].verdict
    assert verdict is not None and verdict.seat == 2 and verdict.kind == "after-resignation"


def test_a_resignation_after_the_game_ended_is_ignored() -> None:
    spec, sessions = PT.make_table(2, 9, game="sodalis", round_limit=60)
    root = ChanceStream.from_int(9)
    bots = [bots_for("sodalis")["random"](root.child(f"bot/{s}")) for s in range(2)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    done = sessions[0].finished
    assert done is not None
    feed = sessions[0].log.entries(1)
    identity, _ = peer_secrets(9, 1)
    late = sign_entry(
        identity,
        spec.table_id,
        1,
        len(feed),
        feed[-1].entry_id(),
        P.encode(Batch((P.encode(Resign(0)),))),
    )
    sessions[0].receive(P.encode(late))
    assert sessions[0].finished == done and sessions[0].resigned is None
    assert sessions[0].verdict is None
    assert P.audit_log(spec, sessions[0].entries()).ok


def test_the_audit_of_a_log_cut_before_the_resigned_step_says_where_it_stops() -> None:
    spec, sessions = _resigned_game("reign", 3, 4, 2, 3)
    by_seat = {s: [P.encode(e) for e in sessions[0].log.entries(s)] for s in range(3)}
    cut = by_seat[2] + by_seat[1] + by_seat[0][:3]
    result = P.audit_log(spec, cut)
    assert not result.ok and result.resigned is None and "before the game ends" in result.summary


def test_a_decision_owed_when_another_seat_resigns_is_refused_and_nothing_is_sent() -> None:
    _, sessions, _ = _midgame()
    waiting = next((s for s in sessions if s.seat in s.waiting), sessions[0])
    resigner = next(s for s in sessions if s is not waiting)
    resigner.resign(leave=False)
    for data in resigner.outgoing():
        waiting.receive(data)
    assert waiting.resigned is not None and waiting.resigned.seat == resigner.seat
    before = waiting.entries()
    with pytest.raises(P.LocalProtocolError, match="the game is over"):
        waiting.decide(object())
    assert waiting.entries() == before and waiting.outgoing() == []
