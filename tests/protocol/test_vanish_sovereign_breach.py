"""A Sovereign defender that vanishes owing the reveal of its breach findings (issue 33,
docs/protocol.md §11.11, docs/rules/sovereign.md §1.17).

In a breach the attacker peeks at cards of the defender's hand or forge, says which Echoes it
scores (or which card the defender discards), and the defender then reveals those cards of its
own.  The vanishing campaign never reached a defender going silent at that moment.  Here, a
3-seat Sovereign table whose leavers rule is ``go-on`` (seed 0): seat 2 is breached at step 279
and goes silent after 90 entries, owing that reveal.  §11.11's table: its own held cards'
reveal -- *recover*: the engine sets them aside, never opened, the breach's scoring is
withdrawn, and the other two play on to one ending on one digest, nobody blamed, which the audit
and the spec-only verifier accept.
"""

from __future__ import annotations

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.engine.requests import Reveal

from . import spec_log
from .test_vanish_session import GO_ON, _bots, _one_ending

SEATS, SEED, DEFENDER, ENTRIES, STEP = 3, 0, 2, 90, 279


def test_section_11_11_a_defender_owing_its_findings_reveal_is_recovered_the_table_goes_on() -> (
    None
):
    spec, sessions = PT.make_table(SEATS, SEED, game="sovereign", options=GO_ON)
    bots = _bots("sovereign", SEED, SEATS)
    survivors = [s for s in sessions if s.seat != DEFENDER]
    owed: dict[int, Reveal] = {}

    def watch() -> bool:  # the reveal each survivor's engine asks, by step
        for s in survivors:
            pending = () if s.port.over else s.port.pending()
            if pending and isinstance(pending[0], Reveal):
                owed.setdefault(s.game.serial, pending[0])
        return False

    run = PT.run_table(
        sessions,
        lambda seat, event: bots[seat].decide(event.view, event.decision),
        silenced={DEFENDER: ENTRIES},
        until=watch,
    )
    assert run.gone == [DEFENDER]
    digest, end = _one_ending(survivors)
    assert end == "won"
    reveal = owed[STEP]
    ((group, handles, mixed),) = reveal.groups
    assert (reveal.label, group, mixed) == ("findings", str(DEFENDER), False)
    for s in survivors:
        ((seat, step, rule, what),) = s.vanishing.applied
        assert (seat, step, rule.value, what) == (DEFENDER, STEP, "recover", "Reveal")
        assert s.game.departed == (DEFENDER,)
        assert set(handles) <= s.game.set_aside(DEFENDER)  # the findings: never opened
    result = P.audit_log(spec, survivors[0].entries())
    assert result.ok and result.digest == digest and result.departed == (DEFENDER,)
    checked = spec_log.verify_log(P.write_log(spec, survivors[0].entries()).decode())
    assert checked["cards recovered"] > 0
