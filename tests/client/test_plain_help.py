"""Plain mode's ``help`` names no screen key in any game (issue 30): every registered game's
help is said in plain mode with nothing to decide and at the first decision of each kind
met in seeded games played by the rules' own random answers, at a table with an invite to
show; no line names F1/F2/F3, Esc, PgUp/PgDn, a Ctrl- key, the arrows or Enter.  The help
is typed (client/help_parts): the screen's keys are parts of their own, which plain mode
says with its words or leaves out, so a reworded help sentence cannot bring one in."""

from __future__ import annotations

import re

import pytest

from fairtable.client.games import model_for
from fairtable.client.help_parts import Key, in_plain, on_screen
from fairtable.client.plain import PlainSession
from fairtable.client.screen_model import ScreenModel
from fairtable.engine.games import game_names, rules
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import events as ev

SCREEN_KEY = re.compile(r"\bF\d+\b|\bEsc\b|PgUp|PgDn|Ctrl-|Up/Down|\bEnter\b|\? keys")
"""A key's name that a piped or screen reader's user has no key for."""

SEEDS = 6  # games played a game: enough to meet each decision kind of the three games


def _plain_help(model: ScreenModel) -> list[str]:
    said: list[str] = []
    PlainSession(model, said.append).line("help")
    return said


def _seated(game: str, seat: int, players: int) -> ScreenModel:
    model = model_for(game)
    model.apply_event(ev.TableOpen("fairtable://x", None))  # a table others can join
    model.apply_event(ev.Seated(seat=seat, players=players))
    return model


def _check(model: ScreenModel) -> None:
    said = _plain_help(model)
    assert said and not [line for line in said if SCREEN_KEY.search(line)], said
    assert SCREEN_KEY.search(model.help_text())  # the screen's help does name its keys


def first_of_each_kind(game: str) -> list[tuple[Decision, object, int]]:
    """The first decision of each kind met in seeded games, with its seat's view and the
    number of seats."""
    seats = min(rules(game).seat_counts)
    found: dict[str, tuple[Decision, object, int]] = {}
    for seed in range(SEEDS):
        truth = rules(game).new_game(seats)
        referee, stream = Referee(seed), ChanceStream.from_int(seed)
        for _ in range(2000):  # bounded: a game of random answers ends well before
            if truth.over:
                break
            request = truth.pending()[0]
            if not isinstance(request, Decision):
                truth.apply(referee.answer(truth, request))
                continue
            found.setdefault(request.kind, (request, truth.view(request.seat), seats))
            truth.apply(rules(game).random_answer(truth.view(request.seat), request, stream))
    return list(found.values())


@pytest.mark.parametrize("game", game_names())
def test_plain_help_of_every_decision_kind_names_no_screen_key(game: str) -> None:
    seats = min(rules(game).seat_counts)
    _check(_seated(game, 0, seats))  # nothing to decide yet
    kinds = first_of_each_kind(game)
    for request, view, _ in kinds:
        model = _seated(game, request.seat, seats)
        model.apply_event(ev.DecisionAsked(decision=request, view=view))
        _check(model)
    assert kinds


def test_help_parts_say_a_key_on_the_screen_and_its_word_or_nothing_in_plain() -> None:
    parts = ("'rules'", Key(" (or F3)"), " the game;", Key(" PgUp scrolls", " 'last' says"))
    assert on_screen(parts) == "'rules' (or F3) the game; PgUp scrolls"
    assert in_plain(parts) == "'rules' the game; 'last' says"
