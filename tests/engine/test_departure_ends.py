"""What resigning will do, from what every seat sees: each registered game's
``GameRules.departure_ends(view, seat)`` reads the public view only, and agrees with the
engine's own answer (``not game.can_depart(seat)``, which reads the whole state) at every
step of the golden playthroughs and of games played by random bots with seats leaving."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fairtable.client.games import bot_maker
from fairtable.engine.games import Playthrough, game_names, rules
from fairtable.engine.playout import seeded_players
from fairtable.engine.requests import Decision
from tests.engine.golden import decode, path_for, tables


def _agrees(game: str, truth: Any) -> int:
    """Check every seat still playing against the spectator's and each seat's view; how
    many seats were checked."""
    r = rules(game)
    players = _players(truth)
    checked = 0
    for seat in range(players):
        if seat in truth.departed:
            continue
        engine_says = not truth.can_depart(seat)
        for viewer in (None, seat, (seat + 1) % players):
            assert r.departure_ends(truth.view(viewer), seat) == engine_says, (
                f"{game}: seat {seat} seen by {viewer} at step {truth.serial}"
            )
        checked += 1
    return checked


def _players(truth: Any) -> int:
    public = truth.public()
    if "players" in public:
        return int(public["players"])
    return len(public["counts"])  # High Card names no player count: one hand count a seat


@pytest.mark.parametrize(("game", "table"), tables())
def test_departure_ends_agrees_with_the_engine_through_every_golden_playthrough(
    game: str, table: Playthrough
) -> None:
    lines = path_for(game, table).read_text().splitlines()
    truth = rules(game).new_game(table.seats)
    checked = 0
    for line in lines[1:]:
        checked += _agrees(game, truth)
        truth.apply(decode(game, json.loads(line)["answer"]))
    assert truth.over and checked >= table.seats


GAMES_WITH_LEAVERS = [
    ("reign", 3),
    ("reign", 4),
    ("reign", 5),
    ("sodalis", 2),
    ("sodalis", 4),
    ("sodalis", 6),
    ("sovereign", 2),
    ("sovereign", 3),
    ("sovereign", 4),
]


@pytest.mark.parametrize(("game", "seats"), GAMES_WITH_LEAVERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_departure_ends_agrees_with_the_engine_as_seats_leave(
    game: str, seats: int, seed: int
) -> None:
    """Random bots play; a seat leaves whenever the game lets one go (every 40 steps, at
    most until the game would end), so the views are checked with departed seats too."""
    r = rules(game)
    truth = r.new_game(seats)
    referee, bots = seeded_players(seed, [bot_maker(game, "random")] * seats)
    left = 0
    for step in range(4000):  # bounded: a game with leavers ends sooner
        if truth.over:
            break
        _agrees(game, truth)
        if step % 40 == 39:
            leaver = next((s for s in range(seats) if truth.can_depart(s)), None)
            if leaver is not None:
                truth.depart(leaver)
                left += 1
                continue
        request = truth.pending()[0]
        if isinstance(request, Decision):
            truth.apply(bots[request.seat].decide(truth.view(request.seat), request))
        else:
            truth.apply(referee.answer(truth, request))
    assert left >= (1 if seats > 2 else 0)


def test_a_game_without_departures_ends_when_anyone_leaves() -> None:
    """The default, for a game that lets no seat leave: resigning ends it."""
    names = set(game_names())
    assert "highcard" in names
    truth = rules("highcard").new_game(2)
    assert all(rules("highcard").departure_ends(truth.view(None), s) for s in (0, 1))
