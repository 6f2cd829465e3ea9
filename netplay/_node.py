"""A peer at one table, over real links: the lobby, the game, the log on disk.

``TableNode.run`` is one trio task tree per table: a listener (unless told not
to listen), a link to the host or to a relay, links to the other seats once the
table starts (a full mesh where they can reach each other), one reader and one
writer task per link, and a clock task (``_node_clock``).  Each reader feeds
what arrives into the sans-IO :class:`~protocol.TableSession` -- synchronously, so one
message is handled at a time, in order -- and queues what it says to send; a
writer sends everything queued for its link in one write.  Our own entries
are written to disk and fsynced before they leave (durable before visible);
everyone else's are logged as they arrive.
Restarting the same command with the same data directory reloads the log and
carries on (the node says so: a ``resuming`` event); a host resumes only a table of
its own kind (``play`` at this terminal or ``host`` on the LAN), never with ``fresh``.
Messages are flooded: a new entry goes to every link but the one it came from, and a
new link first asks for what it is missing.  While the game runs, the node keeps a small
public summary in ``table.json`` (round, whose turn, when last played) for the resume
list; a resignation (ours through :class:`ResignRequest`, or another seat's) ends the game
and marks the folder finished.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections.abc import Callable
from typing import Any

import attrs
import trio

import protocol as P
from engine.canonical import canonical_bytes
from engine.errors import EngineError

from . import _events as ev
from ._clock import Presence, TableClock, TimeNotice
from ._codelink import announce_table
from ._farewell import Farewell, Farewells
from ._invite import RELAY_SECRET, Invite, join_proof, relay_scope, relay_token
from ._lanaddress import lan_address
from ._lifecycle import UNFINISHED, resumable_table, summary_of
from ._link import FATAL_REASONS, Link, LinkClosed, connect_with_backoff, serve_links
from ._lobby import (
    LINKS_MAX,
    JoinRequest,
    Links,
    LobbyStatus,
    Subscribe,
    TableStart,
    sign_start,
    verify_start,
)
from ._node_clock import NodeClocks
from ._node_parts import NodeConfig, _Peer
from ._reach import refusal_words, unreachable_event
from ._relay_quota import RELAY_REFUSALS
from ._seating import Seating, SeatRefused
from ._storage import LogFile, StorageError, TableFolder, claim_table

__all__ = ["NodeConfig", "ResignRequest", "TableNode"]

Decider = Callable[[P.DecisionNeeded], Any]
_MAX_SEQ = 1 << 52
LINKS_PER_KEY = 2  # links one key may hold to us at once (an old one may linger a while)
EARLY_BYTES = 256 * 1024  # bytes of entries a link may leave with us before our table starts
SEAT_REFUSED = "seat refused: "  # a Bye from the host to a joiner it will not seat, and why
_NEVER_SEATED = FATAL_REASONS | {"not authorised"}  # refusals no retry fixes (a started table)


@attrs.frozen
class ResignRequest:
    """Sent through a node's ``answers`` channel: the person gives the game up."""


class TableNode(NodeClocks):
    """One seat at one table (the host's or a joiner's)."""

    def __init__(
        self,
        config: NodeConfig,
        identity: P.Identity,
        *,
        invite: Invite | None = None,
        seats: int = 0,
        game: str = "reign",
        decider: Decider | None = None,
        emit: ev.Emit = lambda event: None,
        answers: trio.MemoryReceiveChannel[Any] | None = None,
        brings: Any = None,
    ) -> None:
        """``decider`` answers for a bot; without one, ``answers`` brings a person's answers
        (from the screen, through a bounded channel) and ``emit`` reports every view.
        ``brings`` is what this seat brings to the table (the game's seat option, e.g. a
        Sovereign deck, as plain JSON data), or None."""
        self.config = config
        self.identity = identity
        self.invite = invite
        self.hosting = invite is None
        self.seats = seats
        self.game = game
        self.decider = decider
        self.emit = emit
        self.answers = answers
        self.session: P.TableSession | None = None
        self.start: TableStart | None = None
        self.peers: set[_Peer] = set()
        self.lobby = Seating(game, seats, identity.public.key, brings)  # the host's
        self.brings = brings
        self.early: dict[bytes, bytes] = {}  # before the start: entries by hash, in order
        self.folder: TableFolder | None = None
        self.log: LogFile | None = None
        self.clock: TableClock | None = None  # once seated: banks, presence, countdowns
        self.done = trio.Event()
        self.farewells: Farewells | None = None  # once seated: which seats saw the end
        self._everyone_finished = trio.Event()
        self.port = 0
        self._nursery: trio.Nursery | None = None
        self._dialled: set[bytes] = set()
        self._links_opened = 0
        self._seen: set[bytes] = set()  # hashes of entries already handled
        self._told_waiting: list[int] = []
        self._told_clock: set[int] = set()  # the seats the last clock event showed
        self._progress_at = 0.0  # when a new entry last arrived
        self._stop_announcing: trio.CancelScope | None = None
        self._decided: dict[int, tuple[float, str]] = {}  # step -> when we answered, what
        self._applied: dict[int, float] = {}  # step -> when our engine moved past it
        self._serial = 0
        self._summary: tuple[Any, ...] | None = None  # (round, turn) last kept in table.json
        self._summary_serial = -1

    # -- running -----------------------------------------------------------------------------
    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self.hosting:
                self.invite = self._resume_hosted()
                if self.invite is None and self.config.resume is not None:
                    raise StorageError(f"table {self.config.resume.hex()[:12]}: not an "
                                       "unfinished table of ours on disk")
            if self.config.listen_port is not None:
                self.port = await nursery.start(self._serve, self._listen_port())
            if self.invite is None:
                self.invite = self._new_invite()
            self._open_folder()
            task_status.started(self.invite)
            code = None
            if self.hosting and self.config.announce_to is not None and self.start is None:
                code = await nursery.start(self._announce)
            if self.invite is not None and self.hosting:
                self.emit(ev.TableOpen(self.invite.text(), self._limits().option(),
                                       None if code is None else code.text()))
            elif self.invite is not None:
                self.emit(ev.Joining(self.invite.text()))
            if self.config.via is not None:
                nursery.start_soon(self._dial, self.config.via, True, None)
            elif not self.hosting and self.invite is not None:
                nursery.start_soon(self._dial, (self.invite.host, self.invite.port), False,
                                   self.invite.host_key)
            nursery.start_soon(self._clock)
            if self.answers is not None:
                nursery.start_soon(self._take_answers)
            self._pump()
            if self.config.resign and not self.done.is_set():
                self._resign()
            await self.done.wait()
            await self._leave()
            nursery.cancel_scope.cancel()

    async def _leave(self) -> None:
        """Go once nobody can need anything from us any more -- every seat said farewell
        and our queues are sent -- or after the grace period (a verdict, a silent seat)."""
        with trio.move_on_after(self.config.grace):
            finished = self.session is not None and self.session.finished is not None
            if not finished:
                await trio.sleep_forever()  # let the last entries reach the others
            await self._everyone_finished.wait()
            for peer in list(self.peers):
                peer.leaving = True
                peer.outbox.close()
            for peer in list(self.peers):
                await peer.drained.wait()

    async def _announce(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Tell the LAN about the table, with a join code, while seats are free (a hint: the
        invite decides; the code is a way to be handed it)."""
        assert self.invite is not None and self.config.announce_to is not None
        address, port = self.config.announce_to
        with trio.CancelScope() as scope:
            self._stop_announcing = scope
            await announce_table(self.invite, lambda: self.seats - max(1, len(self.lobby.taken)),
                                 listen_host=self.config.listen_host, address=address, port=port,
                                 emit=self.emit, task_status=task_status)

    def _listen_port(self) -> int:
        """The port asked for; after a restart, the one we had (others dial it)."""
        if self.config.listen_port:
            return self.config.listen_port
        if self.invite is not None:
            folder = TableFolder(self.config.data_dir, "tables", self.invite.scope)
            if folder.exists():
                port = folder.read_info().get("port", 0)
                return port if isinstance(port, int) else 0
        return 0

    def _open_folder(self) -> None:
        """Find (or make) this table's folder; resume a game already under way."""
        data_dir = self.config.data_dir
        assert self.invite is not None
        self.folder = TableFolder(data_dir, "tables", self.invite.scope)
        existed = self.folder.exists()
        info = self.folder.read_info() if existed else {}
        if existed and info.get("status", "lobby") in UNFINISHED:
            self.emit(ev.Resuming(self.invite.scope.hex(), self.invite.game,
                                  info.get("status", "lobby"),
                                  info.get("created", self.folder.path.stat().st_mtime),
                                  info.get("round")))
        if not existed:
            info["kind"] = self.config.kind if self.hosting else "join"
            info["created"] = int(time.time())
        info.update({"invite": self.invite.text(), "role": "host" if self.hosting else "joiner",
                     "status": info.get("status", "lobby"), "port": self.port})
        self.folder.write_info(info)
        self.log = self.folder.log()
        if "start" in info:
            try:
                start = P.decode_as(bytes.fromhex(info["start"]), TableStart)
            except (ValueError, P.DecodeError) as exc:
                raise self._unreadable(exc) from None
            self._begin(start, resumed=True)

    def _unreadable(self, exc: Exception) -> StorageError:
        assert self.folder is not None
        return StorageError(f"{self.folder.path}: the saved game cannot be read ({exc}); "
                            "its files are kept as they are")

    def _new_invite(self) -> Invite:
        host = self.config.advertise_host
        if host is None:
            choice = lan_address(self.config.listen_host)
            if choice.note:
                self.emit(ev.NoLanAddress(choice.note))
            host = choice.host
        return Invite(host, self.port, os.urandom(32),
                      self.identity.public.key, os.urandom(32), self.game, self.seats)

    def _resume_hosted(self) -> Invite | None:
        """The table we go on with (none with ``fresh``): see :func:`resumable_table`."""
        if self.config.fresh and self.config.resume is None:
            return None
        return resumable_table(self.config.data_dir, self.identity.public.key,
                               kind=self.config.kind, game=self.game, seats=self.seats,
                               resume=self.config.resume)

    async def _serve(self, port: int, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        def secrets_for(scope: bytes) -> bytes | None:
            if self.invite is not None and scope == self.invite.scope:
                return self.invite.secret
            return None

        def authorise(info: Any) -> bool:
            if self.start is None or self.session is None:
                return True  # the lobby: the handshake proved the invite
            return info.key in self.session.spec.players

        await serve_links(port, self._adopt_served, identity=self.identity,
                          secrets_for=secrets_for, authorize=authorise,
                          host=self.config.listen_host, task_status=task_status)

    async def _dial(self, address: tuple[str, int], via_relay: bool, key: bytes | None) -> None:
        """Keep a link to ``address`` up until the table is done (reconnecting with back-off)."""
        assert self.invite is not None
        scope, secret = self.invite.scope, self.invite.secret
        if via_relay:
            scope, secret = relay_scope(relay_token(self.invite)), RELAY_SECRET
        failures = [0]  # in a row; each one is told (the screen and the log say why)

        def failed(exc: LinkClosed, wait: float) -> None:
            failures[0] += 1
            self.emit(unreachable_event(address, exc, failures[0], wait))

        while not self.done.is_set():
            async with trio.open_nursery() as nursery:
                try:
                    link = await connect_with_backoff(
                        nursery, address[0], address[1], identity=self.identity, scope=scope,
                        secret=secret, role="peer", rng=random.Random(), expect_key=key,
                        max_delay=2.0, on_retry=failed, fatal=_NEVER_SEATED)
                    failures[0] = 0
                except LinkClosed as exc:
                    self.emit(ev.LinkRefused(exc.reason))
                    if self.session is None and not self.hosting and not via_relay:
                        self.emit(ev.Refused(refusal_words(exc.reason)))
                        self._finish("refused")  # never seated: nothing to resume
                    return
                if via_relay:
                    await link.send(P.encode(Subscribe(relay_token(self.invite), "peer")))
                await self._adopt(link, via_relay=via_relay)
                if via_relay and link.closed is not None and link.closed.by_peer and (
                        link.closed.reason in RELAY_REFUSALS):  # the relay will not keep us
                    self.emit(ev.LinkRefused(link.closed.reason))
                    if self.session is None:
                        self.emit(ev.Refused("the relay refused the table: "
                                             + link.closed.reason))
                        self._finish("refused")
                        return
                    await trio.sleep(2.0)  # seated: try again, the relay may make room

    async def _adopt_served(self, link: Link) -> None:
        """A link someone opened to us: in the lobby, at most one key per seat the table can
        still hold (players, not relays); any more is closed at once, saying why.  One key
        keeps at most :data:`LINKS_PER_KEY` links: the newest (a reconnect is never refused)."""
        key = link.info.key
        same = sorted((p for p in self.peers if not p.via_relay and p.link.info.key == key),
                      key=lambda p: p.serial)
        for old in same[:max(len(same) + 1 - LINKS_PER_KEY, 0)]:
            self.peers.discard(old)  # no longer ours to send to; its tasks end with it
            assert self._nursery is not None
            self._nursery.start_soon(old.link.aclose, "replaced by a newer link")
        if self.start is None:
            others = {p.link.info.key for p in self.peers if not p.via_relay}
            seats = self.seats if self.invite is None or self.hosting else self.invite.seats
            if key not in others and len(others) >= max(seats - 1, 0):
                self.emit(ev.Refused("a link beyond the table's seats"))
                await link.aclose(f"{SEAT_REFUSED}the table is full")
                return
        await self._adopt(link)

    async def _adopt(self, link: Link, *, via_relay: bool = False) -> None:
        """Run one link: a writer task, and this task as its reader, until it closes."""
        send, receive = trio.open_memory_channel[bytes](1024)
        self._links_opened += 1
        peer = _Peer(link, send, via_relay, serial=self._links_opened)
        self.peers.add(peer)
        self._tell_links()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._writer, peer, receive)
            self._greet(peer)
            try:
                while True:
                    data = await link.receive()
                    self._handle(peer, data)  # synchronous: one message at a time, in order
                    self._pump()
            except LinkClosed as exc:
                if exc.by_peer and exc.reason.startswith(SEAT_REFUSED) and self.session is None:
                    self.emit(ev.Refused(exc.reason[len(SEAT_REFUSED):]))
                    self._finish("refused")  # the host will not seat us: nothing to resume
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            finally:
                self.peers.discard(peer)
                self._tell_links()
                nursery.cancel_scope.cancel()
                with trio.CancelScope(shield=True):
                    await link.aclose("done")

    async def _writer(self, peer: _Peer, outbox: trio.MemoryReceiveChannel[bytes]) -> None:
        try:
            async for data in outbox:
                queued = [data]
                while True:  # whatever queued up meanwhile goes in the same write
                    try:
                        queued.append(outbox.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                await peer.link.send_many(queued)
        except LinkClosed:
            return
        finally:
            peer.drained.set()
        if not peer.leaving:
            await peer.link.aclose("too slow")  # our queue to it overflowed

    def _send(self, peer: _Peer, data: bytes) -> None:
        try:
            peer.outbox.send_nowait(data)
        except trio.WouldBlock:  # a link too slow to keep up is dropped; it will catch up
            peer.outbox.close()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    def _broadcast(self, data: bytes, *, skip: _Peer | None = None) -> None:
        for peer in list(self.peers):
            if peer is not skip:
                self._send(peer, data)

    def _tell_links(self) -> None:
        """Tell every link whom we are linked to (players, not relays).  Never more keys than
        the message holds: a key left out only costs a peer a redundant forward."""
        keys = tuple(sorted({p.link.info.key for p in self.peers if not p.via_relay}))
        keys = keys[:LINKS_MAX]
        self._broadcast(P.encode(Links(keys)))

    def _forward(self, data: bytes, author: bytes, source: _Peer) -> None:
        """Flood a new entry -- but not to its author, nor to a peer linked to its author
        (the author sent it there itself)."""
        for peer in list(self.peers):
            if peer is source or peer.link.info.key == author or author in peer.linked:
                continue
            self._send(peer, data)

    def _greet(self, peer: _Peer) -> None:
        """A new link: say what we are, and ask for what we lack."""
        assert self.invite is not None
        if not self.hosting and self.start is None:
            key = self.identity.public.key
            brings = b"" if self.brings is None else canonical_bytes(self.brings)
            self._send(peer, P.encode(JoinRequest(
                key, join_proof(self.invite.secret, self.invite.scope, key),
                self.port if self.config.via is None else 0, brings)))
        if self.start is not None:
            self._send(peer, P.encode(self.start))
        self._ask_missing(peer)

    def _ask_missing(self, peer: _Peer) -> None:
        if self.session is not None:
            for seat in range(self.session.spec.seats):
                have = len(self.session.log.entries(seat))
                self._send(peer, P.encode(P.FeedRequest(seat, have, _MAX_SEQ)))

    # -- messages ----------------------------------------------------------------------------
    def _handle(self, peer: _Peer, data: bytes) -> None:
        digest = hashlib.sha256(data).digest()
        if digest in self._seen:  # flooding brings most messages more than once
            return
        try:
            msg = P.decode(data)
        except P.DecodeError:
            return  # nothing we can use (the peer proved the invite; it just talks nonsense)
        handler = self._HANDLERS.get(type(msg))
        if handler is not None:
            handler(self, peer, data, msg)
        if isinstance(msg, P.Entry) and self.session is not None:
            self._seen.add(digest)

    def _on_entry(self, peer: _Peer, data: bytes, msg: P.Entry) -> None:
        if self.session is None:  # nothing to check it against yet: keep a little of it
            digest = hashlib.sha256(data).digest()
            if digest not in self.early and peer.early_bytes + len(data) <= EARLY_BYTES:
                peer.early_bytes += len(data)
                self.early[digest] = data
            return  # an honest entry left out comes back by feed request once we start
        if self.session.receive_entry(msg):
            assert self.log is not None
            self.log.append(data, durable=False)
            self._progress_at = trio.current_time()
            self._forward(data, self.session.spec.players[msg.seat], peer)

    def _on_want(self, peer: _Peer, data: bytes, msg: P.FeedRequest) -> None:
        if self.session is not None:
            for entry in self.session.log.serve(msg, limit=4096):
                self._send(peer, P.encode(entry))

    def _on_join(self, peer: _Peer, data: bytes, msg: JoinRequest) -> None:
        assert self.invite is not None
        if not self.hosting:
            if self.start is None:
                self._broadcast(data, skip=peer)  # pass it on towards the host
            return
        if join_proof(self.invite.secret, self.invite.scope, msg.key) != msg.proof:
            self.emit(ev.Refused("a join without the invite"))
            return
        if self.start is not None:
            self._send(peer, P.encode(self.start))
            return
        address = b""
        remote_host = peer.link.address.rpartition(":")[0]
        if msg.listen and remote_host not in ("", "?") and not peer.via_relay:
            address = f"{remote_host}:{msg.listen}".encode()
        try:
            if not self.lobby.admit(msg.key, msg.brings, address):
                return
        except SeatRefused as exc:
            self.emit(ev.Refused(str(exc)))
            if peer.link.info.key == msg.key and not peer.via_relay:  # the joiner's own link:
                assert self._nursery is not None  # its Bye tells it why, and it stops
                self._nursery.start_soon(peer.link.aclose, f"{SEAT_REFUSED}{exc}")
            return
        status = LobbyStatus(len(self.lobby.taken), self.seats)
        self.emit(ev.LobbyUpdate(status.seated, status.seats))
        self._broadcast(P.encode(status))
        if self.lobby.full:
            spec = self.lobby.spec(self.config.round_limit, os.urandom(32), self._limits())
            start = sign_start(self.identity, spec, self.lobby.addresses, self.invite.scope)
            self._begin(start, resumed=False)
            self._broadcast(P.encode(start))

    def _on_farewell(self, peer: _Peer, data: bytes, msg: Farewell) -> None:
        if self.farewells is not None and self.farewells.take(msg):
            self._broadcast(data, skip=peer)
            if self.farewells.everyone:
                self._everyone_finished.set()

    def _on_links(self, peer: _Peer, data: bytes, msg: Links) -> None:
        peer.linked = frozenset(msg.keys)

    def _on_status(self, peer: _Peer, data: bytes, msg: LobbyStatus) -> None:
        if self.start is None:
            self.emit(ev.LobbyUpdate(msg.seated, msg.seats))
            self._broadcast(data, skip=peer)

    def _on_start(self, peer: _Peer, data: bytes, msg: TableStart) -> None:
        if self.start is not None:
            return
        assert self.invite is not None
        if self.hosting:  # we make our own start; one from the network is a replay
            self.emit(ev.Refused("a table start from another peer (the host signs its own)"))
            return
        try:
            verify_start(self.invite.host_key, msg, self.invite.scope)
        except (P.RemoteProtocolError, P.DecodeError) as exc:
            reason = ("a table start signed for another table" if msg.scope != self.invite.scope
                      else f"a table start the host did not sign ({exc})")
            self.emit(ev.Refused(reason))
            return
        self._begin(msg, resumed=False)
        self._broadcast(data, skip=peer)

    _HANDLERS: dict[type, Callable[[TableNode, _Peer, bytes, Any], None]] = {
        P.Entry: _on_entry,
        P.FeedRequest: _on_want,
        JoinRequest: _on_join,
        LobbyStatus: _on_status,
        Links: _on_links,
        TableStart: _on_start,
        Farewell: _on_farewell,
        Presence: NodeClocks._on_presence,
        TimeNotice: NodeClocks._on_notice,
    }

    # -- the game ----------------------------------------------------------------------------
    def _begin(self, start: TableStart, *, resumed: bool) -> None:
        assert self.invite is not None and self.folder is not None and self.log is not None
        spec = verify_start(self.invite.host_key, start, self.invite.scope)
        me = self.identity.public.key
        if me not in spec.players:
            self.emit(ev.Refused("the table started without us"))
            self._finish("refused")  # never seated: nothing to resume
            return
        seat = spec.players.index(me)
        info = self.folder.read_info()
        if "start" not in info:  # durable before visible: the start is on disk first
            info.update({"start": P.encode(start).hex(), "seat": seat, "status": "playing"})
            self.folder.write_info(info)
        claim_table(self.config.data_dir, spec.table_id, self.invite.scope)  # before signing
        self.start = start
        if self._stop_announcing is not None:
            self._stop_announcing.cancel()
        try:
            self.session = P.TableSession(spec, seat, self.identity,
                                          secret_seed=self.folder.secret_seed(),
                                          saved=list(self.log.records))
        except (P.DecodeError, P.LocalProtocolError) as exc:  # another version; bad settings
            raise self._unreadable(exc) from None
        self.farewells = Farewells(spec.table_id, spec.players)
        limits = spec.time_limits()
        self.clock = TableClock(limits, spec.table_id, spec.players, seat, trio.current_time(),
                                beat=self.config.beat, report_after=self.config.seat_timeout)
        self.emit(ev.Seated(seat, spec.seats, spec.table_id.hex(), resumed, limits.option(),
                            time.monotonic() if self.config.stats else None))
        for data in self.early.values():  # what came before the start: take, log, pass on
            if self.session.receive(data):
                self.log.append(data, durable=False)
                self._broadcast(data)
        self.early = {}
        for peer in list(self.peers):
            self._greet(peer)
        self._mesh(start, seat)

    def _mesh(self, start: TableStart, seat: int) -> None:
        """Link to every seat after ours that can be reached directly."""
        if self.config.via is not None or self._nursery is None or self.session is None:
            return
        for other, raw in enumerate(start.addresses):
            key = self.session.spec.players[other]
            if other <= seat or not raw or key in self._dialled:
                continue
            host, _, port = raw.decode().rpartition(":")
            if not port.isdigit():
                continue
            self._dialled.add(key)
            self._nursery.start_soon(self._dial, (host, int(port)), False, key)

    def _pump(self) -> None:
        """Carry out what the session says: send, decide, report."""
        session = self.session
        if session is None:
            return
        while True:
            serial = session.game.state.serial
            if serial != self._serial:
                now = time.monotonic()
                for step in range(self._serial, serial):
                    self._applied.setdefault(step, now)
                self._serial = serial
            for data in session.outgoing():
                assert self.log is not None
                self.log.append(data, durable=True)  # durable before visible
                self._broadcast(data)
            event = session.next_event()
            if event is None:
                break
            self._on_event(event)
        if self.clock is not None:
            self.clock.observe(trio.current_time(), session.waiting, session.decisions_applied(),
                               session.thinking())
        self._keep_summary()
        if self.config.ui_events:
            waiting = sorted(session.waiting - {session.seat})
            if waiting != self._told_waiting:
                self._told_waiting = waiting
                self.emit(ev.WaitingFor(waiting))

    def _keep_summary(self) -> None:
        """Keep the round and whose turn it is in ``table.json`` when they change (public
        facts only -- never a card), for ``fairtable resume`` to list without replaying."""
        session, folder = self.session, self.folder
        if session is None or folder is None or session.finished or session.verdict:
            return
        if session.game.state.serial == self._summary_serial:
            return  # the round and the turn change only with a step
        self._summary_serial = session.game.state.serial
        summary = summary_of(session.game)
        if summary == self._summary:
            return
        self._summary = summary
        info = folder.read_info()
        info.update({"round": summary[0], "turn": summary[1], "last_played": int(time.time())})
        folder.write_info(info)

    def _on_event(self, event: Any) -> None:
        session = self.session
        assert session is not None
        if isinstance(event, P.DecisionNeeded) and self.decider is not None:
            if self.config.pace > 0 and self._nursery is not None:
                self._nursery.start_soon(self._decide_later, event)
            else:
                self._decided[event.step] = (time.monotonic(), event.decision.kind)
                session.decide(self.decider(event))
        elif isinstance(event, P.DecisionNeeded) and self.config.ui_events:
            self.emit(ev.DecisionAsked(event.decision, event.view))
        elif isinstance(event, P.StepApplied) and self.config.ui_events:
            self.emit(ev.ViewChanged(session.game.view(session.seat), event.events))
        elif isinstance(event, P.CardsSeen) and self.config.ui_events:
            self.emit(ev.CardsShown(event.cards, event.why))
        elif isinstance(event, P.VerdictReached):
            v = event.verdict
            self.emit(ev.Verdict(v.seat, v.kind, v.reason))
            self._finish("verdict")
        elif isinstance(event, P.GameResigned):
            self.emit(ev.Resigned(event.seat, event.step, event.seat == session.seat))
            self._finish("finished", resigned=event.seat)
            self._farewell(event.digest)
        elif isinstance(event, P.GameFinished):
            stats = None
            if self.config.stats:
                stats = {"at": time.monotonic(), "messages": session.messages_sent,
                                   "bytes": session.bytes_sent,
                                   "decided": {str(k): v for k, v in self._decided.items()},
                                   "applied": {str(k): v for k, v in self._applied.items()}}
            self.emit(ev.GameOver(event.winner, event.digest, event.end, stats))
            self._finish("finished")
            self._farewell(event.digest)

    def _farewell(self, digest: str) -> None:
        session = self.session
        assert self.farewells is not None and session is not None and session.seat is not None
        self._broadcast(P.encode(self.farewells.make(self.identity, session.seat, digest)))
        if self.farewells.everyone:
            self._everyone_finished.set()

    async def _take_answers(self) -> None:
        """A person's answers, as the screen sends them."""
        assert self.answers is not None
        async for answer in self.answers:
            if isinstance(answer, ResignRequest):
                self._resign()
                continue
            session = self.session
            if session is None:
                continue
            try:
                session.decide(answer)
            except (EngineError, P.LocalProtocolError) as exc:
                self.emit(ev.AnswerRefused(getattr(exc, "reason", str(exc))))
                continue
            self.emit(ev.Answered())
            self._pump()

    async def _decide_later(self, event: P.DecisionNeeded) -> None:
        await trio.sleep(self.config.pace)
        if self.session is not None and self.decider is not None and not self.done.is_set():
            self.session.decide(self.decider(event))
            self._pump()

    def _resign(self) -> None:
        """Give the game up for our seat (a refusal -- the game is over -- is reported)."""
        session = self.session
        if session is None:
            self.emit(ev.AnswerRefused("the game has not started"))
            return
        try:
            session.resign()
        except P.LocalProtocolError as exc:
            self.emit(ev.AnswerRefused(str(exc)))
            return
        self._pump()

    def _finish(self, status: str, *, resigned: int | None = None) -> None:
        if self.folder is not None:
            info = self.folder.read_info()
            info["status"] = status
            if resigned is not None:
                info.update({"end": "resigned", "resigned": resigned})
            self.folder.write_info(info)
        self.done.set()

    def _catch_up(self, now: float) -> None:
        """Stalled for 2 s: ask every link again for what we lack."""
        if now - self._progress_at >= 2.0:
            self._progress_at = now
            for peer in list(self.peers):
                self._ask_missing(peer)
