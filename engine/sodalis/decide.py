"""Seat decisions in Sodalis: checking an answer against the rules, then applying it.

Each decision's ``info`` already lists its legal options (computed when it was asked), so
each ``check_*`` compares the answer with them and raises a typed error, changing nothing;
each ``apply_*`` is called only after its check passed (for simultaneous decisions, once
every asked seat has answered, in seat order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.engine.errors import IllegalMove, MalformedAnswer
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import casting, flow, life_order, movement, steps, tribute
from fairtable.engine.sodalis import events as E
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
    Step,
    StrengthRefresh,
    TurnTokens,
)
from fairtable.engine.sodalis.cards import Action
from fairtable.engine.sodalis.decisions import (
    CarryInfo,
    ChampionInfo,
    ForcedStepInfo,
    GiveTributeInfo,
    OrderLifeInfo,
    RearrangeInfo,
    ReversalsInfo,
    SodalisDecisionKind,
    SpacesInfo,
    StrengthRefreshInfo,
    TokenChoiceInfo,
    TurnInfo,
    TurnTokensInfo,
)
from fairtable.engine.sodalis.state import SodalisState


def _int(v: Any) -> bool:
    return type(v) is int


def _space(v: Any, rule: str) -> tuple[int, int]:
    if not isinstance(v, tuple) or len(v) != 2 or not all(_int(x) for x in v):
        raise MalformedAnswer("a space is (q, r), two whole numbers", rule=rule)
    return v


def _ints(v: Any, rule: str) -> tuple[int, ...]:
    if not isinstance(v, tuple) or not all(_int(x) for x in v):
        raise MalformedAnswer("expected a tuple of whole numbers", rule=rule)
    return v


def _flag(v: Any, what: str, rule: str) -> bool:
    if not isinstance(v, bool):
        raise MalformedAnswer(f"{what} is true or false", rule=rule)
    return v


# -- setup --------------------------------------------------------------------------------
def check_turn_tokens(state: SodalisState, req: Decision, a: TurnTokens) -> None:
    info = TurnTokensInfo.of(req)
    rule = "Turn Order"
    tokens = _ints(a.tokens, rule)
    if len(tokens) != len(info.members):
        raise IllegalMove("give one token to each member of the team", rule=rule)
    if any(t not in info.tokens for t in tokens) or len(set(tokens)) != len(tokens):
        raise IllegalMove("give distinct tokens of your team's set", rule=rule)
    if any(t not in tokens for t in info.must_keep):
        raise IllegalMove("Dawn keeps token 1: turns start with one", rule=rule)


def apply_turn_tokens(state: SodalisState, req: Decision, a: TurnTokens) -> None:
    flow.assign_tokens(state, TurnTokensInfo.of(req).members, a.tokens)


def check_champion(state: SodalisState, req: Decision, a: ChooseChampion) -> None:
    if not isinstance(a.champion, str) or a.champion not in ChampionInfo.of(req).available:
        raise IllegalMove("choose a champion nobody has chosen", rule="Champion Selection")


def apply_champion(state: SodalisState, req: Decision, a: ChooseChampion) -> None:
    flow.choose_champion(state, a.seat, a.champion)


def check_rearrange(state: SodalisState, req: Decision, a: Rearrange) -> None:
    rule = "Turn Order"
    tokens = _ints(a.tokens, rule)
    if sorted(tokens) != list(RearrangeInfo.of(req).tokens):
        raise IllegalMove("rearrange only the tokens your team kept, one per member", rule=rule)


def apply_rearrange(state: SodalisState, req: Decision, a: Rearrange) -> None:
    flow.assign_tokens(state, RearrangeInfo.of(req).members, a.tokens)


def check_reversals(state: SodalisState, req: Decision, a: Reversals) -> None:
    rule = "Champion Selection"
    if not isinstance(a.reversed, tuple) or any(not isinstance(c, str) for c in a.reversed):
        raise MalformedAnswer("name the reversed arcana as a tuple of ids", rule=rule)
    if list(a.reversed) != sorted(set(a.reversed)):
        raise MalformedAnswer("name each reversed arcana once, sorted", rule=rule)
    if any(c not in ReversalsInfo.of(req).arcana for c in a.reversed):
        raise IllegalMove("only your arcana with a reversal can be flipped", rule=rule)


def apply_reversals(state: SodalisState, req: Decision, a: Reversals) -> None:
    s = state.seats[a.seat]
    s.cards = state.champion_of(a.seat).cards(a.reversed)
    state.log(E.Reversals(a.seat, a.reversed))


def check_place(state: SodalisState, req: Decision, a: Place | Respawn) -> None:
    rule = "Starting the Game" if isinstance(a, Place) else "Champion Cards"
    if _space(a.space, rule) not in SpacesInfo.of(req).spaces:
        raise IllegalMove("an unoccupied space of your team's base", rule=rule)


def apply_place(state: SodalisState, req: Decision, a: Place) -> None:
    movement.place(state, a.seat, a.space)


# -- the turn -------------------------------------------------------------------------------
def check_step(state: SodalisState, req: Decision, a: Step) -> None:
    info = TurnInfo.of(req)
    rule = "Actions"
    to = _space(a.to, rule)
    carry = _flag(a.carry, "carry", rule)
    if a.pay not in movement.PAYMENTS:
        raise MalformedAnswer("pay with move, minor, major or speed", rule=rule)
    if a.pay not in info.pay:
        raise IllegalMove(f"no face-up {a.pay} to exhaust", rule=rule)
    if to not in info.steps:
        raise IllegalMove(
            "move one space to a side-sharing space that is not occupied, "
            "impassable or the opposing Artifact's",
            rule=rule,
        )
    if carry and not info.carry:
        raise IllegalMove(
            "only a champion standing on its Artifact carries it", rule="Tribute of Speed"
        )


def apply_step(state: SodalisState, req: Decision, a: Step) -> None:
    movement.exhaust_payment(state, a.seat, a.pay)
    state.seats[a.seat].moved = True
    state.push((steps.Step.TURN, a.seat))
    movement.move(state, a.seat, a.to, a.carry, a.pay)


def check_cast(state: SodalisState, req: Decision, a: Cast) -> None:
    rule = "Arcana"
    if not isinstance(a.card, str):
        raise MalformedAnswer("name the card cast", rule=rule)
    sight = _flag(a.sight, "sight", rule)
    strength = _flag(a.strength, "strength", rule)
    if a.target is not None and not _int(a.target):
        raise MalformedAnswer("a target is a seat, -1 for the Paragon, or None", rule=rule)
    option = next((o for o in TurnInfo.of(req).casts if o[0] == a.card), None)
    if option is None:
        raise IllegalMove(
            "cast a card of your spread whose action token is face up", rule="Actions"
        )
    _, plain, sighted, strength_ok = option
    if strength and not strength_ok:
        raise IllegalMove(
            "Strength: hold it face up, on an effect that changes life", rule="Victory"
        )
    targets = sighted if sight else plain
    if sight and not sighted:
        raise IllegalMove(
            "Sight: hold it face up, on an effect with a numbered range", rule="Victory"
        )
    if a.target not in targets:
        raise IllegalMove(
            "that unit cannot be affected (range, or who the card affects)"
            if a.target is not None
            else "choose the unit to affect",
            rule="Affecting Units",
        )


def apply_cast(state: SodalisState, req: Decision, a: Cast) -> None:
    state.push((steps.Step.TURN, a.seat))
    casting.declare(state, a.seat, a.card, a.target, a.sight, a.strength)


def check_end(state: SodalisState, req: Decision, a: EndTurn) -> None:
    return None


def apply_end(state: SodalisState, req: Decision, a: EndTurn) -> None:
    state.push((steps.Step.TURN_END, a.seat))


# -- during a cast ----------------------------------------------------------------------------
def check_confuse(state: SodalisState, req: Decision, a: ConfuseChoice | RefreshToken) -> None:
    info = TokenChoiceInfo.of(req)
    if not isinstance(a.token, str):
        raise MalformedAnswer("name a token", rule="Glossary")
    if a.token not in info.options:
        raise IllegalMove(f"choose one of {', '.join(info.options)}", rule="Glossary")


def apply_confuse(state: SodalisState, req: Decision, a: ConfuseChoice) -> None:
    state.seats[a.seat].up[Action(a.token)] = False
    state.log(E.Exhausted(a.seat, a.token))


def apply_refresh_token(state: SodalisState, req: Decision, a: RefreshToken) -> None:
    state.seats[a.seat].up[Action(a.token)] = True
    state.log(E.Refreshed(a.seat, a.token))


def check_carry(state: SodalisState, req: Decision, a: Carry) -> None:
    _flag(a.carry, "carry", "Tribute of Speed")


def apply_carry(state: SodalisState, req: Decision, a: Carry) -> None:
    info = CarryInfo.of(req)
    state.push(
        (
            "forced_to",
            info.unit,
            info.movement,
            info.steps,
            int(a.carry),
            info.origin,
            info.caster,
            info.to,
        )
    )


def check_forced_step(state: SodalisState, req: Decision, a: ForcedStep) -> None:
    rule = "Movement"
    if _space(a.to, rule) not in ForcedStepInfo.of(req).options:
        raise IllegalMove(
            "the unit goes to one of the spaces straight away from or toward the caster", rule=rule
        )


def apply_forced_step(state: SodalisState, req: Decision, a: ForcedStep) -> None:
    info = ForcedStepInfo.of(req)
    state.push(
        (
            "forced_to",
            info.unit,
            info.movement,
            info.steps,
            info.carry,
            info.origin,
            a.seat,
            a.to,
        )
    )


def apply_respawn(state: SodalisState, req: Decision, a: Respawn) -> None:
    movement.do_respawn(state, a.seat, a.space)


def check_give(state: SodalisState, req: Decision, a: GiveTribute) -> None:
    if not _int(a.to) or a.to not in GiveTributeInfo.of(req).candidates:
        raise IllegalMove(
            "give it to a champion of your team holding the fewest tributes", rule="Victory"
        )


def apply_give(state: SodalisState, req: Decision, a: GiveTribute) -> None:
    info = GiveTributeInfo.of(req)
    tribute.give(state, info.team, a.to, info.tribute)


def check_strength_refresh(state: SodalisState, req: Decision, a: StrengthRefresh) -> None:
    rule = "Tribute of Strength"
    if a.champion is None and a.token is None:
        return
    if not _int(a.champion) or not isinstance(a.token, str):
        raise MalformedAnswer("name a seat and a token, or decline with both None", rule=rule)
    if (a.champion, a.token) not in StrengthRefreshInfo.of(req).options:
        raise IllegalMove("refresh an exhausted action token of your team, or decline", rule=rule)


def apply_strength_refresh(state: SodalisState, req: Decision, a: StrengthRefresh) -> None:
    if a.champion is not None and a.token is not None:
        state.seats[a.champion].up[Action(a.token)] = True
    state.log(E.StrengthRefresh(StrengthRefreshInfo.of(req).team, a.champion, a.token))


def check_order_life(state: SodalisState, req: Decision, a: OrderLife) -> None:
    rule = "Affecting Units"
    if not isinstance(a.order, tuple) or not all(_int(u) for u in a.order):
        raise MalformedAnswer("the order is a tuple of seats", rule=rule)
    if sorted(a.order) != sorted(OrderLifeInfo.of(req).units):
        raise IllegalMove("order every affected champion, each once", rule=rule)


def apply_order_life(state: SodalisState, req: Decision, a: OrderLife) -> None:
    life_order.reorder(state, a.order)


Check = Callable[[SodalisState, Decision, Any], None]
DECISION_RULES: dict[type, tuple[str, Check, Check]] = {
    TurnTokens: (SodalisDecisionKind.TURN_TOKENS, check_turn_tokens, apply_turn_tokens),
    ChooseChampion: (SodalisDecisionKind.CHAMPION, check_champion, apply_champion),
    Rearrange: (SodalisDecisionKind.REARRANGE, check_rearrange, apply_rearrange),
    Reversals: (SodalisDecisionKind.REVERSALS, check_reversals, apply_reversals),
    Place: (SodalisDecisionKind.PLACE, check_place, apply_place),
    Step: (SodalisDecisionKind.TURN, check_step, apply_step),
    Cast: (SodalisDecisionKind.TURN, check_cast, apply_cast),
    EndTurn: (SodalisDecisionKind.TURN, check_end, apply_end),
    ConfuseChoice: (SodalisDecisionKind.CONFUSE, check_confuse, apply_confuse),
    Carry: (SodalisDecisionKind.CARRY, check_carry, apply_carry),
    ForcedStep: (SodalisDecisionKind.FORCED_STEP, check_forced_step, apply_forced_step),
    Respawn: (SodalisDecisionKind.RESPAWN, check_place, apply_respawn),
    GiveTribute: (SodalisDecisionKind.GIVE_TRIBUTE, check_give, apply_give),
    StrengthRefresh: (
        SodalisDecisionKind.STRENGTH_REFRESH,
        check_strength_refresh,
        apply_strength_refresh,
    ),
    RefreshToken: (SodalisDecisionKind.REFRESH_TOKEN, check_confuse, apply_refresh_token),
    OrderLife: (SodalisDecisionKind.ORDER_LIFE, check_order_life, apply_order_life),
}
