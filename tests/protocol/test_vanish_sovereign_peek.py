"""A seat that vanishes while Sovereign's breach Peek is pending, at the step of the Chance
that picked the peeked hand cards (issue 33, docs/protocol.md §11.11, docs/rules/sovereign.md
§1.17).

A breach of the hand picks its cards by a ``Chance`` (``breach_hand``), and the engine asks the
``Peek`` of them in the same answer: both are asked at one step, which a vanishing is judged
at.  Here, a 3-seat Sovereign table whose leavers rule is ``go-on`` (seed 0): at step 277 seat 1
breaches seat 2's hand; every seat's Chance reveal is out, and the defender owes the peek
copies of its hand cards to the attacker.  Each seat in turn goes silent at that moment.  Only
the defender owes anything of the Peek (a held card is under its holder's key alone): its
vanishing is judged at the Chance's step, by §11.11's row for its own held cards -- *recover*:
the peek is withdrawn, its cards set aside, never opened.  The attacker or the third seat owes
nothing there, and is judged at the next step that waits on it.  Every time the other two play
on to one ending on one digest, nobody blamed, no card of the vanished seat opened to anyone,
and the audit, the spec-only verifier and a replay of the log agree.

The two requests of the step meet when the defender's reveal reaches one survivor only: the
other votes while the Chance is pending (a withheld reveal, no recovery part), the one that
filed the reveal votes at the Peek and answers that vote ``present``; the first then files
the reveal and votes again at the Peek, with its recovery parts.  The table recovers as
before, and the peek copies the defender sends late blame and move nobody.
"""

from __future__ import annotations

import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.engine.requests import Chance, Peek
from fairtable.engine.sovereign.kinds import ChanceLabel
from fairtable.protocol.wire import Present, RecoveryShares, Vanish

from . import spec_log
from .helpers import deliver_all
from .test_vanish_session import GO_ON, _bots, _one_ending, _parts, never_opened

SEATS, SEED, STEP = 3, 0, 277
ATTACKER, DEFENDER, THIRD = 1, 2, 0

# seat -> (entries it sends before going silent: all of them while the Peek is pending,
# the step its vanishing is judged at, what it owed there)
SILENT = {
    DEFENDER: (89, STEP, "Peek"),
    ATTACKER: (96, STEP + 1, "Decision"),  # its findings (which Echoes it scores)
    THIRD: (104, STEP + 6, "Decision"),
}


@pytest.mark.parametrize("gone", [DEFENDER, ATTACKER, THIRD], ids=["defender", "attacker", "third"])
def test_section_11_11_a_seat_silent_while_the_breach_peek_is_pending_the_table_goes_on(
    gone: int,
) -> None:
    entries, judged, owed = SILENT[gone]
    spec, sessions = PT.make_table(SEATS, SEED, game="sovereign", options=GO_ON)
    bots = _bots("sovereign", SEED, SEATS)
    survivors = [s for s in sessions if s.seat != gone]
    asked: dict[str, Chance | Peek] = {}
    silent_at: set[str] = set()  # what a survivor waited on with all of `gone`'s entries filed

    def watch() -> bool:
        for s in survivors:
            pending = () if s.port.over else s.port.pending()
            if pending and s.game.serial == STEP and isinstance(pending[0], Chance | Peek):
                asked.setdefault(type(pending[0]).__name__, pending[0])
                if len(s.log.entries(gone)) == entries:
                    silent_at.add(type(pending[0]).__name__)
        return False

    run = PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        silenced={gone: entries},
        until=watch,
    )
    assert run.gone == [gone]
    chance, peek = asked["Chance"], asked["Peek"]  # one step: the Chance, then its Peek
    assert isinstance(chance, Chance) and chance.label == ChanceLabel.BREACH_HAND
    assert isinstance(peek, Peek) and (peek.label, peek.seat) == ("breach", ATTACKER)
    assert "Peek" in silent_at  # it went silent with the Peek pending, every reveal sent
    digest, end = _one_ending(survivors)
    assert end == "won"
    for s in survivors:
        ((seat, step, rule, what),) = s.vanishing.applied
        assert (seat, step, rule.value, what) == (gone, judged, "recover", owed)
        assert s.game.departed == (gone,)
        if gone == DEFENDER:  # the peeked cards: set aside, no copy of them ever made
            assert set(peek.handles) <= s.game.set_aside(DEFENDER)
            assert STEP not in s.exchanges.cards.peeked
    never_opened(sessions, gone)
    result = P.audit_log(spec, survivors[0].entries())
    assert result.ok and result.digest == digest and result.departed == (gone,), result.summary
    checked = spec_log.verify_log(P.write_log(spec, survivors[0].entries()).decode())
    assert checked["cards recovered"] > 0
    again = P.TableSession(spec, None, saved=survivors[0].entries())  # a replay of the log
    while again.next_event() is not None:
        pass
    assert again.verdict is None and again.finished is not None
    assert again.finished.digest == digest


@pytest.mark.parametrize("alone", [THIRD, ATTACKER], ids=["third", "attacker"])
def test_section_11_11_a_vote_cast_at_the_chance_is_void_the_table_recovers_at_the_peek(
    alone: int,
) -> None:
    spec, sessions = PT.make_table(SEATS, SEED, game="sovereign", options=GO_ON)
    bots = _bots("sovereign", SEED, SEATS)
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        until=lambda: sessions[DEFENDER].game.serial >= STEP,
    )
    reveal = sessions[DEFENDER].outgoing()  # its Chance reveal: made, not sent yet
    for data in sessions[DEFENDER].entries():  # what it sent before, still in flight
        if data not in reveal:
            for s in sessions:
                s.receive(data)
    deliver_all(sessions, skip=(DEFENDER,))
    survivors = [s for s in sessions if s.seat != DEFENDER]
    (other,) = (s.seat for s in survivors if s.seat != alone)
    for s in survivors:
        assert s.waiting == {DEFENDER} and s.game.serial == STEP
        assert isinstance(s.port.pending()[0], Chance)
    for data in reveal:
        assert sessions[alone].receive(data)  # the reveal reaches one survivor only
    assert isinstance(sessions[alone].port.pending()[0], Peek)  # same step, the defender's peek
    seen = len(sessions[alone].log.entries(DEFENDER))
    for s in survivors:
        s.vanish(DEFENDER)
    deliver_all(sessions, skip=(DEFENDER,))
    votes = [p for p in _parts(sessions[alone], other) if isinstance(p, Vanish)]
    assert votes == [Vanish(DEFENDER, STEP, seen - 1)]  # cast at the Chance: no recovery part
    assert not any(isinstance(p, RecoveryShares) for p in _parts(sessions[alone], other))
    assert Present(DEFENDER, STEP, seen - 1) in _parts(sessions[alone], alone)
    assert Vanish(DEFENDER, STEP, seen) in _parts(sessions[alone], alone)
    for data in sessions[alone].entries():  # it gets all: the Chance answered, it peeks
        sessions[DEFENDER].receive(data)
    late = sessions[DEFENDER].outgoing()  # its peek copies, never sent
    assert late and sessions[DEFENDER].game.serial == STEP + 1
    PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        vanishings={DEFENDER: 0},
    )
    digest, end = _one_ending(survivors)
    assert end == "won"
    for s in survivors:
        ((seat, step, rule, what),) = s.vanishing.applied
        assert (seat, step, rule.value, what) == (DEFENDER, STEP, "recover", "Peek")
        assert STEP not in s.exchanges.cards.peeked
    votes = [p for p in _parts(survivors[0], other) if isinstance(p, Vanish)]
    assert votes == [Vanish(DEFENDER, STEP, seen - 1), Vanish(DEFENDER, STEP, seen)]
    never_opened(sessions, DEFENDER)
    for s in survivors:
        for data in late:  # a part it signs later blames nobody and moves nobody
            s.receive(data)
        assert s.verdict is None and s.finished is not None and s.finished.digest == digest
        assert STEP not in s.exchanges.cards.peeked
    result = P.audit_log(spec, survivors[0].entries())
    assert result.ok and result.digest == digest and result.departed == (DEFENDER,)
