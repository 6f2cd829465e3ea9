"""Bad input through the requests (docs/engine.md, "Errors"): the answers to chance, rolls,
shuffles, deals, flips, re-handles, peeks and reveals come from the protocol -- from what
peers reveal -- so whatever garbage reaches any field of any such answer, in any of the three
games, ``check`` and ``apply`` raise only typed :class:`~engine.errors.EngineError`
subclasses, a refused answer leaves the digest as it was, and an accepted one leaves a state
that still digests.  (Seat decisions have their own fuzz per game.)"""

from __future__ import annotations

import functools
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.games import game_names, rules
from fairtable.engine.referee import Referee
from fairtable.engine.requests import (
    ChanceAnswer,
    DealAnswer,
    Decision,
    FlipAnswer,
    PeekAnswer,
    RehandleAnswer,
    RevealAnswer,
    RollAnswer,
    ShuffleAnswer,
)
from fairtable.engine.rng import ChanceStream
from tests.engine.malformed import refused_cleanly_or_digestible

ANSWERS = (
    ChanceAnswer,
    RollAnswer,
    ShuffleAnswer,
    DealAnswer,
    FlipAnswer,
    RehandleAnswer,
    PeekAnswer,
    RevealAnswer,
)


@functools.cache
def snapshots() -> tuple[tuple[Any, Any, tuple[str, ...]], ...]:
    """(game, the true answer, its card names) at requests met in random play, a few of
    each kind per game."""
    out = []
    for name in game_names():
        game_rules = rules(name)
        count: dict[str, int] = {}
        for seed in range(2):
            game = game_rules.new_game(game_rules.seat_counts[0], 6)  # the fewest seats
            root = ChanceStream.from_int(seed)
            referee = Referee(root.child("referee").take(32))
            for step in range(4000):
                if game.over:
                    break
                request = game.pending()[0]
                if isinstance(request, Decision):
                    answer = game_rules.random_answer(
                        game.view(request.seat), request, root.child(f"answer/{step}")
                    )
                else:
                    answer = referee.answer(game, request)
                    kind = type(request).__name__
                    if count.get(kind, 0) < 3:
                        count[kind] = count.get(kind, 0) + 1
                        out.append((game.copy(), answer, _names(answer)))
                game.apply(answer)
    return tuple(out)


def _names(answer: Any) -> tuple[str, ...]:
    """Every string inside an answer (real card names, piles, labels)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)

    for field in attrs.fields(type(answer)):
        walk(getattr(answer, field.name))
    return tuple(found) or ("x",)


@st.composite
def cases(draw: Any) -> tuple[Any, Any]:
    games = snapshots()
    game, true, names = games[draw(st.integers(0, len(games) - 1))]
    atoms = st.one_of(
        st.integers(-2, 120),
        st.sampled_from(names),
        st.booleans(),
        st.none(),
        st.text(max_size=4),
        st.sampled_from([0.5, float("nan")]),
    )
    anything = st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(tuple),
            st.lists(inner, max_size=2),
            st.dictionaries(st.sampled_from(names), inner, max_size=2),
        ),
        max_leaves=8,
    )
    cls = type(true) if draw(st.integers(0, 3)) else draw(st.sampled_from(ANSWERS))
    fields = {}
    for field in attrs.fields(cls):
        mutate = cls is not type(true) or draw(st.integers(0, 2)) == 0
        if mutate:
            fields[field.name] = draw(anything)
        else:  # keep the true value: one bad field among good ones
            fields[field.name] = getattr(true, field.name)
    return game, cls(**fields)


@settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=cases())
def test_malformed_request_answers_raise_only_engine_errors_and_change_nothing(
    case: Any,
) -> None:
    original, answer = case
    refused_cleanly_or_digestible(original, answer)


def test_the_snapshots_cover_every_game_and_many_request_kinds() -> None:
    kinds = {(type(g), type(a).__name__) for g, a, _ in snapshots()}
    every = {type(rules(name).new_game(rules(name).seat_counts[0], 6)) for name in game_names()}
    assert {game for game, _ in kinds} == every
    assert len({kind for _, kind in kinds}) >= 6
