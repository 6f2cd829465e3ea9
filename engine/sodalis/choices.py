"""The legal answers to a Sodalis decision, from the deciding seat's view.

Every decision's ``info`` lists its legal options (the engine computes them when it asks),
so both functions read only the decision and the view -- bots and the user interface never
touch the game state.  ``legal_answers(view, decision)`` enumerates every legal answer (the
turn: every step x payment x carry, every cast x target x Sight x Strength, and ending the
turn; reversals: every subset, at most 2^9); ``random_answer(view, decision, stream)``
draws one legal answer, favouring action over ending the turn.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis.answers import (
    Carry,
    Cast,
    ChooseChampion,
    ConfuseChoice,
    EndTurn,
    ForcedStep,
    GiveTribute,
    OrderLife,
    Place,
    Rearrange,
    RefreshToken,
    Respawn,
    Reversals,
    SodalisAnswer,
    Step,
    StrengthRefresh,
    TurnTokens,
)
from fairtable.engine.sodalis.decisions import SodalisDecisionKind
from fairtable.engine.sodalis.view import SodalisView

_T = TypeVar("_T")


def _token_lists(decision: Decision) -> Iterator[tuple[int, ...]]:
    members = decision.get("members", ())
    must = decision.get("must_keep", ())
    for p in itertools.permutations(decision.get("tokens", ()), len(members)):
        if all(t in p for t in must):
            yield p


def _casts(seat: int, option: tuple[Any, ...]) -> Iterator[Cast]:
    card, plain, sighted, strength_ok = option
    powers = (False, True) if strength_ok else (False,)
    for sight, targets in ((False, plain), (True, sighted)):
        for target in targets:
            for strength in powers:
                yield Cast(seat, card, target, sight, strength)


def legal_answers(view: SodalisView, decision: Decision) -> Iterator[SodalisAnswer]:
    seat, kind = decision.seat, decision.kind
    if kind == SodalisDecisionKind.TURN:
        carries = (False, True) if decision.get("carry") else (False,)
        for to in decision.get("steps", ()):
            for pay in decision.get("pay", ()):
                for carry in carries:
                    yield Step(seat, to, pay, carry)
        for option in decision.get("casts", ()):
            yield from _casts(seat, option)
        yield EndTurn(seat)
    elif kind == SodalisDecisionKind.TURN_TOKENS:
        for tokens in _token_lists(decision):
            yield TurnTokens(seat, tokens)
    elif kind == SodalisDecisionKind.REARRANGE:
        for tokens in itertools.permutations(decision.get("tokens", ())):
            yield Rearrange(seat, tokens)
    elif kind == SodalisDecisionKind.CHAMPION:
        for champion in decision.get("available", ()):
            yield ChooseChampion(seat, champion)
    elif kind == SodalisDecisionKind.REVERSALS:
        arcana = decision.get("arcana", ())
        for k in range(len(arcana) + 1):
            for chosen in itertools.combinations(arcana, k):
                yield Reversals(seat, chosen)
    elif kind == SodalisDecisionKind.PLACE:
        for space in decision.get("spaces", ()):
            yield Place(seat, space)
    elif kind == SodalisDecisionKind.RESPAWN:
        for space in decision.get("spaces", ()):
            yield Respawn(seat, space)
    elif kind == SodalisDecisionKind.CONFUSE:
        for token in decision.get("options", ()):
            yield ConfuseChoice(seat, token)
    elif kind == SodalisDecisionKind.REFRESH_TOKEN:
        for token in decision.get("options", ()):
            yield RefreshToken(seat, token)
    elif kind == SodalisDecisionKind.CARRY:
        yield Carry(seat, True)
        yield Carry(seat, False)
    elif kind == SodalisDecisionKind.FORCED_STEP:
        for space in decision.get("options", ()):
            yield ForcedStep(seat, space)
    elif kind == SodalisDecisionKind.ORDER_LIFE:
        for order in itertools.permutations(decision.get("units", ())):
            yield OrderLife(seat, order)
    elif kind == SodalisDecisionKind.GIVE_TRIBUTE:
        for to in decision.get("candidates", ()):
            yield GiveTribute(seat, to)
    elif kind == SodalisDecisionKind.STRENGTH_REFRESH:
        yield StrengthRefresh(seat, None, None)
        for champion, token in decision.get("options", ()):
            yield StrengthRefresh(seat, champion, token)
    else:
        raise ValueError(f"unknown decision kind {kind!r}")


def _pick(rng: ChanceStream, items: Iterable[_T]) -> _T:
    listed = list(items)
    return listed[rng.below(len(listed))]


def random_answer(view: SodalisView, decision: Decision, rng: ChanceStream) -> SodalisAnswer:
    """A random legal answer (not uniform: in a turn, casting is likeliest, then moving, then
    ending; the Artifact is usually carried; Strength usually spent)."""
    seat, kind = decision.seat, decision.kind
    if kind == SodalisDecisionKind.TURN:
        casts = decision.get("casts", ())
        steps = decision.get("steps", ())
        roll = rng.below(20)
        if casts and roll < 11:
            card, plain, sighted, strength_ok = _pick(rng, casts)
            sight = bool(sighted) and (not plain or rng.below(3) == 0)
            target = _pick(rng, sighted if sight else plain)
            return Cast(seat, card, target, sight, strength_ok and rng.below(4) > 0)
        if steps and roll < 18:
            carry = bool(decision.get("carry")) and rng.below(4) > 0
            return Step(seat, _pick(rng, steps), _pick(rng, decision.get("pay")), carry)
        return EndTurn(seat)
    if kind == SodalisDecisionKind.REVERSALS:
        return Reversals(seat, tuple(a for a in decision.get("arcana", ()) if rng.below(2)))
    return _pick(rng, legal_answers(view, decision))
