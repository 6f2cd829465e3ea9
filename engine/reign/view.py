"""Per-seat views of a Reign game: the public state plus that seat's own secrets.

A view is all a user interface or a bot may look at.  A spectator's view
(seat ``None``) holds the public state only.  Nothing in a view comes from
another seat's secrets: that is what the leak tests check.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.reign.state import ReignState
from engine.requests import Decision


@attrs.frozen
class ReignView:
    seat: int | None
    public: dict[str, Any]
    hand: tuple[str, ...]
    facedown: tuple[tuple[int, str], ...]  # handles this seat placed face down, and what
    decisions: tuple[Decision, ...]  # what this seat is asked now

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "hand": list(self.hand),
            "facedown": [list(x) for x in self.facedown],
            "decisions": [attrs.asdict(d) for d in self.decisions],
        }


def make_view(state: ReignState, seat: int | None) -> ReignView:
    if seat is not None and seat not in state.known:
        raise KeyError(f"this engine instance does not hold seat {seat}'s secrets")
    hand: tuple[str, ...] = ()
    facedown: tuple[tuple[int, str], ...] = ()
    decisions: tuple[Decision, ...] = ()
    if seat is not None:
        sec = state.secrets[seat]
        hand = tuple(sec.hand)
        facedown = tuple(sorted(sec.facedown.items()))
        decisions = tuple(
            r for r in state.pending
            if isinstance(r, Decision) and r.seat == seat and seat not in state.buffered
        )
    return ReignView(seat, state.public(), hand, facedown, decisions)
