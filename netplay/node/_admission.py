"""Lobby admission: who a node lets in before its table starts, and how the start comes.

:class:`Admission` owns one seat's side of forming the table.  A joiner sends a join
request (its key, a proof it holds the invite, the port it listens on, what it brings) on
every new link, passes others' requests on towards the host, and takes the host's signed
start (checked against the invite).  The host checks each request's proof, seats joiners
through :class:`~netplay.table._seating.Seating`, tells everyone the lobby's count, and signs
and sends the start once every seat is taken; a joiner it will not seat is told why (a
``Bye`` starting with :data:`SEAT_REFUSED`) and stops.  Until the start, at most one
link per seat the table can still hold is let in, and entries that arrive early are kept
(a bounded amount per link) for when the table starts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import fairtable.protocol as P
from fairtable.engine.canonical import canonical_bytes

from .. import events as ev
from ..table import (
    BadName,
    Invite,
    JoinRequest,
    LobbyStatus,
    Seating,
    SeatRefused,
    TableStart,
    join_proof,
    read_signed_name,
    sign_name,
    sign_start,
    verify_start,
)
from ._mesh import Mesh
from ._node_parts import _Peer

__all__ = ["EARLY_BYTES", "EARLY_TOTAL", "REFUSALS_SHOWN", "SEAT_REFUSED", "Admission"]

EARLY_BYTES = 256 * 1024  # bytes of entries a link may leave with us before our table starts
EARLY_TOTAL = 4 * EARLY_BYTES  # ... and all links together (links come and go)
REFUSALS_SHOWN = 16  # ``refused`` events a table shows of what peers sent; the rest are counted
SEAT_REFUSED = "seat refused: "  # a Bye from the host to a joiner it will not seat, and why


class Admission:
    """One seat's side of the lobby (the host's seating, or a joiner's request)."""

    def __init__(
        self,
        identity: P.Identity,
        mesh: Mesh,
        emit: ev.Emit,
        *,
        game: str,
        seats: int,
        brings: Any,
        hosting: bool,
        begin: Callable[[TableStart], None],
        make_spec: Callable[[Seating], P.TableSpec],
        name: str = "",
    ) -> None:
        """``begin`` starts the table with a start we made or checked; ``make_spec`` is the
        host's table settings for a full lobby; ``name`` our player's name ("": none)."""
        self.identity = identity
        self.mesh = mesh
        self.emit = emit
        self.hosting = hosting
        self.seats = seats
        self.brings = brings
        self.name = name
        self.begin = begin
        self.make_spec = make_spec
        self.invite: Invite | None = None  # set by the node once known
        self.start: TableStart | None = None  # the table's signed start, once there is one
        self.seating = Seating(game, seats, identity.public.key, brings)  # the host's
        self.early: dict[bytes, bytes] = {}  # before the start: entries by hash, in order
        self.early_bytes = 0  # their size, at most EARLY_TOTAL
        self.refusals = 0  # what peers sent that we refused, in all (REFUSALS_SHOWN shown)

    def _refused(self, reason: str) -> None:
        """A peer's link, join or start we refused: shown while few (a flood of them would
        fill the screen's log, which keeps the whole game), only counted after."""
        self.refusals += 1
        if self.refusals <= REFUSALS_SHOWN:
            self.emit(ev.Refused(reason))

    # -- links -------------------------------------------------------------------------
    def lets_in(self, key: bytes) -> bool:
        """Before the start, a served link from ``key`` is let in only while the table can
        still seat it (players, not relays; a key already linked may link again)."""
        if self.start is not None:
            return True
        others = self.mesh.player_keys()
        seats = self.seats if self.invite is None or self.hosting else self.invite.seats
        if key not in others and len(others) >= max(seats - 1, 0):
            self._refused("a link beyond the table's seats")
            return False
        return True

    def greeting(self, listen_port: int) -> bytes | None:
        """What a joiner says first on a new link before the start: its join request."""
        if self.hosting or self.start is not None:
            return None
        assert self.invite is not None
        key = self.identity.public.key
        brings = b"" if self.brings is None else canonical_bytes(self.brings)
        return P.encode(
            JoinRequest(
                key,
                join_proof(self.invite.secret, self.invite.lobby_id, key),
                listen_port,
                brings,
                self.signed_name(),
            )
        )

    def signed_name(self) -> bytes:
        """Our name signed for this table (empty: no name)."""
        assert self.invite is not None
        return sign_name(self.identity, self.invite.lobby_id, self.name)

    def keep_early(self, peer: _Peer, data: bytes) -> None:
        """An entry before our table starts: nothing to check it against yet, so keep a
        little of it -- at most EARLY_BYTES per link and EARLY_TOTAL over all links (a link
        that closes takes its count with it) -- an honest entry left out comes back by
        feed request once we start."""
        digest = hashlib.sha256(data).digest()
        if (
            digest not in self.early
            and peer.early_bytes + len(data) <= EARLY_BYTES
            and self.early_bytes + len(data) <= EARLY_TOTAL
        ):
            peer.early_bytes += len(data)
            self.early_bytes += len(data)
            self.early[digest] = data

    def take_early(self) -> list[bytes]:
        early, self.early, self.early_bytes = list(self.early.values()), {}, 0
        return early

    # -- messages ----------------------------------------------------------------------
    def on_join(self, peer: _Peer, data: bytes, msg: JoinRequest) -> None:
        assert self.invite is not None
        if not self.hosting:
            if self.start is None:
                self.mesh.broadcast(data, skip=peer)  # pass it on towards the host
            return
        if join_proof(self.invite.secret, self.invite.lobby_id, msg.key) != msg.proof:
            self._refused("a join without the invite")
            return
        if self.start is not None:
            self.mesh.send(peer, P.encode(self.start))
            return
        address = b""
        remote_host = peer.link.address.rpartition(":")[0]
        if msg.listen and remote_host not in ("", "?") and not peer.via_relay:
            address = f"{remote_host}:{msg.listen}".encode()
        try:
            try:
                read_signed_name(msg.name, self.invite.lobby_id, msg.key)
            except BadName as exc:
                raise SeatRefused(f"a join with a name that cannot be shown ({exc})") from None
            if not self.seating.admit(msg.key, msg.brings, address, msg.name):
                return
        except SeatRefused as exc:
            self._refused(str(exc))
            if peer.link.info.key == msg.key and not peer.via_relay:  # the joiner's own link:
                self.mesh.close_later(peer.link, f"{SEAT_REFUSED}{exc}")  # told why, it stops
            return
        status = LobbyStatus(len(self.seating.taken), self.seats)
        self.emit(ev.LobbyUpdate(status.seated, status.seats))
        self.mesh.broadcast(P.encode(status))
        if self.seating.full:
            start = sign_start(
                self.identity,
                self.make_spec(self.seating),
                self.seating.addresses,
                self.invite.lobby_id,
                self.seating.names(self.signed_name()),
            )
            self.begin(start)
            self.mesh.broadcast(P.encode(start))

    def on_status(self, peer: _Peer, data: bytes, msg: LobbyStatus) -> None:
        if self.start is None:
            self.emit(ev.LobbyUpdate(msg.seated, msg.seats))
            self.mesh.broadcast(data, skip=peer)

    def on_start(self, peer: _Peer, data: bytes, msg: TableStart) -> None:
        if self.start is not None:
            return
        assert self.invite is not None
        if self.hosting:  # we make our own start; one from the network is a replay
            self._refused("a table start from another peer (the host signs its own)")
            return
        try:
            spec = verify_start(self.invite.host_key, msg, self.invite.lobby_id)
        except P.DecodeError as exc:  # signed, but its settings cannot be read
            self.emit(ev.Refused(f"a table start whose settings cannot be read ({exc})"))
            return
        except P.RemoteProtocolError as exc:
            reason = (
                "a table start signed for another table"
                if msg.scope != self.invite.lobby_id
                else f"a table start the host did not sign ({exc})"
            )
            self._refused(reason)
            return
        if spec.leavers() is not self.invite.leavers:  # we sit down under the invite's rule
            self.emit(
                ev.Refused(
                    f"a table start whose rule for a seat that vanishes ({spec.leavers().value}) "
                    f"is not the invite's ({self.invite.leavers.value})"
                )
            )
            return
        try:  # before any of it is kept: a game starts with its settings and its roster
            P.TableSession(spec, None)
        except (P.LocalProtocolError, P.RemoteProtocolError) as exc:
            self.emit(ev.Refused(f"a table start whose settings make no game ({exc})"))
            return
        self.begin(msg)
        self.mesh.broadcast(data, skip=peer)
