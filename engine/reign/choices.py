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
from fairtable.engine.reign.decisions import (
    BidInfo,
    CombatTieInfo,
    CovertInfo,
    DiscardInfo,
    DrawInfo,
    KeepSupportInfo,
    OrderArmyInfo,
    OrderEventsInfo,
    OvertInfo,
    RegentDiscardInfo,
    SpoilsInfo,
    TieBreakInfo,
)
from fairtable.engine.reign.view import ReignView
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream


def _defs() -> dict[str, Any]:
    return standard_catalog().defs


def bid_groups(view: ReignView, decision: Decision) -> dict[str, list[str]]:
    """House -> military cards in hand a bid for it may use (forbidden houses left out)."""
    defs = _defs()
    forbidden = set(BidInfo.of(decision).forbidden)
    out: dict[str, list[str]] = {}
    for c in view.hand:
        d = defs[c]
        if d.military and d.house not in forbidden:
            out.setdefault(d.house or "", []).append(c)
    return dict(sorted(out.items()))


def influence_events(view: ReignView) -> list[str]:
    defs = _defs()
    return [c for c in view.hand if defs[c].influence]


def army_cards(view: ReignView) -> list[str]:
    """Hand cards that may go into an army (everything but influence-phase events)."""
    defs = _defs()
    return [c for c in view.hand if not defs[c].influence]


def _regent(view: ReignView) -> int | None:
    regent: int | None = view.public["regent"]
    return regent


def _subsets(items: list[str], min_size: int = 0) -> Iterator[tuple[str, ...]]:
    for k in range(min_size, len(items) + 1):
        yield from itertools.combinations(items, k)


def _covert_target_lists(
    view: ReignView, decision: Decision, targets: tuple[int, ...], k: int
) -> Iterator[tuple[int, ...]]:
    seat = decision.seat
    for combo in itertools.product(targets, repeat=k):
        if seat == _regent(view):
            if combo and combo[-1] != seat:
                continue
            if not combo and view.public["backing"].get(str(seat), seat) != seat:
                continue
        yield combo


def legal_answers(view: ReignView, decision: Decision) -> Iterator[ReignAnswer]:
    seat = decision.seat
    match decision.info:
        case BidInfo():
            yield Bid(seat, 0, ())
            events = influence_events(view)
            for cards in bid_groups(view, decision).values():
                for mil in _subsets(cards, 1):
                    for ev in _subsets(events):
                        yield Bid(seat, len(mil) + len(ev), mil + ev)
        case OvertInfo(targets=targets):
            yield from _overt_answers(view, seat, targets)
        case CovertInfo(targets=allowed, max_cards=max_cards):
            cards = army_cards(view)
            for k in range(0, min(max_cards, len(cards)) + 1):
                for targets in _covert_target_lists(view, decision, allowed, k):
                    for chosen in itertools.permutations(cards, k):
                        yield Covert(seat, targets, chosen)
        case KeepSupportInfo(houses=houses):
            for house in houses:
                yield KeepSupport(seat, house)
        case TieBreakInfo(tied=tied):
            for winner in tied:
                yield TieBreak(seat, winner)
        case OrderEventsInfo(events=events):
            for order in itertools.permutations(events):
                yield OrderEvents(seat, order)
        case OrderArmyInfo(groups=groups):
            for order in army_orders(groups):
                yield OrderArmy(seat, order)
        case CombatTieInfo(options=options):
            for pick in options:
                yield CombatTie(seat, pick)
        case RegentDiscardInfo():
            for c in sorted(set(view.hand)):
                yield RegentDiscard(seat, c)
        case DrawInfo():
            yield DrawChoice(seat, 0)
            yield DrawChoice(seat, 1)
        case DiscardInfo(count=count):
            for discarded in itertools.combinations(view.hand, count):
                yield Discard(seat, discarded)
        case SpoilsInfo():
            yield from _spoils_answers(view, decision)


def _overt_options(
    view: ReignView, seat: int, targets: tuple[int, ...]
) -> tuple[list[int], list[str]]:
    """The armies a card may go into face up, and the distinct cards that may: every overt
    answer is the pass, then each of these cards into each of these armies."""
    cards = army_cards(view)
    # The Regent puts a card into another army only when it has an army of its own and
    # keeps a card for it.
    regent_alone = seat == _regent(view) and (seat not in targets or len(cards) < 2)
    armies = [t for t in targets if not (regent_alone and t != seat)]
    return armies, sorted(set(cards))


def _overt_answers(view: ReignView, seat: int, targets: tuple[int, ...]) -> list[ReignAnswer]:
    """Every overt answer: the pass, then each card into each army it may go to."""
    armies, cards = _overt_options(view, seat, targets)
    return [Overt(seat, None, None), *(Overt(seat, t, c) for t in armies for c in cards)]


def spoils_recipients(view: ReignView, seat: int) -> list[int]:
    """The seats the Regent ``seat`` may give spoils to: the others still playing."""
    gone = view.public.get("departed", ())
    return [s for s in range(view.public["players"]) if s != seat and s not in gone]


def _spoils_answers(view: ReignView, decision: Decision) -> Iterator[ReignAnswer]:
    seat = decision.seat
    others = spoils_recipients(view, seat)
    must = list(SpoilsInfo.of(decision).must_give)
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
    seat = decision.seat
    match decision.info:  # the commonest kinds first
        case BidInfo():
            groups = bid_groups(view, decision)
            if not groups or rng.below(4) == 0:
                return Bid(seat, 0, ())
            cards = list(groups.values())[rng.below(len(groups))]
            chosen = [c for c in cards if rng.below(2)] or [cards[rng.below(len(cards))]]
            chosen += [e for e in influence_events(view) if rng.below(2)]
            return Bid(seat, len(chosen), tuple(chosen))
        case OvertInfo(targets=targets):  # one of _overt_answers, without building them all
            armies, cards = _overt_options(view, seat, targets)
            pick = rng.below(1 + len(armies) * len(cards))
            if pick == 0:
                return Overt(seat, None, None)
            target, card = divmod(pick - 1, len(cards))
            return Overt(seat, armies[target], cards[card])
        case CovertInfo(targets=targets_allowed, max_cards=max_cards):
            cards = army_cards(view)
            k = rng.below(min(max_cards, len(cards)) + 1)
            targets = tuple(targets_allowed[rng.below(len(targets_allowed))] for _ in range(k))
            if seat == _regent(view):
                must_end_home = view.public["backing"].get(str(seat), seat) != seat
                if seat not in targets_allowed:
                    targets = ()
                elif targets or must_end_home:
                    targets = targets[:-1] + (seat,)
            order = rng.permutation(len(cards))[: len(targets)]
            return Covert(seat, targets, tuple(cards[i] for i in order))
        case DrawInfo():  # legal_answers' two, drawn alike
            return DrawChoice(seat, rng.below(2))
        case RegentDiscardInfo() | KeepSupportInfo() | TieBreakInfo() | CombatTieInfo():
            options = list(legal_answers(view, decision))
            return options[rng.below(len(options))]
        case OrderEventsInfo(events=events):
            return OrderEvents(seat, tuple(events[i] for i in rng.permutation(len(events))))
        case OrderArmyInfo(groups=groups):
            return OrderArmy(
                seat, tuple(c for g in groups for c in (g[i] for i in rng.permutation(len(g))))
            )
        case DiscardInfo(count=count):
            order = rng.permutation(len(view.hand))[:count]
            return Discard(seat, tuple(view.hand[i] for i in sorted(order)))
        case SpoilsInfo(must_give=must):
            hand = list(view.hand)
            order = rng.permutation(len(hand))
            others = spoils_recipients(view, seat)
            gifts: list[tuple[int, str]] = []
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
    raise ValueError(f"unknown decision kind {decision.kind!r}")
