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
from fairtable.engine.sodalis.decisions import (
    CarryInfo,
    ChampionInfo,
    ConfuseInfo,
    ForcedStepInfo,
    GiveTributeInfo,
    OrderLifeInfo,
    PlaceInfo,
    RearrangeInfo,
    RefreshTokenInfo,
    RespawnInfo,
    ReversalsInfo,
    StrengthRefreshInfo,
    TurnInfo,
    TurnTokensInfo,
)
from fairtable.engine.sodalis.view import SodalisView

_T = TypeVar("_T")


def _token_lists(info: TurnTokensInfo) -> Iterator[tuple[int, ...]]:
    for p in itertools.permutations(info.tokens, len(info.members)):
        if all(t in p for t in info.must_keep):
            yield p


def _casts(seat: int, option: tuple[Any, ...]) -> Iterator[Cast]:
    card, plain, sighted, strength_ok = option
    powers = (False, True) if strength_ok else (False,)
    for sight, targets in ((False, plain), (True, sighted)):
        for target in targets:
            for strength in powers:
                yield Cast(seat, card, target, sight, strength)


def legal_answers(view: SodalisView, decision: Decision) -> Iterator[SodalisAnswer]:
    seat = decision.seat
    match decision.info:
        case TurnInfo(steps=steps, pay=pays, carry=may_carry, casts=casts):
            carries = (False, True) if may_carry else (False,)
            for to in steps:
                for pay in pays:
                    for carry in carries:
                        yield Step(seat, to, pay, carry)
            for option in casts:
                yield from _casts(seat, option)
            yield EndTurn(seat)
        case TurnTokensInfo() as info:
            for tokens in _token_lists(info):
                yield TurnTokens(seat, tokens)
        case RearrangeInfo(tokens=kept):
            for tokens in itertools.permutations(kept):
                yield Rearrange(seat, tokens)
        case ChampionInfo(available=available):
            for champion in available:
                yield ChooseChampion(seat, champion)
        case ReversalsInfo(arcana=arcana):
            for k in range(len(arcana) + 1):
                for chosen in itertools.combinations(arcana, k):
                    yield Reversals(seat, chosen)
        case PlaceInfo(spaces=spaces):
            for space in spaces:
                yield Place(seat, space)
        case RespawnInfo(spaces=spaces):
            for space in spaces:
                yield Respawn(seat, space)
        case ConfuseInfo(options=options):
            for token in options:
                yield ConfuseChoice(seat, token)
        case RefreshTokenInfo(options=options):
            for token in options:
                yield RefreshToken(seat, token)
        case CarryInfo():
            yield Carry(seat, True)
            yield Carry(seat, False)
        case ForcedStepInfo(options=spaces):
            for space in spaces:
                yield ForcedStep(seat, space)
        case OrderLifeInfo(units=units):
            for order in itertools.permutations(units):
                yield OrderLife(seat, order)
        case GiveTributeInfo(candidates=candidates):
            for recipient in candidates:
                yield GiveTribute(seat, recipient)
        case StrengthRefreshInfo(options=refreshable):
            yield StrengthRefresh(seat, None, None)
            for unit, action in refreshable:
                yield StrengthRefresh(seat, unit, action)
        case _:
            raise ValueError(f"unknown decision kind {decision.kind!r}")


def _pick(rng: ChanceStream, items: Iterable[_T]) -> _T:
    listed = list(items)
    return listed[rng.below(len(listed))]


def random_answer(view: SodalisView, decision: Decision, rng: ChanceStream) -> SodalisAnswer:
    """A random legal answer (not uniform: in a turn, casting is likeliest, then moving, then
    ending; the Artifact is usually carried; Strength usually spent)."""
    seat = decision.seat
    match decision.info:
        case TurnInfo(steps=steps, pay=pays, carry=may_carry, casts=casts):
            roll = rng.below(20)
            if casts and roll < 11:
                card, plain, sighted, strength_ok = _pick(rng, casts)
                sight = bool(sighted) and (not plain or rng.below(3) == 0)
                target = _pick(rng, sighted if sight else plain)
                return Cast(seat, card, target, sight, strength_ok and rng.below(4) > 0)
            if steps and roll < 18:
                carry = bool(may_carry) and rng.below(4) > 0
                return Step(seat, _pick(rng, steps), _pick(rng, pays), carry)
            return EndTurn(seat)
        case ReversalsInfo(arcana=arcana):
            return Reversals(seat, tuple(a for a in arcana if rng.below(2)))
    return _pick(rng, legal_answers(view, decision))
