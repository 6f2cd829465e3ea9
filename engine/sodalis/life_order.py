"""Who orders one cast's life changes, and when that order is asked.

The rulebook gives no order for the life changes of one cast that affects several units
("You may affect any unit within this range", l. 138; the caster "chooses" and "rolls",
l. 154-156).  The caster performs the cast, so the caster orders its life changes -- asked
(``order_life``) only when the order can change a result: when two or more champions would
fall (each fall earns a tribute, and the first may end the game, l. 216, 234; each fallen
champion then picks its base space before the next), or when one champion's fall (leaving
its space to respawn) would make another affected champion fall that otherwise would not
(a passive or aura reading positions, as the Empress's Royal Guard does), or when the cast
pushes or pulls two or more champions whose ways could cross (one moved first may block or
free another's way).  The caster's order then also orders each additional effect over the
champions.  Otherwise the units change life, and are moved, in turn order
(docs/rules/sodalis.md, "Resolving one cast").
"""

from __future__ import annotations

from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis import movement, passives
from fairtable.engine.sodalis.arena import Space
from fairtable.engine.sodalis.cards import AuraStat, ExtraKind, FaceEffect
from fairtable.engine.sodalis.decisions import OrderLifeInfo
from fairtable.engine.sodalis.state import PARAGON, SodalisState
from fairtable.engine.sodalis.steps import Step

CHECKED = "life_order"
"""The key of ``state.cast`` that records the caster's order once it was asked."""


def main_hits(state: SodalisState, unit: int) -> int:
    """The successes of the cast's main dice against ``unit``: each die at least its inertia
    lowered by piercing (the face's, the caster's aura, passives), as things stand now.  The
    cast's life change (:func:`engine.sodalis.casting.cast_life`) and the test whether
    ``unit`` would fall both count them so."""
    cast = state.cast
    assert cast is not None
    caster = cast["seat"]
    face = state.face(cast["card"])
    pierce = (
        face.piercing
        + state.aura_total(AuraStat.PIERCING, caster)
        + passives.piercing_against(state, caster, face, unit)
    )
    threshold = state.inertia(unit) - pierce
    return sum(1 for v in (cast["values"] or [])[: cast["main"]] if v >= threshold)


def _falls(state: SodalisState, unit: int) -> bool:
    """Whether the cast's main dice bring ``unit`` to 0 now."""
    return state.seats[unit].life - main_hits(state, unit) <= 0


def _champions(state: SodalisState) -> list[int]:
    cast = state.cast
    assert cast is not None
    return [u for u in cast["units"] if u != PARAGON]


def _way(state: SodalisState, unit: int, kind: ExtraKind, steps: int, origin: Space) -> set[Space]:
    """Every space a forced movement of ``unit`` might step to, other units ignored."""
    here = state.seats[unit].at
    reached: set[Space] = set()
    front = {here} if here is not None else set()
    for _ in range(steps):
        front = {n for s in front for n in movement.forced_candidates(state, origin, s, kind)}
        reached |= front
    return reached


def _ways_cross(state: SodalisState, units: list[int], fallen: bool) -> bool:
    """Whether the cast's pushes and pulls of two or more champions could get in each
    other's way (with a champion fallen, its space after respawning is not known yet)."""
    cast = state.cast
    assert cast is not None
    caster = cast["seat"]
    origin = state.seats[caster].at
    moved = [u for u in units if u != caster]
    forced = [x for x in state.face(cast["card"]).extra if x.kind.forced]
    if not forced or origin is None or len(moved) < 2:
        return False
    if fallen:
        return True
    for x in forced:
        ways = {u: _way(state, u, x.kind.base, x.steps, origin) for u in moved}
        for u in moved:
            for v in moved:
                at = state.seats[v].at
                if u != v and (ways[u] & ways[v] or at in ways[u]):
                    return True
    return False


def order_matters(state: SodalisState) -> bool:
    cast = state.cast
    if cast is None:
        return False
    units = _champions(state)
    if len(units) < 2:
        return False
    if cast["effect"] != FaceEffect.DAMAGE:  # healing never brings anyone to 0
        return _ways_cross(state, units, fallen=False)
    fallen = [u for u in units if _falls(state, u)]
    if _ways_cross(state, units, fallen=bool(fallen)):
        return True
    if len(fallen) != 1:
        return len(fallen) > 1
    first = state.seats[fallen[0]]
    here, first.at = first.at, None  # as if it had left its space to respawn
    try:
        return any(_falls(state, u) for u in units if u != fallen[0])
    finally:
        first.at = here


def maybe_ask(state: SodalisState, unit: int) -> bool:
    """Called by the first champion's life change of a cast: ask the caster for the order
    when it matters (the life change waits, queued again); True when asked."""
    cast = state.cast
    assert cast is not None
    units = _champions(state)
    if CHECKED in cast or not units or unit != units[0] or not order_matters(state):
        return False
    state.push((Step.CAST_LIFE, unit))
    state.ask(Decision(cast["seat"], OrderLifeInfo(units=tuple(units))))
    return True


def reorder(state: SodalisState, order: tuple[int, ...]) -> None:
    """The caster's order: the queued life changes of the champions run in ``order`` (the
    Paragon, which changes no life, still last), and so does each additional effect."""
    cast = state.cast
    assert cast is not None
    cast[CHECKED] = list(order)
    rank = {u: i for i, u in enumerate(order)}
    n = 0
    while n < len(state.tasks) and state.tasks[n][0] == Step.CAST_LIFE:
        n += 1
    paragon = [t for t in state.tasks[:n] if t[1] == PARAGON]
    state.tasks[:n] = [(Step.CAST_LIFE, u) for u in order] + paragon
    i = n
    while i < len(state.tasks) and state.tasks[i][0] != Step.CAST_DONE:
        j = i
        while (
            j < len(state.tasks)
            and state.tasks[j][0] == Step.CAST_EXTRA
            and state.tasks[j][1] == state.tasks[i][1]
        ):
            j += 1
        if j > i:  # one additional effect over the champions: in the caster's order
            state.tasks[i:j] = sorted(state.tasks[i:j], key=lambda t: rank.get(t[2], -1))
        i = max(j, i + 1)
    state.log(E.LifeOrdered(cast["seat"], order))
