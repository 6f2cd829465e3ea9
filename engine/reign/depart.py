"""A seat leaving a game of Reign for good (issue 33): what it becomes.

docs/rules/reign.md ("Departures") gives the reading and the passages it rests on.  In
short: the game goes on while at least two seats play; the seat that left

- sets aside, face down and for good, every card it held hidden -- its hand, the cards
  it placed face down and not yet revealed (a bid, covert backing in any army), the
  spoils it chose to hand over and those handed to it and not yet received;
- gives its support card back to the centre, and the Onyx Crown too if it was Regent
  (the first player passes clockwise to the next seat still playing);
- takes nothing any more: no bid, no backing, no draw, no support card, no legitimacy;
  its revealed bid is discarded and no longer counts; it keeps the points it scored
  (it cannot win: only a Regent wins, and it holds no army);
- is never asked again: whatever it owed is withdrawn, and a choice it made for others
  (a tie, the order of events) falls to the Regent, else the first player, as the rules
  say when there is no Regent.

Leaving while the armies' reveal is under way (``revealing``: the protocol already put every
face-down card of the armies into its pool, mixed beyond recall, docs/protocol.md §11.11),
the covert backing it placed is played: it stays in the reveal and is revealed with the
armies like everyone's, and the reveal is not asked again.

:func:`depart` changes the state; the flow runs on afterwards
(:meth:`~engine.contract.ContractGame.depart`).  Every step is a public rule of the
public state, so every peer reaches the same digest.
"""

from __future__ import annotations

from fairtable.engine.events import Departed
from fairtable.engine.reign import events as E
from fairtable.engine.reign import setup
from fairtable.engine.reign.decisions import (
    BidInfo,
    CombatTieInfo,
    CovertInfo,
    OrderArmyInfo,
    OrderEventsInfo,
    OvertInfo,
    SpoilsInfo,
    TieBreakInfo,
)
from fairtable.engine.reign.labels import ChanceLabel, RevealLabel
from fairtable.engine.reign.state import ReignState, RoundPhase
from fairtable.engine.reign.steps import Step
from fairtable.engine.reign.view import ReignView
from fairtable.engine.requests import Chance, Deal, Decision, Reveal
from fairtable.engine.tasks import Task, push_front

__all__ = ["can_go_on", "depart", "departure_ends"]

_OWN_TURN = frozenset({Step.BID, Step.OVERT, Step.COVERT, Step.DRAW, Step.KEEP_SUPPORT})
"""Tasks that ask one seat (named second) for its own move: dropped for a seat that left."""


def can_go_on(state: ReignState, seat: int) -> bool:
    """Whether the game goes on without ``seat``: at least two seats would still play."""
    return 0 <= seat < state.players and len(state.turn_order()) > 2


def departure_ends(view: ReignView, seat: int) -> bool:
    """Whether the game ends if ``seat`` leaves now, from what every seat sees (the public
    state of ``view``): it goes on only while two more seats would still play, as
    :func:`can_go_on` says of the state."""
    public = view.public
    playing = public["players"] - len(public.get("departed", ()))
    return not (0 <= seat < public["players"] and playing > 2)


def depart(state: ReignState, seat: int, *, revealing: bool = False) -> None:
    """``seat`` (already in ``state.departed``) leaves: see the module docstring."""
    held_army = seat in state.support.values()
    had_bid = seat in state.bid_cards
    was_regent = state.regent == seat
    handles = _set_aside_face_down(state, seat, _played(state) if revealing else frozenset())
    count = state.hand_count[seat] + len(handles) + _withdraw_handovers(state, seat)
    state.hand_count[seat] = 0
    sec = state.secrets.get(seat)
    if sec is not None:
        sec.aside.extend(sec.hand)
        sec.hand = []
    for card in state.bid_cards.pop(seat, []):
        state.discards[setup.pile_of(state, card)].append(card)
    for house in state.support_of(seat):
        state.support[house] = None
        state.log(E.SupportReturned(seat, house))
    if state.regent == seat:
        state.regent = None
    if state.first_player == seat:
        state.first_player = state.turn_order()[0]
    state.backing.pop(seat, None)
    state.tasks = [t for t in state.tasks if not (t[0] in _OWN_TURN and t[1] == seat)]
    state.aside_count[seat] = count
    if handles:
        state.aside_handles[seat] = tuple(sorted(handles))
    state.log(Departed(seat, count))
    _withdraw_pending(state, seat, held_army=held_army, had_bid=had_bid, was_regent=was_regent)


def _played(state: ReignState) -> frozenset[int]:
    """The handles the pending reveal names: under way, they are revealed whoever leaves."""
    req = state.pending[0]
    assert isinstance(req, Reveal)
    return frozenset(h for _group, handles, _mixed in req.groups for h in handles)


def _set_aside_face_down(state: ReignState, seat: int, played: frozenset[int]) -> list[int]:
    """The handles of the cards ``seat`` placed face down and nobody has seen: its bid and
    its covert backing, taken out of play -- but those ``played`` (in a reveal under way)."""
    handles = list(state.bids.pop(seat, []))
    for holder in sorted(state.army_down):
        down = state.army_down[holder]
        handles += [h for h, placer in down if placer == seat and h not in played]
        state.army_down[holder] = [
            [h, placer] for h, placer in down if placer != seat or h in played
        ]
    sec = state.secrets.get(seat)
    if sec is not None:
        sec.aside.extend(sec.facedown.pop(h) for h in handles if h in sec.facedown)
    return handles


def _withdraw_handovers(state: ReignState, seat: int) -> int:
    """Spoils ``seat`` chose to hand over, or was to receive, and not yet handed: set aside
    unseen (a hand-over re-encrypts a card to its recipient, which would open it to a seat).
    The number of cards."""
    count = 0
    kept: list[Task] = []
    for task in state.tasks:
        if task[0] == Step.DEAL and _handover_of(task[1], task[2], seat):
            count += task[3]
        else:
            kept.append(task)
    state.tasks = kept
    req = state.pending[0] if state.pending else None
    if isinstance(req, Deal) and req.giver is not None and seat in (req.giver, req.seat):
        count += req.count
        state.pending = []
    mine = state.secrets.get(seat)
    for giver, sec in sorted(state.secrets.items()):
        moving = [c for to, c in sec.gifts if giver == seat or to == seat]
        sec.gifts = [(to, c) for to, c in sec.gifts if not (giver == seat or to == seat)]
        if mine is not None:
            mine.aside.extend(moving)
    return count


def _handover_of(source: str, recipient: int, seat: int) -> bool:
    return source.startswith("hand:") and seat in (int(source[5:]), recipient)


def _withdraw_pending(
    state: ReignState, seat: int, *, held_army: bool, had_bid: bool, was_regent: bool
) -> None:
    """Withdraw the pending request if it asks or names ``seat``, queueing what asks it
    again without that seat."""
    if not state.pending:
        return
    req = state.pending[0]
    if isinstance(req, Deal):
        if req.seat == seat:
            state.pending = []
        return
    if isinstance(req, Reveal):
        _withdraw_reveal(state, seat, req)
        return
    if isinstance(req, Chance) and req.label == ChanceLabel.FIRST_PLAYER:
        state.pending = []  # drawn again among the seats still playing
        push_front(state, (Step.PICK_FIRST,))
        return
    if not isinstance(req, Decision) or req.simultaneous:
        return  # chance and shuffles ask nobody; a simultaneous decision is the contract's
    match req.info:
        case TieBreakInfo(tied=tied, phase=phase, house=house):
            if req.seat == seat or seat in tied:
                state.pending = []
                if phase is RoundPhase.INFLUENCE:
                    push_front(state, (Step.TIE_HOUSE, house, tied))
                else:
                    push_front(state, (Step.COMBAT_TIE_BREAK, tied))
        case OrderEventsInfo(pass_number=number):
            if req.seat == seat or had_bid:
                state.pending = []
                push_front(state, (Step.SETTLE_BIDS, number))
        case OrderArmyInfo(orders=orders) | CombatTieInfo(orders=orders):
            if req.seat == seat or held_army:
                state.pending = []
                kept = tuple(o for o in orders if o[0] != seat)
                push_front(state, (Step.RESOLVE_COMBAT, kept, ()))
        case _ if req.seat == seat:  # its own move, or a Regent's duty that lapses with the crown
            state.pending = []
        case OvertInfo() | CovertInfo() if held_army:
            state.pending = []  # asked again: its army is no target any more
            push_front(state, (str(req.kind), req.seat))
        case BidInfo(pass_number=number) if was_regent:
            state.pending = []  # asked again: no house is the Regent's any more
            push_front(state, (Step.BID, req.seat, number))
        case SpoilsInfo(must_give=must) if seat in must:
            state.pending = []  # asked again: the seat that left is owed nothing
            push_front(state, (Step.SPOILS,))


def _withdraw_reveal(state: ReignState, seat: int, req: Reveal) -> None:
    """A reveal that would open a card ``seat`` placed face down is asked again without it."""
    aside = set(state.aside_handles.get(seat, ()))
    if not any(aside.intersection(handles) for _, handles, _ in req.groups):
        return
    state.pending = []
    task = state.tasks.pop(0)  # settle_bids or resolve_combat, queued with the reveal
    if req.label == RevealLabel.BIDS:
        push_front(state, (Step.REVEAL_BIDS, task[1]))
    else:
        push_front(state, (Step.COMBAT,))
