"""Setup, Turn Order, Champion Selection, reversals, Starting the Game."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import IllegalMove, MalformedAnswer, WrongPhase
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision, Flip, Shuffle
from fairtable.engine.sodalis import (
    ChooseChampion,
    Place,
    Rearrange,
    Reversals,
    SodalisConfig,
    TurnTokens,
    new_game,
)
from fairtable.engine.sodalis.choices import legal_answers
from tests.engine.sodalis.helpers import CATALOG, asked, rejects


def start(players: int, **kw):  # type: ignore[no-untyped-def]
    return new_game(SodalisConfig(players, **kw), catalog=CATALOG)


@pytest.mark.parametrize("players", [0, 1, 3, 5, 7, True])
def test_overview_two_four_or_six_players_dividing_evenly(players: int) -> None:
    with pytest.raises(MalformedAnswer):
        start(players)


def test_setup_teams_are_checked() -> None:
    with pytest.raises(MalformedAnswer):
        start(4, teams=("dawn", "dawn", "dawn", "dusk"))
    with pytest.raises(MalformedAnswer):
        start(2, teams=("dawn", "noon"))
    with pytest.raises(MalformedAnswer):
        start(2, round_limit=-1)
    game = start(4, teams=("dawn", "dusk", "dusk", "dawn"))
    assert [s["team"] for s in game.public()["seats"]] == ["dawn", "dusk", "dusk", "dawn"]


def test_setup_by_default_even_seats_are_dawn() -> None:
    game = start(6)
    assert [s["team"] for s in game.public()["seats"]] == ["dawn", "dusk"] * 3


def test_turn_order_a_lone_dawn_player_takes_token_one_and_dusk_chooses() -> None:
    game = start(2)
    assert game.public()["seats"][0]["token"] == 1
    (decision,) = game.pending()
    assert decision.kind == "turn_tokens" and decision.seat == 1
    assert len(list(legal_answers(game.view(1), decision))) == 3


@pytest.mark.parametrize(("players", "dawn", "dusk"), [(4, 4, 6), (6, 6, 6)])
def test_turn_order_both_captains_choose_tokens_at_once(players: int, dawn: int, dusk: int) -> None:
    game = start(players)
    asked_ = game.pending()
    assert [(d.seat, d.kind, d.simultaneous) for d in asked_] == [
        (0, "turn_tokens", True),
        (1, "turn_tokens", True),
    ]
    assert len(list(legal_answers(game.view(0), asked_[0]))) == dawn
    assert len(list(legal_answers(game.view(1), asked_[1]))) == dusk


def test_turn_order_dawn_keeps_token_one_and_tokens_are_the_teams_own() -> None:
    game = start(4)
    rejects(game, TurnTokens(0, (3, 5)), IllegalMove)
    rejects(game, TurnTokens(0, (1, 2)), IllegalMove)
    rejects(game, TurnTokens(0, (1, 1)), IllegalMove)
    rejects(game, TurnTokens(0, (1,)), IllegalMove)
    rejects(game, TurnTokens(0, "1,3"), MalformedAnswer)  # type: ignore[arg-type]
    rejects(game, TurnTokens(1, (2, 3)), IllegalMove)


def test_turn_order_with_four_players_teams_may_bunch_turns() -> None:
    game = start(4)
    game.apply(TurnTokens(1, (2, 4)))
    game.apply(TurnTokens(0, (1, 5)))
    assert game.public()["order"] == [0, 1, 3, 2]  # tokens 1, 2, 4, 5: Dawn, Dusk, Dusk, Dawn


def test_champion_selection_in_turn_order_each_a_different_champion() -> None:
    game = start(2)
    game.apply(TurnTokens(1, (2,)))
    first = asked(game)
    assert first.kind == "champion" and first.seat == 0
    assert first.info.available == CATALOG.ids
    game.apply(ChooseChampion(0, "tempest"))
    second = asked(game)
    assert second.seat == 1 and "tempest" not in second.info.available
    rejects(game, ChooseChampion(1, "tempest"), IllegalMove)
    rejects(game, ChooseChampion(1, "nobody"), IllegalMove)


def _to_rearranging(game):  # type: ignore[no-untyped-def]
    game.apply(TurnTokens(0, (1, 3)))
    game.apply(TurnTokens(1, (2, 4)))
    for champion in ("tempest", "empress", "lover", "sage"):
        game.apply(ChooseChampion(asked(game).seat, champion))


def test_turn_order_teams_rearrange_after_selection_at_once() -> None:
    game = start(4)
    _to_rearranging(game)
    decisions = game.pending()
    assert [(d.seat, d.kind, d.simultaneous) for d in decisions] == [
        (0, "rearrange", True),
        (1, "rearrange", True),
    ]
    assert decisions[0].info.tokens == (1, 3)
    rejects(game, Rearrange(0, (1, 5)), IllegalMove)
    game.apply(Rearrange(0, (3, 1)))
    game.apply(Rearrange(1, (2, 4)))
    assert game.public()["order"] == [2, 1, 0, 3]


def test_turn_order_a_lone_member_team_is_not_asked_to_rearrange() -> None:
    game = start(2)
    game.apply(TurnTokens(1, (4,)))
    game.apply(ChooseChampion(0, "tempest"))
    game.apply(ChooseChampion(1, "empress"))
    assert [d.kind for d in game.pending()] == ["reversals", "reversals"]


def test_champion_selection_reversals_are_chosen_by_every_seat_at_once() -> None:
    game = start(2)
    game.apply(TurnTokens(1, (4,)))
    game.apply(ChooseChampion(0, "tempest"))
    game.apply(ChooseChampion(1, "empress"))
    tempest = asked(game)
    assert tempest.info.arcana == CATALOG.by_id["tempest"].reversible
    rejects(game, Reversals(0, ("squall",)), IllegalMove)  # Squall has no reversal here
    rejects(game, Reversals(0, ("tempest_strike", "tempest_hex")), MalformedAnswer)  # unsorted
    game.apply(Reversals(0, ("tempest_hex", "tempest_strike")))
    assert game.public()["seats"][0]["cards"] == list(CATALOG.by_id["tempest"].cards())
    game.apply(Reversals(1, ()))
    cards = game.public()["seats"][0]["cards"]
    assert "tempest_hex~r" in cards and "tempest_strike~r" in cards and "squall" in cards
    assert game.pending() == (Shuffle("deck:0", tuple(cards)),)


def test_starting_the_game_shuffle_spreads_life_tokens_and_placement() -> None:
    game = start(2)
    referee = Referee(5)
    game.apply(TurnTokens(1, (2,)))
    game.apply(ChooseChampion(0, "sage"))
    game.apply(ChooseChampion(1, "empress"))
    game.apply(Reversals(0, ()))
    game.apply(Reversals(1, ()))
    requests = []
    while not isinstance(game.pending()[0], Decision):
        requests.append(game.pending()[0])
        game.apply(referee.answer(game, game.pending()[0]))
    assert requests == [
        Shuffle("deck:0", CATALOG.by_id["sage"].cards()),
        Shuffle("deck:1", CATALOG.by_id["empress"].cards()),
        Flip("deck:0", 4),
        Flip("deck:1", 3),
    ]
    sage, empress = game.public()["seats"]
    assert len(sage["side"]) == 3 and sage["unseen"] == 5
    assert len(empress["side"]) == 2 and empress["unseen"] == 6
    assert sage["life"] == CATALOG.by_id["sage"].max_life
    assert sage["up"] == ["major", "minor", "move"]
    place = asked(game)
    assert place.kind == "place" and place.seat == 0
    assert len(place.info.spaces) == 6 and (0, 0) not in place.info.spaces
    rejects(game, Place(0, (8, 0)), IllegalMove)
    rejects(game, Place(0, (0, 0)), IllegalMove)  # the Dusk Artifact
    game.apply(Place(0, (1, 0)))
    game.apply(Place(1, (9, 0)))
    turn = asked(game)
    assert turn.kind == "turn" and turn.seat == 0 and game.public()["round"] == 1


def test_setup_the_wrong_decision_kind_is_refused() -> None:
    game = start(2)
    rejects(game, ChooseChampion(1, "tempest"), WrongPhase)
