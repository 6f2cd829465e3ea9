"""What a table node's parts share: its settings (:class:`NodeConfig`) and one link's
state (:class:`_Peer`).  Below the node (``_node``) and every part it composes (``_mesh``,
``_admission``, ``_node_folder``, ``_pump``, ``_liveness``)."""

from __future__ import annotations

from pathlib import Path

import attrs
import trio

from ..links import Link

__all__ = ["NodeConfig", "_Peer"]


@attrs.define
class NodeConfig:
    data_dir: Path
    listen_port: int | None = 0  # None: do not listen
    listen_host: str = "127.0.0.1"
    advertise_host: str | None = "127.0.0.1"  # None: this machine's LAN address
    via: tuple[str, int] | None = None
    via_key: bytes | None = None  # the relay's key (host: named in the invite); None: unpinned
    seat_timeout: float = 10.0  # seconds the table waits on a seat before we report it
    abandon_after: float = 120.0  # the host's: the table's limit for an offline seat it waits on
    clock: tuple[float, float] | None = None  # the host's: (bank, increment) s; None: no clock
    beat: float = 2.0  # seconds between our presence beats (a seat unheard for 3 is offline)
    grace: float = 1.0
    round_limit: int | None = None  # None: the game's own default
    pace: float = 0.0  # seconds a bot waits before it answers (0: at once)
    announce_to: tuple[str, int] | None = None  # LAN discovery: where the host announces
    stats: bool = False  # report timings and traffic with game_over (for bench/netplay.py)
    ui_events: bool = False  # also report views, decisions and seen cards (for a screen)
    kind: str = "host"  # what a table we host is: "host" (on the LAN) or "play" (with bots here)
    fresh: bool = False  # host a new table even if an unfinished one of ours could go on
    resume: bytes | None = None  # host: go on with exactly this table (its invite scope)
    resign: bool = False  # give the game up as soon as it runs again (fairtable resume --resign)
    spectators: bool = True  # let spectators (fairtable watch, role observer) follow the table
    name: str = ""  # our player's name, signed with our seat key ("": none; netplay.table._names)


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
