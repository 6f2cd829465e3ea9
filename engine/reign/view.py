"""Per-seat views of a Reign game: the public state plus that seat's own secrets.

A view is all a user interface or a bot may look at.  A spectator's view
(seat ``None``) holds the public state only.  Nothing in a view comes from
another seat's secrets: that is what the leak tests check.  Beside the public
state a view carries :class:`PlayState`, where play stands (the task queue, the
pending requests, the cards whose place nobody sees): public too (the digest
covers most of it), needed to play on from a sampled world
(:mod:`engine.reign.world`), not shown on any screen.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from fairtable.engine.reign.state import ReignState
from fairtable.engine.requests import Decision, Request


class PlayState(NamedTuple):
    """Where play stands, beyond :meth:`ReignState.public`: all of it public.  (A named
    tuple: one is made with every view, so it must be cheap.)"""

    tasks: tuple[tuple[Any, ...], ...]
    pending: tuple[Request, ...]
    next_handle: int
    hidden: frozenset[str]  # cards whose place is not public (piles, hands, face down)
    influence_winner: tuple[tuple[str, int], ...]
    gains: int
    kingmaker: int
    betrayal_in_regent_army: bool
    decisions: int
    serial: int


@attrs.frozen
class ReignView:
    seat: int | None
    public: dict[str, Any]
    hand: tuple[str, ...]
    facedown: tuple[tuple[int, str], ...]  # handles this seat placed face down, and what
    decisions: tuple[Decision, ...]  # what this seat is asked now
    play: PlayState | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "hand": list(self.hand),
            "facedown": [list(x) for x in self.facedown],
            "decisions": [d.plain() for d in self.decisions],
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
        if sec.facedown:
            facedown = tuple(sorted(sec.facedown.items()))
        if seat not in state.buffered:
            decisions = tuple(
                [r for r in state.pending if isinstance(r, Decision) and r.seat == seat]
            )
    influence_winner = state.influence_winner
    play = PlayState(
        tuple(state.tasks),
        tuple(state.pending),
        state.next_handle,
        state.hidden,
        tuple(sorted(influence_winner.items())) if influence_winner else (),
        state.gains,
        state.kingmaker,
        state.betrayal_in_regent_army,
        state.decisions,
        state.serial,
    )
    return ReignView(seat, state.public(), hand, facedown, decisions, play)
