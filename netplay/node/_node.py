"""A peer at one table, over real links: the parts composed, and the game's messages.

``TableNode.run`` is one trio task tree per table: a listener (unless told not to listen),
a link to the host or to a relay, links to the other seats once the table starts (a full
mesh where they can reach each other), one reader and one writer task per link, and a
clock task.  The node owns the table's identity (invite, signed start, session) and the
routing of messages to the parts that own them:

* :class:`~netplay.node._admission.Admission` -- lobby admission: join requests, seating, the
  signed start, entries that come before it;
* :class:`~netplay.node._node_folder.NodeFolder` -- the table folder: resuming a hosted table,
  ``table.json``, the log on disk;
* :class:`~netplay.node._mesh.Mesh` -- the links and flooding over them;
* :class:`~netplay.node._pump.SessionPump` -- pumping the sans-IO :class:`~protocol.TableSession`:
  our entries out (durable before visible), decisions (bots, paced, or a person's answers),
  events for the client (``netplay.events``);
* :class:`~netplay.node._liveness.Liveness` -- presence beats, clocks, catching up when stalled;
* :class:`~netplay.node._departure.Departure` -- leaving: the farewell and when to go;
* :class:`~netplay.node._node_links.NodeLinks` -- which links it keeps up: serving, dialling
  the host or relay and the later seats, refusals that end the table.

The last two are the node's bases: they read the state the node holds.

Each reader feeds what arrives into the session synchronously, one message at a time, in
order.  Restarting the same command with the same data directory reloads the log and
carries on (a ``resuming`` event); a host resumes only a table of its own kind (``play`` at
this terminal or ``host`` on the LAN), never with ``fresh``.  A finished seat floods a
farewell and leaves once every seat said one (or after the grace period).
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable
from typing import Any

import trio

import fairtable.protocol as P

from .. import events as ev
from ..lan import LanOffer, lan_address, offer_code
from ..links import (
    Watchers,
    tls_key_at,
)
from ..storage import LogFile, TableFolder, claim_table
from ..table import (
    OVER_BUDGET,
    Farewell,
    Farewells,
    Invite,
    JoinRequest,
    Links,
    LobbyId,
    LobbyStatus,
    Presence,
    Seating,
    ServeBudget,
    Starved,
    TableStart,
    TimeNotice,
    start_names,
    verify_start,
)
from ._admission import Admission
from ._follow import PATIENCE as FOLLOW_PATIENCE
from ._follow import follow_rest
from ._liveness import Liveness
from ._mesh import Mesh
from ._node_folder import NodeFolder
from ._node_links import NodeLinks
from ._node_parts import NodeConfig, _Peer
from ._pump import Decider, ResignRequest, SessionPump
from ._watch import WatchRefused

__all__ = ["NodeConfig", "PortBusy", "ResignRequest", "TableNode"]

_MAX_SEQ = 1 << 52


class PortBusy(Exception):
    """The port a host's lobby listened on (its invite names it) is held by another socket;
    the words say which port."""


class TableNode(NodeLinks):
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
        session_class: type[P.TableSession] = P.TableSession,
    ) -> None:
        """``decider`` answers for a bot; without one, ``answers`` brings a person's answers
        (from the screen, through a bounded channel) and ``emit`` reports every view.
        ``brings`` is what this seat brings to the table (the game's seat option, e.g. a
        Sovereign deck, as plain JSON data), or None.  ``session_class`` plays the seat (a
        test's cheating session, e.g. ``protocol.cheating_session``; honest by default)."""
        self.config = config
        self.identity = identity
        self.invite = invite
        self.hosting = invite is None
        self.seats = seats
        self.game = game
        self.emit = emit
        self.answers = answers
        self.session_class = session_class
        self.session: P.TableSession | None = None
        self.done = trio.Event()
        self.farewells: Farewells | None = None  # once seated: which seats saw the end
        self._everyone_finished = trio.Event()
        self._gone = trio.Event()  # we left the table: links are no longer kept up
        self._dialling: dict[bytes | None, trio.CancelScope] = {}  # by the key we dial
        self._farewells_held: list[bytes] = []  # every seat's farewell we hold (at most one each)
        self._evidence_held: list[bytes] = []  # our verdict's evidence, said on every new link
        self.port = 0
        self._nursery: trio.Nursery | None = None
        self._stop_announcing: trio.CancelScope | None = None
        self.mesh = Mesh(
            identity, emit, on_open=self._greet, on_message=self._receive, on_closed=self._closed
        )
        self.serving = ServeBudget()  # bytes of catch-up answers per asker
        self.files = NodeFolder(config, hosting=self.hosting, emit=emit)
        self.watchers = Watchers(self._watch_catch_up)  # spectators (fairtable watch)
        self.admission = Admission(
            identity,
            self.mesh,
            emit,
            game=game,
            seats=seats,
            brings=brings,
            hosting=self.hosting,
            begin=lambda start: self._begin(start, resumed=False),
            make_spec=self._spec,
            name=config.name,
        )
        self.pump = SessionPump(
            config,
            emit,
            decider=decider,
            send_own=self._send_own,
            ended=self._ended,
            after=self._after_pump,
            stopped=self.done,
            left=self._stop_dialling,
        )
        self.liveness = Liveness(
            config,
            identity,
            emit,
            self.mesh,
            pump=self.pump.pump,
            ask_missing=self._ask_missing,
            lobby=self._relobby,
            tick=self.files.flush_summary,
        )
        self._routes: dict[type, Callable[[_Peer, bytes, Any], None]] = {  # who handles what
            P.Entry: self._on_entry,
            P.FeedRequest: self._on_want,
            JoinRequest: self.admission.on_join,
            LobbyStatus: self.admission.on_status,
            TableStart: self.admission.on_start,
            Links: self.mesh.on_links,
            Farewell: self._on_farewell,
            P.EquivocationProof: self._on_equivocation,
            Presence: self.liveness.on_presence,
            TimeNotice: self.liveness.on_notice,
            Starved: self.liveness.on_starved,
        }

    # -- what the parts hold, by the names callers read -----------------------------------
    @property
    def start(self) -> TableStart | None:
        return self.admission.start

    @property
    def peers(self) -> set[_Peer]:
        return self.mesh.peers

    @property
    def folder(self) -> TableFolder | None:
        return self.files.folder

    @property
    def log(self) -> LogFile | None:
        return self.files.log

    @property
    def lobby(self) -> Seating:
        return self.admission.seating

    # -- running -----------------------------------------------------------------------------
    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = self.mesh.nursery = self.pump.nursery = nursery
            if self.hosting:
                self.invite = self.files.resume_hosted(
                    self.identity.public.key, self.game, self.seats
                )
            self.admission.invite = self.invite
            if self.config.reach.listen_port is not None:
                self.port = await self._listen(nursery)
            if self.invite is None:
                relay_key = None
                if self.config.reach.via is not None:  # the key given, else trusted on first use
                    relay_key = self.config.reach.via_key or await tls_key_at(
                        *self.config.reach.via
                    )
                self.invite = self.admission.invite = self._new_invite(relay_key)
            saved = self.files.open(self.invite, self.port)
            if saved is not None:
                self._begin(saved, resumed=True)
            task_status.started(self.invite)
            reach, offer = self.config.reach, None
            if self.hosting and (reach.announce_to or reach.via) and self.start is None:
                offer = await nursery.start(self._announce)
            if self.hosting:
                code = offer if offer is not None and (offer.lan or offer.via) else None
                self.emit(
                    ev.TableOpen(
                        self.invite.text(),
                        self.config.terms.time_limits(),
                        None if code is None else code.code.text(),
                        None if code is None else code.via,
                        None if code is None else code.lan,
                        self.invite.leavers,
                    )
                )
            else:
                self.emit(ev.Joining(self.invite.text(), self.invite.leavers))
            if (
                self.config.reach.via is not None
            ):  # pinned to the relay key we were given or invited to
                nursery.start_soon(
                    self._dial,
                    self.config.reach.via,
                    True,
                    self.config.reach.via_key or self.invite.relay_key,
                )
            elif not self.hosting:
                nursery.start_soon(
                    self._dial, (self.invite.host, self.invite.port), False, self.invite.host_key
                )
            nursery.start_soon(self.liveness.run, self.done)
            if self.answers is not None:
                nursery.start_soon(self.pump.take_answers, self.answers)
            self.pump.pump()
            if self.config.choice.resign and not self.done.is_set():
                self.pump.resign(leave=False)  # headless, at once: the game ends for all
            await self.done.wait()
            await self._leave()
            self._gone.set()
            nursery.cancel_scope.cancel()

    async def _listen(self, nursery: trio.Nursery) -> int:
        """Start our listener, on the port asked for or else the one we had (the others dial
        the address the start signed).  That one came from the system's ephemeral range, so
        another socket may hold it by now: then a seat that may move (``may_move``) listens
        on another port and dials every seat itself (``_link_seats``); a host's lobby cannot
        (its invite names the port), and says so (:class:`PortBusy`)."""
        port = self.files.listen_port(self.invite)
        try:
            bound: int = await nursery.start(self._serve, port)
            return bound
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE or not port or self.config.reach.listen_port:
                raise
            if not self.files.may_move(self.invite):
                words = (exc.strerror or str(exc)).lower()
                raise PortBusy(
                    f"cannot listen on {self.config.reach.listen_host}:{port}, "
                    f"the port this table's invite names: {words}"
                ) from None
        bound = await nursery.start(self._serve, 0)
        return bound

    async def follow_rest(
        self,
        on_event: Callable[[Any, P.TableSession], None],
        *,
        on_names: Callable[[tuple[str, ...]], None] = lambda names: None,
        on_retry: Callable[[str, str, int, float], None] | None = None,
        patience: float = FOLLOW_PATIENCE,
    ) -> P.TableSession:
        """Once :meth:`run` has returned after our seat left a game that plays on: follow
        the rest as a spectator, until the game ends (:mod:`netplay.node._follow`: through
        the seats still at the table or the relay; a host without a relay serves spectators
        again at its address).  Raises :class:`WatchRefused` if we did not leave so, if
        nobody will let us watch, or once no seat has answered for ``patience`` seconds."""
        session, start, invite = self.session, self.start, self.invite
        if session is None or session.left is None or session.seat is None:
            raise WatchRefused("our seat did not leave a table that plays on")
        assert start is not None and invite is not None
        reach = self.config.reach
        serving = self.hosting and reach.via is None and reach.listen_port is not None
        return await follow_rest(
            invite,
            start,
            session.seat,
            frozenset(session.departures.gone) | {session.seat},
            on_event,
            identity=self.identity,
            reach=reach,
            serve_at=self.port if serving else None,
            on_names=on_names,
            on_retry=on_retry,
            patience=patience,
        )

    async def _announce(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Offer a join code while seats are free -- announced on the LAN, held at our relay
        (a way to be handed the invite, which decides) -- and tell the LAN about the table."""
        assert self.invite is not None
        reach = self.config.reach
        lan = None
        if reach.announce_to is not None:
            lan = LanOffer(reach.listen_host, *reach.announce_to)
        with trio.CancelScope() as scope:
            self._stop_announcing = scope
            await offer_code(
                self.invite,
                lambda: self.seats - max(1, len(self.lobby.taken)),
                identity=self.identity,
                lan=lan,
                via=reach.via,
                via_key=reach.via_key or self.invite.relay_key,
                emit=self.emit,
                name=self.config.name,
                task_status=task_status,
            )

    def _new_invite(self, relay_key: bytes | None) -> Invite:
        host = self.config.reach.advertise_host
        if host is None:
            choice = lan_address(self.config.reach.listen_host)
            if choice.note:
                self.emit(ev.NoLanAddress(choice.note))
            host = choice.host
        return Invite(
            host,
            self.port,
            LobbyId(os.urandom(32)),
            self.identity.public.key,
            os.urandom(32),
            self.game,
            self.seats,
            relay_key,
            self.config.terms.leavers,
        )

    def _spec(self, seating: Seating) -> P.TableSpec:
        """The host's settings for a full lobby: a fresh nonce, the round limit, the clocks,
        and the leavers rule its invite promised the joiners."""
        assert self.invite is not None
        return seating.spec(
            self.config.terms.round_limit,
            os.urandom(32),
            self.config.terms.time_limits(),
            self.invite.leavers,
        )

    # -- what a link is told (the links themselves: NodeLinks) ------------------------------
    def _relobby(self) -> None:
        """Say again what forms the table, to every link: our join request until the start
        comes, then the start until every seat beat (a relay that lost either passes it now,
        one that passed it drops the repeat)."""
        if self.start is not None:
            self.mesh.broadcast(P.encode(self.start))
            return
        greeting = self.admission.greeting(self.port if self.config.reach.via is None else 0)
        if greeting is not None:
            self.mesh.broadcast(greeting)

    def _greet(self, peer: _Peer) -> None:
        """A new link: say what we are, and ask for what we lack."""
        greeting = self.admission.greeting(self.port if self.config.reach.via is None else 0)
        if greeting is not None:
            self.mesh.send(peer, greeting)
        if self.start is not None:
            self.mesh.send(peer, P.encode(self.start))
        self._ask_missing(peer)
        for data in self._farewells_held:  # one lost on a link that broke is said again
            self.mesh.send(peer, data)
        for data in self._evidence_held:  # the entries that prove our verdict, to a late peer
            self.mesh.send(peer, data)

    def _ask_missing(self, peer: _Peer) -> None:
        if self.session is not None:
            for seat in range(self.session.spec.seats):
                have = len(self.session.log.entries(seat))
                self.mesh.send(peer, P.encode(P.FeedRequest(seat, have, _MAX_SEQ)))

    # -- messages ----------------------------------------------------------------------------
    def _receive(self, peer: _Peer, data: bytes) -> None:
        """One message from a link, handled before the next is read; then the session's say."""
        self._handle(peer, data)
        self.pump.pump()

    def _handle(self, peer: _Peer, data: bytes) -> None:
        digest = self.mesh.first_time(data)
        if digest is None:
            return
        try:
            msg = P.decode(data)
        except P.DecodeError:
            return  # nothing we can use (the peer proved the invite; it just talks nonsense)
        handler = self._routes.get(type(msg))
        if handler is not None:
            handler(peer, data, msg)
        if (
            isinstance(msg, P.Entry)
            and self.session is not None
            and self.session.log.get(msg.seat, msg.seq) == msg
        ):
            self.mesh.seen.add(digest)  # only what the log holds: junk leaves no hash behind

    def _on_entry(self, peer: _Peer, data: bytes, msg: P.Entry) -> None:
        if self.session is None:
            self.admission.keep_early(peer, data)
            return
        if self.session.receive_entry(msg):
            assert self.log is not None
            self.log.append(data, durable=False)
            self.liveness.progress_at = trio.current_time()
            self.mesh.forward(data, self.session.spec.players[msg.seat], peer)
            self.watchers.forward(data)

    def _on_want(self, peer: _Peer, data: bytes, msg: P.FeedRequest) -> None:
        """A catch-up request: answered within the asker's byte budget (``_serving``); one
        that keeps asking past it loses the link -- but a relay's link only has its wants
        refused (it passes on every seat's wants: closing it would cut them all off)."""
        if self.session is None:
            return
        key, now = peer.link.info.key, trio.current_time()
        for entry in self.session.log.serve(msg, limit=4096):
            encoded = P.encode(entry)
            if not self.serving.take(key, len(encoded), now):
                if self.serving.over(key) and not peer.via_relay:
                    self.mesh.close_later(peer.link, OVER_BUDGET)
                return
            self.mesh.send(peer, encoded)

    def _on_equivocation(self, peer: _Peer, data: bytes, msg: P.EquivocationProof) -> None:
        """Another peer's proof of a seat's equivocation (the evidence it sends with its
        verdict): ours too once checked -- we may never see both versions ourselves (seed
        4645 of the simulator)."""
        if self.session is not None:
            self.session.receive_equivocation(msg)

    def _on_farewell(self, peer: _Peer, data: bytes, msg: Farewell) -> None:
        if self.farewells is not None and self.farewells.take(msg):
            self._farewells_held.append(data)
            self.mesh.broadcast(data, skip=peer)
            if self._all_said():
                self._everyone_finished.set()

    # -- the game ----------------------------------------------------------------------------
    def _begin(self, start: TableStart, *, resumed: bool) -> None:
        assert self.invite is not None and self.log is not None
        spec = verify_start(self.invite.host_key, start, self.invite.lobby_id)
        me = self.identity.public.key
        if me not in spec.players:
            self.emit(ev.Refused("the table started without us"))
            self._finish("refused")  # never seated: nothing to resume
            return
        seat = spec.players.index(me)
        self.files.keep_start(start, seat)  # durable before visible: the start is on disk first
        claim_table(self.config.data_dir, spec.table_id, self.invite.lobby_id)  # before signing
        self.admission.start = start
        if self._stop_announcing is not None:
            self._stop_announcing.cancel()
        assert self.folder is not None
        try:
            self.session = self.session_class(
                spec,
                seat,
                self.identity,
                secret_seed=self.folder.secret_seed(),
                saved=list(self.log.records),
            )
        except (P.DecodeError, P.LocalProtocolError) as exc:  # another version; bad settings
            raise self.files.unreadable(exc) from None
        self.farewells = Farewells(spec.table_id, spec.players)
        self.pump.attach(self.session)
        self.liveness.attach(self.session, trio.current_time())
        self.emit(
            ev.Seated(
                seat,
                spec.seats,
                spec.table_id,
                resumed,
                spec.time_limits(),
                time.monotonic() if self.config.stats else None,
                names=start_names(start, spec),
                leavers=spec.leavers(),
            )
        )
        for data in self.admission.take_early():  # what came before the start: take, log, pass on
            if self.session.receive(data):
                self.log.append(data, durable=False)
                self.mesh.broadcast(data)
        for peer in list(self.peers):
            self._greet(peer)
        self._link_seats(start, seat)

    def _send_own(self, data: bytes) -> None:
        """One of our own entries: on disk (fsynced) before it leaves."""
        assert self.log is not None
        self.log.append(data, durable=True)  # durable before visible
        self.mesh.broadcast(data)
        self.watchers.forward(data)

    def _watch_catch_up(self) -> list[bytes]:
        """What a new spectator is sent first: the signed start and every entry we hold."""
        if self.start is None or self.session is None:
            return []
        return [P.encode(self.start), *self.session.entries()]

    def _after_pump(self, session: P.TableSession) -> None:
        self.liveness.observe(trio.current_time())
        self.files.keep_summary(session, trio.current_time())
