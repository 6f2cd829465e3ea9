"""Reign positions from one line of text, for tests and bug reports.

    reign players=4 round=2 first=1 regent=1 legit=0,3,2,0 phase=influence
          support=crimson:1,azure:-,ivory:2,violet:-
          hand0=crimson-pike.1,azure-oar hand1=... military=top,...,bottom
          events=... military_discard=... event_discard=...

(one line; wrapped here).  ``support`` names the houses in play and who holds
each (``-``: the centre).  Piles are listed top first; the returned referee
deals from them in that order.  ``phase`` is where play resumes: ``influence``
(bidding starts), ``plotting`` (overt backing starts) or ``draw`` (the draw
step of the Regent phase).  Every seat is known (an omniscient instance).
"""

from __future__ import annotations

from enum import StrEnum

from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.position_line import PositionLine
from fairtable.engine.referee import Referee
from fairtable.engine.reign import flow
from fairtable.engine.reign.cards import standard_catalog
from fairtable.engine.reign.game import ReignGame
from fairtable.engine.reign.state import ReignConfig, ReignState, RoundPhase, Secrets
from fairtable.engine.reign.steps import Step
from fairtable.engine.tasks import Task
from fairtable.engine.words import word_of


class Start(StrEnum):
    """Where a position's play resumes (its ``phase`` word)."""

    INFLUENCE = "influence"
    PLOTTING = "plotting"
    DRAW = "draw"

    @property
    def task(self) -> Task:
        """The flow's task that resumes play there."""
        return _TASKS[self]

    @property
    def phase(self) -> RoundPhase:
        """The round's phase as play resumes (the draw is a step of the Regent phase)."""
        return _PHASES[self]


_TASKS: dict[Start, Task] = {
    Start.INFLUENCE: (Step.ROUND_START,),
    Start.PLOTTING: (Step.PLOTTING,),
    Start.DRAW: (Step.DRAW_ROUND,),
}
_PHASES = {
    Start.INFLUENCE: RoundPhase.INFLUENCE,
    Start.PLOTTING: RoundPhase.PLOTTING,
    Start.DRAW: RoundPhase.REGENT,
}


def position(line: str, seed: int = 0) -> tuple[ReignGame, Referee]:
    """Build a game and its referee from one line of text."""
    fields = PositionLine.parse(line, "reign", "Reign")
    start = word_of(Start, fields.text("phase", Start.INFLUENCE))
    if start is None:
        raise MalformedAnswer(f"phase is one of {', '.join(Start)}")
    catalog = standard_catalog()
    players = fields.number("players", 3)
    config = ReignConfig(players, fields.number("round_limit", 60))
    config.check()
    state = ReignState(
        config=config,
        catalog=catalog,
        known=frozenset(range(players)),
        secrets={s: Secrets() for s in range(players)},
    )
    state.legitimacy = fields.numbers("legit", ",".join("0" * players))
    state.hand_count = [0] * players
    support: dict[str, int | None] = {}
    for item in fields.items("support"):
        house, _, holder = item.partition(":")
        if house not in catalog.house_ids:
            raise MalformedAnswer(f"unknown house {house!r}")
        support[house] = None if holder in ("", "-") else PositionLine.whole("support", holder)
    state.houses = tuple(sorted(support))
    state.support = {h: support[h] for h in state.houses}
    regent = fields.text("regent", "-")
    state.regent = None if regent == "-" else PositionLine.whole("regent", regent)
    state.first_player = fields.number("first", state.regent or 0)
    state.round = fields.number("round", 1) - (1 if start is Start.INFLUENCE else 0)
    referee = Referee(seed)
    for pile, key in (("military", "military"), ("event", "events")):
        cards = fields.items(key)
        referee.piles[pile] = list(cards)
        state.piles[pile] = len(cards)
        state.hidden = state.hidden.union(cards)
    state.discards = {
        "military": fields.items("military_discard"),
        "event": fields.items("event_discard"),
    }
    everything: list[str] = []
    for seat in range(players):
        hand = sorted(fields.items(f"hand{seat}"))
        state.secrets[seat].hand = hand
        state.hand_count[seat] = len(hand)
        state.hidden = state.hidden.union(hand)
        everything += hand
    everything += referee.piles["military"] + referee.piles["event"]
    everything += state.discards["military"] + state.discards["event"]
    unknown = [c for c in everything if c not in catalog.defs]
    if unknown:
        raise MalformedAnswer(f"unknown card {unknown[0]!r}")
    if len(set(everything)) != len(everything):
        raise MalformedAnswer("a card is in two places")
    state.phase = start.phase
    state.tasks = [start.task]
    flow.advance(state)
    return ReignGame(state), referee
