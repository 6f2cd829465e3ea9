"""Where a revealed forge card goes: a ``ForgeCard``'s ``place``, typed.

The answer, the task it queues and the ``Forged`` event carry the place as its word (``""``
for no place, ``lane:0``/``lane:1``, ``loose``, ``host:<ref>``), so answers, logs and
digests read as before; the rules and the client read that word once with
:meth:`Placement.parse` and compare the fields, and build words with :meth:`Placement.word`.
"""

from __future__ import annotations

import attrs

LANE_COUNT = 2  # lane 0 (the Leader lane) and lane 1 (the Citadel lane)


@attrs.frozen
class Placement:
    """At most one of: the back of ``lane`` (a unit), attached to ``host`` (an augment), or
    ``loose`` (an augment left unattached until the phase ends); none of them: no place
    (an Echo, a facility)."""

    lane: int | None = None
    host: str | None = None
    loose: bool = False

    @classmethod
    def parse(cls, word: object) -> Placement | None:
        """The placement spelled ``word``, or None when it spells none (``host:`` with an
        empty ref is a placement onto no card: the rules refuse that host)."""
        if not isinstance(word, str):
            return None
        if word == "":
            return NOWHERE
        if word == "loose":
            return LOOSE
        if word.startswith("host:"):
            return cls(host=word[5:])
        for lane in range(LANE_COUNT):
            if word == f"lane:{lane}":
                return cls(lane=lane)
        return None

    def word(self) -> str:
        """The word this placement is written as in answers, tasks and events."""
        if self.lane is not None:
            return f"lane:{self.lane}"
        if self.host is not None:
            return f"host:{self.host}"
        return "loose" if self.loose else ""


NOWHERE = Placement()
LOOSE = Placement(loose=True)


def in_lane(lane: int) -> Placement:
    return Placement(lane=lane)


def on_host(ref: str) -> Placement:
    return Placement(host=ref)
