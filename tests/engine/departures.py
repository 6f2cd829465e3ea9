"""Test driver for departures (issue 33): a game of any registered game played by random bots
and the local referee, mirrored on one instance per seat (each knowing only its seat) and a
spectator, with seats leaving at given steps.

After every step -- a departure or an answer -- every instance must hold the same digest;
before every answer the driver checks that nothing is asked of a seat that left and that no
card it set aside is opened, and after it that no revealed or peeked card is one a departed
seat set aside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st

from fairtable.client.games import bot_maker
from fairtable.engine.games import rules
from fairtable.engine.playout import seeded_players
from fairtable.engine.requests import (
    Deal,
    DealAnswer,
    Decision,
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Request,
    Reveal,
    RevealAnswer,
)
from fairtable.engine.rng import ChanceStream

AsideCards = Callable[[Any, int], Sequence[str]]
"""The identities a departed seat set aside, read from the omniscient game (per game)."""


@attrs.define
class Played:
    """How a game with departures went."""

    game: Any
    departed: list[tuple[int, int]]  # (step, seat) of each departure that happened
    refused: list[tuple[int, int]]  # (step, seat) of each departure the game refused
    steps: int


def for_seat(game: str, answer: Any, viewer: int | None) -> Any:
    """What an instance knowing only ``viewer`` is fed for ``answer``."""
    if isinstance(answer, DealAnswer):
        return answer if answer.seat == viewer else DealAnswer(answer.seat, None)
    if isinstance(answer, RehandleAnswer):
        return answer if answer.seat == viewer else RehandleAnswer(answer.seat, None)
    if isinstance(answer, PeekAnswer):
        return answer if answer.seat == viewer else PeekAnswer(answer.label, answer.seat, None)
    seat = getattr(answer, "seat", None)
    if seat is None or seat == viewer:
        return answer
    return rules(game).public_part(answer)


def concerns(request: Request, seat: int, aside: frozenset[int]) -> bool:
    """Whether ``request`` asks ``seat`` anything, or would open a card it set aside."""
    if isinstance(request, Decision):
        return request.seat == seat
    if isinstance(request, Deal):
        return seat in (request.seat, request.giver)
    if isinstance(request, Peek | Rehandle):
        return request.seat == seat or bool(aside.intersection(request.handles))
    if isinstance(request, Reveal):
        return any(aside.intersection(handles) for _, handles, _ in request.groups)
    return False


def opened(answer: Any) -> list[str]:
    """The identities an answer opens to someone other than their holder."""
    if isinstance(answer, RevealAnswer):
        return [c for _, ids in answer.cards for c in ids]
    if isinstance(answer, PeekAnswer | DealAnswer) and answer.cards is not None:
        return list(answer.cards)
    return []


def play_departing(
    game: str,
    seats: int,
    seed: int,
    departures: Mapping[int, Sequence[int]],
    aside_cards: AsideCards,
    *,
    options: tuple[tuple[str, Any], ...] = (),
    max_steps: int = 20000,
    worlds: bool = False,
) -> Played:
    """Play ``game`` to its end with the given departures, checking every step (see the
    module docstring).  A departure the game refuses must be refused by every mirror and
    change nothing.  ``worlds``: at every decision after a departure, a world sampled from
    the deciding seat's view must have the game's digest."""
    r = rules(game)
    truth = r.new_game(seats, options=options)
    mirrors: dict[int | None, Any] = {
        s: r.new_game(seats, known=[s], options=options) for s in range(seats)
    }
    mirrors[None] = r.new_game(seats, known=[], options=options)
    referee, players = seeded_players(seed, [bot_maker(game, "random")] * seats)
    played = Played(truth, [], [], 0)
    aside_ids: set[str] = set()
    for step in range(max_steps):
        if truth.over:
            played.steps = step
            return played
        for seat in departures.get(step, ()):
            before = truth.digest()
            allowed = truth.can_depart(seat)
            assert all(m.can_depart(seat) == allowed for m in mirrors.values())
            if not allowed:
                played.refused.append((step, seat))
                continue
            truth.depart(seat)
            for mirror in mirrors.values():
                mirror.depart(seat)
            assert truth.digest() != before
            played.departed.append((step, seat))
            aside_ids.update(aside_cards(truth, seat))
            _same_digest(truth, mirrors)
        if truth.over:  # a departure can end the game: e.g. Reign's combat, once the leaver's
            played.steps = step  # covert card is set aside, crowns the last army standing
            return played
        for seat in truth.departed:
            aside = truth.set_aside(seat)
            for request in truth.pending():
                assert not concerns(request, seat, aside), (seat, request)
        request = truth.pending()[0]
        if isinstance(request, Decision):
            view = truth.view(request.seat)
            if worlds and truth.departed:
                world, _ = r.sample_world(view, ChanceStream.from_int(step))
                assert world.digest() == truth.digest(), "a sampled world disagrees"
            answer = players[request.seat].decide(view, request)
        else:
            answer = referee.answer(truth, request)
        shown = set(opened(answer))
        assert not shown & aside_ids, f"a set-aside card is opened: {shown & aside_ids}"
        truth.apply(answer)
        for viewer, mirror in mirrors.items():
            mirror.apply(for_seat(game, answer, viewer))
        _same_digest(truth, mirrors)
    raise AssertionError(f"the game did not end in {max_steps} steps")


def _same_digest(truth: Any, mirrors: Mapping[int | None, Any]) -> None:
    digest = truth.digest()
    for viewer, mirror in mirrors.items():
        assert mirror.digest() == digest, f"instance {viewer} disagrees"


def depart_plan(data: Any, players: int, last_step: int) -> dict[int, list[int]]:
    """A hypothesis-drawn departure plan: one to three (step, seat) departures, steps up to
    ``last_step`` (a step past the game's end, or a seat already gone, tests the refusals)."""
    steps = data.draw(st.lists(st.integers(0, last_step), min_size=1, max_size=3))
    seats = data.draw(st.lists(st.integers(0, players - 1), min_size=len(steps)))
    plan: dict[int, list[int]] = {}
    for step, seat in zip(steps, seats, strict=False):
        plan.setdefault(step, []).append(seat)
    return plan
