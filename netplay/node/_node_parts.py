"""What a table node's parts share: its settings (:class:`NodeConfig`) and one link's
state (:class:`_Peer`).  Below the node (``_node``) and every part it composes (``_mesh``,
``_admission``, ``_node_folder``, ``_pump``, ``_liveness``).

A node's settings come in typed parts, each owning one concern:

* :class:`Reach` -- where the node listens, what it advertises, the relay it goes through,
  where it announces the table on the LAN, and whether spectators may link;
* :class:`TableTerms` -- what a host proposes and every peer then agrees on (bound into the
  table id): the seats' clocks (:class:`SeatClock`), the offline limit, the round limit,
  what the table does when a seat vanishes (:class:`~protocol.Leavers`);
* :class:`Pacing` -- how long this node waits and how often it beats: its own, agreed with
  nobody;
* :class:`TableChoice` -- which table a node goes on with, and what it does there at once.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import trio

import fairtable.protocol as P

from ..links import Link
from ..storage import TableKind
from ..table import LobbyId

__all__ = ["NodeConfig", "Pacing", "Reach", "SeatClock", "TableChoice", "TableTerms", "_Peer"]


@attrs.frozen
class Reach:
    """Where a node can be reached and how it reaches the others."""

    listen_port: int | None = 0  # None: do not listen
    listen_host: str = "127.0.0.1"
    advertise_host: str | None = "127.0.0.1"  # None: this machine's LAN address
    via: tuple[str, int] | None = None  # the relay (host, port) every link goes through
    via_key: bytes | None = None  # the relay's key (host: named in the invite); None: unpinned
    announce_to: tuple[str, int] | None = None  # LAN discovery: where the host announces
    spectators: bool = True  # let spectators (fairtable watch, role observer) follow the table


@attrs.frozen
class SeatClock:
    """Each seat's chess clock, in seconds: the bank it starts with, and what it gains for
    each of its decisions applied."""

    bank: float
    increment: float


@attrs.frozen
class TableTerms:
    """What the host proposes for its table, which every peer agrees on (a joiner's are
    ignored: the host's come in the signed start)."""

    clock: SeatClock | None = None  # None: no clock
    abandon_after: float = 120.0  # seconds the table waits on an offline seat it waits on
    round_limit: int | None = None  # None: the game's own default
    leavers: P.Leavers = P.Leavers.END  # a vanished seat ends the game, or the others go on

    def time_limits(self) -> P.TimeLimits:
        """The table's time limits, in the milliseconds bound into the table id."""
        clock = self.clock or SeatClock(0.0, 0.0)
        return P.TimeLimits(
            round(clock.bank * 1000),
            round(clock.increment * 1000),
            max(1, round(self.abandon_after * 1000)),
        )


@attrs.frozen
class Pacing:
    """How long this node waits and how often it speaks; nothing another peer checks."""

    seat_timeout: float = 10.0  # seconds the table waits on a seat before we report it
    beat: float = 2.0  # seconds between our presence beats (a seat unheard for 3 is offline)
    grace: float = 1.0  # seconds we may wait, leaving, for the others' farewells
    pace: float = 0.0  # seconds a bot waits before it answers (0: at once)


@attrs.frozen
class TableChoice:
    """Which table a node goes on with, and what it does there at once."""

    kind: TableKind = TableKind.HOST  # what a table we host is: on the LAN, or with bots here
    fresh: bool = False  # host a new table even if an unfinished one of ours could go on
    resume: LobbyId | None = None  # host: go on with exactly this table
    resign: bool = False  # give the game up as soon as it runs again (fairtable resume --resign)


@attrs.frozen
class NodeConfig:
    """A node's settings: its data folder, its typed parts, and what it reports."""

    data_dir: Path
    reach: Reach = Reach()
    terms: TableTerms = TableTerms()
    pacing: Pacing = Pacing()
    choice: TableChoice = TableChoice()
    name: str = ""  # our player's name, signed with our seat key ("": none; netplay.table._names)
    stats: bool = False  # report timings and traffic with game_over (for bench/netplay.py)
    ui_events: bool = False  # also report views, decisions and seen cards (for a screen)


@attrs.define(eq=False)
class _Peer:
    link: Link
    outbox: trio.MemorySendChannel[bytes]
    via_relay: bool = False
    linked: frozenset[bytes] = frozenset()  # the players it says it is linked to directly
    leaving: bool = False  # we are leaving: its queue is closed to drain it, not for being slow
    drained: trio.Event = attrs.Factory(trio.Event)  # its writer has sent all it was given
    early_bytes: int = 0  # bytes of entries it left with us before our table started
    serial: int = 0  # links are numbered as they come: the lowest is the oldest
