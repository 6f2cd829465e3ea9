"""Set Up, Objective, Components, and the end of a game (rulebook pages 1-3; readings in
docs/rules/reign.md)."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import MalformedAnswer, UnknownSecret
from fairtable.engine.outcome import Outcome
from fairtable.engine.referee import Referee
from fairtable.engine.reign import ReignConfig, new_game
from fairtable.engine.requests import Chance, ChanceAnswer, Deal, DealAnswer, Decision, Shuffle
from tests.engine.reign_helpers import (
    CATALOG,
    DEFS,
    play_until,
    plot,
    rejects,
    table,
)


def until_first_player_chance(players, seed=1):
    """A new game with every set-up request answered up to the first-player chance."""
    game, ref = new_game(ReignConfig(players)), Referee(seed)
    while not (isinstance(game.pending()[0], Chance) and game.pending()[0].label == "first_player"):
        game.apply(ref.answer(game, game.pending()[0]))
    return game, ref


# -- Set Up --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "cards"), [(3, 3), (4, 4), (5, 4), (6, 5), (7, 5)])
def test_set_up_support_cards_by_player_count(players, cards):
    game, ref = new_game(ReignConfig(players)), Referee(players)
    request = game.pending()[0]
    assert request == Chance("support_houses", 5, cards)
    game.apply(ref.answer(game, request))
    assert len(game.state.houses) == cards
    assert set(game.state.houses) <= set(CATALOG.house_ids)
    assert game.state.support == {h: None for h in game.state.houses}


@pytest.mark.parametrize("players", [2, 8, 0, "4", True])
def test_set_up_three_to_seven_players(players):
    with pytest.raises(MalformedAnswer):
        new_game(ReignConfig(players))


def test_set_up_military_pile_holds_only_the_selected_houses():
    game = new_game(ReignConfig(4))
    game.apply(ChanceAnswer((4, 0, 2, 1)))
    houses = ("amber", "azure", "crimson", "violet")  # indices into the sorted house ids
    assert game.state.houses == houses
    military = game.pending()[0]
    assert isinstance(military, Shuffle) and military.pile == "military"
    expected = sorted(c for h in houses for c in CATALOG.military[h])
    assert sorted(military.cards) == expected and len(expected) == 60
    assert not any(DEFS[c].house == "ivory" for c in military.cards)
    game.apply(Referee(0).answer(game, military))
    events = game.pending()[0]
    assert isinstance(events, Shuffle) and events.pile == "event"
    assert sorted(events.cards) == sorted(CATALOG.events)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_set_up_each_player_draws_four_military_and_one_event(players):
    game, ref = until_first_player_chance(players)
    s = game.state
    assert s.hand_count == [5] * players
    for seat in range(players):
        kinds = sorted(DEFS[c].kind for c in s.secrets[seat].hand)
        assert kinds == ["event"] + ["military"] * 4
        assert all(
            DEFS[c].house in s.houses for c in s.secrets[seat].hand if DEFS[c].kind == "military"
        )
    assert s.piles == {"military": 15 * len(s.houses) - 4 * players, "event": 27 - players}


def test_set_up_first_player_by_chance_after_the_deal():
    game, ref = until_first_player_chance(5)
    request = game.pending()[0]
    assert request == Chance("first_player", 5, 1)
    rejects(game, ChanceAnswer((5,)), MalformedAnswer)
    rejects(game, ChanceAnswer((1, 2)), MalformedAnswer)
    game.apply(ChanceAnswer((3,)))
    assert game.state.first_player == 3
    d = game.pending()[0]
    assert isinstance(d, Decision) and (d.kind, d.seat) == ("bid", 3)
    assert game.state.round == 1


def test_set_up_deal_is_private_to_each_seat():
    config = ReignConfig(3)
    truth, spectator, ref = new_game(config), new_game(config, known=()), Referee(5)
    while not isinstance(truth.pending()[0], Decision):
        request = truth.pending()[0]
        answer = ref.answer(truth, request)
        truth.apply(answer)
        if isinstance(request, Deal):
            rejects(spectator, answer, UnknownSecret)  # may not be told the cards
            answer = DealAnswer(answer.seat, None)
        spectator.apply(answer)
        assert spectator.digest() == truth.digest()
    assert spectator.view(None).hand == ()
    assert spectator.state.hand_count == [5, 5, 5]
    # The omniscient instance, which holds every seat, must be told the cards it deals.
    game, ref = new_game(config), Referee(5)
    while not isinstance(game.pending()[0], Deal):
        game.apply(ref.answer(game, game.pending()[0]))
    rejects(game, DealAnswer(0, None), UnknownSecret)


def test_set_up_components():
    assert len(CATALOG.houses) == 5
    assert all(len(CATALOG.military[h]) == 15 for h in CATALOG.house_ids)
    assert len(CATALOG.events) == 27
    assert sum(DEFS[e].betrayal for e in CATALOG.events) == 9
    assert sum(DEFS[e].phase == "influence" for e in CATALOG.events) == 5
    unique = [c for c in DEFS if DEFS[c].unique]
    assert all(DEFS[c].copies == 1 and "." not in c for c in unique)


# -- Objective -----------------------------------------------------------------------------
SUPPORT = {"crimson": 0, "azure": 2, "ivory": None, "violet": None}
SPEAR, MARINE = "crimson-ash-spearman.1", "azure-tidecaller-marine.1"
PIKE, THRALL = "ivory-oathbound-pikeman.1", "violet-gloam-thrall.1"
PILE = [f"violet-duskblade.{n}" for n in range(1, 5)] + ["violet-veiled-archer.1"]


def fight(legit, winner):
    """Seats 0 (3+1, and seat 1's 1) and 2 (3+1) hold support; seat 3's pikeman (3) goes
    to ``winner``."""
    hands = {0: [SPEAR], 1: [THRALL], 2: [MARINE], 3: [PIKE]}
    game, ref = table(
        first=0, phase="plotting", support=SUPPORT, hands=hands, legit=legit, military=PILE
    )
    plot(
        game,
        ref,
        covert={
            0: ((0,), (SPEAR,)),
            1: ((0,), (THRALL,)),
            2: ((2,), (MARINE,)),
            3: ((winner,), (PIKE,)),
        },
    )
    return game, ref


def test_objective_nine_legitimacy_and_the_crown_wins():
    game, ref = fight([6, 0, 0, 0], winner=0)
    assert game.outcome == Outcome.seat(0) and game.state.legitimacy[0] == 9


def test_objective_nine_legitimacy_without_the_crown_does_not_win():
    # Seat 1 already has 9; it backs seat 0, who loses: nobody wins.
    game, ref = fight([0, 9, 0, 0], winner=2)
    assert game.state.regent == 2
    assert not game.over and game.outcome is None
    # Seat 1 backs the winner instead next time (11): still not the Regent, no win.
    game, ref = fight([0, 9, 0, 0], winner=0)
    assert game.state.legitimacy[1] == 11 and not game.over


def test_objective_already_at_nine_wins_on_becoming_regent():
    game, ref = fight([0, 0, 10, 0], winner=2)
    assert game.outcome == Outcome.seat(2) and game.state.legitimacy[2] == 13


def test_objective_legitimacy_only_from_regency_and_backing():
    game, ref = fight([1, 1, 1, 1], winner=0)
    # Regent +3, its backers (seat 1 and seat 3's last card) +2, the loser nothing.
    assert game.state.legitimacy == [4, 3, 1, 3]


# -- End of the game (our addition: a round limit) ---------------------------------------
def test_end_of_game_round_limit_ends_without_winner():
    game, ref = table(
        round=2,
        round_limit=2,
        phase="draw",
        regent=0,
        support=SUPPORT,
        military=PILE,
        legit=[8, 8, 8, 8],
    )
    play_until(game, ref, lambda g: g.over, limit=20)
    assert game.state.over == "round_limit" and game.outcome == Outcome.nobody()
    assert ("round_limit", 2) in game.state.stored_events()
    game, ref = table(round=2, round_limit=0, phase="draw", regent=0, support=SUPPORT)
    play_until(game, ref, lambda g: g.state.round == 3, limit=20)
    assert not game.over and ("round", 3, 0) in game.state.stored_events()
