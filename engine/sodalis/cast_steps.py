"""The steps of a cast, as the task kinds its queue holds (``("cast_life", unit)``...).

:mod:`engine.sodalis.casting` queues a cast's steps and runs them; the caster's order of
life changes (:mod:`engine.sodalis.life_order`) finds and reorders them in the queue by
these members.  A member equals its word, so the queue's digest and positions read as
before.
"""

from __future__ import annotations

from enum import StrEnum


class CastStep(StrEnum):
    """One step of a cast: its roll, a champion's life change, a recoil, an additional
    effect on one unit, the arcana going under the deck or beside it, and the cast's end."""

    ROLL = "cast_roll"
    LIFE = "cast_life"
    RECOIL = "cast_recoil"
    EXTRA = "cast_extra"
    CYCLE = "cast_cycle"
    DONE = "cast_done"
