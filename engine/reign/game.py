"""The Reign game object: the engine contract for Reign.

``new_game(config, known=...)`` builds a game; ``pending()`` says who must
answer; ``apply(answer)`` takes a seat's decision or a chance, shuffle, deal or
reveal answer and either changes the state or raises a typed
:class:`~engine.errors.EngineError` leaving it untouched; ``view(seat)`` and
``digest()`` give a seat's knowledge and the hash of the public state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import GameOver, IllegalReveal, MalformedAnswer, WrongPhase, WrongSeat
from engine.reign import decide, flow
from engine.reign.answers import ReignAnswer
from engine.reign.cards import Catalog, standard_catalog
from engine.reign.state import ReignConfig, ReignState, Secrets
from engine.reign.view import ReignView, make_view
from engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Decision,
    Request,
    Reveal,
    RevealAnswer,
    Shuffle,
    ShuffleAnswer,
)

Answer = ReignAnswer | ChanceAnswer | ShuffleAnswer | DealAnswer | RevealAnswer

_GENERIC: dict[type, tuple[type, Callable[[ReignState, Any], None]]] = {
    ChanceAnswer: (Chance, flow.on_chance),
    ShuffleAnswer: (Shuffle, flow.on_shuffle),
    DealAnswer: (Deal, flow.on_deal),
    RevealAnswer: (Reveal, flow.on_reveal),
}


class ReignGame:
    """One game of Reign as seen by one engine instance."""

    game = "reign"

    def __init__(self, state: ReignState) -> None:
        self.state = state

    # -- the contract ----------------------------------------------------------------------
    def pending(self) -> tuple[Request, ...]:
        """The requests waiting for an answer (several seats for a simultaneous decision)."""
        s = self.state
        if not s.buffered:
            return tuple(s.pending)
        return tuple(r for r in s.pending
                     if not (isinstance(r, Decision) and r.simultaneous and r.seat in s.buffered))

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    @property
    def winner(self) -> int | None:
        return self.state.winner

    def apply(self, answer: Answer) -> list[tuple[Any, ...]]:
        """Apply one answer; returns the public events it caused."""
        s = self.state
        if s.over:
            raise GameOver("the game is over")
        mark = len(s.events)
        generic = _GENERIC.get(type(answer))
        if generic is not None:
            kind, handler = generic
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

    def check(self, answer: ReignAnswer) -> None:
        """Raise the error :meth:`apply` would raise for this decision; change nothing."""
        if self.state.over:
            raise GameOver("the game is over")
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
        if req.simultaneous:
            self._check_against_buffered(answer)
        return req, apply

    def _check_against_buffered(self, answer: Any) -> None:
        """Two seats cannot show one card: the deck itself was tampered with (the protocol's
        audit finds by whom), so nobody is named here."""
        cards = set(getattr(answer, "cards", ()) or ())
        for other in self.state.buffered.values():
            if cards & set(getattr(other, "cards", ()) or ()):
                raise IllegalReveal("two seats show the same card", rule="Regent Phase > Draw")

    def _flush_simultaneous(self) -> None:
        """All simultaneous answers are in: apply them in seat order."""
        s = self.state
        requests = {r.seat: r for r in s.pending if isinstance(r, Decision)}
        answers, s.buffered, s.pending = dict(s.buffered), {}, []
        for seat in sorted(answers):
            _, _, apply = decide.RULES[type(answers[seat])]
            apply(s, requests[seat], answers[seat])

    def view(self, seat: int | None) -> ReignView:
        """What ``seat`` may see (``None``: a spectator)."""
        return make_view(self.state, seat)

    def digest(self) -> str:
        return self.state.digest()

    def public(self) -> dict[str, Any]:
        return self.state.public()

    def secret_of(self, handle: int) -> str:
        return secret_of(self, handle)

    def handover_cards(self, giver: int, seat: int) -> tuple[str, ...]:
        return handover_cards(self, giver, seat)

    def copy(self) -> ReignGame:
        return ReignGame(copy.deepcopy(self.state, {id(self.state.catalog): self.state.catalog}))


def new_game(
    config: ReignConfig,
    known: Iterable[int] | None = None,
    catalog: Catalog | None = None,
) -> ReignGame:
    """A new game.  ``known`` are the seats whose secrets this instance holds
    (``None``: every seat, as the local referee does; ``()``: a spectator)."""
    config.check()
    seats = range(config.players) if known is None else known
    try:
        known_set = frozenset(seats)
    except TypeError:
        raise MalformedAnswer("known seats are a collection of seat numbers") from None
    if any(type(s) is not int or not 0 <= s < config.players for s in known_set):
        raise MalformedAnswer("known seats must be seats of this table")
    state = ReignState(
        config=config,
        catalog=catalog or standard_catalog(),
        known=known_set,
        secrets={s: Secrets() for s in sorted(known_set)},
    )
    flow.start(state)
    return ReignGame(state)


def secret_of(game: ReignGame, handle: int) -> str:
    """The identity of a face-down card (an instance that knows its placer only)."""
    for sec in game.state.secrets.values():
        if handle in sec.facedown:
            return sec.facedown[handle]
    raise KeyError(f"this engine instance does not know face-down card {handle}")


def handover_cards(game: ReignGame, giver: int, seat: int) -> tuple[str, ...]:
    """The cards ``giver`` chose to hand to ``seat`` (known to the giver's instance)."""
    if giver not in game.state.secrets:
        raise KeyError(f"this engine instance does not know seat {giver}'s gifts")
    return tuple(sorted(c for s, c in game.state.secrets[giver].gifts if s == seat))
