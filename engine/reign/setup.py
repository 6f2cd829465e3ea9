"""Reign's set-up: the houses in play, the first player, the shuffles and the deals.

The tasks ``pick_houses``, ``pick_first``, ``shuffle`` and ``deal`` of :mod:`engine.reign.flow`
run here, with the handlers of the chance, shuffle and deal answers they ask for; ``pile_of``
tells which pile (military or events) a card goes back to.
"""

from __future__ import annotations

from fairtable.engine.errors import IllegalReveal, MalformedAnswer, UnknownSecret
from fairtable.engine.events import FirstPlayer
from fairtable.engine.reign import events as E
from fairtable.engine.reign.cards import CardKind
from fairtable.engine.reign.labels import ChanceLabel
from fairtable.engine.reign.state import ReignState
from fairtable.engine.reign.steps import Step
from fairtable.engine.requests import Chance, ChanceAnswer, Deal, DealAnswer, Shuffle, ShuffleAnswer
from fairtable.engine.tasks import Task, push_front
from fairtable.engine.words import word_of


def pick_houses(state: ReignState) -> None:
    houses = len(state.catalog.houses)
    state.pending = [Chance(ChanceLabel.SUPPORT_HOUSES, houses, state.config.support_count)]


def on_chance(state: ReignState, answer: ChanceAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Chance)
    values = answer.values
    if (
        not isinstance(values, tuple)
        or len(values) != req.k
        or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < req.n for v in values)
        or len(set(values)) != req.k
    ):
        raise MalformedAnswer(f"expected {req.k} distinct numbers below {req.n}", rule="Set Up")
    state.pending = []
    if req.label == ChanceLabel.SUPPORT_HOUSES:
        ids = state.catalog.house_ids
        state.houses = tuple(sorted(ids[v] for v in values))
        state.support = {h: None for h in state.houses}
        for h in state.houses:
            state.hidden = state.hidden.union(state.catalog.military[h])
        state.hidden = state.hidden.union(state.catalog.events)
        state.log(E.Houses(state.houses))
        deals: list[Task] = []
        for seat in range(state.players):
            deals += [(Step.DEAL, "military", seat, 4), (Step.DEAL, "event", seat, 1)]
        military = [c for h in state.houses for c in state.catalog.military[h]]
        push_front(
            state,
            (Step.SHUFFLE, "military", tuple(military)),
            (Step.SHUFFLE, "event", state.catalog.events),
            *deals,
            (Step.PICK_FIRST,),
        )
    else:
        state.first_player = state.living(range(state.players))[values[0]]
        state.log(FirstPlayer(state.first_player))
        push_front(state, (Step.ROUND_START,))


def pick_first(state: ReignState) -> None:
    # among the seats still playing (all of them, unless one left during the set-up)
    state.pending = [Chance(ChanceLabel.FIRST_PLAYER, len(state.living(range(state.players))), 1)]


def shuffle(state: ReignState, pile: str, cards: tuple[str, ...] | None = None) -> None:
    if cards is None:  # reshuffle the discard pile into a new pile
        cards = tuple(state.discards[pile])
        state.discards[pile] = []
        state.hidden = state.hidden.union(cards)
        state.log(E.Reshuffle(pile, len(cards)))
    state.piles[pile] = len(cards)
    state.pending = [Shuffle(pile, tuple(cards))]


def on_shuffle(state: ReignState, answer: ShuffleAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Shuffle)
    if answer.pile != req.pile:
        raise MalformedAnswer(f"expected the shuffle of the {req.pile} pile", rule="Set Up")
    state.pending = []


def deal(state: ReignState, source: str, seat: int, count: int) -> None:
    if count <= 0 or seat in state.departed:  # a seat that left draws nothing
        return
    if source.startswith("hand:"):
        state.pending = [Deal(source, seat, count)]
        return
    available = state.piles[source]
    if available == 0:
        if state.discards[source]:
            push_front(state, (Step.SHUFFLE, source), (Step.DEAL, source, seat, count))
        else:
            state.log(E.PileEmpty(source, seat, count))
        return
    if available < count:
        push_front(
            state,
            (Step.DEAL, source, seat, available),
            (Step.DEAL, source, seat, count - available),
        )
        return
    state.pending = [Deal(source, seat, count)]


def pile_of(state: ReignState, card: str) -> str:
    return state.catalog.defs[card].kind.value  # a pile is named after its cards' kind


def on_deal(state: ReignState, answer: DealAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Deal)
    if type(answer.seat) is not int or answer.seat != req.seat:
        raise MalformedAnswer(f"this deal is for seat {req.seat}", rule="Draw")
    cards = answer.cards
    giver = int(req.source[5:]) if req.source.startswith("hand:") else None
    if state.knows(req.seat):
        if cards is None:
            raise UnknownSecret("the dealt cards must be told to the seat receiving them")
        defs = state.catalog.defs
        if (
            not isinstance(cards, tuple)
            or len(cards) != req.count
            or not all(isinstance(c, str) and c in defs for c in cards)
            or len(dealt := frozenset(cards)) != len(cards)
        ):
            raise MalformedAnswer(f"expected {req.count} distinct card ids", rule="Draw")
        if not dealt.isdisjoint(state.secrets[req.seat].hand):
            raise IllegalReveal("a card cannot be dealt twice to one hand", rule="Draw")
        if giver is not None:
            if state.knows(giver):
                promised = sorted(c for s, c in state.secrets[giver].gifts if s == req.seat)
                if sorted(cards) != promised:
                    raise IllegalReveal(
                        "the handed-over cards are not the spoils chosen",
                        rule="Regent Phase > Spoils",
                    )
            elif any(c not in state.hidden for c in cards):
                raise IllegalReveal(
                    "a handed-over card must be one whose place is hidden",
                    rule="Regent Phase > Spoils",
                )
        else:
            hidden, military = state.hidden, word_of(CardKind, req.source) is CardKind.MILITARY
            for c in cards:
                if c not in hidden or defs[c].military != military:
                    raise IllegalReveal(f"{c} cannot be in the {req.source} pile", rule="Draw")
            if state.held_elsewhere(cards, req.seat) is not None:
                raise IllegalReveal("a dealt card is in another hand", rule="Draw")
    elif cards is not None:
        raise UnknownSecret(f"this engine may not learn the cards dealt to seat {req.seat}")
    state.pending = []
    if giver is not None:
        if state.knows(giver):
            state.secrets[giver].gifts = [g for g in state.secrets[giver].gifts if g[0] != req.seat]
        state.log(E.Handover(giver, req.seat, req.count))
    else:
        state.piles[req.source] -= req.count
        state.log(E.Draw(req.seat, req.source, req.count))
    state.hand_count[req.seat] += req.count
    if cards is not None:
        state.secrets[req.seat].hand.extend(cards)
        state.secrets[req.seat].hand.sort()
