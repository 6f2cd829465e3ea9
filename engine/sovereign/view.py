"""Per-seat views of a Sovereign game: the public state plus that seat's own secrets.

A seat sees its own hand and forge identities (handle -> card) and the identities it
saw in breaches that are still valid (forge cards until they leave the forge, hand cards
until the hand is re-handled).  A spectator (seat ``None``) sees the public state only.
Nothing in a view comes from another seat's secrets.
"""

from __future__ import annotations

from typing import Any

import attrs

from engine.requests import Decision
from engine.sovereign.state import SovereignState


@attrs.frozen
class SovereignView:
    seat: int | None
    public: dict[str, Any]
    cards: tuple[tuple[int, str], ...]  # own hand and forge handles, and what they are
    seen: tuple[tuple[int, str], ...]  # other seats' handles seen in a breach, still valid
    decisions: tuple[Decision, ...]

    def card(self, handle: int) -> str | None:
        for h, c in self.cards:
            if h == handle:
                return c
        return None

    @property
    def hand(self) -> tuple[tuple[int, str], ...]:
        if self.seat is None:
            return ()
        handles = self.public["boards"][self.seat]["hand"]
        known = dict(self.cards)
        return tuple((h, known[h]) for h in handles)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "public": self.public,
            "cards": [list(x) for x in self.cards],
            "seen": [list(x) for x in self.seen],
            "decisions": [attrs.asdict(d) for d in self.decisions],
        }


def make_view(state: SovereignState, seat: int | None) -> SovereignView:
    if seat is not None and seat not in state.known:
        raise KeyError(f"this engine instance does not hold seat {seat}'s secrets")
    cards: tuple[tuple[int, str], ...] = ()
    seen: tuple[tuple[int, str], ...] = ()
    decisions: tuple[Decision, ...] = ()
    if seat is not None:
        sec = state.secrets[seat]
        cards = tuple(sorted(sec.cards.items()))
        seen = tuple(sorted(sec.seen.items()))
        decisions = tuple(
            r
            for r in state.pending
            if isinstance(r, Decision) and r.seat == seat and seat not in state.buffered
        )
    return SovereignView(seat, state.public(), cards, seen, decisions)
