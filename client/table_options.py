"""The table options typed on the command line, as one typed value built once.

``play``, ``host``, ``join`` and ``resume`` make a frozen :class:`TableOptions` here
from their options record (:mod:`client.options`), hand that value on (``client.netcli``
to ``client.play`` and on to the network side), and make the node's
:class:`netplay.NodeConfig` from it in one place -- no dict of settings goes back
and forth between them.  ``simulate`` plays without a network and needs none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from fairtable.client.options import HostOptions, JoinOptions, PeerOptions, PlayOptions
from fairtable.netplay import (
    LobbyId,
    NodeConfig,
    Pacing,
    Reach,
    SeatClock,
    TableChoice,
    TableKind,
    TableTerms,
)
from fairtable.protocol import Leavers

__all__ = ["EVERY_INTERFACE", "TableOptions"]

EVERY_INTERFACE = "0.0.0.0"
"""Where ``host`` and ``join`` listen unless ``--listen-host`` says otherwise."""


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
    kind: TableKind = TableKind.HOST  # on the LAN, or with bots here
    resume: LobbyId | None = None
    spectators: bool = True  # a host lets spectators watch (`host --no-spectators`)
    name: str = ""  # our player's name (`--name`), signed with our seat key
    leavers: Leavers = Leavers.END  # a host's rule for a seat that vanishes (`--leavers`)

    @classmethod
    def _peer(cls, peer: PeerOptions, *, listen: bool, **more: Any) -> TableOptions:
        """What ``host`` and ``join`` share (``listen``: take links from other peers)."""
        return cls(
            listen_port=(peer.port if listen else None),
            listen_host=peer.listen_host,
            advertise_host=peer.advertise,
            via=peer.via,
            via_key=peer.via_key,
            seat_timeout=peer.seat_timeout,
            abandon_after=peer.abandon_after,
            pace=peer.pace,
            stats=peer.stats,
            name=peer.name,
            **more,
        )

    @classmethod
    def for_host(cls, options: HostOptions) -> TableOptions:
        """The table options of ``host``."""
        return cls._peer(
            options.peer,
            listen=True,
            clock=options.clock,
            round_limit=options.round_limit,
            fresh=options.new,
            announce_to=(
                (options.announce_address, options.peer.discovery_port)
                if options.announce
                else None
            ),
            spectators=options.spectators,
            leavers=options.leavers,
        )

    @classmethod
    def for_join(cls, options: JoinOptions) -> TableOptions:
        """The table options of ``join`` (it listens for other seats unless it links
        through a relay)."""
        return cls._peer(options.peer, listen=options.peer.via is None)

    @classmethod
    def for_resume(
        cls, kind: TableKind | None, pace: float = 0.0, resume: LobbyId | None = None
    ) -> TableOptions:
        """The table options of a game ``fairtable resume`` reopens (``kind``: the kind its
        folder keeps).  A ``play`` game stays on loopback; a LAN game (``host``, ``join``, or
        one kept before kinds were) listens where ``host`` and ``join`` listen by default,
        on every interface: the start signed this machine's LAN address for our seat and
        our bots, where a loopback listener never answers."""
        if kind is TableKind.PLAY:
            return cls(pace=pace, resume=resume)
        return cls(listen_host=EVERY_INTERFACE, pace=pace, resume=resume)

    @classmethod
    def for_play(cls, options: PlayOptions) -> TableOptions:
        """The table options of ``play`` (a table on loopback with bots of ours)."""
        return cls(
            clock=options.clock,
            pace=options.pace,
            kind=TableKind.PLAY,
            fresh=options.new,
            round_limit=options.round_limit,
            name=options.name,
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
                clock=self.clock,
                abandon_after=self.abandon_after,
                round_limit=self.round_limit,
                leavers=self.leavers,
            ),
            pacing=Pacing(seat_timeout=self.seat_timeout, pace=self.pace),
            choice=TableChoice(kind=self.kind, fresh=self.fresh, resume=self.resume),
            name=self.name,
            stats=self.stats,
            ui_events=ui_events,
        )
