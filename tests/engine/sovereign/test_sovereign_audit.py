"""The end-of-game audit of cards nobody revealed (engine side, ``RULES.audit_cards``):
a reflex kept in a forge, and an Echo a forge breach showed but the attacker left."""

from __future__ import annotations

from fairtable.engine.events import Departed
from fairtable.engine.sovereign import RULES
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.position import position

LINE = (
    "sovereign players=2 factions=windwalker,windwalker phase=forge "
    "forge0=ww-desperate-sacrifice:1,ww-echo-first-wind:1 forge1=ww-echo-first-wind:2"
)


def _forge(game, seat: int) -> list[int]:  # type: ignore[no-untyped-def]
    return [s.handle for s in game.state.boards[seat].forge]


def test_forge_a_reflex_kept_in_a_forge_is_blamed_on_its_seat_at_the_audit() -> None:
    game, _ = position(LINE)
    reflex, echo = _forge(game, 0)
    cards = {reflex: "ww-desperate-sacrifice", echo: "ww-echo-first-wind"}
    assert RULES.audit_cards is not None
    found = RULES.audit_cards(game, cards)
    assert found is not None and found[0] == 0 and "Desperate Sacrifice" in found[1]


def test_forge_cards_that_may_be_there_pass_the_audit() -> None:
    game, _ = position(
        "sovereign players=2 factions=windwalker,windwalker phase=forge "
        "forge0=ww-echo-first-wind:1 forge1=ww-grav-skimmers:2"
    )
    (echo,), (unit,) = _forge(game, 0), _forge(game, 1)
    assert RULES.audit_cards is not None
    assert RULES.audit_cards(game, {echo: "ww-echo-first-wind", unit: "ww-grav-skimmers"}) is None


def test_breaching_an_echo_seen_in_a_forge_breach_and_left_there_names_the_attacker() -> None:
    game, _ = position(
        "sovereign players=2 factions=windwalker,windwalker phase=forge "
        "forge1=ww-echo-first-wind:2,ww-grav-skimmers:1"
    )
    echo, unit = _forge(game, 1)
    game.state.events.append(E.Peek(0, 1, (echo, unit)))  # seat 0's forge breach saw both
    cards = {echo: "ww-echo-first-wind", unit: "ww-grav-skimmers"}
    assert RULES.audit_cards is not None
    found = RULES.audit_cards(game, cards)
    assert found is not None and found[0] == 0 and "did not score" in found[1]
    game.state.events[-1] = E.Peek(0, 1, (unit,))  # a breach that saw only the unit
    assert RULES.audit_cards(game, cards) is None


def test_breaching_an_echo_seen_in_a_hand_breach_must_have_been_scored_right_after() -> None:
    game, _ = position("sovereign players=2 factions=windwalker,windwalker phase=forge")
    old = 900  # a hand handle from before the re-handle: held under no handle any more
    cards = {old: "ww-echo-first-wind"}
    game.state.events.append(E.Peek(0, 1, (old,)))
    assert RULES.audit_cards is not None
    found = RULES.audit_cards(game, cards)
    assert found is not None and found[0] == 0
    game.state.events.append(E.Scored(0, "1:ww-echo-first-wind"))
    assert RULES.audit_cards(game, cards) is None
    game.state.events.insert(-1, E.Turn(9, 1))  # scored only in a later turn: too late
    assert RULES.audit_cards(game, cards) is not None


def _breach_of_an_echo_in_a_forge():  # type: ignore[no-untyped-def]
    """Three seats; seat 0's forge breach of seat 1 saw an Echo, which is still there."""
    game, _ = position(
        "sovereign players=3 factions=windwalker,windwalker,windwalker phase=forge "
        "forge1=ww-echo-first-wind:2"
    )
    (echo,) = _forge(game, 1)
    game.state.events.append(E.Peek(0, 1, (echo,)))
    return game, {echo: "ww-echo-first-wind"}


def test_departures_a_breach_whose_victim_left_before_it_scored_names_nobody() -> None:
    """Issue 33 (vanishing campaign seed 43 before protocol version 9): the victim's cards
    were set aside, so the attacker could not score the Echo it saw."""
    game, cards = _breach_of_an_echo_in_a_forge()
    assert RULES.audit_cards is not None
    assert RULES.audit_cards(game, cards) is not None  # no departure: the attacker is named
    game.state.events.append(Departed(1, 1))
    assert RULES.audit_cards(game, cards) is None


def test_departures_a_breach_whose_attacker_left_before_it_scored_names_nobody() -> None:
    """Issue 33 (found by the vanishing campaign under protocol version 9: seed 43 with seat 2
    silent after 143 entries): a seat that left scores no more (§1.17), so it did not
    withhold the Echo it saw."""
    game, cards = _breach_of_an_echo_in_a_forge()
    game.state.events.append(Departed(0, 0))
    assert RULES.audit_cards is not None
    assert RULES.audit_cards(game, cards) is None
    game.state.events[-1] = Departed(2, 0)  # a third seat's leaving excuses nobody
    assert RULES.audit_cards(game, cards) is not None
