"""Seat decisions in Reign: checking an answer against the rules, then applying it.

Each ``check_*`` function raises a typed error and changes nothing; each
``apply_*`` function is called only after its check passed.  Where an answer's
secret part is unknown to this engine instance (another seat's face-down
cards), only the public part is checked here and the rest when the cards are
revealed (see :func:`engine.reign.flow.check_bid`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from fairtable.engine.errors import IllegalMove, IllegalReveal, MalformedAnswer, UnknownSecret
from fairtable.engine.reign import events as E
from fairtable.engine.reign import flow, setup
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
    Spoils,
    TieBreak,
)
from fairtable.engine.reign.decisions import (
    BidInfo,
    CombatTieInfo,
    CovertInfo,
    KeepSupportInfo,
    OrderArmyInfo,
    OrderEventsInfo,
    OvertInfo,
    ReignDecisionKind,
    SpoilsInfo,
    TieBreakInfo,
)
from fairtable.engine.reign.state import HAND_LIMIT, ReignState, RoundPhase
from fairtable.engine.reign.steps import Step
from fairtable.engine.requests import Decision
from fairtable.engine.tasks import push_front


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cards_shape(cards: Any, rule: str) -> tuple[str, ...]:
    if not isinstance(cards, tuple) or any(not isinstance(c, str) for c in cards):
        raise MalformedAnswer("cards are given as a tuple of card ids", rule=rule)
    return cards


def _own_cards(
    state: ReignState, seat: int, cards: tuple[str, ...] | None, count: int, rule: str
) -> None:
    """The secret part of an answer: present exactly when this instance knows the seat."""
    if not state.knows(seat):
        if cards is not None:
            raise UnknownSecret(f"this engine may not be told seat {seat}'s hidden cards")
        return
    if cards is None:
        raise UnknownSecret("say which of your cards", rule=rule)
    _cards_shape(cards, rule)
    if len(cards) != count:
        raise MalformedAnswer(f"{count} cards were announced but {len(cards)} given", rule=rule)
    hand = state.secrets[seat].hand
    if len(set(cards)) == len(cards):  # the common case: distinct cards, no counting
        missing = next((c for c in cards if c not in hand), None)
        if missing is not None:
            raise IllegalMove(f"{missing} is not in your hand", rule=rule)
        return
    need, have = Counter(cards), Counter(hand)
    for c, n in need.items():
        if have[c] < n:
            raise IllegalMove(f"{c} is not in your hand", rule=rule)


def _take(state: ReignState, seat: int, cards: tuple[str, ...] | None, count: int) -> None:
    state.hand_count[seat] -= count
    if cards is not None and state.knows(seat):
        for c in cards:
            state.secrets[seat].hand.remove(c)


def _public_card(state: ReignState, seat: int, card: Any, rule: str) -> None:
    """A card a seat shows from its hand (face up)."""
    if not isinstance(card, str) or card not in state.catalog.defs:
        raise MalformedAnswer(f"there is no card {card!r}", rule=rule)
    if state.knows(seat):
        if card not in state.secrets[seat].hand:
            raise IllegalMove(f"{card} is not in your hand", rule=rule)
    else:
        flow.reveal_public(state, [card], rule, owner=seat)


# -- influence ---------------------------------------------------------------------------
def check_bid(state: ReignState, req: Decision, a: Bid) -> None:
    rule = "Influence Phase > Bidding"
    if not _is_int(a.count) or not 0 <= a.count <= state.hand_count[a.seat]:
        raise MalformedAnswer("bid between 0 cards and the cards in your hand", rule=rule)
    _own_cards(state, a.seat, a.cards, a.count, rule)
    if a.cards is not None:
        try:
            flow.check_bid(state, a.seat, list(a.cards), BidInfo.of(req).pass_number)
        except IllegalReveal as exc:  # our own bid: an illegal move, not a lie
            raise IllegalMove(exc.reason, rule=exc.rule) from None


def apply_bid(state: ReignState, req: Decision, a: Bid) -> None:
    _take(state, a.seat, a.cards, a.count)
    handles = [state.new_handle() for _ in range(a.count)]
    if a.count:
        state.bids[a.seat] = handles
        if a.cards is not None:
            for h, c in zip(handles, a.cards, strict=True):
                state.secrets[a.seat].facedown[h] = c
    state.log(E.Bid(a.seat, a.count))


def check_keep_support(state: ReignState, req: Decision, a: KeepSupport) -> None:
    if a.house not in KeepSupportInfo.of(req).houses:
        raise IllegalMove(
            "keep one of the support cards you hold", rule="Influence Phase > Bidding"
        )


def apply_keep_support(state: ReignState, req: Decision, a: KeepSupport) -> None:
    for house in KeepSupportInfo.of(req).houses:
        if house != a.house:
            state.support[house] = None
            state.log(E.SupportReturned(a.seat, house))


def check_tie_break(state: ReignState, req: Decision, a: TieBreak) -> None:
    if not _is_int(a.winner) or a.winner not in TieBreakInfo.of(req).tied:
        raise IllegalMove(
            "the winner must be one of the tied players",
            rule="Combat Phase > Regent's Special Rules",
        )


def apply_tie_break(state: ReignState, req: Decision, a: TieBreak) -> None:
    info = TieBreakInfo.of(req)
    state.log(E.TieBroken(a.seat, a.winner))
    if info.phase is RoundPhase.INFLUENCE:
        assert info.house is not None  # an influence tie is always for a house
        state.influence_winner[info.house] = a.winner
    else:
        flow.crown(state, a.winner, 0)


def check_order_events(state: ReignState, req: Decision, a: OrderEvents) -> None:
    rule = "Influence Phase > Event Cards and Special Abilities"
    order = _cards_shape(a.order, rule)
    if sorted(order) != sorted(OrderEventsInfo.of(req).events):
        raise IllegalMove("order every revealed influence event, each once", rule=rule)


def apply_order_events(state: ReignState, req: Decision, a: OrderEvents) -> None:
    state.log(E.EventsOrdered(a.seat, a.order))
    push_front(state, (Step.SETTLE_BIDS, OrderEventsInfo.of(req).pass_number, tuple(a.order)))


def check_order_army(state: ReignState, req: Decision, a: OrderArmy) -> None:
    info = OrderArmyInfo.of(req)
    rule = "Combat Phase > The Reveal"
    order = _cards_shape(a.order, rule)
    if sorted(order) != sorted(info.cards):
        raise IllegalMove("order every card the decision lists, each once", rule=rule)
    rank = {c: i for i, g in enumerate(info.groups) for c in g}
    if [rank[c] for c in order] != sorted(rank[c] for c in order):
        raise IllegalMove(
            "military abilities resolve first, then non-betrayal events, then betrayal events",
            rule=rule,
        )


def apply_order_army(state: ReignState, req: Decision, a: OrderArmy) -> None:
    info = OrderArmyInfo.of(req)
    state.log(E.ArmyOrdered(a.seat, a.order))
    orders = (*info.orders, (a.seat, tuple(a.order)))
    push_front(state, (Step.RESOLVE_COMBAT, orders, info.picks))


def check_combat_tie(state: ReignState, req: Decision, a: CombatTie) -> None:
    if not isinstance(a.pick, str) or a.pick not in CombatTieInfo.of(req).options:
        raise IllegalMove(
            "choose one of the tied options", rule="Combat Phase > Regent's Special Rules"
        )


def apply_combat_tie(state: ReignState, req: Decision, a: CombatTie) -> None:
    info = CombatTieInfo.of(req)
    state.log(E.CombatTie(a.seat, info.card, info.op, a.pick))
    picks = tuple(sorted((*info.picks, (info.key, a.pick))))
    push_front(state, (Step.RESOLVE_COMBAT, info.orders, picks))


def check_regent_discard(state: ReignState, req: Decision, a: RegentDiscard) -> None:
    _public_card(state, a.seat, a.card, "Influence Phase > Regent's Special Rules")


def apply_regent_discard(state: ReignState, req: Decision, a: RegentDiscard) -> None:
    _take(state, a.seat, (a.card,), 1)
    state.hidden = state.hidden - {a.card}
    state.discards[setup.pile_of(state, a.card)].append(a.card)
    state.log(E.RegentDiscard(a.seat, a.card))


# -- plotting ----------------------------------------------------------------------------
def _army_card(state: ReignState, card: str) -> bool:
    d = state.catalog.defs[card]
    return not d.influence


def _regent_last_elsewhere(state: ReignState, seat: int) -> bool:
    return seat == state.regent and seat in state.backing and state.backing[seat] != seat


def check_overt(state: ReignState, req: Decision, a: Overt) -> None:
    rule = "Plotting Phase > Overt Backing"
    if a.target is None:
        if a.card is not None:
            raise MalformedAnswer("a pass places no card", rule=rule)
        return
    if not _is_int(a.target) or a.target not in OvertInfo.of(req).targets:
        raise IllegalMove(
            "cards go only into the army of a player holding a support card", rule=rule
        )
    _public_card(state, a.seat, a.card, rule)
    d = state.catalog.defs[a.card]  # type: ignore[index]
    if d.influence:
        raise IllegalMove(
            "this event can only be placed in the influence phase",
            rule="Influence Phase > Event Cards and Special Abilities",
        )
    if a.seat == state.regent and a.target != a.seat:
        if a.seat not in state.holders():
            raise IllegalMove(
                "the Regent can only back themselves, and has no army",
                rule="Plotting Phase > Regent's Special Rules",
            )
        rest = state.hand_count[a.seat] - 1
        if state.knows(a.seat):
            rest = sum(1 for c in state.secrets[a.seat].hand if _army_card(state, c)) - 1
        if rest < 1:
            raise IllegalMove(
                "the Regent's last card must go into their own army, and no "
                "card would be left for it",
                rule="Plotting Phase > Regent's Special Rules",
            )


def apply_overt(state: ReignState, req: Decision, a: Overt) -> None:
    if a.target is None:
        state.log(E.OvertPass(a.seat))
        return
    assert a.card is not None
    _take(state, a.seat, (a.card,), 1)
    state.hidden = state.hidden - {a.card}
    state.armies[a.target].append(a.card)
    state.backing[a.seat] = a.target
    state.log(E.Overt(a.seat, a.target, a.card))


def check_covert(state: ReignState, req: Decision, a: Covert) -> None:
    info = CovertInfo.of(req)
    rule = "Plotting Phase > Covert Backing"
    if not isinstance(a.targets, tuple) or any(not _is_int(t) for t in a.targets):
        raise MalformedAnswer("targets are a tuple of seats", rule=rule)
    limit = info.max_cards
    if len(a.targets) > limit:
        raise IllegalMove(f"at most {limit} cards face down", rule=rule)
    if len(a.targets) > state.hand_count[a.seat]:
        raise IllegalMove("you do not hold that many cards", rule=rule)
    if any(t not in info.targets for t in a.targets):
        raise IllegalMove(
            "cards go only into the army of a player holding a support card", rule=rule
        )
    if a.seat == state.regent:
        regent_rule = "Plotting Phase > Regent's Special Rules"
        if a.targets and a.targets[-1] != a.seat:
            raise IllegalMove(
                "the Regent can only back themselves: the last card goes into their own army",
                rule=regent_rule,
            )
        if not a.targets and _regent_last_elsewhere(state, a.seat):
            raise IllegalMove(
                "the Regent's last card must go into their own army", rule=regent_rule
            )
    _own_cards(state, a.seat, a.cards, len(a.targets), rule)
    if a.cards is not None:
        for c in a.cards:
            d = state.catalog.defs[c]
            if d.influence:
                raise IllegalMove(
                    "this event can only be placed in the influence phase",
                    rule="Influence Phase > Event Cards and Special Abilities",
                )


def apply_covert(state: ReignState, req: Decision, a: Covert) -> None:
    _take(state, a.seat, a.cards, len(a.targets))
    for i, target in enumerate(a.targets):
        h = state.new_handle()
        state.army_down[target].append([h, a.seat])
        if a.cards is not None:
            state.secrets[a.seat].facedown[h] = a.cards[i]
    if a.targets:
        state.backing[a.seat] = a.targets[-1]
    state.log(E.Covert(a.seat, a.targets))


# -- regent phase ------------------------------------------------------------------------
def check_spoils(state: ReignState, req: Decision, a: Spoils) -> None:
    rule = "Regent Phase > Spoils"
    if not isinstance(a.counts, tuple) or any(
        not isinstance(x, tuple) or len(x) != 2 or not all(_is_int(v) for v in x) for x in a.counts
    ):
        raise MalformedAnswer("counts are (seat, number) pairs", rule=rule)
    seats = [s for s, _ in a.counts]
    if seats != sorted(set(seats)):
        raise MalformedAnswer("name each recipient once, in seat order", rule=rule)
    if any(not 0 <= s < state.players or s == a.seat or n < 1 for s, n in a.counts):
        raise IllegalMove("spoils go to the other players, at least one card each named", rule=rule)
    if any(s in state.departed for s, _ in a.counts):
        raise IllegalMove("spoils go to players still at the table", rule=rule)
    total = sum(n for _, n in a.counts)
    if total > state.hand_count[a.seat]:
        raise IllegalMove("you cannot give more cards than you hold", rule=rule)
    problem = spoils_problem(SpoilsInfo.of(req).must_give, state.hand_count[a.seat], a.counts)
    if problem:
        raise IllegalMove(problem, rule=rule)
    if not state.knows(a.seat):
        if a.gifts is not None:
            raise UnknownSecret("this engine may not be told which cards the Regent gives")
        return
    if a.gifts is None:
        raise UnknownSecret("say which card goes to whom", rule=rule)
    if not isinstance(a.gifts, tuple) or any(
        not isinstance(g, tuple) or len(g) != 2 or not _is_int(g[0]) or not isinstance(g[1], str)
        for g in a.gifts
    ):
        raise MalformedAnswer("gifts are (seat, card) pairs", rule=rule)
    if sorted(Counter(s for s, _ in a.gifts).items()) != sorted(a.counts):
        raise MalformedAnswer("the gifts do not match the announced counts", rule=rule)
    _own_cards(state, a.seat, tuple(c for _, c in a.gifts), total, rule)


def spoils_problem(must: tuple[int, ...], held: int, counts: tuple[tuple[int, int], ...]) -> str:
    """Why a spoils split breaks "they must give at least one card to any player that backed
    them" ('' if it does not).  With fewer cards than backers, every card goes to a
    different backer."""
    given = dict(counts)
    missing = [s for s in must if s not in given]
    if not missing:
        return ""
    if held >= len(must):
        return f"give at least one card to each player who backed you (seat {missing[0]} gets none)"
    if sum(given.values()) < held or any(s not in must or n > 1 for s, n in given.items()):
        return "with fewer cards than backers, every card goes to a different backer"
    return ""


def apply_spoils(state: ReignState, req: Decision, a: Spoils) -> None:
    cards = tuple(c for _, c in a.gifts) if a.gifts is not None else None
    _take(state, a.seat, cards, sum(n for _, n in a.counts))
    if a.gifts is not None:
        state.secrets[a.seat].gifts = sorted(a.gifts)
    state.log(E.Spoils(a.seat, [list(x) for x in a.counts]))
    push_front(state, *[(Step.DEAL, f"hand:{a.seat}", s, n) for s, n in a.counts])


def check_draw(state: ReignState, req: Decision, a: DrawChoice) -> None:
    if type(a.events) is not int or a.events not in (0, 1):
        raise MalformedAnswer(
            "draw 3 military cards (0 events) or 2 military and 1 event", rule="Regent Phase > Draw"
        )


def apply_draw(state: ReignState, req: Decision, a: DrawChoice) -> None:
    push_front(
        state, (Step.DEAL, "military", a.seat, 3 - a.events), (Step.DEAL, "event", a.seat, a.events)
    )


def check_discard(state: ReignState, req: Decision, a: Discard) -> None:
    rule = "Regent Phase > Draw"
    cards = _cards_shape(a.cards, rule)
    need = state.hand_count[a.seat] - HAND_LIMIT
    if len(cards) != need:
        raise IllegalMove(f"discard exactly {need} cards to get down to {HAND_LIMIT}", rule=rule)
    if len(set(cards)) != len(cards):
        raise MalformedAnswer("a card is named twice", rule=rule)
    for c in cards:
        _public_card(state, a.seat, c, rule)


def apply_discard(state: ReignState, req: Decision, a: Discard) -> None:
    _take(state, a.seat, a.cards, len(a.cards))
    state.hidden = state.hidden.difference(a.cards)
    for c in a.cards:
        state.discards[setup.pile_of(state, c)].append(c)
    state.log(E.Discard(a.seat, a.cards))


Check = Callable[[ReignState, Decision, Any], None]
DECISION_RULES: dict[type, tuple[str, Check, Check]] = {
    Bid: (ReignDecisionKind.BID, check_bid, apply_bid),
    Overt: (ReignDecisionKind.OVERT, check_overt, apply_overt),
    Covert: (ReignDecisionKind.COVERT, check_covert, apply_covert),
    KeepSupport: (ReignDecisionKind.KEEP_SUPPORT, check_keep_support, apply_keep_support),
    TieBreak: (ReignDecisionKind.TIE_BREAK, check_tie_break, apply_tie_break),
    OrderEvents: (ReignDecisionKind.ORDER_EVENTS, check_order_events, apply_order_events),
    OrderArmy: (ReignDecisionKind.ORDER_ARMY, check_order_army, apply_order_army),
    CombatTie: (ReignDecisionKind.COMBAT_TIE, check_combat_tie, apply_combat_tie),
    RegentDiscard: (ReignDecisionKind.REGENT_DISCARD, check_regent_discard, apply_regent_discard),
    Spoils: (ReignDecisionKind.SPOILS, check_spoils, apply_spoils),
    DrawChoice: (ReignDecisionKind.DRAW, check_draw, apply_draw),
    Discard: (ReignDecisionKind.DISCARD, check_discard, apply_discard),
}
