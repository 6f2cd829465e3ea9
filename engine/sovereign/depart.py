"""A seat leaving a game of Sovereign for good (issue 33): what it becomes.

docs/rules/sovereign.md ("Departures") gives the reading and the passages it rests on.  In
short: a game of three or more goes on while at least two seats play; the seat that left

- sets aside, face down and for good, its hand and its forge (their handles are
  :func:`set_aside`); its deck is never drawn from again;
- takes no more turns (its turn is skipped; its round still counts when it was first
  player) and never acts in a priority window;
- is no longer a neighbour: the seats on either side of it attack each other;
- leaves its lanes, facilities and Citadel on the table (its units still defend, and may
  be attacked); the few choices its cards still need -- the order of its triggers, which
  health its units lose, a "may" effect -- are taken by a public rule (:func:`stand_in`);
- keeps the Echoes it scored, but cannot win: it scores no more.

:func:`depart` changes the state; the contract runs the flow on afterwards.
"""

from __future__ import annotations

from typing import Any

from fairtable.engine.events import Departed
from fairtable.engine.requests import Chance, Deal, Decision, Peek, Rehandle, Reveal, Shuffle
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import choices
from fairtable.engine.sovereign.decisions import OrderTriggersInfo
from fairtable.engine.sovereign.decisions import SovereignDecisionKind as K
from fairtable.engine.sovereign.kinds import ChanceLabel, Step, Window
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.sovereign.view import SovereignView

__all__ = ["can_go_on", "depart", "departure_ends", "stand_in"]

_OWN_TASKS = frozenset({Step.DEAL, Step.REDEAL, Step.SHUFFLE, Step.REHANDLE, Step.REVEAL})
"""Tasks that deal to, reshuffle, re-handle or reveal one seat's cards (the seat named
second, except ``reveal``: third): dropped for a seat that left."""

_AFTER_REVEAL = frozenset({Step.FORGED, Step.REFLEX, Step.QUICK_FORGED, Step.FOUND})
"""Tasks queued right after a reveal that use the revealed card."""


def can_go_on(state: SovereignState, seat: int) -> bool:
    """Whether the game goes on without ``seat``: at least two seats would still play."""
    living = [s for s in range(state.players) if s not in state.departed]
    return 0 <= seat < state.players and len(living) > 2


def departure_ends(view: SovereignView, seat: int) -> bool:
    """Whether the game ends if ``seat`` leaves now, from what every seat sees (the public
    state of ``view``): it goes on only while two more seats would still play, as
    :func:`can_go_on` says of the state."""
    public = view.public
    playing = public["players"] - len(public.get("departed", ()))
    return not (0 <= seat < public["players"] and playing > 2)


def depart(state: SovereignState, seat: int) -> None:
    """``seat`` (already in ``state.departed``) leaves: see the module docstring."""
    b = state.boards[seat]
    handles = [*b.hand, *(slot.handle for slot in b.forge)]
    b.hand, b.forge = [], []
    sec = state.secrets.get(seat)
    if sec is not None:
        sec.aside.extend(sec.cards.pop(h) for h in handles if h in sec.cards)
    state.aside_count[seat] = len(handles)
    if handles:
        state.aside_handles[seat] = tuple(sorted(handles))
    state.tasks = [t for t in state.tasks if not _owns(t, seat)]
    if state.window_name() is Window.MULLIGAN:
        state.window["seats"] = [s for s in state.window["seats"] if s != seat]
        state.window.get("choices", {}).pop(str(seat), None)
    state.log(Departed(seat, len(handles)))
    _withdraw_pending(state, seat, frozenset(handles))


def _owns(task: tuple[Any, ...], seat: int) -> bool:
    if task[0] == Step.REVEAL:
        return bool(task[2] == seat)
    return task[0] in _OWN_TASKS and task[1] == seat


def _withdraw_pending(state: SovereignState, seat: int, aside: frozenset[int]) -> None:
    """Withdraw a pending request that deals to the seat, opens its cards or lets it look
    at another seat's, and what was queued to follow it."""
    if not state.pending:
        return
    req = state.pending[0]
    bt = state.battle
    in_breach = bool(bt) and seat in (bt.get("attacker"), bt.get("defender"))
    withdraw = False
    if isinstance(req, Deal | Rehandle | Shuffle):
        withdraw = (
            req.seat == seat if isinstance(req, Deal | Rehandle) else req.pile == f"deck:{seat}"
        )
    elif isinstance(req, Reveal):
        withdraw = any(g == str(seat) or aside.intersection(h) for g, h, _ in req.groups)
        if withdraw and state.tasks and state.tasks[0][0] in _AFTER_REVEAL:
            state.tasks.pop(0)
    elif isinstance(req, Peek):
        withdraw = req.seat == seat or bool(aside.intersection(req.handles))
        if withdraw and state.tasks and state.tasks[0][0] == Step.FINDINGS:
            state.tasks.pop(0)
    elif isinstance(req, Chance):
        withdraw = req.label == ChanceLabel.BREACH_HAND and in_breach
    elif isinstance(req, Decision) and req.kind in (K.BREACH_PICK, K.FINDINGS):
        withdraw = in_breach  # the attacker left, or the cards it saw are set aside
    if withdraw:
        state.pending = []


def stand_in(state: SovereignState, decision: Decision) -> Any:
    """What a seat that left answers, from the public state only: it passes, does not
    attack, declines a "may", orders its triggers as listed, and otherwise gives the first
    legal answer in the canonical order of :mod:`.choices` (which health its units lose,
    which citizens come back)."""
    seat, kind = decision.seat, decision.kind
    if kind in (K.FORGE, K.WINDOW, K.MOVE):
        return A.Pass(seat)
    if kind == K.ATTACK:
        return A.Attack(seat, None)
    if kind == K.OPTIONAL_EFFECT:
        return A.OptionalEffect(seat, False)
    if kind == K.ORDER_TRIGGERS:
        return A.OrderTriggers(seat, tuple(OrderTriggersInfo.of(decision).sources))
    if kind == K.MULLIGAN:
        return A.Mulligan(seat, "keep")
    return choices.first_legal(state, decision)
