"""The one game loop: a game played out by a player per seat and the local referee.

``simulate``, the benches and the tests that play whole games all step a game the same
way -- the first pending request, a decision answered by its seat's player from that
seat's view, any other request by the :class:`~engine.referee.Referee`, the answer
applied -- so that loop is written once, here.  :func:`play_out` yields each step before
its answer is applied, for a caller that watches (or stops) the game;
:func:`seeded_players` makes the referee and the players from one seed as every caller
did (the referee from ``referee``, seat ``s``'s player from ``bot/<s>``).

``departures`` plays seats leaving the game for good (issue 33): before the answer of
step ``k`` (counted from 0, every request answered is a step), each seat listed for ``k``
departs (:meth:`~engine.contract.ContractGame.depart`), so tests can play a departure at
any moment of a game.

Deterministic like the rest of the engine: the same seed and players give the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

import attrs

from fairtable.engine.referee import OmniscientGame, Referee
from fairtable.engine.requests import Decision, Request
from fairtable.engine.rng import ChanceStream

__all__ = ["Departures", "Player", "Step", "play_out", "play_to_end", "seeded_players"]

Departures = Mapping[int, Sequence[int]]
"""Step number -> the seats that leave the game just before that step's answer."""


class Player(Protocol):
    """A seat's player: a bot, or anything that answers a decision from a seat's view."""

    def decide(self, view: Any, decision: Decision) -> Any: ...


class PlayedGame(OmniscientGame, Protocol):
    """What the loop needs of a game: an omniscient game object of any registered game."""

    @property
    def over(self) -> bool: ...

    def pending(self) -> tuple[Request, ...]: ...

    def view(self, seat: int) -> Any: ...

    def apply(self, answer: Any) -> Any: ...

    def depart(self, seat: int) -> Any: ...


@attrs.frozen
class Step:
    """One step of a game played out: the request answered and its answer."""

    request: Request
    answer: Any


def play_out(
    game: PlayedGame,
    players: Sequence[Player],
    referee: Referee,
    *,
    max_steps: int | None = None,
    departures: Departures | None = None,
) -> Iterator[Step]:
    """Play ``game`` until it is over: each step's answer is chosen (a decision by
    ``players[seat]`` from its seat's view, any other request by ``referee``), yielded, and
    applied when the loop is resumed.  Stopping the iteration stops the game where it is.
    :class:`AssertionError` if it has not ended after ``max_steps`` steps.  The seats
    ``departures`` lists for a step leave just before it (a departure the game refuses
    raises its :class:`~engine.errors.CannotDepart`)."""
    steps = 0
    while not game.over:
        if max_steps is not None and steps >= max_steps:
            raise AssertionError(f"the game did not end in {max_steps} steps")
        for seat in (departures or {}).get(steps, ()):
            game.depart(seat)
        if game.over:
            break
        request = game.pending()[0]
        if isinstance(request, Decision):
            answer = players[request.seat].decide(game.view(request.seat), request)
        else:
            answer = referee.answer(game, request)
        yield Step(request, answer)
        game.apply(answer)
        steps += 1


def play_to_end(
    game: PlayedGame,
    players: Sequence[Player],
    referee: Referee,
    *,
    departures: Departures | None = None,
) -> int:
    """Play ``game`` to its end (:func:`play_out`, unwatched, with ``departures``); the
    number of steps.  Without departures it runs the same loop inline (no generator, no
    :class:`Step` a step): ``simulate`` and the engine bench live on it."""
    if departures:
        return sum(1 for _ in play_out(game, players, referee, departures=departures))
    steps = 0
    while not game.over:
        request = game.pending()[0]
        if isinstance(request, Decision):
            answer = players[request.seat].decide(game.view(request.seat), request)
        else:
            answer = referee.answer(game, request)
        game.apply(answer)
        steps += 1
    return steps


def seeded_players(
    seed: int, makers: Sequence[Callable[[ChanceStream], Player]]
) -> tuple[Referee, list[Player]]:
    """The referee and one player a seat (``makers[seat]``, given its own stream), all
    drawn from ``seed``."""
    root = ChanceStream.from_int(seed)
    referee = Referee(root.child("referee").take(32))
    return referee, [make(root.child(f"bot/{seat}")) for seat, make in enumerate(makers)]
