"""Chance and dice: joint randomness, one commit-reveal round per Chance or Roll.

:class:`ChanceExchange` owns the rounds.  Every seat commits to round 0 with its key
share and to round ``n + 1`` in the same batch as its reveal for round ``n``, so a
Chance or Roll costs one network round: every commitment is already in when the request
comes.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fairtable.engine.requests import Chance, ChanceAnswer, Request, Roll, RollAnswer

from ._part_keys import CommitPart, RevealPart
from ._port import Port
from ._randomness import JointRandomness

__all__ = ["ChanceExchange"]


class ChanceExchange:
    """Joint randomness for the engine's Chance and Roll requests."""

    REQUESTS: ClassVar[dict[type, str]] = {Chance: "advance", Roll: "advance"}

    def __init__(self, port: Port) -> None:
        self.port = port
        self.chance: dict[int, tuple[JointRandomness, Any]] = {}  # by randomness round
        self.chance_rounds: dict[int, int] = {}  # step -> its randomness round

    def round(self, n: int) -> tuple[JointRandomness, Any]:
        """Joint-randomness round ``n`` (the n-th Chance or Roll of the game), our commitment
        to it published."""
        if n not in self.chance:
            port = self.port
            jr = JointRandomness(port.table, f"c{n}", port.seats)
            reveal = None
            if port.me is not None:
                commit, reveal = jr.contribute(
                    port.me,
                    value=port.secret(f"chance/{n}", 32),
                    nonce=port.secret(f"chance-nonce/{n}", 32),
                )
                port.publish(commit)
            self.chance[n] = (jr, reveal)
        return self.chance[n]

    def advance(self, pending: tuple[Request, ...]) -> bool:
        """Every seat commits, then reveals; the joint seed answers the request."""
        req = pending[0]
        assert isinstance(req, Chance | Roll)
        port = self.port
        k = port.step
        n = self.chance_rounds.setdefault(k, len(self.chance_rounds))
        jr, reveal = self.round(n)
        for seat in jr.missing_commits():
            msg = port.part(seat, CommitPart(jr.purpose))
            if msg is not None:
                jr.add_commit(seat, msg)
        if jr.missing_commits():
            return False
        if reveal is not None:
            port.publish(reveal)
            self.round(n + 1)
        for seat in jr.missing_reveals():
            msg = port.part(seat, RevealPart(jr.purpose))
            if msg is not None:
                jr.add_reveal(seat, msg)
        if jr.missing_reveals():
            port.waiting_for_reveal = True
            return False
        if isinstance(req, Roll):
            port.apply(RollAnswer(jr.stream().dice(req.sides)))
        else:
            order = jr.stream().permutation(req.n)
            port.apply(ChanceAnswer(tuple(order[: req.k])))
        return True
