"""The table session: whole Reign games among in-memory peers, cheaters, logs and the audit.

Every test here runs real cryptography (keys, mental-poker decks, proofs) with
no sockets: the harness passes each peer's signed entries to the others.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client import ending
from fairtable.client.bots import RandomBot
from fairtable.client.replay import ending_words
from fairtable.client.simulate import run_crypto_game
from fairtable.engine.events import Event as GameEvent
from fairtable.engine.reign import Bid, standard_catalog
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import events as ev
from fairtable.protocol.wire import Complaint
from tests.leaks import reign_face_up, strings_in

CARD_IDS = set(standard_catalog().defs)


def play(players: int, seed: int, **kwargs: Any) -> tuple[P.TableSpec, list[P.TableSession]]:
    spec, sessions = PT.make_table(players, seed, game="reign", **kwargs)
    bots = [
        RandomBot(ChanceStream.from_int(seed).child(f"bot/{s}"), "reign") for s in range(players)
    ]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return spec, sessions


@pytest.fixture(scope="module")
def finished_game() -> tuple[P.TableSpec, list[P.TableSession]]:
    return play(3, 11)


def test_session_every_peer_ends_with_the_same_digest_and_a_clean_audit(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    _, sessions = finished_game
    assert all(s.verdict is None for s in sessions)
    results = {(s.finished.outcome, s.finished.digest) for s in sessions if s.finished}
    assert len(results) == 1 and len(sessions) == 3
    assert all(s.exchanges.audit.audited for s in sessions)


def test_session_steps_carry_the_engines_typed_records_that_store_as_its_log(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    """A ``StepApplied`` hands out the records the engine returned (no stored tuples to
    parse again); written down, they are the state's own log, entry for entry."""
    spec, sessions = finished_game
    watcher = P.TableSession(spec, None)
    told: list[GameEvent] = []
    for entry in sessions[0].entries():
        watcher.receive(entry)
        while (event := watcher.next_event()) is not None:
            if isinstance(event, P.StepApplied):
                assert all(isinstance(e, GameEvent) for e in event.events)
                told.extend(event.events)
    assert watcher.finished is not None and told
    stored = watcher.game.state.stored_events()
    assert [e.as_tuple() for e in told] == stored[len(stored) - len(told) :]


def test_session_four_peers_agree_too() -> None:
    _, sessions = play(4, 5)
    assert all(s.verdict is None and s.finished is not None for s in sessions)
    assert len({s.finished.digest for s in sessions if s.finished}) == 1


def test_hiding_no_message_carries_a_hidden_card_in_the_clear(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    """The only card names on the wire are cards a decision shows face up, by the rules."""
    _, sessions = finished_game
    shown_face_up = 0
    for data in sessions[0].entries():
        entry = P.Entry.parse(data)
        batch = entry.message()
        assert isinstance(batch, PW.Batch)
        for raw in batch.parts:
            part = P.decode(raw)
            named = strings_in(json.loads(raw)) & CARD_IDS
            if isinstance(part, PW.Move):
                answer = json.loads(part.answer)
                allowed = reign_face_up(answer) & CARD_IDS
                assert strings_in(answer) & CARD_IDS <= allowed
                assert answer.get("cards") is None or answer["type"] == "Discard"
                shown_face_up += len(allowed)
                named = set()
            assert not named, f"{type(part).__name__} names {named}"
    assert shown_face_up > 0


def test_hiding_a_peer_never_learns_another_seats_hand(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    _, sessions = finished_game
    for session in sessions:
        assert set(session.game.state.secrets) == {session.seat}


@pytest.mark.parametrize("kind", PT.CHEATS)
@pytest.mark.parametrize("cheater", [0, 2])
def test_accountability_every_honest_peer_blames_the_cheater(kind: str, cheater: int) -> None:
    result, (_, sessions) = run_crypto_game(
        "reign", 3, 21, ["random"] * 3, cheat=kind, cheater=cheater
    )
    honest = [s for s in sessions if s.seat != cheater]
    assert result["verdict"] == {"seat": cheater, "kind": kind, "agreed": True}
    for session in honest:
        assert session.verdict is not None
        assert session.verdict.seat == cheater, session.verdict
        assert session.verdict.kind == kind


class _FalseShuffleComplainer(P.TableSession):
    """Instead of its first shuffle, complains that the seat before it sent points outside
    the group -- about an output that is sound."""

    done = False

    def publish(self, msg: Any) -> None:
        if not self.done and isinstance(msg, PW.ShuffleStep):
            self.done = True
            assert self.seat is not None
            msg = Complaint(self.port.step, self.seat - 1)
        super().publish(msg)


@pytest.mark.parametrize("players", [3, 5])
def test_accountability_a_false_complaint_about_a_shuffle_blames_the_complainer(
    players: int,
) -> None:
    # a shuffle is validated by the seat that shuffles it next (and the final deck by
    # everyone); the others check the accused output themselves only when someone complains
    _, sessions = play(players, 5, session_class=_FalseShuffleComplainer, cheaters=[1])
    for session in sessions:
        if session.seat != 1:
            assert session.verdict is not None, session.seat
            assert (session.verdict.seat, session.verdict.kind) == (1, "false-complaint")


@pytest.mark.parametrize("tagger", [0, 2, 4])
def test_accountability_a_tagged_shuffle_is_blamed_on_its_shuffler_by_every_peer(
    tagger: int,
) -> None:
    # five seats: an early shuffler's tag is caught by the next one, who complains; the
    # last one's by everyone, in the final deck
    _, sessions = play(5, 7, session_class=PT.cheating_session("invalid-point"), cheaters=[tagger])
    for session in sessions:
        if session.seat != tagger:
            assert session.verdict is not None, session.seat
            assert (session.verdict.seat, session.verdict.kind) == (tagger, "invalid-point")


class _EarlyAuditFromTheFuture(P.TableSession):
    """At engine step 10 claims the deck was found broken at step 16 (an early audit)."""

    claimed: int | None = None

    def publish(self, msg: Any) -> None:
        super().publish(msg)
        step = self.port.step
        if self.claimed is None and step >= 10:
            self.claimed = step + 6
            super().publish(PW.AuditOpening(f"early/{self.claimed}", self.deck_key.secret))


def test_accountability_an_early_audit_is_opened_at_the_step_it_names() -> None:
    # a peer that is behind keeps playing until it reaches the step where the deck was found
    # broken, so it checks at least every shuffle the finder checked
    _, sessions = play(3, 9, session_class=_EarlyAuditFromTheFuture, cheaters=[1])
    claimed = sessions[1].claimed  # type: ignore[attr-defined]
    assert claimed is not None
    for session in sessions:
        if session.seat == 1:
            continue
        opening = session.parts.get((session.seat, PW.AuditPart()))
        assert isinstance(opening, PW.AuditOpening), session.seat
        assert not opening.at_end and opening.early_step is not None
        assert opening.early_step >= claimed
        assert session.verdict is not None


def test_12_2_an_audit_opening_says_when_it_was_opened_in_the_same_bytes() -> None:
    secret = bytes(range(32))
    end, early = PW.AuditOpening.after_game(secret), PW.AuditOpening.early(17, secret)
    assert (end.at_end, end.early_step) == (True, None)
    assert (early.at_end, early.early_step) == (False, 17)
    assert P.encode(end) == P.encode(PW.AuditOpening("end", secret))
    assert P.encode(early) == P.encode(PW.AuditOpening("early/17", secret))
    # a peer's early opening that names no step is read as naming none (broken at once)
    assert PW.AuditOpening("early/soon", secret).early_step is None


def test_12_2_an_early_audit_that_finds_no_seat_at_fault_is_inconclusive_in_its_own_words() -> None:
    # a false claim that the deck is broken: every key checks out, so the honest seats stop
    # with `inconclusive`, naming nobody; the screen, the replay and the audit of the log say
    # it was an early audit -- not a blame, not a spectator that lost the table
    spec, sessions = play(3, 9, session_class=_EarlyAuditFromTheFuture, cheaters=[1])
    for session in sessions:
        if session.seat == 1:
            continue
        verdict = session.verdict
        assert verdict is not None and verdict.seat is None, session.seat
        assert verdict.kind is P.VerdictKind.INCONCLUSIVE
        assert verdict.reason.endswith("but every shuffle and key checks out")
        said = ending.stopped(ev.Verdict(None, verdict.kind, verdict.reason), abandoned=None)
        assert said == (
            "The game stopped for an early audit that found no seat at fault: " + verdict.reason
        )
        entries = P.read_log(P.write_log(spec, session.entries()))[1]
        result = P.audit_log(spec, entries)
        assert not result.ok and result.blamed is None
        assert "for an early audit that found no seat at fault: " in result.summary
        replayed = P.replay_log(spec, entries).ending
        assert replayed.verdict is P.VerdictKind.INCONCLUSIVE
        assert "for an early audit that found no seat at fault: " in ending_words(replayed)
        assert "blamed" not in ending_words(replayed) + result.summary + said


def test_accountability_an_equivocation_proof_checks_standalone() -> None:
    _, (spec, sessions) = run_crypto_game(
        "reign", 3, 4, ["random"] * 3, cheat="equivocation", cheater=1
    )
    verdict = sessions[0].verdict
    assert verdict is not None and verdict.evidence
    proof = P.decode_as(verdict.evidence[0], P.EquivocationProof)
    assert proof.verify(spec.roster()[1]) == 1


def test_audit_a_saved_log_verifies(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    spec, sessions = finished_game
    for session in sessions:
        read_spec, entries = P.read_log(P.write_log(spec, session.entries()))
        result = P.audit_log(read_spec, entries)
        assert result.ok, result.summary
        assert result.digest == session.finished.digest  # type: ignore[union-attr]


def test_audit_a_tampered_entry_fails_naming_the_line(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    spec, sessions = finished_game
    entries = sessions[1].entries()
    doctored = json.loads(entries[10])
    doctored["seq"] = doctored["seq"] + 1000
    entries[10] = json.dumps(doctored, sort_keys=True, separators=(",", ":")).encode()
    result = P.audit_log(spec, entries)
    assert not result.ok
    assert result.summary.startswith("line 12:")


def test_audit_a_log_with_a_missing_entry_says_which(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    spec, sessions = finished_game
    entries = sessions[2].entries()
    victim = P.Entry.parse(entries[5])
    del entries[5]
    result = P.audit_log(spec, entries)
    assert not result.ok
    assert f"seat {victim.seat}'s feed is missing entries {victim.seq}" in result.summary


def test_audit_a_log_cut_short_says_where_it_stops(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    spec, sessions = finished_game
    entries = sessions[0].entries()
    by_seat: dict[int, list[bytes]] = {}
    for data in entries:
        by_seat.setdefault(P.Entry.parse(data).seat, []).append(data)
    cut = [e for seat in sorted(by_seat) for e in by_seat[seat][:20]]
    result = P.audit_log(spec, cut)
    assert not result.ok and "before the game ends" in result.summary


def test_audit_a_file_that_is_not_a_log_is_refused() -> None:
    with pytest.raises(P.LogError, match="line 1"):
        P.read_log(b"hello\n")


def test_bad_input_garbage_from_the_network_changes_nothing(
    finished_game: tuple[P.TableSpec, list[P.TableSession]],
) -> None:
    spec, _ = finished_game
    _, sessions = PT.make_table(3, 11, game="reign")
    session = sessions[0]
    before = (session.game.digest(), len(session.parts), session.verdict)
    for junk in (b"", b"\x00" * 10, b"{}", b'{"type":"entry"}', b"[" * 5000, b"x" * (2 << 20)):
        session.receive(junk)
    assert (session.game.digest(), len(session.parts), session.verdict) == before


def test_bad_input_an_illegal_local_decision_is_refused_and_nothing_is_sent() -> None:
    _, sessions = PT.make_table(3, 2, game="reign")
    asked: dict[int, P.DecisionNeeded] = {}

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        asked[seat] = event
        raise _Stop

    class _Stop(Exception):
        pass

    with pytest.raises(_Stop):
        PT.run_table(sessions, decide)
    seat, event = next(iter(asked.items()))
    session = sessions[seat]
    sent = session.messages_sent
    from fairtable.engine.errors import EngineError

    with pytest.raises(EngineError):
        session.decide(Bid(seat, 99, tuple(event.view.hand)))
    assert session.messages_sent == sent and session.outgoing() == []


def test_crypto_simulation_is_deterministic_for_a_seed() -> None:
    first, _ = run_crypto_game("reign", 3, 8, ["random", "heuristic", "random"])
    second, _ = run_crypto_game("reign", 3, 8, ["random", "heuristic", "random"])
    assert first == second
    assert first["messages"] > 0 and first["bytes"] > 0 and first["digest"]


def test_docs_hold_the_state_diagram_generated_from_the_code() -> None:
    from pathlib import Path

    from fairtable.protocol.testing import state_diagram

    docs = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert "```mermaid\n" + state_diagram() + "\n```" in docs


def test_only_the_game_over_exchange_ends_the_session_in_the_state_diagram() -> None:
    from fairtable.protocol.testing import state_diagram

    to_done = [line for line in state_diagram().split("\n") if " --> done:" in line]
    assert to_done == ["    game_over_audit --> done: all parts in and checked"]


class _Pause(Exception):
    pass


@pytest.mark.parametrize(("seed", "crash_at"), [(13, 40), (13, 3), (6, 25), (9, 45), (2, 30)])
def test_liveness_a_restarted_peer_replays_its_log_and_the_game_ends_the_same(
    seed: int, crash_at: int
) -> None:
    from fairtable.protocol.testing import peer_secrets

    spec, sessions = PT.make_table(3, seed, game="reign")
    bots = [RandomBot(ChanceStream.from_int(seed).child(f"bot/{s}"), "reign") for s in range(3)]
    made = 0
    paused: list[int] = []

    def decide(seat: int, event: P.DecisionNeeded) -> Any:
        nonlocal made
        made += 1
        if made == crash_at:
            paused.append(seat)
            raise _Pause  # seat crashes here, before answering
        return bots[seat].decide(event.view, event.decision)

    with pytest.raises(_Pause):
        PT.run_table(sessions, decide)
    seat = paused[0]
    crashed = sessions[seat]
    identity, secret_seed = peer_secrets(seed, seat)
    revived = P.TableSession(spec, seat, identity, secret_seed=secret_seed, saved=crashed.entries())
    assert revived.game.digest() == crashed.game.digest()
    assert revived.game.view(seat) == crashed.game.view(seat)
    assert revived.outgoing() == []  # nothing already sent is signed again
    sessions[seat] = revived
    for session in sessions:  # catch-up: every peer offers every entry it holds
        for data in session.entries():
            for other in sessions:
                if other is not session:
                    other.receive(data)
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    assert all(s.verdict is None and s.finished is not None for s in sessions)
    assert len({s.finished.digest for s in sessions if s.finished}) == 1


def test_accountability_a_false_complaint_blames_the_complainer() -> None:
    from fairtable.protocol.wire import Complaint

    class FalseComplainer(P.TableSession):
        sent = False

        def publish(self, msg: Any) -> None:
            super().publish(msg)
            if not self.sent and isinstance(msg, PW.Move):
                for step, (_, _, found, _) in sorted(self.exchanges.piles.dealt.items()):
                    others = sorted(s for s in found if s != self.seat)
                    if others:
                        self.sent = True
                        super().publish(Complaint(step, others[0]))
                        return

    _, sessions = play(3, 17, session_class=FalseComplainer, cheaters=[1])
    for session in (sessions[0], sessions[2]):
        assert session.verdict is not None
        assert (session.verdict.seat, session.verdict.kind) == (1, "false-complaint")


def test_an_in_memory_table_run_stops_where_asked_with_nothing_after_it_done() -> None:
    """protocol.testing.run_table(until=...): a benchmark stops at the first decision."""
    _, sessions = PT.make_table(3, 5, game="reign")
    answered: list[int] = []
    run = PT.run_table(
        sessions,
        lambda seat, event: answered.append(seat),
        until=lambda: any(s.thinking() for s in sessions),
    )
    assert answered == [] and run.messages > 0
    assert any(s.thinking() for s in sessions)
    assert all(s.finished is None and s.verdict is None for s in sessions)
