"""Answers to the contract's requests: chance, shuffle, deal, peek and reveal.

Every handler checks the answer completely before changing anything.  Identities are
checked against what the public knows (a card must be one of the holder's cards whose
place is hidden) and against what this instance knows (its own hand and forge, what it
saw in a breach); a contradiction is an :class:`IllegalReveal` naming the holder.
"""

from __future__ import annotations

from typing import Any

from fairtable.engine.errors import IllegalReveal, MalformedAnswer, UnknownSecret
from fairtable.engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Reveal,
    RevealAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.sovereign import battle, flow, legal
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.kinds import CardType, ChanceLabel, RevealLabel, Step
from fairtable.engine.sovereign.scoring import forget
from fairtable.engine.sovereign.state import SETUP_RULE, SovereignState
from fairtable.engine.words import word_of

BREACH_RULE = "Breaching"


def _ints(values: Any, n: int, k: int) -> bool:
    return (
        isinstance(values, tuple)
        and len(values) == k
        and all(type(v) is int and 0 <= v < n for v in values)
        and len(set(values)) == k
    )


def on_chance(state: SovereignState, answer: ChanceAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Chance)
    if not _ints(answer.values, req.n, req.k):
        raise MalformedAnswer(f"expected {req.k} distinct numbers below {req.n}", rule=SETUP_RULE)
    state.pending = []
    if req.label == ChanceLabel.FIRST_PLAYER:
        flow.first_player(state, answer.values[0])
    else:
        battle.chance_picked(state, tuple(sorted(answer.values)))


def on_shuffle(state: SovereignState, answer: ShuffleAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Shuffle)
    if answer.pile != req.pile:
        raise MalformedAnswer(f"expected the shuffle of {req.pile}", rule=SETUP_RULE)
    state.pending = []


def _card_list(cards: Any, count: int, rule: str) -> tuple[str, ...]:
    if (
        not isinstance(cards, tuple)
        or len(cards) != count
        or any(not isinstance(c, str) for c in cards)
        or len(set(cards)) != count
    ):
        raise MalformedAnswer(f"expected {count} distinct card ids", rule=rule)
    return cards


def on_deal(state: SovereignState, answer: DealAnswer | RehandleAnswer) -> None:
    """A private draw (``Deal``) or the defender's re-handle after a breach (``Rehandle``:
    the same cards under fresh handles, in an order only the holder knows)."""
    req = state.pending[0]
    assert isinstance(req, Deal | Rehandle)
    rule = "Draw Phase" if isinstance(req, Deal) else BREACH_RULE
    if type(answer.seat) is not int or answer.seat != req.seat:
        raise MalformedAnswer(f"this deal is for seat {req.seat}", rule=rule)
    seat = req.seat
    b = state.boards[seat]
    rehandle = isinstance(req, Rehandle)
    count = len(req.handles) if isinstance(req, Rehandle) else req.count
    if isinstance(req, Rehandle) and tuple(b.hand) != req.handles:
        raise MalformedAnswer("the re-handle is for the whole hand", rule=rule)
    cards = answer.cards
    if state.knows(seat):
        if cards is None:
            raise UnknownSecret("the dealt cards must be told to the seat receiving them")
        cards = _card_list(cards, count, rule)
        mine = state.secrets[seat].cards
        if rehandle:
            if sorted(cards) != sorted(mine[h] for h in b.hand):
                raise IllegalReveal(
                    "a re-handled hand must be the same cards", rule=rule, seat=seat
                )
        else:
            held = set(mine.values())
            for c in cards:
                if c not in state.hidden[seat] or c in held:
                    raise IllegalReveal(
                        f"{c} cannot be in seat {seat}'s deck", rule=rule, seat=seat
                    )
    elif cards is not None:
        raise UnknownSecret(f"this engine may not learn the cards dealt to seat {seat}")
    state.pending = []
    if rehandle:
        for h in b.hand:
            forget(state, h)
        b.hand = []
        state.log(E.Rehandle(seat, count))
    else:
        b.deck -= count
        state.log(E.Draw(seat, count))
    for i in range(count):
        h = state.new_handle()
        b.hand.append(h)
        if cards is not None:
            state.secrets[seat].cards[h] = cards[i]


def on_peek(state: SovereignState, answer: PeekAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Peek)
    if answer.label != req.label or answer.seat != req.seat:
        raise MalformedAnswer("expected the answer to the pending peek", rule=BREACH_RULE)
    victim = state.battle["defender"]
    cards = answer.cards
    if state.knows(req.seat):
        if cards is None:
            raise UnknownSecret("the peeking seat must be told the cards")
        cards = _card_list(cards, len(req.handles), BREACH_RULE)
        for h, c in zip(req.handles, cards, strict=True):
            known = state.secret(h)
            if c not in state.hidden[victim] or (known is not None and known != c):
                raise IllegalReveal(
                    "a peeked card is not the card held there", rule=BREACH_RULE, seat=victim
                )
    elif cards is not None:
        raise UnknownSecret(f"this engine may not learn what seat {req.seat} peeks at")
    state.pending = []
    state.log(E.Peek(req.seat, victim, req.handles))
    if cards is not None:
        for h, c in zip(req.handles, cards, strict=True):
            state.secrets[req.seat].seen[h] = c


def on_reveal(state: SovereignState, answer: RevealAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Reveal)
    ((group, handles, _),) = req.groups
    seat = int(group)
    if answer.label != req.label or not isinstance(answer.cards, tuple) or len(answer.cards) != 1:
        raise MalformedAnswer(f"expected the reveal of {req.label}")
    entry = answer.cards[0]
    name, ids = entry if isinstance(entry, tuple) and len(entry) == 2 else (None, None)
    if name != group:
        raise MalformedAnswer(f"expected group {group}")
    ids = _card_list(ids, len(handles), "Reveal")
    label = word_of(RevealLabel, req.label)
    assert label is not None, "the rules ask reveals for their own purposes only"
    rule = _RULES[label]
    for h, c in zip(handles, ids, strict=True):
        if c not in state.catalog.defs or c not in state.hidden[seat]:
            raise IllegalReveal(f"{c!r} is not a hidden card of seat {seat}", rule=rule, seat=seat)
        known = state.secret(h)
        seen = [sec.seen[h] for sec in state.secrets.values() if h in sec.seen]
        if (known is not None and known != c) or any(x != c for x in seen):
            raise IllegalReveal("the revealed card is not the one held there", rule=rule, seat=seat)
    problem, culprit = _purpose_problem(state, label, seat, handles, ids)
    if problem:
        raise IllegalReveal(problem, rule=rule, seat=culprit)
    state.pending = []
    state.revealed = [[h, c] for h, c in zip(handles, ids, strict=True)]
    state.log(E.Revealed(req.label, seat, ids))


_RULES = {
    RevealLabel.MULLIGAN: SETUP_RULE,
    RevealLabel.FORGE: legal.FORGE_RULE,
    RevealLabel.REFLEX: legal.REFLEX_RULE,
    RevealLabel.QUICK_FORGE: "FAQ: Salamander Armor",
    RevealLabel.FINDINGS: BREACH_RULE,
}


def _purpose_problem(
    state: SovereignState,
    label: RevealLabel,
    seat: int,
    handles: tuple[int, ...],
    ids: tuple[str, ...],
) -> tuple[str, int]:
    nxt = state.tasks[0] if state.tasks else ("",)
    if label is RevealLabel.MULLIGAN:
        if legal.unit_count(state, list(ids)):
            return "a shown mulligan needs a hand with no units", seat
    elif label is RevealLabel.FORGE:
        slot = state.slot(seat, handles[0])
        assert slot is not None and nxt[0] == Step.FORGED
        return legal.forge_problem(state, seat, slot, ids[0], nxt[3]), seat
    elif label is RevealLabel.QUICK_FORGE:
        assert nxt[0] == Step.QUICK_FORGED
        return legal.quick_forge_problem(state, seat, handles[0], ids[0], nxt[3], nxt[4]), seat
    elif label is RevealLabel.REFLEX:
        assert nxt[0] == Step.REFLEX
        return legal.reflex_problem(state, seat, ids[0], nxt[3], nxt[4], nxt[5]), seat
    elif label is RevealLabel.FINDINGS:
        assert nxt[0] == Step.FOUND
        attacker = state.battle["attacker"]
        echoes, discard = nxt[1], nxt[2]
        for h, c in zip(handles, ids, strict=True):
            is_echo = state.catalog.defs[c].type is CardType.ECHO
            if h in echoes and not is_echo:
                return "a card claimed as an Echo is not one", attacker
            if h == discard and is_echo:
                return "an Echo was seen but not scored", attacker
    return "", seat
