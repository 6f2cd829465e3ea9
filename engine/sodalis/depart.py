"""A seat leaving a game of Sodalis for good (issue 33): a teammate takes its champion over.

docs/rules/sodalis.md ("Departures") gives the reading and the passages it rests on. In
short: the game goes on while the leaving seat's team keeps a player (so never in a one-
against-one game). The champion stays in the Arena, keeps its life, its tributes and its
turn token, and goes on taking its turns; every decision about it is asked of its *keeper*,
the first teammate still playing in seat order, as a decision taken on its behalf
(:attr:`~engine.requests.Decision.behalf`; ``SodalisState.on_behalf``); team decisions go to
the first member still playing. Sodalis has no hidden cards (a spread is face up for
everyone, the deck's order hidden from everyone), so nothing is set aside and the keeper
sees what it needs as everyone does. A decision every seat takes at once (reversals before
the game) is not taken over: the champion keeps its arcana front up. The team, not the seat,
wins; the seat that left is no longer among the winning seats.
"""

from __future__ import annotations

from fairtable.engine.events import Departed
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis.answers import Reversals
from fairtable.engine.sodalis.decisions import SodalisDecisionKind as K
from fairtable.engine.sodalis.state import SodalisState
from fairtable.engine.sodalis.view import SodalisView

__all__ = ["can_go_on", "depart", "departure_ends", "stand_in"]


def can_go_on(state: SodalisState, seat: int) -> bool:
    """Whether the game goes on without ``seat``: its team keeps a player."""
    if not 0 <= seat < state.players:
        return False
    team = state.members(state.team_of(seat))
    return any(s != seat and s not in state.departed for s in team)


def departure_ends(view: SodalisView, seat: int) -> bool:
    """Whether the game ends if ``seat`` leaves now, from what every seat sees (the teams
    and the departed seats of ``view``'s public state): it goes on only while the seat's
    team keeps another player, as :func:`can_go_on` says of the state."""
    public = view.public
    seats, gone = public["seats"], public.get("departed", ())
    if not 0 <= seat < len(seats):
        return True
    team = seats[seat]["team"]
    return not any(
        s != seat and s not in gone and seats[s]["team"] == team for s in range(len(seats))
    )


def depart(state: SodalisState, seat: int) -> None:
    """``seat`` (already in ``state.departed``) leaves: its pending decisions, and those it
    was taking for a seat that left before it, go to their keepers."""
    state.log(Departed(seat, 0))
    state.pending = state.on_behalf(
        (
            Decision(r.acts_for, r.info, r.simultaneous)
            if isinstance(r, Decision) and r.seat == seat and not r.simultaneous
            else r
            for r in state.pending
        ),
    )


def stand_in(state: SodalisState, decision: Decision) -> Reversals:
    """A seat that left turns no arcana to its reversal (the only decision it is still
    asked: one every seat takes at once, before the game)."""
    assert decision.kind == K.REVERSALS, decision
    return Reversals(decision.seat, ())
