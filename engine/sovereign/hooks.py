"""Named hooks: card effects the vocabulary cannot express.

A card names its hook in data (``{ op = "hook", name = "...", target = "..." }``); the
rules call it through :data:`HOOKS`, never by checking a card's name.  A hook receives
the state, the seat using the effect, the source card's ref, the number of simultaneous
uses ``k`` and the chosen target ('' when the effect has none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Hook = Callable[[Any, int, str, int, str], None]


def gust(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """Push the target unit to the back of its lane (Windwalker: Squall Callers).  Not
    while its lane is locked in combat."""
    place = state.lane_of(target) if target else None
    if place is None or (state.battle and state.battle.get("spaces") is not None):
        return
    owner, lane, _ = place
    refs = state.boards[owner].lanes[lane]
    refs.remove(target)
    refs.append(target)
    state.log("gust", target)


def second_wind(state: Any, seat: int, source: str, k: int, target: str) -> None:
    """Each unit you control with less than its printed health gains one drone from the
    creche (Windwalker: Second Wind)."""
    for ref in sorted(state.units):
        unit = state.units[ref]
        d = state.defn(ref)
        if unit.owner == seat and 0 < sum(unit.health) < d.health:
            unit.health[1] += k
            state.creche_out += k
    state.log("second_wind", seat)


HOOKS: dict[str, Hook] = {"gust": gust, "second_wind": second_wind}
