"""The Sovereign game object: the engine contract for Sovereign.

``new_game(config, known=...)`` builds a game; ``pending()`` says who must answer;
``apply(answer)`` takes a seat's decision or a chance, shuffle, deal, peek or reveal
answer and either changes the state or raises a typed
:class:`~engine.errors.EngineError` leaving it untouched (a refused answer is checked
completely before anything changes; a failure inside a reveal's checks is raised before
the state is touched too).  ``view(seat)`` and ``digest()`` give a seat's knowledge and
the hash of the public state.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from engine.errors import GameOver, MalformedAnswer, WrongPhase, WrongSeat
from engine.requests import (
    Chance,
    ChanceAnswer,
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
    Shuffle,
    ShuffleAnswer,
)
from engine.sovereign import decide, flow, requests_in
from engine.sovereign.answers import ACCEPTS, Pass, SovereignAnswer
from engine.sovereign.cards import Catalog, standard_catalog
from engine.sovereign.state import Secrets, SovereignConfig, SovereignState
from engine.sovereign.view import SovereignView, make_view

Answer = (SovereignAnswer | ChanceAnswer | ShuffleAnswer | DealAnswer | PeekAnswer
          | RehandleAnswer | RevealAnswer)

_GENERIC: dict[type, tuple[type, Callable[[SovereignState, Any], None]]] = {
    ChanceAnswer: (Chance, requests_in.on_chance),
    ShuffleAnswer: (Shuffle, requests_in.on_shuffle),
    DealAnswer: (Deal, requests_in.on_deal),
    PeekAnswer: (Peek, requests_in.on_peek),
    RehandleAnswer: (Rehandle, requests_in.on_deal),
    RevealAnswer: (Reveal, requests_in.on_reveal),
}


class SovereignGame:
    """One game of Sovereign as seen by one engine instance."""

    game = "sovereign"

    def __init__(self, state: SovereignState) -> None:
        self.state = state

    def pending(self) -> tuple[Request, ...]:
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
        s.decisions += 1
        if req.simultaneous:
            s.buffered[answer.seat] = answer  # type: ignore[union-attr]
            if len(s.buffered) < len(s.pending):
                return []
            requests = {r.seat: r for r in s.pending if isinstance(r, Decision)}
            answers, s.buffered, s.pending = dict(s.buffered), {}, []
            for seat in sorted(answers):
                decide.RULES[type(answers[seat])][1](s, requests[seat], answers[seat])
        else:
            s.pending = []
            decide.reask(s, req, not isinstance(answer, Pass))
            apply(s, req, answer)
        flow.advance(s)
        return s.events[mark:]

    def check(self, answer: SovereignAnswer) -> None:
        """Raise the error :meth:`apply` would raise for this decision; change nothing."""
        if self.state.over:
            raise GameOver("the game is over")
        self._checked_decision(answer)

    def _checked_decision(self, answer: Any) -> tuple[Decision, Any]:
        s = self.state
        rule = decide.RULES.get(type(answer))
        if rule is None:
            raise MalformedAnswer(f"{type(answer).__name__} is not an answer of this game")
        check, apply = rule
        seat = getattr(answer, "seat", None)
        if type(seat) is not int:
            raise MalformedAnswer("an answer names its seat as a whole number")
        req = None
        for r in s.pending:
            if isinstance(r, Decision) and r.seat == seat and seat not in s.buffered:
                req = r
                break
        if req is None:
            if any(isinstance(r, Decision) for r in s.pending):
                raise WrongSeat(f"it is not seat {seat}'s turn to decide")
            raise WrongPhase("nobody is asked for a decision now")
        if type(answer) not in ACCEPTS[req.kind]:
            raise WrongPhase(f"seat {seat} is asked for a {req.kind} decision, "
                             f"not {type(answer).__name__}")
        check(s, req, answer)
        return req, apply

    def view(self, seat: int | None) -> SovereignView:
        return make_view(self.state, seat)

    def digest(self) -> str:
        return self.state.digest()

    def public(self) -> dict[str, Any]:
        return self.state.public()

    def secret_of(self, handle: int) -> str:
        card = self.state.secret(handle)
        if card is None:
            raise KeyError(f"this engine instance does not know face-down card {handle}")
        return card

    def handover_cards(self, giver: int, seat: int) -> tuple[str, ...]:
        """A hand re-handled to its own holder: the cards, in the order the new handles take
        (the local referee keeps the card order; a networked holder picks its own)."""
        if giver != seat or giver not in self.state.secrets:
            raise KeyError(f"this engine instance does not know seat {giver}'s hand")
        cards = self.state.secrets[giver].cards
        return tuple(sorted(cards[h] for h in self.state.boards[giver].hand))

    def copy(self) -> SovereignGame:
        state = self.state
        return SovereignGame(copy.deepcopy(state, {id(state.catalog): state.catalog}))


def new_game(config: SovereignConfig, known: Iterable[int] | None = None,
             catalog: Catalog | None = None) -> SovereignGame:
    """A new game.  ``known`` are the seats whose secrets this instance holds (``None``:
    every seat, as the local referee does; ``()``: a spectator)."""
    catalog = catalog or standard_catalog()
    config.check(catalog)
    seats = range(config.players) if known is None else known
    try:
        known_set = frozenset(seats)
    except TypeError:
        raise MalformedAnswer("known seats are a collection of seat numbers") from None
    if any(type(s) is not int or not 0 <= s < config.players for s in known_set):
        raise MalformedAnswer("known seats must be seats of this table")
    state = SovereignState(config=config, catalog=catalog, known=known_set,
                           secrets={s: Secrets() for s in sorted(known_set)})
    flow.start(state)
    return SovereignGame(state)
