"""The Sodalis game object: the engine contract for Sodalis.

``new_game(config, known=...)`` builds a game; ``pending()`` says who must answer;
``apply(answer)`` takes a seat's decision or a roll, shuffle or flip answer and either
changes the state or raises a typed :class:`~engine.errors.EngineError` leaving it
untouched; ``check(answer)`` only validates; ``view(seat)`` and ``digest()`` give a seat's
knowledge and the hash of the public state.  Simultaneous decisions (turn tokens,
rearranging, reversals) are buffered in any arrival order and applied in seat order once
all are in.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import GameOver, MalformedAnswer, WrongPhase, WrongSeat
from engine.requests import (
    Decision,
    Flip,
    FlipAnswer,
    Request,
    Roll,
    RollAnswer,
    Shuffle,
    ShuffleAnswer,
)
from engine.sodalis import decide, flow
from engine.sodalis.answers import SodalisAnswer
from engine.sodalis.arena import Arena, standard_arena
from engine.sodalis.cards import Catalog, standard_catalog
from engine.sodalis.state import Seat, SodalisConfig, SodalisState
from engine.sodalis.view import SodalisView, make_view

Answer = SodalisAnswer | RollAnswer | ShuffleAnswer | FlipAnswer

_GENERIC: dict[type, tuple[type, Callable[[SodalisState, Any], None],
                           Callable[[SodalisState, Any], None]]] = {
    RollAnswer: (Roll, flow.check_roll, flow.on_roll),
    ShuffleAnswer: (Shuffle, flow.check_shuffle, flow.on_shuffle),
    FlipAnswer: (Flip, flow.check_flip, flow.on_flip),
}


class SodalisGame:
    """One game of Sodalis as seen by one engine instance."""

    game = "sodalis"

    def __init__(self, state: SodalisState) -> None:
        self.state = state

    # -- the contract ----------------------------------------------------------------------
    def pending(self) -> tuple[Request, ...]:
        """The requests waiting for an answer (several seats for a simultaneous decision;
        a seat whose answer is buffered is no longer listed)."""
        s = self.state
        if not s.buffered:
            return tuple(s.pending)
        return tuple(r for r in s.pending
                     if not (isinstance(r, Decision) and r.simultaneous and r.seat in s.buffered))

    @property
    def over(self) -> bool:
        return self.state.over is not None

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def apply(self, answer: Answer) -> list[tuple[Any, ...]]:
        """Apply one answer; returns the public events it caused."""
        s = self.state
        if s.over is not None:
            raise GameOver("the game is over")
        mark = len(s.events)
        generic = _GENERIC.get(type(answer))
        if generic is not None:
            kind, _, handler = generic
            if not s.pending or not isinstance(s.pending[0], kind):
                raise WrongPhase(f"the game is not waiting for a {kind.__name__.lower()}")
            handler(s, answer)
            flow.advance(s)
            return s.events[mark:]
        req, apply = self._checked_decision(answer)
        seat = answer.seat  # type: ignore[union-attr]
        s.decisions += 1
        if req.simultaneous:
            s.buffered[seat] = answer
            if len(s.buffered) < len(s.pending):
                return []
            self._flush_simultaneous()
        else:
            s.pending = []
            apply(s, req, answer)
        flow.advance(s)
        return s.events[mark:]

    def check(self, answer: Answer) -> None:
        """Raise the error :meth:`apply` would raise for this decision; change nothing."""
        if self.state.over is not None:
            raise GameOver("the game is over")
        if type(answer) in _GENERIC:
            kind, check, _ = _GENERIC[type(answer)]
            if not self.state.pending or not isinstance(self.state.pending[0], kind):
                raise WrongPhase(f"the game is not waiting for a {kind.__name__.lower()}")
            check(self.state, answer)
            return
        self._checked_decision(answer)

    def _checked_decision(self, answer: Any) -> tuple[Decision, Any]:
        s = self.state
        rule = decide.RULES.get(type(answer))
        if rule is None:
            raise MalformedAnswer(f"{type(answer).__name__} is not an answer of this game")
        decision_kind, check, apply = rule
        seat = getattr(answer, "seat", None)
        if type(seat) is not int:
            raise MalformedAnswer("an answer names its seat as a whole number")
        req = None
        for r in s.pending:
            if isinstance(r, Decision) and r.seat == seat and seat not in s.buffered:
                req = r
                break
        if req is None:
            if any(isinstance(r, Decision) and r.kind == decision_kind for r in s.pending):
                raise WrongSeat(f"it is not seat {seat}'s turn to decide")
            raise WrongPhase(f"nobody is asked for a {decision_kind} decision now")
        if req.kind != decision_kind:
            raise WrongPhase(f"seat {seat} is asked for a {req.kind} decision, not {decision_kind}")
        check(s, req, answer)
        return req, apply

    def _flush_simultaneous(self) -> None:
        """All simultaneous answers are in: apply them in seat order."""
        s = self.state
        requests = {r.seat: r for r in s.pending if isinstance(r, Decision)}
        answers, s.buffered, s.pending = dict(s.buffered), {}, []
        for seat in sorted(answers):
            _, _, apply = decide.RULES[type(answers[seat])]
            apply(s, requests[seat], answers[seat])

    def view(self, seat: int | None) -> SodalisView:
        """What ``seat`` may see (``None``: a spectator)."""
        return make_view(self.state, seat)

    def digest(self) -> str:
        return self.state.digest()

    def public(self) -> dict[str, Any]:
        return self.state.public()

    def secret_of(self, handle: int) -> str:
        raise KeyError(f"Sodalis has no face-down cards (handle {handle})")

    def handover_cards(self, giver: int, seat: int) -> tuple[str, ...]:
        raise KeyError("Sodalis has no hand-overs")

    def copy(self) -> SodalisGame:
        s = self.state
        memo = {id(s.catalog): s.catalog, id(s.arena): s.arena, id(s.config): s.config}
        return SodalisGame(copy.deepcopy(s, memo))


def new_game(
    config: SodalisConfig,
    known: Iterable[int] | None = None,
    catalog: Catalog | None = None,
    arena: Arena | None = None,
) -> SodalisGame:
    """A new game.  ``known`` are the seats whose secrets this instance holds (``None``:
    every seat, as the local referee does; ``()``: a spectator).  Sodalis' only secrets are
    simultaneous answers not yet revealed, so ``known`` only decides whose views this
    instance may build."""
    config.check()
    seats = range(config.players) if known is None else known
    try:
        known_set = frozenset(seats)
    except TypeError:
        raise MalformedAnswer("known seats are a collection of seat numbers") from None
    if any(type(s) is not int or not 0 <= s < config.players for s in known_set):
        raise MalformedAnswer("known seats must be seats of this table")
    catalog = catalog or standard_catalog()
    if len(catalog.champions) < config.players:
        raise MalformedAnswer(f"{config.players} players need {config.players} champions; the "
                              f"catalog has {len(catalog.champions)}", rule="Setup")
    state = SodalisState(
        config=config,
        catalog=catalog,
        arena=arena or standard_arena(),
        known=known_set,
        seats=[Seat(team=config.team_of(s)) for s in range(config.players)],
    )
    flow.start(state)
    return SodalisGame(state)
