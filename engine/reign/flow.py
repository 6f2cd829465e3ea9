"""The order of play: set-up, then rounds of Influence, Plotting, Combat and Regent.

Each task in ``state.tasks`` is a tuple naming a step of the round.  ``advance``
runs tasks until one needs an answer (it sets ``state.pending``) or the game
ends.  The handlers for chance, shuffle, deal and reveal answers live here too;
seat decisions are in :mod:`engine.reign.decide`.
"""

from __future__ import annotations

from collections.abc import Callable

from fairtable.engine.errors import IllegalReveal, MalformedAnswer
from fairtable.engine.events import RoundLimit
from fairtable.engine.reign import combat, reveal, setup
from fairtable.engine.reign import events as E
from fairtable.engine.reign.cards import CardPhase
from fairtable.engine.reign.decisions import (
    BidInfo,
    CovertInfo,
    DiscardInfo,
    DrawInfo,
    KeepSupportInfo,
    OrderEventsInfo,
    OvertInfo,
    RegentDiscardInfo,
    SpoilsInfo,
    TieBreakInfo,
)
from fairtable.engine.reign.labels import RevealLabel
from fairtable.engine.reign.state import HAND_LIMIT, WIN_LEGITIMACY, ReignState, RoundPhase
from fairtable.engine.reign.steps import Step
from fairtable.engine.requests import (
    Decision,
    Reveal,
    RevealAnswer,
)
from fairtable.engine.tasks import Task, push_front, run_tasks


def start(state: ReignState) -> None:
    n = state.players
    state.legitimacy = [0] * n
    state.hand_count = [0] * n
    state.tasks = [(Step.PICK_HOUSES,)]
    advance(state)


def advance(state: ReignState) -> None:
    """Run the game's tasks until it needs an answer or is over."""
    run_tasks(state, HANDLERS)


# -- influence phase -----------------------------------------------------------------------
def _round_start(state: ReignState) -> None:
    state.round += 1
    state.phase = RoundPhase.INFLUENCE
    state.log(E.Round(state.round, state.first_player))
    push_front(state, (Step.BID_PASS, 1))


def _bid_pass(state: ReignState, number: int) -> None:
    seats = state.turn_order()
    if number == 2:
        held = {s for s in state.support.values() if s is not None}
        seats = [s for s in seats if s not in held]
    state.bids, state.bid_cards, state.influence_winner, state.gains = {}, {}, {}, 0
    push_front(state, *[(Step.BID, s, number) for s in seats], (Step.REVEAL_BIDS, number))


def forbidden_houses(state: ReignState, number: int) -> list[str]:
    """Houses a seat may not bid for now (Influence Phase > Regent's Special Rules, and the
    First Round Special Case)."""
    out = set()
    if state.regent is not None:
        out.update(state.support_of(state.regent))
    if number == 2:
        out.update(h for h, s in state.support.items() if s is not None)
    return sorted(out)


def _bid(state: ReignState, seat: int, number: int) -> None:
    if state.hand_count[seat] == 0:
        return
    state.pending = [
        Decision(
            seat,
            BidInfo(
                forbidden=tuple(forbidden_houses(state, number)),
                max_cards=state.hand_count[seat],
                pass_number=number,
            ),
        )
    ]


def _reveal_bids(state: ReignState, number: int) -> None:
    groups = tuple((str(s), tuple(h), False) for s, h in sorted(state.bids.items()) if h)
    if groups:
        state.pending = [Reveal(RevealLabel.BIDS, groups)]
    push_front(state, (Step.SETTLE_BIDS, number))


def check_bid(state: ReignState, seat: int, cards: list[str], number: int) -> None:
    """Influence Phase > Bidding: one house, military cards and influence events only."""
    rule = "Influence Phase > Bidding"
    defs = [state.catalog.defs[c] for c in cards]
    houses = {d.house for d in defs if d.military}
    if len(houses) > 1:
        raise IllegalReveal(f"seat {seat}'s bid mixes houses", rule=rule, seat=seat)
    if any(d.phase is CardPhase.PLOTTING for d in defs):
        raise IllegalReveal(
            f"seat {seat}'s bid holds an event that is not for the influence phase",
            rule="Influence Phase > Event Cards and Special Abilities",
            seat=seat,
        )
    if cards and not houses:
        raise IllegalReveal(
            f"seat {seat}'s bid has no military card to name its house", rule=rule, seat=seat
        )
    if houses and houses.pop() in forbidden_houses(state, number):
        raise IllegalReveal(
            f"seat {seat} bid for a house it may not bid for",
            rule="Influence Phase > Regent's Special Rules",
            seat=seat,
        )


def reveal_public(
    state: ReignState, cards: list[str] | tuple[str, ...], rule: str, owner: int | None = None
) -> None:
    """Cards becoming public must be ones whose whereabouts were hidden -- and not in a hand
    this instance knows, unless it is the hand of ``owner``, who shows them."""
    seen = set()
    for c in cards:
        if not isinstance(c, str) or c not in state.catalog.defs:
            raise MalformedAnswer(f"there is no card {c!r}", rule=rule)
        if c not in state.hidden or c in seen:
            raise IllegalReveal(
                f"{c} is not a hidden card that could be here", rule=rule, seat=owner
            )
        seen.add(c)
    elsewhere = state.held_elsewhere(cards, owner)
    if elsewhere is not None:
        raise IllegalReveal(f"{elsewhere} is in another hand", rule=rule, seat=owner)


def on_reveal(state: ReignState, answer: RevealAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Reveal)
    if answer.label != req.label or not isinstance(answer.cards, tuple):
        raise MalformedAnswer(f"expected the reveal of {req.label}", rule="Combat Phase")
    if len(answer.cards) != len(req.groups) or any(
        not isinstance(entry, tuple) or len(entry) != 2 or not isinstance(entry[0], str)
        for entry in answer.cards
    ):
        raise MalformedAnswer(
            "the reveal answers every group as (group, cards)", rule="Combat Phase"
        )
    revealed: dict[str, list[str]] = {}
    every: list[str] = []
    for (group, handles, mixed), (name, raw) in zip(req.groups, answer.cards, strict=True):
        if name != group or not isinstance(raw, tuple) or len(raw) != len(handles):
            raise MalformedAnswer(f"group {group} must reveal {len(handles)} cards")
        if any(not isinstance(c, str) for c in raw):
            raise MalformedAnswer("card ids are text")
        if mixed and list(raw) != sorted(raw):
            raise MalformedAnswer("a mixed group is revealed in sorted order")
        revealed[group] = list(raw)
        every += raw
    bids = req.label == RevealLabel.BIDS
    rule = "Influence Phase > Bidding" if bids else "Combat Phase > The Reveal"
    for group, ids in revealed.items():
        reveal_public(state, ids, rule, owner=int(group) if bids else None)
    # Each group passed reveal_public: what is left to check of all of them together is
    # that no card shows twice (and, for bids, that none is in its own bidder's hand).
    if len(set(every)) != len(every) or (bids and state.held_elsewhere(every, None) is not None):
        reveal_public(state, every, rule)  # raises the error it always raised
    _check_known_reveal(state, req, revealed)
    if bids:
        number = state.tasks[0][1]
        for group, ids in revealed.items():
            check_bid(state, int(group), ids, number)
    else:
        for group, ids in revealed.items():
            for c in ids:
                d = state.catalog.defs[c]
                if d.influence:
                    raise IllegalReveal(
                        f"the army of seat {group} holds an influence-phase event",
                        rule="Influence Phase > Event Cards and Special Abilities",
                    )
    state.pending = []
    state.hidden = state.hidden.difference(every)
    for sec in state.secrets.values():
        sec.facedown.clear()
    if bids:
        for group, ids in revealed.items():
            state.bid_cards[int(group)] = ids
            state.log(E.BidRevealed(int(group), ids))
        state.bids = {}
    else:
        for group, ids in revealed.items():
            state.armies[int(group)].extend(ids)
            state.log(E.ArmyRevealed(int(group), sorted(ids)))
        state.army_down = {}


def _check_known_reveal(state: ReignState, req: Reveal, revealed: dict[str, list[str]]) -> None:
    """Where this instance knows the face-down cards, the reveal must match them."""
    placed: dict[int, str] = {}  # handle -> card, of every seat this instance knows
    for sec in state.secrets.values():
        if sec.facedown:
            placed.update(sec.facedown)  # a handle names one card: no two seats share it
    if not placed:
        return
    for group, handles, mixed in req.groups:
        ids = revealed[group]
        if mixed:
            remaining = list(ids)
            for c in (placed[h] for h in handles if h in placed):
                if c not in remaining:
                    raise IllegalReveal(
                        f"a card placed face down in {group}'s army is missing",
                        rule="Combat Phase > The Reveal",
                    )
                remaining.remove(c)
        else:
            for h, c in zip(handles, ids, strict=True):
                if placed.get(h, c) != c:
                    raise IllegalReveal(
                        f"seat {group}'s bid is not what was placed",
                        rule="Influence Phase > Bidding",
                        seat=int(group),
                    )


def event_decider(state: ReignState) -> int:
    """Who determines the order of influence events: the Regent, else the first player
    ("the first player or Regent determines the order", Event Cards and Special Abilities)."""
    return state.regent if state.regent is not None else state.first_player


def _settle_bids(state: ReignState, number: int, events: tuple[str, ...] | None = None) -> None:
    order = [s for s in state.turn_order() if s in state.bid_cards]
    bids = [(s, state.bid_cards[s]) for s in order]
    if events is None and combat.event_order_matters(state.catalog, bids):
        state.pending = [
            Decision(
                event_decider(state),
                OrderEventsInfo(
                    events=combat.bid_events(state.catalog, bids),
                    bids=tuple((s, tuple(ids)) for s, ids in bids),
                    pass_number=number,
                ),
            )
        ]
        return
    totals = combat.bid_totals(state.catalog, bids, events)
    ties: list[Task] = []
    for house in state.houses:
        bidders = [(s, f) for s, (h, f) in totals.items() if h == house]
        if not bidders:
            continue
        best = max(f for _, f in bidders)
        top = sorted(s for s, f in bidders if f == best)
        if len(top) == 1:
            state.influence_winner[house] = top[0]
        elif state.regent is not None:
            ties.append((Step.TIE_HOUSE, house, tuple(top)))
        else:
            state.log(E.BidTie(house, top))
    push_front(state, *ties, (Step.TRANSFER_SUPPORT, number))


def _tie_house(state: ReignState, house: str, tied: tuple[int, ...]) -> None:
    tied = tuple(state.living(tied))  # a seat that left takes nothing (docs/rules/reign.md)
    if len(tied) == 1:
        state.influence_winner[house] = tied[0]
        return
    if state.regent is None:  # the Regent left: a tie without a Regent
        state.log(E.BidTie(house, list(tied)))
        return
    state.pending = [
        Decision(
            state.regent, TieBreakInfo(house=house, tied=tuple(tied), phase=RoundPhase.INFLUENCE)
        )
    ]


def _transfer_support(state: ReignState, number: int) -> None:
    gains = 0
    for house, seat in sorted(state.influence_winner.items()):
        if state.support[house] != seat and seat not in state.departed:
            state.support[house] = seat
            gains += 1
            state.log(E.SupportGained(seat, house))
    for _seat, ids in sorted(state.bid_cards.items()):
        for c in ids:
            state.discards[setup.pile_of(state, c)].append(c)
    state.bid_cards = {}
    keeps = [(Step.KEEP_SUPPORT, s) for s in state.turn_order() if len(state.support_of(s)) > 1]
    discards = [(Step.REGENT_DISCARD,)] * gains if state.regent is not None else []
    push_front(state, *keeps, *discards, (Step.AFTER_INFLUENCE, number))


def _keep_support(state: ReignState, seat: int) -> None:
    held = state.support_of(seat)
    if len(held) > 1:
        state.pending = [Decision(seat, KeepSupportInfo(houses=tuple(held)))]


def _regent_discard(state: ReignState) -> None:
    if state.regent is not None and state.hand_count[state.regent] > 0:
        state.pending = [Decision(state.regent, RegentDiscardInfo())]


def _after_influence(state: ReignState, number: int) -> None:
    if state.round == 1 and number == 1 and len(state.holders()) == 1:
        state.log(E.SecondBid())
        push_front(state, (Step.BID_PASS, 2), (Step.AFTER_INFLUENCE, 2))
    else:
        push_front(state, (Step.PLOTTING,))


# -- plotting phase ------------------------------------------------------------------------
def _plotting(state: ReignState) -> None:
    state.phase = RoundPhase.PLOTTING
    holders = state.holders()
    state.armies = {s: [] for s in holders}
    state.army_down = {s: [] for s in holders}
    state.backing = {}
    state.combat_totals = []
    if not holders:
        state.log(E.NoArmies())
        push_front(state, (Step.DRAW_ROUND,))
        return
    order = state.turn_order()
    push_front(
        state, *[(Step.OVERT, s) for s in order], *[(Step.COVERT, s) for s in order], (Step.COMBAT,)
    )


def _overt(state: ReignState, seat: int) -> None:
    if state.hand_count[seat] > 0:
        state.pending = [Decision(seat, OvertInfo(targets=tuple(state.holders())))]


def covert_limit(state: ReignState, seat: int) -> int:
    return 3 if seat == state.regent else 2


def _covert(state: ReignState, seat: int) -> None:
    if state.hand_count[seat] > 0:
        state.pending = [
            Decision(
                seat,
                CovertInfo(targets=tuple(state.holders()), max_cards=covert_limit(state, seat)),
            )
        ]


# -- combat phase --------------------------------------------------------------------------
def _combat(state: ReignState) -> None:
    state.phase = RoundPhase.COMBAT
    groups = tuple(
        (str(s), tuple(h for h, _ in down), True)
        for s, down in sorted(state.army_down.items())
        if down
    )
    if groups:
        state.pending = [Reveal(RevealLabel.ARMIES, groups)]
    push_front(state, (Step.RESOLVE_COMBAT,))


def _resolve_combat(
    state: ReignState,
    orders: tuple[tuple[int, tuple[str, ...]], ...] = (),
    picks: tuple[tuple[str, str], ...] = (),
) -> None:
    if not state.holders():  # every army's holder left the game
        state.log(E.NoArmies())
        _discard_armies(state)
        push_front(state, (Step.DRAW_ROUND,))
        return
    result = reveal.settle(state, orders, picks)
    if result is None:
        return  # a player is asked first
    state.combat_totals = [[s, t] for s, t in result.totals]
    state.log(E.CombatTotals([[s, t] for s, t in result.totals]))
    best = max(t for _, t in result.totals)
    top = sorted(s for s, t in result.totals if t == best)
    state.kingmaker = 0
    state.betrayal_in_regent_army = False
    after: list[Task] = [(Step.LOSE_SUPPORT, tuple(result.lose_support))]
    bonus = dict(result.backer_bonus)
    if len(top) == 1:
        push_front(state, (Step.CROWN, top[0], bonus.get(top[0], 0)), *after)
    else:
        chooser = reveal.tie_chooser(state)
        state.pending = [Decision(chooser, TieBreakInfo(tied=tuple(top), phase=RoundPhase.COMBAT))]
        state.tasks[0:0] = [(Step.CROWN_TIE, tuple(sorted(bonus.items()))), *after]


def crown(state: ReignState, winner: int, bonus: int) -> None:
    state.regent = winner
    state.kingmaker = bonus
    state.betrayal_in_regent_army = any(
        state.catalog.defs[c].betrayal for c in state.armies.get(winner, [])
    )
    state.log(E.Regent(winner))


def _crown(state: ReignState, winner: int, bonus: int) -> None:
    crown(state, winner, bonus)


def _combat_tie_break(state: ReignState, tied: tuple[int, ...]) -> None:
    """A combat tie asked again after a departure: among the tied seats still playing,
    chosen by the Regent, else the first player (the one left is crowned)."""
    tied = tuple(state.living(tied))
    if len(tied) == 1:
        crown(state, tied[0], 0)
        return
    state.pending = [
        Decision(reveal.tie_chooser(state), TieBreakInfo(tied=tied, phase=RoundPhase.COMBAT))
    ]


def _crown_tie(state: ReignState, bonus: tuple[tuple[int, int], ...]) -> None:
    # The tie-break decision already named the Regent; only the bonus remains.
    state.kingmaker = dict(bonus).get(state.regent, 0) if state.regent is not None else 0


def _lose_support(state: ReignState, losers: tuple[int, ...]) -> None:
    for seat in losers:
        for house in state.support_of(seat):
            state.support[house] = None
            state.log(E.SupportLost(seat, house))
    _discard_armies(state)
    push_front(state, (Step.LEGITIMACY,))


def _discard_armies(state: ReignState) -> None:
    """Combat Phase > The Reveal: "All military and event cards used are discarded"."""
    for seat in sorted(state.armies):
        for c in state.armies[seat]:
            state.discards[setup.pile_of(state, c)].append(c)
    state.armies = {}
    state.army_down = {}


# -- regent phase --------------------------------------------------------------------------
def backers(state: ReignState) -> list[int]:
    regent = state.regent
    return sorted(
        s
        for s, t in state.backing.items()
        if t == regent and s != regent and s not in state.departed
    )


def _legitimacy(state: ReignState) -> None:
    state.phase = RoundPhase.REGENT
    regent = state.regent
    assert regent is not None
    state.legitimacy[regent] += 3
    for s in backers(state):
        state.legitimacy[s] += 2 + state.kingmaker
    state.log(E.Legitimacy(state.legitimacy))
    if state.legitimacy[regent] >= WIN_LEGITIMACY:
        state.winner = regent
        state.over = "won"
        state.phase = RoundPhase.OVER
        state.log(E.Winner(regent))
        state.tasks = []
        return
    # "a number of military cards equal to the number of players": those still playing
    spoils = len(state.turn_order())
    push_front(state, (Step.DEAL, "military", regent, spoils), (Step.SPOILS,), (Step.DRAW_ROUND,))


def _spoils(state: ReignState) -> None:
    regent = state.regent
    if regent is None or state.hand_count[regent] == 0:  # None: the Regent left
        return
    must = () if state.betrayal_in_regent_army else tuple(backers(state))
    state.pending = [Decision(regent, SpoilsInfo(must_give=must))]


def _draw_round(state: ReignState) -> None:
    start_seat = state.regent if state.regent is not None else state.first_player
    state.phase = RoundPhase.REGENT if state.regent is not None else state.phase
    push_front(
        state,
        *[(Step.DRAW, s) for s in state.turn_order(start_seat)],
        (Step.DISCARD_DOWN,),
        (Step.ROUND_END,),
    )


def _draw(state: ReignState, seat: int) -> None:
    state.pending = [Decision(seat, DrawInfo())]


def _discard_down(state: ReignState) -> None:
    over = [s for s in range(state.players) if state.hand_count[s] > HAND_LIMIT]
    state.pending = [
        Decision(s, DiscardInfo(count=state.hand_count[s] - HAND_LIMIT), simultaneous=True)
        for s in over
    ]
    state.buffered = {}


def _round_end(state: ReignState) -> None:
    if state.regent is not None:
        state.first_player = state.regent
    limit = state.config.round_limit
    if limit and state.round >= limit:
        state.over = "round_limit"
        state.phase = RoundPhase.OVER
        state.log(RoundLimit(state.round))
        state.tasks = []
        return
    push_front(state, (Step.ROUND_START,))


HANDLERS: dict[str, Callable[..., None]] = {
    Step.PICK_HOUSES: setup.pick_houses,
    Step.PICK_FIRST: setup.pick_first,
    Step.SHUFFLE: setup.shuffle,
    Step.DEAL: setup.deal,
    Step.ROUND_START: _round_start,
    Step.BID_PASS: _bid_pass,
    Step.BID: _bid,
    Step.REVEAL_BIDS: _reveal_bids,
    Step.SETTLE_BIDS: _settle_bids,
    Step.TIE_HOUSE: _tie_house,
    Step.TRANSFER_SUPPORT: _transfer_support,
    Step.KEEP_SUPPORT: _keep_support,
    Step.REGENT_DISCARD: _regent_discard,
    Step.AFTER_INFLUENCE: _after_influence,
    Step.PLOTTING: _plotting,
    Step.OVERT: _overt,
    Step.COVERT: _covert,
    Step.COMBAT: _combat,
    Step.RESOLVE_COMBAT: _resolve_combat,
    Step.CROWN: _crown,
    Step.CROWN_TIE: _crown_tie,
    Step.COMBAT_TIE_BREAK: _combat_tie_break,
    Step.LOSE_SUPPORT: _lose_support,
    Step.LEGITIMACY: _legitimacy,
    Step.SPOILS: _spoils,
    Step.DRAW_ROUND: _draw_round,
    Step.DRAW: _draw,
    Step.DISCARD_DOWN: _discard_down,
    Step.ROUND_END: _round_end,
}
