"""Issue 31, N14: Reign's log says why a seat loses a house's support, in the same line --
"Influence Phase > Bidding": a player never holds more than one support card (it gave one
back, and kept the other), another player takes it from them (named on the gain), a card
in its army returns it to the centre (Broken Oath), or the seat left the table.  The
engine's events already tell these apart by type (``support_returned``, ``support_lost``);
the client reads the rest from the views around the step, so no stored byte changes."""

from __future__ import annotations

import re

from fairtable.client.reign.model import ClientModel
from fairtable.netplay import events as ev
from tests.engine.driver import Table
from tests.engine.reign_helpers import plot, table
from tests.engine.test_reign_depart import EVENTS, HANDS, PILE

HOUSE = r"House (\w+)"


def logged(seed: int, players: int = 5) -> list[str]:
    """Seat 0's log of a seeded game among random bots, fed step by step as a node would."""
    t = Table(players, seed=seed)
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=players))
    while not t.truth.over:
        events = t.truth.apply(t.next_answer())
        model.apply_event(ev.ViewChanged(view=t.truth.view(0), events=tuple(events)))
    return list(model.log)


def lines() -> list[str]:
    return [line for seed in range(1, 4) for line in logged(seed) if "support of House" in line]


def test_influence_phase_bidding_one_support_card_says_which_was_kept() -> None:
    back = [line for line in lines() if "gave back" in line]
    assert back
    for line in back:
        found = re.fullmatch(
            rf"(you|seat \d) gave back the support of {HOUSE} \(one support card at a time: "
            rf"(you|seat \d) kept {HOUSE}\)",
            line,
        )
        assert found and found[1] == found[3] and found[2] != found[4], line
    assert not [line for line in lines() if re.search(r"lost the support of House \w+$", line)]


def test_combat_phase_a_card_in_the_army_returning_the_support_is_named() -> None:
    lost = [line for line in lines() if " lost the support" in line]
    assert lost
    assert all(
        re.fullmatch(
            rf"(you|seat \d) lost the support of {HOUSE} \(Broken Oath in "
            r"(your|seat \d's) army returns it to the centre\)",
            line,
        )
        for line in lost
    ), lost


def test_influence_phase_bidding_a_support_taken_from_another_names_it() -> None:
    taken = [line for line in lines() if " from " in line]
    assert taken
    for line in taken:
        found = re.fullmatch(
            rf"(you|seat \d) gained the support of {HOUSE} from (you|seat \d)", line
        )
        assert found and found[1] != found[3], line


def test_a_holder_that_left_returns_its_support_card_to_the_centre() -> None:
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=0, phase="plotting", support=support, hands=HANDS, military=PILE, events=EVENTS
    )
    plot(game, ref, stop=("overt", 2))
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=4))
    model.apply_event(ev.ViewChanged(view=game.view(0), events=()))
    events = game.depart(1)
    model.apply_event(ev.ViewChanged(view=game.view(0), events=tuple(events)))
    assert "seat 1 lost the support of House Essendel (seat 1 left the table)" in model.log
