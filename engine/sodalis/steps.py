"""The kinds of task in Sodalis's queue (``state.tasks``), as the members the flow compares.

Each task tuple starts with a :class:`Step` naming its handler (``flow.HANDLERS``, with the
handlers of casting, movement and the tributes); the flow queues tasks by these members, and
the caster's order of life changes (:mod:`engine.sodalis.life_order`) finds and reorders a
cast's steps (``cast_life``, ``cast_extra``) by them.  A member equals its word, so the
queue's digest and positions read as before.
"""

from __future__ import annotations

from enum import StrEnum


class Step(StrEnum):
    """A task of the flow's queue: the set-up's and a turn's, a cast's (its roll, a
    champion's life change, a recoil, an additional effect on one unit, the arcana going
    under the deck or beside it, the cast's end), a spread's refill, and forced movement
    and the tributes'."""

    TURN_TOKENS = "turn_tokens"
    SELECTION = "selection"
    CHOOSE = "choose"
    REARRANGE = "rearrange"
    REVERSALS = "reversals"
    DECKS = "decks"
    SHUFFLE = "shuffle"
    SPREAD = "spread"
    READY = "ready"
    PLACE = "place"
    FIRST_TURN = "first_turn"
    TURN_START = "turn_start"
    TURN = "turn"
    TURN_END = "turn_end"
    CAST_ROLL = "cast_roll"
    CAST_LIFE = "cast_life"
    CAST_RECOIL = "cast_recoil"
    CAST_EXTRA = "cast_extra"
    CAST_CYCLE = "cast_cycle"
    CAST_DONE = "cast_done"
    REFILL = "refill"
    RESPAWN = "respawn"
    FORCED = "forced"
    FORCED_TO = "forced_to"
    EARN = "earn"
    FALLEN = "fallen"
    STRENGTH_REFRESH = "strength_refresh"
    SIGHT_CHECK = "sight_check"
