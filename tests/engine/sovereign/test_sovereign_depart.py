"""A seat leaving a game of Sovereign for good (issue 33; docs/rules/sovereign.md,
Departures): rule tests named after the rulebook section each reading rests on, the refusals,
and random games with a departure at any step, mirrored on every seat's instance."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import CannotDepart
from fairtable.engine.events import Departed
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignGame
from fairtable.engine.sovereign import answers as A
from tests.engine.departures import depart_plan, play_departing
from tests.engine.sovereign.helpers import put_unit, quiet, settle, start, until


def aside_cards(game: SovereignGame, seat: int) -> list[str]:
    return list(game.state.secrets[seat].aside)


def test_setup_a_two_player_game_cannot_go_on_without_a_seat() -> None:
    game, _ = start(2)
    before = game.digest()
    for seat in (0, 1):
        assert not game.can_depart(seat)
        with pytest.raises(CannotDepart):
            game.depart(seat)
    assert game.digest() == before and "departed" not in game.public()


def test_setup_a_table_of_three_goes_on_while_two_seats_play() -> None:
    game, _ = start(3)
    game.depart(1)
    assert game.departed == (1,) and game.public()["departed"] == [1]
    assert not game.can_depart(0) and not game.can_depart(1)


def test_forge_phase_a_seat_that_left_sets_its_hand_and_forge_aside() -> None:
    game, ref = start(3)
    d = until(game, ref, "forge")
    seat = d.seat
    defs, cards = game.state.catalog.defs, game.state.secrets[seat].cards
    handle = next(h for h in game.state.boards[seat].hand if defs[cards[h]].type != "reflex")
    game.apply(A.PlayToForge(seat, handle))
    held = sorted(game.state.secrets[seat].cards.values())
    handles = {*game.state.boards[seat].hand, *(x.handle for x in game.state.boards[seat].forge)}
    events = game.depart(seat)
    assert events[0] == Departed(seat, len(handles))
    assert game.set_aside(seat) == frozenset(handles)
    board = game.state.boards[seat]
    assert board.hand == [] and board.forge == []
    assert sorted(game.state.secrets[seat].aside) == held
    with pytest.raises(KeyError):
        game.secret_of(handle)
    # its turn ends at once: its remaining decisions are taken by the public rule
    nxt = settle(game, ref)[0]
    assert isinstance(nxt, Decision) and nxt.seat != seat


def test_play_a_seat_that_left_takes_no_turn() -> None:
    game, ref = start(3)
    until(game, ref, "forge", seat=0)
    game.depart(1)
    turns = []
    for _ in range(400):
        pending = settle(game, ref)
        if len(turns) >= 4 or game.over:
            break
        game.apply(quiet(game, pending[0]))
        turns = [e[2] for e in game.state.stored_events() if e[0] == "turn"]
    assert 1 not in turns[1:] and len(turns) >= 4


def test_battle_phase_a_seat_that_left_is_no_neighbour() -> None:
    game, ref = start(4)
    until(game, ref, "forge", seat=0)
    assert game.state.neighbours(0) == [1, 3]
    game.depart(1)
    assert game.state.neighbours(0) == [2, 3]
    assert game.state.neighbours(2) == [0, 3]


def test_battle_phase_the_units_of_a_seat_that_left_still_defend() -> None:
    game, ref = start(3, factions=("windwalker",) * 3)
    until(game, ref, "forge", seat=0)
    unit = put_unit(game, 2, 0, "ww-sentinels")
    game.depart(2)
    assert unit in game.state.units and unit in game.state.boards[2].lanes[0]


def test_timing_and_priority_a_seat_that_left_never_acts_in_a_window() -> None:
    game, ref = start(3)
    until(game, ref, "forge", seat=0)
    game.state.boards[2].citadel = [3, 3]  # idle citizens: it could act
    game.depart(2)
    for _ in range(200):
        pending = settle(game, ref)
        if game.state.turn > 3:
            break
        assert all(not (isinstance(r, Decision) and r.seat == 2) for r in pending)
        game.apply(quiet(game, pending[0]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(3, 6), st.integers(0, 10_000))
def test_a_departure_at_any_step_leaves_a_game_every_instance_plays_to_its_end(
    data: Any, players: int, seed: int
) -> None:
    plan = depart_plan(data, players, 600)
    played = play_departing("sovereign", players, seed, plan, aside_cards)
    game = played.game
    assert game.over and game.outcome is not None
    assert all(not game.outcome.won(seat) for seat in game.departed)
    assert len(game.departed) <= players - 2


def test_a_world_sampled_after_a_departure_agrees_with_the_view() -> None:
    plan = {40: [1], 90: [2]}
    played = play_departing("sovereign", 4, 11, plan, aside_cards, worlds=True)
    assert played.departed


def test_the_same_departure_on_two_copies_gives_the_same_digest() -> None:
    game, ref = start(4)
    until(game, ref, "forge")
    other = game.copy()
    assert game.depart(2) == other.depart(2)
    assert game.digest() == other.digest()
