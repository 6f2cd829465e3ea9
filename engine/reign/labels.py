"""Why Reign's rules ask a chance or a reveal: the ``label`` of a ``Chance`` or ``Reveal``
request, as the members the rules compare.

A request's label is typed ``str`` at the generic seam (:mod:`engine.requests`); Reign
makes its requests with these members and compares a request's label with them.  A member
equals its word, so requests, answers, digests and logs read as before.
"""

from __future__ import annotations

from enum import StrEnum


class ChanceLabel(StrEnum):
    """Why the rules draw a chance: the houses in play, or who plays first."""

    SUPPORT_HOUSES = "support_houses"
    FIRST_PLAYER = "first_player"


class RevealLabel(StrEnum):
    """What a reveal opens: the seats' bids, or the armies of a combat."""

    BIDS = "bids"
    ARMIES = "armies"
