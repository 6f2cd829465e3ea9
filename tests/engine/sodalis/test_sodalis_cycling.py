"""Cycling, continuous effects and the deck: Starting the Game (spread) and Cycling."""

from __future__ import annotations

import json

from fairtable.engine.errors import IllegalReveal, MalformedAnswer
from fairtable.engine.requests import Flip, FlipAnswer
from fairtable.engine.sodalis import Cast, ConfuseChoice, EndTurn
from tests.engine.sodalis.helpers import asked, build, rejects, roll, settle, unit

DUEL = "players=2 champions=tempest,empress"
DECK = (
    "spread0=tempest_hex,tempest_mend,squall "
    "unseen0=tempest_burst,tempest_lure,tempest_strike,tempest_farsight,tempest_ultimate,"
    "tempest_ward"
)


def test_cycling_a_cast_side_card_goes_under_the_deck_and_the_top_card_fills_its_place() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {DECK}")
    game.apply(Cast(0, "tempest_hex", 1))
    game.apply(ConfuseChoice(1, "major"))
    assert game.pending() == (Flip("deck:0", 1),)
    seat = unit(game, 0)
    assert seat["side"] == ["squall", "tempest_mend"] and seat["top"] is None
    assert seat["bottom"] == ["tempest_hex"] and seat["unseen"] == 6
    game.apply(ref.answer(game, game.pending()[0]))
    seat = unit(game, 0)
    assert seat["top"] == "tempest_burst" and seat["unseen"] == 5


def test_cycling_a_cast_deck_top_is_replaced_by_the_next_card() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {DECK}")
    game.apply(Cast(0, "squall", 1))
    roll(game, 1, 1, 1)
    game.apply(ref.answer(game, game.pending()[0]))
    seat = unit(game, 0)
    assert seat["side"] == ["tempest_hex", "tempest_mend"]
    assert seat["top"] == "tempest_burst" and seat["bottom"] == ["squall"]


def test_cycling_when_no_unseen_card_remains_the_known_bottom_comes_up_without_a_flip() -> None:
    game, _ = build(
        f"{DUEL} at=3:-1,5:-1 spread0=tempest_hex,tempest_mend,squall "
        "bottom0=tempest_burst,tempest_lure,tempest_strike,tempest_farsight,"
        "tempest_ultimate,tempest_ward"
    )
    assert unit(game, 0)["unseen"] == 0
    game.apply(Cast(0, "squall", 1))
    roll(game, 1, 1, 1)
    assert asked(game).kind == "turn"  # no Flip was needed
    seat = unit(game, 0)
    assert seat["top"] == "tempest_burst"
    assert seat["bottom"][-1] == "squall"


def test_cycling_a_continuous_effect_lies_beside_the_champion_and_is_still_replaced() -> None:
    game, ref = build(
        f"{DUEL} at=3:-1,5:-1 spread0=tempest_ward,tempest_mend,squall unseen0=tempest_hex"
    )
    inertia = game.state.inertia(0)
    game.apply(Cast(0, "tempest_ward", None))
    roll(game, 1)
    game.apply(ref.answer(game, game.pending()[0]))
    seat = unit(game, 0)
    assert seat["continuous"] == [["tempest_ward", [0]]]
    assert seat["bottom"] == [] and seat["side"] == ["squall", "tempest_mend"]
    assert seat["top"] == "tempest_hex"
    assert game.state.inertia(0) == inertia + 1  # Ward's aura: +1 inertia to the caster


def test_cycling_continuous_effects_cycle_at_the_start_of_the_next_turn_unreplaced() -> None:
    game, ref = build(
        f"{DUEL} at=3:-1,5:-1 cont0=tempest_ward@0 active=1 spread0=tempest_hex,tempest_mend,squall"
    )
    game.apply(EndTurn(1))
    seat = unit(game, 0)
    assert seat["continuous"] == [] and seat["bottom"] == ["tempest_ward"]
    assert seat["side"] == ["tempest_hex", "tempest_mend"] and seat["top"] == "squall"
    assert asked(game).seat == 0


def test_cycling_a_flip_must_show_one_of_the_decks_unseen_cards() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {DECK}")
    game.apply(Cast(0, "squall", 1))
    roll(game, 1, 1, 1)
    rejects(game, FlipAnswer("deck:0", ("squall",)), IllegalReveal)
    rejects(game, FlipAnswer("deck:0", ("empress_hex",)), IllegalReveal)
    rejects(game, FlipAnswer("deck:0", ("tempest_burst", "tempest_lure")), MalformedAnswer)
    rejects(game, FlipAnswer("deck:1", ("tempest_burst",)), MalformedAnswer)
    game.apply(FlipAnswer("deck:0", ("tempest_ward",)))  # any unseen card may come up
    assert unit(game, 0)["top"] == "tempest_ward"


def test_starting_the_game_the_view_shows_how_many_cards_are_unseen_never_their_order() -> None:
    game, ref = build(f"{DUEL} at=3:-1,5:-1 {DECK}")
    text = json.dumps(game.view(0).to_dict())
    order = ref.piles["deck:0"]
    assert unit(game, 0)["unseen"] == len(order) == 6
    assert json.dumps(order) not in text
    assert json.dumps(order)[1:-1] not in text


def test_cycling_an_empty_side_place_is_filled_when_the_deck_has_a_card_again() -> None:
    """Six continuous effects out and one card left: casting it empties the spread's place."""
    game, ref = build(
        "players=2 champions=tempest,empress at=3:-1,5:-1 "
        "spread0=tempest_hex,tempest_mend,squall bottom0= unseen0= "
        "cont0=tempest_burst@0,tempest_lure@0,tempest_strike@0,"
        "tempest_farsight@1,tempest_ultimate@0,tempest_ward@0"
    )
    assert unit(game, 0)["unseen"] == 0 and unit(game, 0)["bottom"] == []
    game.apply(Cast(0, "squall", 1))
    roll(game, 1, 1, 1)
    seat = unit(game, 0)
    assert seat["top"] == "squall"  # returned to an empty deck: the visible top again
    game.apply(Cast(0, "tempest_hex", 1))
    game.apply(ConfuseChoice(1, "minor"))
    settle(game, ref)
    seat = unit(game, 0)
    assert seat["side"] == ["squall", "tempest_mend"] and seat["top"] == "tempest_hex"
