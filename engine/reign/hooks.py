"""Named hooks: card abilities the effect vocabulary cannot express.

A card names its hook in data (``{ op = "hook", name = "..." }``), read once into a
:class:`HookName`; the rules call the hook through these tables, never by checking a
card's name.  Each hook receives the combat context and the army the card sits in (see
:mod:`engine.reign.combat`).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

Hook = Callable[[Any, Any, Any], None]


class HookName(StrEnum):
    """A hook a card's data names; a military card's hook is in :data:`MILITARY_HOOKS`, an
    event's in :data:`EVENT_HOOKS`."""

    MIRROR_STRONGEST = "mirror_strongest"
    KINGMAKER = "kingmaker"


def mirror_strongest(ctx: Any, army: Any, card: Any) -> None:
    """This card's force becomes the highest printed force among the other
    military cards in its army (its own printed force if it stands alone)."""
    best = card.printed
    others = [c.printed for c in army.military() if c is not card]
    if others:
        best = max(others)
    card.force = best


def kingmaker(ctx: Any, army: Any, card: Any) -> None:
    """If this army's player becomes Regent this round, each backer gains 1
    extra legitimacy."""
    army.backer_bonus += 1


MILITARY_HOOKS: dict[HookName, Hook] = {HookName.MIRROR_STRONGEST: mirror_strongest}
EVENT_HOOKS: dict[HookName, Hook] = {HookName.KINGMAKER: kingmaker}
