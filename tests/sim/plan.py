"""One run's plan, drawn from its seed: the table, who is hostile, and the faults' timeline.

Everything a run does that is not the real code's own behaviour is decided here, up front,
from ``random.Random(seed)`` -- so a seed names a run, and a printed plan says what it did.
"""

from __future__ import annotations

import random

import attrs

from fairtable.protocol.testing import CHEATS

__all__ = ["CHEAT_KINDS", "FAULT_KINDS", "GAMES", "SCRIPTED_KINDS", "Fault", "Plan", "draw_plan"]

GAMES = ("reign", "sovereign", "sodalis")
CHEAT_KINDS = (*CHEATS, "stall")
"""Hostile seats: every cheat the protocol names (``illegal-move`` is the malformed/illegal
move, ``flood`` the flooding seat), and a seat that stalls (never answers, on a clock)."""
FAULT_KINDS = ("cut", "partition", "crash", "slow", "relay-crash")
SCRIPTED_KINDS = ("sever",)
"""Faults a test's own plan may hold but no seed draws (a drawn kind more would move every
seed's run): ``sever`` keeps two seats from reaching each other, each still reaching the
others -- one seat heard by a second and not by a third (a firewall, a one-way NAT)."""
RELAY_KINDS = ("dup", "delay", "drop")
"""A hostile relay: duplicates, delays, or drops one seat's entries.  ``drop`` is issue 14's
finding 6 (honest seats blamed; net14's ``starved`` verdict answers it) -- drawn only with
``relay_drop``, so the campaign's seeds keep replaying the runs they named before."""
TEARS = ("none", "unsynced", "torn")
"""How a crashed peer's log is left: as written; its last record lost because it was never
fsynced (only a record written ``durable=False``, or one whose fsync the crash cut short); or
that record torn half way."""


@attrs.frozen
class Fault:
    at: float  # simulated seconds after the table starts
    kind: str
    target: int = 0  # a seat (crash, slow, partition side) or a link's index (cut)
    lasts: float = 0.0  # down / slow / partitioned for this long
    tear: str = "none"
    factor: float = 1.0
    other: int = 0  # sever: the seat kept from ``target``

    def text(self) -> str:
        extra = {
            "crash": f" seat {self.target} down {self.lasts:.1f}s log {self.tear}",
            "slow": f" seat {self.target} x{self.factor:.0f} for {self.lasts:.1f}s",
            "partition": f" seat {self.target} alone for {self.lasts:.1f}s",
            "cut": f" link #{self.target}",
            "relay-crash": f" down {self.lasts:.1f}s",
            "sever": f" seats {self.target} and {self.other} apart for {self.lasts:.1f}s",
        }[self.kind]
        return f"@{self.at:.1f}s {self.kind}{extra}"


@attrs.frozen
class Plan:
    seed: int
    game: str
    seats: int
    relay: bool
    cheat: tuple[int, str] | None = None  # (seat, kind)
    hostile_relay: tuple[str, int] | None = None  # (kind, the seat whose entries it hits)
    faults: tuple[Fault, ...] = ()
    pace: float = 0.0  # a test's own plan: every bot answers this many seconds after asked

    def text(self) -> str:
        parts = [
            f"seed {self.seed}",
            self.game,
            f"{self.seats} seats",
            "relay" if self.relay else "mesh",
        ]
        if self.cheat is not None:
            parts.append(f"seat {self.cheat[0]} cheats {self.cheat[1]}")
        if self.hostile_relay is not None:
            parts.append(f"relay {self.hostile_relay[0]}s seat {self.hostile_relay[1]}")
        parts.extend(f.text() for f in self.faults)
        if self.pace:
            parts.append(f"bots answer after {self.pace:.1f}s")
        return "; ".join(parts)


def draw_plan(
    seed: int, game: str = "all", *, relay_drop: bool = False, cheats: bool = True
) -> Plan:
    """The plan of ``seed`` (``game`` ``"all"``: the seed picks the game too)."""
    rng = random.Random(f"fairtable-sim/plan/{seed}")
    drawn = rng.choice(GAMES)  # drawn always: --game G replays the same run as "all" did
    game = drawn if game == "all" else game
    seats = 2 if game == "sodalis" else 3  # Sodalis plays 2 or 4 (two sides)
    relay = rng.random() < 0.35
    cheat = None
    if cheats and rng.random() < 0.3:
        cheat = (rng.randrange(seats), rng.choice(CHEAT_KINDS))
    hostile = None
    if relay and rng.random() < 0.3:
        kinds = RELAY_KINDS if relay_drop else RELAY_KINDS[:2]
        hostile = (rng.choice(kinds), rng.randrange(seats))
    faults = []
    stalling = cheat is not None and cheat[1] == "stall"
    for _ in range(rng.randint(0, 5)):
        allowed = [k for k in FAULT_KINDS if relay or k != "relay-crash"]
        if stalling:
            allowed = [k for k in allowed if k not in ("crash", "partition")]  # the clock runs
        kind = rng.choice(allowed)
        at = rng.uniform(0.0, 6.0)  # a 3-seat game takes 3 to 30 simulated seconds
        honest = [s for s in range(seats) if cheat is None or s != cheat[0]]
        if kind == "crash":
            faults.append(
                Fault(at, kind, rng.choice(honest), rng.uniform(0.2, 8.0), tear=rng.choice(TEARS))
            )
        elif kind == "slow":
            faults.append(
                Fault(
                    at,
                    kind,
                    rng.randrange(seats),
                    rng.uniform(0.5, 8.0),
                    factor=rng.choice((5.0, 20.0, 100.0)),
                )
            )
        elif kind == "partition":
            faults.append(Fault(at, kind, rng.randrange(seats), rng.uniform(0.2, 8.0)))
        elif kind == "cut":
            faults.append(Fault(at, kind, rng.randrange(8)))
        else:
            faults.append(Fault(at, kind, 0, rng.uniform(0.2, 5.0)))
    faults.sort(key=lambda f: f.at)
    return Plan(seed, game, seats, relay, cheat, hostile, tuple(faults))
