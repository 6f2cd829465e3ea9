"""The table options typed on the command line, as one typed value built once.

``play``, ``host``, ``join`` and ``resume`` read their options from argparse into a
frozen :class:`TableOptions` here, hand that value on (``client.netcli`` to
``client.play`` and on to the network side), and make the node's
:class:`netplay.NodeConfig` from it in one place -- no dict of settings goes back
and forth between them.  ``simulate`` plays without a network and needs none.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import attrs

from netplay import NodeConfig, Pacing, Reach, SeatClock, TableChoice, TableTerms

__all__ = ["TableOptions"]


@attrs.frozen
class TableOptions:
    """How this process's node takes part in a table (see :class:`netplay.NodeConfig` for
    each field's meaning); the data folder is the caller's, given to :meth:`node_config`."""

    listen_port: int | None = 0  # None: do not listen
    listen_host: str = "127.0.0.1"
    advertise_host: str | None = "127.0.0.1"
    via: tuple[str, int] | None = None
    via_key: bytes | None = None  # the relay's pinned key
    seat_timeout: float = 10.0
    abandon_after: float = 120.0
    clock: SeatClock | None = None
    pace: float = 0.0  # seconds our bots think
    stats: bool = False
    round_limit: int | None = None
    fresh: bool = False
    announce_to: tuple[str, int] | None = None
    kind: str = "host"  # "host" (on the LAN) or "play" (with bots here)
    resume: bytes | None = None
    spectators: bool = True  # a host lets spectators watch (`host --no-spectators`)
    name: str = ""  # our player's name (`--name`), signed with our seat key

    @classmethod
    def from_args(
        cls,
        args: argparse.Namespace,
        *,
        listen: bool,
        via: tuple[str, int] | None = None,
        via_key: bytes | None = None,
    ) -> TableOptions:
        """The options of ``host`` or ``join`` (``listen``: take links from other peers;
        ``via``: the relay's address and ``via_key`` its pinned key, already checked)."""
        return cls(
            listen_port=(args.port if listen else None),
            listen_host=args.listen_host,
            advertise_host=args.advertise,
            via=via,
            via_key=via_key,
            seat_timeout=args.seat_timeout,
            abandon_after=args.abandon_after,
            clock=getattr(args, "clock", None),
            pace=args.pace,
            stats=args.stats,
            round_limit=getattr(args, "round_limit", None),
            fresh=getattr(args, "new", False),
            announce_to=(
                None
                if getattr(args, "no_announce", True)
                else (args.announce_address, args.discovery_port)
            ),
            spectators=not getattr(args, "no_spectators", False),
            name=getattr(args, "name", None) or "",
        )

    def node_config(self, data_dir: Path, *, ui_events: bool = False) -> NodeConfig:
        """The node's configuration for a node kept in ``data_dir`` (``ui_events``: it also
        reports views, decisions and cards, for a screen)."""
        return NodeConfig(
            data_dir=data_dir,
            reach=Reach(
                listen_port=self.listen_port,
                listen_host=self.listen_host,
                advertise_host=self.advertise_host,
                via=self.via,
                via_key=self.via_key,
                announce_to=self.announce_to,
                spectators=self.spectators,
            ),
            terms=TableTerms(
                clock=self.clock, abandon_after=self.abandon_after, round_limit=self.round_limit
            ),
            pacing=Pacing(seat_timeout=self.seat_timeout, pace=self.pace),
            choice=TableChoice(kind=self.kind, fresh=self.fresh, resume=self.resume),
            name=self.name,
            stats=self.stats,
            ui_events=ui_events,
        )
