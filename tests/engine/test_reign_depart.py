"""A seat leaving a game of Reign for good (issue 33; docs/rules/reign.md, Departures): rule
tests named after the rulebook section each reading rests on, the refusals, and random games
with a departure at any step, mirrored on every seat's instance."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import CannotDepart
from fairtable.engine.events import Departed
from fairtable.engine.games import rules
from fairtable.engine.reign import Bid, Covert, ReignGame
from fairtable.engine.reign.decisions import CovertInfo
from fairtable.engine.requests import Decision, Reveal
from tests.engine.departures import depart_plan, play_departing
from tests.engine.reign_helpers import (
    decision,
    events_of,
    hand,
    play_until,
    plot,
    settle,
    table,
)

SPEAR, RIDER = "crimson-ash-spearman.1", "crimson-steppe-rider.1"
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"
PIKE, WARDEN = "ivory-oathbound-pikeman.1", "ivory-temple-warden.1"
ARCHER, THRALL = "violet-veiled-archer.1", "violet-gloam-thrall.1"
HANDS = {0: [SPEAR, RIDER], 1: [MARINE, GUARD], 2: [PIKE, WARDEN], 3: [ARCHER, THRALL]}
PILE = [f"violet-duskblade.{n}" for n in range(1, 5)] + [
    f"violet-gloam-thrall.{n}" for n in range(2, 5)
]
EVENTS = ["rally-the-levies.1", "rally-the-levies.2", "forced-march.1"]


def aside_cards(game: ReignGame, seat: int) -> list[str]:
    return list(game.state.secrets[seat].aside)


def everything_public(game: ReignGame) -> str:
    return repr((game.public(), game.state.stored_events()))


def test_set_up_the_table_goes_on_while_two_seats_play() -> None:
    game = rules("reign").new_game(3)
    settle_game = game.copy()
    assert not settle_game.departed
    assert game.can_depart(0)
    game.depart(0)
    assert game.departed == (0,)
    before = game.digest()
    for seat in (0, 1, 2, 3, -1, True, "1"):
        assert not game.can_depart(seat)  # type: ignore[arg-type]
        with pytest.raises(CannotDepart):
            game.depart(seat)  # type: ignore[arg-type]
    assert game.digest() == before


def test_a_game_without_departures_keeps_its_public_state() -> None:
    game = rules("reign").new_game(4)
    assert "departed" not in game.public() and "set_aside" not in game.public()
    game.depart(2)
    assert game.public()["departed"] == [2]
    assert game.public()["set_aside"] == {"2": {"cards": 0, "handles": []}}


def test_influence_phase_bidding_a_seat_that_left_sets_its_hand_aside() -> None:
    game, ref = table(first=0, hands=HANDS, military=PILE, events=EVENTS)
    assert decision(game, ref).seat == 0
    game.apply(Bid(0, 0, ()))
    assert decision(game, ref).seat == 1
    events = game.depart(1)
    assert events[-1] == Departed(1, 2)
    assert game.state.hand_count[1] == 0 and game.state.secrets[1].aside == [GUARD, MARINE]
    assert decision(game, ref).seat == 2  # its bid is withdrawn; play goes on clockwise
    game.apply(Bid(2, 0, ()))
    game.apply(Bid(3, 0, ()))
    play_until(game, ref, lambda g: g.state.phase == "regent" or g.state.round > 2)
    assert MARINE not in everything_public(game) and GUARD not in everything_public(game)


def test_influence_phase_bidding_a_face_down_bid_of_a_seat_that_left_is_never_revealed() -> None:
    game, ref = table(first=0, hands=HANDS, military=PILE, events=EVENTS)
    game.apply(Bid(0, 1, (SPEAR,)))
    game.apply(Bid(1, 2, (MARINE, GUARD)))
    assert decision(game, ref).seat == 2
    handles = set(game.state.bids[1])
    game.depart(1)
    assert game.set_aside(1) == frozenset(handles)
    assert 1 not in game.state.bids
    with pytest.raises(KeyError):
        game.secret_of(min(handles))  # not even the omniscient instance opens it now
    game.apply(Bid(2, 0, ()))
    game.apply(Bid(3, 0, ()))
    reveal = game.pending()[0]
    assert isinstance(reveal, Reveal) and [g for g, _, _ in reveal.groups] == ["0"]
    settle(game, ref)
    assert game.state.support["crimson"] == 0
    assert MARINE not in everything_public(game)


def test_influence_phase_bidding_a_reveal_owed_by_a_seat_that_left_is_asked_again() -> None:
    game, ref = table(first=0, hands=HANDS, military=PILE, events=EVENTS)
    for seat, cards in ((0, (SPEAR,)), (1, (MARINE,)), (2, ()), (3, (ARCHER,))):
        game.apply(Bid(seat, len(cards), cards))
    first = game.pending()[0]
    assert isinstance(first, Reveal) and len(first.groups) == 3
    serial = game.serial
    game.depart(3)
    again = game.pending()[0]
    assert isinstance(again, Reveal) and [g for g, _, _ in again.groups] == ["0", "1"]
    assert game.serial == serial + 1  # a new step: the protocol starts the reveal anew
    settle(game, ref)
    assert ARCHER not in everything_public(game)


def test_plotting_phase_covert_backing_cards_a_seat_that_left_placed_are_set_aside() -> None:
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=0, phase="plotting", support=support, hands=HANDS, military=PILE, events=EVENTS
    )
    plot(game, ref, covert={0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,))}, stop=("covert", 2))
    game.apply(Covert(2, (0, 1), (PIKE, WARDEN)))
    assert decision(game, ref) == Decision(3, CovertInfo(targets=(0, 1), max_cards=2))
    placed = {h for down in game.state.army_down.values() for h, p in down if p == 2}
    game.depart(2)
    assert game.set_aside(2) == frozenset(placed)
    game.apply(Covert(3, (), ()))
    revealed = [e for e in game.state.stored_events() if e[0] == "army_revealed"]
    settle(game, ref)
    revealed = [e for e in game.state.stored_events() if e[0] == "army_revealed"]
    assert sorted(c for e in revealed for c in e[2]) == [MARINE, SPEAR]
    assert PIKE not in everything_public(game) and WARDEN not in everything_public(game)


def test_combat_phase_the_reveal_a_seat_that_left_while_it_was_under_way_has_its_cards_played() -> (
    None
):
    """The protocol put every face-down card of the armies into its pool, mixed beyond
    recall, before the seat vanished (docs/protocol.md §11.11): the reveal stays, and the
    seat's covert backing is revealed with it like everyone's, not set aside."""
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=0, phase="plotting", support=support, hands=HANDS, military=PILE, events=EVENTS
    )
    covert = {0: ((0,), (SPEAR,)), 1: ((1,), (MARINE,)), 2: ((0, 1), (PIKE, WARDEN))}
    plot(game, ref, covert=covert, stop=("covert", 3))
    game.apply(Covert(3, (), ()))
    reveal = game.pending()[0]
    assert isinstance(reveal, Reveal) and reveal.label == "armies"
    step = game.serial
    game.depart(2, revealing=True)
    assert game.pending() == (reveal,) and game.serial == step  # the same reveal, still pending
    assert game.set_aside(2) == frozenset()
    settle(game, ref)
    revealed = [e for e in game.state.stored_events() if e[0] == "army_revealed"]
    assert sorted(c for e in revealed for c in e[2]) == sorted([MARINE, SPEAR, PIKE, WARDEN])


def test_combat_phase_the_reveal_no_reveal_under_way_is_no_reveal_to_keep() -> None:
    game = rules("reign").new_game(4)
    before = game.digest()
    with pytest.raises(CannotDepart, match="no reveal"):
        game.depart(1, revealing=True)
    assert game.digest() == before and not game.departed


def test_plotting_phase_a_holder_that_left_returns_its_support_card_to_the_centre() -> None:
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=0, phase="plotting", support=support, hands=HANDS, military=PILE, events=EVENTS
    )
    plot(game, ref, stop=("overt", 2))
    game.depart(1)
    assert game.state.support["azure"] is None
    assert ("support_returned", 1, "azure") in game.state.stored_events()
    assert decision(game, ref).info.targets == (0,)


def test_combat_phase_regents_special_rules_without_the_regent_the_first_player_decides() -> None:
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=2,
        regent=2,
        phase="plotting",
        support=support,
        hands=HANDS,
        military=PILE,
        events=EVENTS,
    )
    game.depart(2)
    assert game.state.regent is None and game.state.first_player == 3
    assert ("departed", 2, 2) in game.state.stored_events()
    # Seat 0 and seat 1 tie (no cards): the first player, seat 3, chooses.
    plot(game, ref)
    tie = decision(game, ref)
    assert (tie.kind, tie.seat, tie.info.tied) == ("tie_break", 3, (0, 1))


def test_combat_phase_a_tied_seat_that_left_cannot_be_crowned() -> None:
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=2, regent=2, phase="plotting", support=support, hands=HANDS, military=PILE
    )
    plot(game, ref)
    assert decision(game, ref).info.tied == (0, 1)
    game.depart(1)
    settle(game, ref)
    assert game.state.regent == 0
    assert events_of(game, "regent") == [("regent", 0)]


def test_regent_phase_spoils_number_the_players_still_playing() -> None:
    game, ref = table(
        players=5,
        first=0,
        regent=0,
        legit=[0, 0, 0, 0, 0],
        phase="plotting",
        support={"crimson": 0, "azure": None, "ivory": None, "violet": None},
        hands={0: [SPEAR, RIDER], 1: [MARINE], 2: [PIKE], 3: [ARCHER], 4: [THRALL]},
        military=PILE,
        events=EVENTS,
    )
    game.depart(4)
    plot(game, ref)
    settle(game, ref)
    assert ("draw", 0, "military", 4) in game.state.stored_events()  # four players still play
    spoils = decision(game, ref)
    assert spoils.kind == "spoils"


def test_regent_phase_spoils_never_go_to_a_seat_that_left() -> None:
    game, ref = table(
        first=0,
        regent=0,
        phase="plotting",
        support={"crimson": 0, "azure": None, "ivory": None, "violet": None},
        hands=HANDS,
        military=PILE,
        events=EVENTS,
    )
    plot(game, ref, overt={1: (0, MARINE), 2: (0, PIKE)})
    spoils = decision(game, ref)
    assert spoils.info.must_give == (1, 2)
    game.depart(2)
    again = decision(game, ref)
    assert again.kind == "spoils" and again.info.must_give == (1,)


def test_regent_phase_a_regent_that_left_hands_out_nothing() -> None:
    game, ref = table(
        first=0,
        regent=0,
        phase="plotting",
        support={"crimson": 0, "azure": None, "ivory": None, "violet": None},
        hands=HANDS,
        military=PILE,
        events=EVENTS,
    )
    plot(game, ref, overt={1: (0, MARINE)})
    assert decision(game, ref).kind == "spoils"
    held = hand(game, 0)
    game.depart(0)
    assert sorted(game.state.secrets[0].aside) == sorted(held)
    assert game.state.regent is None
    d = decision(game, ref)
    assert d.kind == "draw" and d.seat == 1  # the draw starts from the first player


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(3, 7), st.integers(0, 10_000))
def test_a_departure_at_any_step_leaves_a_game_every_instance_plays_to_its_end(
    data: Any, players: int, seed: int
) -> None:
    plan = depart_plan(data, players, 160)
    played = play_departing("reign", players, seed, plan, aside_cards)
    game = played.game
    assert game.over and game.outcome is not None
    assert all(not game.outcome.won(seat) for seat in game.departed)
    assert len(game.departed) <= players - 2


def test_a_departure_that_ends_the_game_ends_it_for_every_instance() -> None:
    """Seed 37, three seats: seat 0 leaves while the armies' reveal waits.  Its covert card
    in seat 2's army is set aside, seat 2's army stands alone, takes the crown and reaches 9
    legitimacy: the game ends at the departure itself, on one digest for every instance
    (hypothesis found the helper asking an ended game for its next request)."""
    played = play_departing("reign", 3, 37, {70: [0]}, aside_cards)
    assert played.departed == [(70, 0)] and played.steps == 70
    assert played.game.over and played.game.outcome.won(2)


def test_a_world_sampled_after_a_departure_agrees_with_the_view() -> None:
    plan = {40: [1], 90: [2]}
    played = play_departing("reign", 4, 11, plan, aside_cards, worlds=True)
    assert played.departed


def test_the_same_departure_on_two_copies_gives_the_same_digest() -> None:
    game, ref = table(first=0, hands=HANDS, military=PILE, events=EVENTS)
    game.apply(Bid(0, 1, (SPEAR,)))
    other = game.copy()
    assert game.depart(1) == other.depart(1)
    assert game.digest() == other.digest()
