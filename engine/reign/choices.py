"""The legal answers to a Reign decision, from the deciding seat's view.

``legal_answers(view, decision)`` enumerates every legal answer lazily (bots,
menus and completion use it; for large spaces such as the spoils take only
what you need); ``random_answer(view, decision, stream)`` draws one legal
answer at random for the random bot and for property tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from fairtable.engine.reign.answers import (
    Bid,
    CombatTie,
    Covert,
    Discard,
    DrawChoice,
    KeepSupport,
    OrderArmy,
    OrderEvents,
    Overt,
    RegentDiscard,
    ReignAnswer,
    Spoils,
    TieBreak,
)
from fairtable.engine.reign.cards import standard_catalog
from fairtable.engine.reign.combat import army_orders
from fairtable.engine.reign.decide import spoils_problem
from fairtable.engine.reign.decisions import ReignDecisionKind
from fairtable.engine.reign.view import ReignView
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream


def _defs() -> dict[str, Any]:
    return standard_catalog().defs


def bid_groups(view: ReignView, decision: Decision) -> dict[str, list[str]]:
    """House -> military cards in hand a bid for it may use (forbidden houses left out)."""
    defs = _defs()
    forbidden = set(decision.get("forbidden", ()))
    out: dict[str, list[str]] = {}
    for c in view.hand:
        d = defs[c]
        if d.kind == "military" and d.house not in forbidden:
            out.setdefault(d.house or "", []).append(c)
    return dict(sorted(out.items()))


def influence_events(view: ReignView) -> list[str]:
    defs = _defs()
    return [c for c in view.hand if defs[c].kind == "event" and defs[c].phase == "influence"]


def army_cards(view: ReignView) -> list[str]:
    """Hand cards that may go into an army (everything but influence-phase events)."""
    defs = _defs()
    return [c for c in view.hand if not (defs[c].kind == "event" and defs[c].phase == "influence")]


def _regent(view: ReignView) -> int | None:
    regent: int | None = view.public["regent"]
    return regent


def _subsets(items: list[str], min_size: int = 0) -> Iterator[tuple[str, ...]]:
    for k in range(min_size, len(items) + 1):
        yield from itertools.combinations(items, k)


def _covert_target_lists(view: ReignView, decision: Decision, k: int) -> Iterator[tuple[int, ...]]:
    seat = decision.seat
    targets = decision.get("targets", ())
    for combo in itertools.product(targets, repeat=k):
        if seat == _regent(view):
            if combo and combo[-1] != seat:
                continue
            if not combo and view.public["backing"].get(str(seat), seat) != seat:
                continue
        yield combo


def legal_answers(view: ReignView, decision: Decision) -> Iterator[ReignAnswer]:
    seat, kind = decision.seat, decision.kind
    if kind == ReignDecisionKind.BID:
        yield Bid(seat, 0, ())
        events = influence_events(view)
        for cards in bid_groups(view, decision).values():
            for mil in _subsets(cards, 1):
                for ev in _subsets(events):
                    yield Bid(seat, len(mil) + len(ev), mil + ev)
    elif kind == ReignDecisionKind.OVERT:
        yield Overt(seat, None, None)
        regent = _regent(view)
        for target in decision.get("targets", ()):
            if (
                seat == regent
                and target != seat
                and (seat not in decision.get("targets", ()) or len(army_cards(view)) < 2)
            ):
                continue
            for c in sorted(set(army_cards(view))):
                yield Overt(seat, target, c)
    elif kind == ReignDecisionKind.COVERT:
        cards = army_cards(view)
        for k in range(0, min(decision.get("max_cards", 2), len(cards)) + 1):
            for targets in _covert_target_lists(view, decision, k):
                for chosen in itertools.permutations(cards, k):
                    yield Covert(seat, targets, chosen)
    elif kind == ReignDecisionKind.KEEP_SUPPORT:
        for house in decision.get("houses", ()):
            yield KeepSupport(seat, house)
    elif kind == ReignDecisionKind.TIE_BREAK:
        for winner in decision.get("tied", ()):
            yield TieBreak(seat, winner)
    elif kind == ReignDecisionKind.ORDER_EVENTS:
        for order in itertools.permutations(decision.get("events", ())):
            yield OrderEvents(seat, order)
    elif kind == ReignDecisionKind.ORDER_ARMY:
        for order in army_orders(decision.get("groups", ())):
            yield OrderArmy(seat, order)
    elif kind == ReignDecisionKind.COMBAT_TIE:
        for pick in decision.get("options", ()):
            yield CombatTie(seat, pick)
    elif kind == ReignDecisionKind.REGENT_DISCARD:
        for c in sorted(set(view.hand)):
            yield RegentDiscard(seat, c)
    elif kind == ReignDecisionKind.DRAW:
        yield DrawChoice(seat, 0)
        yield DrawChoice(seat, 1)
    elif kind == ReignDecisionKind.DISCARD:
        for cards in itertools.combinations(view.hand, decision.get("count", 0)):
            yield Discard(seat, cards)
    elif kind == ReignDecisionKind.SPOILS:
        yield from _spoils_answers(view, decision)


def spoils_recipients(view: ReignView, seat: int) -> list[int]:
    """The seats the Regent ``seat`` may give spoils to: the others still playing."""
    gone = view.public.get("departed", ())
    return [s for s in range(view.public["players"]) if s != seat and s not in gone]


def _spoils_answers(view: ReignView, decision: Decision) -> Iterator[ReignAnswer]:
    seat = decision.seat
    others = spoils_recipients(view, seat)
    must = list(decision.get("must_give", ()))
    hand = list(view.hand)
    for assignment in itertools.product([None, *others], repeat=len(hand)):
        gifts = tuple(
            sorted((s, c) for s, c in zip(assignment, hand, strict=True) if s is not None)
        )
        given = {s for s, _ in gifts}
        counts = tuple(sorted((s, sum(1 for g, _ in gifts if g == s)) for s in given))
        if spoils_problem(tuple(must), len(hand), counts):
            continue
        yield Spoils(seat, counts, gifts)


def random_answer(view: ReignView, decision: Decision, rng: ChanceStream) -> ReignAnswer:
    """A random legal answer (not uniform over all answers, but every kind of move is likely)."""
    seat, kind = decision.seat, decision.kind
    if kind == ReignDecisionKind.BID:
        groups = bid_groups(view, decision)
        if not groups or rng.below(4) == 0:
            return Bid(seat, 0, ())
        cards = list(groups.values())[rng.below(len(groups))]
        chosen = [c for c in cards if rng.below(2)] or [cards[rng.below(len(cards))]]
        chosen += [e for e in influence_events(view) if rng.below(2)]
        return Bid(seat, len(chosen), tuple(chosen))
    if kind == ReignDecisionKind.ORDER_EVENTS:
        events = decision.get("events", ())
        return OrderEvents(seat, tuple(events[i] for i in rng.permutation(len(events))))
    if kind == ReignDecisionKind.ORDER_ARMY:
        return OrderArmy(
            seat,
            tuple(
                c
                for g in decision.get("groups", ())
                for c in (g[i] for i in rng.permutation(len(g)))
            ),
        )
    if kind in (
        ReignDecisionKind.OVERT,
        ReignDecisionKind.REGENT_DISCARD,
        ReignDecisionKind.KEEP_SUPPORT,
        ReignDecisionKind.TIE_BREAK,
        ReignDecisionKind.COMBAT_TIE,
        ReignDecisionKind.DRAW,
    ):
        options = list(legal_answers(view, decision))
        return options[rng.below(len(options))]
    if kind == ReignDecisionKind.COVERT:
        cards = army_cards(view)
        targets_allowed = decision.get("targets", ())
        k = rng.below(min(decision.get("max_cards", 2), len(cards)) + 1)
        targets = tuple(targets_allowed[rng.below(len(targets_allowed))] for _ in range(k))
        if seat == _regent(view):
            must_end_home = view.public["backing"].get(str(seat), seat) != seat
            if seat not in targets_allowed:
                targets = ()
            elif targets or must_end_home:
                targets = targets[:-1] + (seat,)
        order = rng.permutation(len(cards))[: len(targets)]
        return Covert(seat, targets, tuple(cards[i] for i in order))
    if kind == ReignDecisionKind.DISCARD:
        order = rng.permutation(len(view.hand))[: decision.get("count", 0)]
        return Discard(seat, tuple(view.hand[i] for i in sorted(order)))
    if kind == ReignDecisionKind.SPOILS:
        hand = list(view.hand)
        order = rng.permutation(len(hand))
        others = spoils_recipients(view, seat)
        gifts: list[tuple[int, str]] = []
        must = list(decision.get("must_give", ()))
        for i, s in zip(order, must, strict=False):
            gifts.append((s, hand[i]))
        for i in order[len(must) :]:
            pick = rng.below(len(others) + 1)
            if pick < len(others):
                gifts.append((others[pick], hand[i]))
        gifts.sort()
        given = sorted({g for g, _ in gifts})
        counts = tuple((s, sum(1 for g, _ in gifts if g == s)) for s in given)
        return Spoils(seat, counts, tuple(gifts))
    raise ValueError(f"unknown decision kind {kind!r}")
