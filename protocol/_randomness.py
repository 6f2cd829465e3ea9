"""Joint randomness: every seat commits to 32 random bytes, then reveals.

This module owns one round of commit-then-reveal coin flipping and the seed
it yields.  Each participating seat commits (``_commit`` format, purpose
``"chance:" + step``) to 32 random bytes; once every commitment is in, each
reveals.  Every reveal is checked against its commitment on arrival.  With
all reveals in, the seed is::

    seed = SHA-256( b"fairtable/joint-seed/v1\\x00"
                    || table (32 bytes)
                    || len(step) (2 bytes, big-endian) || step (ASCII)
                    || number of seats (2 bytes, big-endian)
                    || for each seat in ascending order: seat (2 bytes) || value (32 bytes) )

and integers and permutations come from ``engine.rng.ChanceStream(seed)``
(SHA-256 counter mode, rejection sampling: no modulo bias), the same mapping
the local referee uses.  No seat, nor any coalition short of all seats, can
predict or steer the seed; a seat can only refuse to reveal, and is then
blamed (:meth:`JointRandomness.withheld` on the time-out input).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping

from fairtable.engine.rng import ChanceStream

from ._commit import make_commitment, verify_reveal
from ._errors import BadCommitment, LocalProtocolError, RemoteProtocolError, WithheldReveal
from ._messages import Commit, Reveal

__all__ = ["SEED_DOMAIN", "JointRandomness", "chance_purpose", "joint_seed"]

SEED_DOMAIN = b"fairtable/joint-seed/v1\x00"


def chance_purpose(step: str) -> str:
    """The commitment purpose used for chance step ``step``."""
    return f"chance:{step}"


def joint_seed(table: bytes, step: str, values: Mapping[int, bytes]) -> bytes:
    """The 32-byte seed from every seat's revealed value (module docstring layout)."""
    raw_step = step.encode("ascii")
    if len(table) != 32 or not values or any(len(v) != 32 for v in values.values()):
        raise LocalProtocolError("a 32-byte table id and 32-byte values are required")
    parts = [
        SEED_DOMAIN,
        table,
        len(raw_step).to_bytes(2, "big"),
        raw_step,
        len(values).to_bytes(2, "big"),
    ]
    for seat in sorted(values):
        parts += [seat.to_bytes(2, "big"), values[seat]]
    return hashlib.sha256(b"".join(parts)).digest()


class JointRandomness:
    """The state of one joint-randomness round among ``seats`` (sans-IO).

    Feed it the commitments and reveals as they arrive; ask what is missing;
    once complete, :meth:`seed` / :meth:`stream` give the outcome.
    """

    def __init__(self, table: bytes, step: str, seats: Iterable[int]) -> None:
        self.table = table
        self.step = step
        self.purpose = chance_purpose(step)
        self.seats = tuple(sorted(set(seats)))
        if not self.seats:
            raise LocalProtocolError("joint randomness needs at least one seat")
        self._commits: dict[int, Commit] = {}
        self._values: dict[int, bytes] = {}

    def contribute(
        self, seat: int, *, value: bytes | None = None, nonce: bytes | None = None
    ) -> tuple[Commit, Reveal]:
        """Our seat's commitment (send now) and reveal (send once all have committed).

        ``value`` and the commitment's ``nonce`` default to fresh random bytes.  A peer that
        may restart passes both from its secret seed: a commitment already sent must be
        opened by the reveal a restarted run makes, or the honest seat is blamed.
        """
        if seat not in self.seats:
            raise LocalProtocolError(f"seat {seat} does not take part in {self.step!r}")
        value = os.urandom(32) if value is None else value
        if len(value) != 32:
            raise LocalProtocolError("a chance contribution is 32 bytes")
        return make_commitment(self.table, seat, self.purpose, value, nonce=nonce)

    def add_commit(self, seat: int, commit: Commit) -> None:
        """Record ``seat``'s commitment (an identical repeat is ignored)."""
        self._check_seat(seat)
        if commit.purpose != self.purpose:
            raise BadCommitment(
                f"commitment for {commit.purpose!r}, not {self.purpose!r}", seat=seat
            )
        known = self._commits.get(seat)
        if known is not None and known != commit:
            raise BadCommitment("a second, different commitment for one step", seat=seat)
        self._commits[seat] = commit

    def add_reveal(self, seat: int, reveal: Reveal) -> None:
        """Verify and record ``seat``'s reveal; raises BadCommitment naming the seat."""
        self._check_seat(seat)
        commit = self._commits.get(seat)
        if commit is None:
            raise BadCommitment("reveal before commitment", seat=seat)
        value = verify_reveal(self.table, seat, commit, reveal)
        if len(value) != 32:
            raise BadCommitment("a chance contribution is 32 bytes", seat=seat)
        self._values[seat] = value

    def drop(self, seat: int) -> None:
        """``seat`` left the table before this round revealed anything: the round goes on
        among the others (its commitment, if any, is forgotten)."""
        if self._values:
            raise LocalProtocolError(f"{self.step!r} already has reveals")
        self.seats = tuple(s for s in self.seats if s != seat)
        self._commits.pop(seat, None)

    def missing_commits(self) -> list[int]:
        """Seats whose commitment has not arrived."""
        return [s for s in self.seats if s not in self._commits]

    def missing_reveals(self) -> list[int]:
        """Seats whose reveal has not arrived."""
        return [s for s in self.seats if s not in self._values]

    @property
    def complete(self) -> bool:
        """Whether every reveal is in (the seed is known)."""
        return not self.missing_reveals()

    def withheld(self) -> WithheldReveal:
        """The blame to raise when the round times out: every seat still missing."""
        late = self.missing_commits() or self.missing_reveals()
        if not late:
            raise LocalProtocolError("nothing is missing")
        return WithheldReveal(f"no reveal for {self.step!r}", seats=late)

    def seed(self) -> bytes:
        """The joint 32-byte seed (only once :attr:`complete`)."""
        if not self.complete:
            raise LocalProtocolError(f"reveals missing from seats {self.missing_reveals()}")
        return joint_seed(self.table, self.step, self._values)

    def stream(self) -> ChanceStream:
        """``engine.rng.ChanceStream`` over the seed: ``.below(n)``, ``.permutation(n)``..."""
        return ChanceStream(self.seed())

    def _check_seat(self, seat: int) -> None:
        if seat not in self.seats:
            raise RemoteProtocolError(f"seat {seat} is not part of {self.step!r}", seat=seat)
