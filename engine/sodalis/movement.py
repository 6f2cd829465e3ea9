"""Moving on the arena: steps, carrying the Artifact, forced movement, placement, respawn.

"Champions may not move onto occupied or impassable spaces. Champions may move onto their
Artifact, but not the opposing team's." (l. 186).  A champion standing on its own Artifact
may carry it along (l. 224); an Artifact entering the arena's centre is discarded and its
team earns Speed.  Forced movement (push, pull) goes one space at a time: each step goes to
a passable neighbour one walking step farther from (push) or nearer to (pull) the caster's
space, the straightest such neighbour (farthest or nearest in a straight line); the caster
picks among exact ties.  A step onto a closed space does not happen and ends the movement.
"""

from __future__ import annotations

from collections.abc import Callable

from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.arena import Space, euclid2
from fairtable.engine.sodalis.cards import Action, ExtraKind
from fairtable.engine.sodalis.decisions import CarryInfo, ForcedStepInfo, RespawnInfo
from fairtable.engine.sodalis.state import SodalisState
from fairtable.engine.sodalis.steps import Step
from fairtable.engine.sodalis.team import Tribute

PAYMENTS = (Action.MOVE, Action.MINOR, Action.MAJOR, Tribute.SPEED)  # what a step may exhaust


# -- options ----------------------------------------------------------------------------------
def open_steps(state: SodalisState, seat: int) -> tuple[Space, ...]:
    at = state.seats[seat].at
    if at is None:
        return ()
    occupied = state.unit_spaces()
    return tuple(
        sorted(n for n in state.arena.neighbours(at) if not state.closed_for(seat, n, occupied))
    )


def payments(state: SodalisState, seat: int) -> tuple[str, ...]:
    s = state.seats[seat]
    out: list[str] = [a for a in (Action.MOVE, Action.MINOR, Action.MAJOR) if s.up[a]]
    if s.tributes.get(Tribute.SPEED, False):
        out.append(Tribute.SPEED)
    return tuple(out)


def on_own_artifact(state: SodalisState, seat: int) -> bool:
    at = state.seats[seat].at
    return at is not None and state.artifacts.get(state.team_of(seat)) == at


def base_spaces(state: SodalisState, seat: int) -> tuple[Space, ...]:
    """Where a champion may be placed or respawn: its team's base, open to it (its own space
    counts as open)."""
    occupied = state.unit_spaces()
    base = state.arena.base_of(state.team_of(seat))
    return tuple(sorted(s for s in base if not state.closed_for(seat, s, occupied)))


# -- moving -----------------------------------------------------------------------------------
def move(state: SodalisState, seat: int, to: Space, carry: bool, why: str) -> None:
    """Move a champion one space (already checked open), the Artifact along if carried."""
    s = state.seats[seat]
    frm = s.at
    assert frm is not None
    s.at = to
    state.log(E.Moved(seat, frm, to, why))
    if carry:
        team = state.team_of(seat)
        state.artifacts[team] = to
        state.log(E.Artifact(team, to))
        if to == state.arena.centre:
            state.artifacts[team] = None
            state.log(E.ArtifactDelivered(team))
            state.push((Step.EARN, team, Tribute.SPEED))


def exhaust_payment(state: SodalisState, seat: int, pay: str) -> None:
    s = state.seats[seat]
    if pay == Tribute.SPEED:
        s.tributes[Tribute.SPEED] = False
    else:
        s.up[Action(pay)] = False


def place(state: SodalisState, seat: int, space: Space) -> None:
    state.seats[seat].at = space
    state.log(E.Placed(seat, space))


def respawn(state: SodalisState, seat: int) -> None:
    """Task: a fallen champion is placed anywhere in its base at maximum life (l. 118)."""
    options = base_spaces(state, seat)
    if len(options) == 1:
        do_respawn(state, seat, options[0])
    elif not options:  # cannot happen on a valid arena (six free base spaces, five others)
        do_respawn(state, seat, state.seats[seat].at)  # type: ignore[arg-type]
    else:
        state.ask(Decision(seat, RespawnInfo(spaces=options)))


def do_respawn(state: SodalisState, seat: int, space: Space) -> None:
    s = state.seats[seat]
    s.at = space
    s.life = state.max_life(seat)
    state.log(E.Respawn(seat, space))


# -- forced movement --------------------------------------------------------------------------
def forced_candidates(
    state: SodalisState, origin: Space, here: Space, kind: ExtraKind
) -> tuple[Space, ...]:
    """The spaces a push (away from ``origin``) or pull (toward it) may step to next."""
    dist = state.arena.dist[origin]
    d = dist.get(here)
    if d is None:
        return ()
    want = d + 1 if kind == ExtraKind.PUSH else d - 1
    if want <= 0:
        return ()
    near = [n for n in state.arena.neighbours(here) if dist.get(n) == want]
    if not near:
        return ()
    scores = {n: euclid2(origin, n) for n in near}
    best = max(scores.values()) if kind == ExtraKind.PUSH else min(scores.values())
    return tuple(sorted(n for n in near if scores[n] == best))


def forced(
    state: SodalisState,
    unit: int,
    kind: ExtraKind,
    steps: int,
    carry: int,
    origin: Space,
    caster: int,
) -> None:
    """Task: the next step of a push or pull (``carry``: -1 not asked yet, 0 leave, 1 carry)."""
    here = state.seats[unit].at
    if steps <= 0 or here is None:
        return
    options = forced_candidates(state, tuple(origin), here, kind)  # type: ignore[arg-type]
    if not options:
        state.log(E.ForcedStopped(unit))
        return
    if len(options) == 1:
        state.push((Step.FORCED_TO, unit, kind, steps, carry, origin, caster, options[0]))
        return
    state.ask(
        Decision(
            caster,
            ForcedStepInfo(
                unit=unit,
                options=options,
                movement=kind,
                steps=steps,
                carry=carry,
                origin=(origin[0], origin[1]),
            ),
        )
    )


def forced_to(
    state: SodalisState,
    unit: int,
    kind: ExtraKind,
    steps: int,
    carry: int,
    origin: Space,
    caster: int,
    to: Space,
) -> None:
    """Task: a forced step to ``to``, unless closed; asks about carrying first."""
    to = tuple(to)  # type: ignore[assignment]
    if state.closed_for(unit, to):
        state.log(E.ForcedStopped(unit))
        return
    on_art = on_own_artifact(state, unit)
    if on_art and carry < 0:
        state.ask(
            Decision(
                unit,
                CarryInfo(
                    unit=unit,
                    to=to,
                    movement=kind,
                    steps=steps,
                    origin=(origin[0], origin[1]),
                    caster=caster,
                ),
            )
        )
        return
    state.push((Step.FORCED, unit, kind, steps - 1, carry, origin, caster))
    move(state, unit, to, on_art and carry == 1, kind)


HANDLERS: dict[str, Callable[..., None]] = {
    Step.RESPAWN: respawn,
    Step.FORCED: forced,
    Step.FORCED_TO: forced_to,
}
