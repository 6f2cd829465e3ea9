"""The simulated network: byte streams between named hosts, with delay, cuts and partitions.

:class:`SimNet` stands where TCP stands.  Each simulated host (a seat ``p0``, ``p1``, ...,
or ``relay``) gets a :class:`netplay.Transport` whose ``open_stream`` dials a port of the
network and whose ``open_listeners`` binds one; the real TLS, link, node and session code
run on top.  A stream is TCP-like: ordered and reliable while it lives.  What the network
does to it comes from the run's one ``random.Random``:

* every write is delivered after a delay (per link, drawn per write; never before the
  previous write of the same direction -- order within a link holds);
* a slow host's writes take longer (its delays are multiplied);
* a cut breaks both directions at once and loses what was in flight;
* a partition cuts every stream between its sides and refuses new ones until it heals;
* a severed pair of hosts is a partition of those two alone (scripted plans only);
* a crashed host loses its listeners and streams.

Every write and cut is one line of :attr:`SimNet.trace` (simulated time, hosts, length):
the run digest is the hash of its lines sorted (lines of one instant may come in any order
of the tasks that wrote them), so two runs of one seed can be compared byte for byte.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any

import trio
from trio.lowlevel import ParkingLot, checkpoint

from fairtable.netplay.links._link import Transport

__all__ = ["SimListener", "SimNet", "SimStream"]

PORT_BASE = 20000


class _Pipe:
    """One direction of a stream: chunks with the time each may be read.  Its delays come
    from its own generator, so the order in which tasks write to different links (a set's
    order, an address's) changes nothing."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.chunks: deque[tuple[float, bytearray]] = deque()
        self.last_at = 0.0
        self.eof = False
        self.broken = False
        self.lot = ParkingLot()


class _Socket:
    """What a listener reads of a connection's far end, as from a TCP socket: its host (the
    simulated host's name; the port is not used).  With it a host learns each joiner's
    address as it does over TCP, and the seats link to each other directly (a mesh) --
    without it every table without a relay was a star through the host."""

    def __init__(self, there: str) -> None:
        self.there = there

    def getpeername(self) -> tuple[str, int]:
        return self.there, 0


class SimStream(trio.abc.Stream):
    """One end of a simulated TCP connection."""

    def __init__(self, net: SimNet, here: str, there: str, out: _Pipe, into: _Pipe) -> None:
        self.net, self.here, self.there = net, here, there
        self._out, self._in = out, into
        self._closed = False
        self.peer: SimStream | None = None
        self.socket = _Socket(there)

    # -- trio.abc.Stream
    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await checkpoint()
        if self._closed:
            raise trio.ClosedResourceError
        if self._out.broken or self._out.eof:
            raise trio.BrokenResourceError
        if not data:
            return
        now = trio.current_time()
        at = max(self._out.last_at, now + self.net.delay(self.here, self.there, self._out.rng))
        self._out.last_at = at
        self._out.chunks.append((at, bytearray(data)))
        self.net.note(f"{self.here}>{self.there} {len(data)}")
        self._out.lot.unpark_all()

    async def wait_send_all_might_not_block(self) -> None:
        await checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await checkpoint()
        pipe = self._in
        while True:
            if self._closed:
                raise trio.ClosedResourceError
            if pipe.broken:
                raise trio.BrokenResourceError
            if pipe.chunks:
                at, chunk = pipe.chunks[0]
                if at <= trio.current_time():
                    size = len(chunk) if max_bytes is None else min(max_bytes, len(chunk))
                    data = bytes(chunk[:size])
                    del chunk[:size]
                    if not chunk:
                        pipe.chunks.popleft()
                    return data
                with trio.move_on_at(at):
                    await pipe.lot.park()
                continue
            if pipe.eof:
                return b""
            await pipe.lot.park()

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            self._out.eof = True
            self._out.lot.unpark_all()
            self._in.lot.unpark_all()
            self.net.streams.pop(self, None)
        await checkpoint()

    def cut(self) -> None:
        """Break both directions now; what was in flight is lost."""
        for pipe in (self._out, self._in):
            pipe.broken = True
            pipe.chunks.clear()
            pipe.lot.unpark_all()
        self.net.streams.pop(self, None)
        if self.peer is not None:
            self.net.streams.pop(self.peer, None)


class SimListener(trio.abc.Listener[SimStream]):
    def __init__(self, net: SimNet, owner: str, port: int) -> None:
        self.net, self.owner, self.port = net, owner, port
        self.send, self.receive = trio.open_memory_channel[SimStream](64)

    async def accept(self) -> SimStream:
        try:
            return await self.receive.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise trio.ClosedResourceError from None

    async def aclose(self) -> None:
        self.close()
        await checkpoint()

    def close(self) -> None:
        if self.net.listeners.get(self.port) is self:
            del self.net.listeners[self.port]
        self.send.close()
        self.receive.close()


class SimNet:
    """The hosts' network, its faults, and its trace."""

    def __init__(
        self, rng: random.Random, *, base_delay: float = 0.01, jitter: float = 0.05
    ) -> None:
        self.rng = rng
        self.base_delay, self.jitter = base_delay, jitter
        self.slow: dict[str, float] = {}  # host -> delay factor
        self.listeners: dict[int, SimListener] = {}
        self.ports: dict[tuple[str, int], int] = {}  # (owner, wanted) -> port handed out
        self.streams: dict[SimStream, None] = {}  # insertion order: stable
        self.sides: dict[str, int] | None = None  # a partition: host -> side
        self.severed: set[frozenset[str]] = set()  # pairs of hosts kept apart (sever)
        self.trace: list[str] = []
        self._next_port = PORT_BASE
        self._conns: dict[tuple[str, str], int] = {}
        self.salt = rng.getrandbits(64)

    def note(self, line: str) -> None:
        self.trace.append(f"{trio.current_time():.6f} {line}")

    def delay(self, here: str, there: str, rng: random.Random) -> float:
        factor = self.slow.get(here, 1.0) * self.slow.get(there, 1.0)
        return (self.base_delay + self.jitter * rng.random()) * factor

    def apart(self, a: str, b: str) -> bool:
        if frozenset((a, b)) in self.severed:
            return True
        return self.sides is not None and self.sides.get(a, 0) != self.sides.get(b, 0)

    # -- the seam
    def transport(self, owner: str) -> Transport:
        async def open_stream(host: str, port: int) -> trio.abc.Stream:
            return await self.connect(owner, port)

        async def open_listeners(port: int, host: str | None) -> tuple[list[Any], int]:
            return [self.listen(owner, port)], self._bound(owner, port)

        return Transport(open_stream=open_stream, open_listeners=open_listeners)

    def _bound(self, owner: str, wanted: int) -> int:
        return self.ports[(owner, wanted)] if wanted == 0 else wanted

    def listen(self, owner: str, wanted: int) -> SimListener:
        if wanted == 0:
            port = self.ports.get((owner, 0))
            if port is None:
                port = self.ports[(owner, 0)] = self._next_port
                self._next_port += 1
        else:
            port = wanted
        if port in self.listeners:
            raise OSError(98, "address in use")
        self.listeners[port] = listener = SimListener(self, owner, port)
        return listener

    async def connect(self, owner: str, port: int) -> SimStream:
        await checkpoint()
        listener = self.listeners.get(port)
        if listener is None or self.apart(owner, listener.owner):
            self.note(f"{owner}>:{port} refused")
            raise OSError(111, "connection refused")
        pair = (owner, listener.owner)
        self._conns[pair] = n = self._conns.get(pair, 0) + 1
        salt = f"{self.salt}/{owner}/{listener.owner}/{n}"
        a, b = _Pipe(random.Random(salt + "/out")), _Pipe(random.Random(salt + "/back"))
        await trio.sleep(self.delay(owner, listener.owner, a.rng))  # the SYN's trip
        near = SimStream(self, owner, listener.owner, a, b)
        far = SimStream(self, listener.owner, owner, b, a)
        near.peer, far.peer = far, near
        try:
            listener.send.send_nowait(far)
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            raise OSError(111, "connection refused") from None
        self.streams[near] = None  # the dialling end stands for the connection
        self.note(f"{owner}>{listener.owner} open")
        return near

    # -- faults
    def links(self, where: Callable[[SimStream], bool] = lambda s: True) -> list[SimStream]:
        """Live streams (one end of each), in a stable order."""
        return [s for s in self.streams if where(s)]

    def cut(self, stream: SimStream) -> None:
        self.note(f"cut {stream.here}-{stream.there}")
        stream.cut()

    def partition(self, sides: dict[str, int]) -> None:
        self.sides = sides
        self.note("partition " + " ".join(f"{h}:{s}" for h, s in sorted(sides.items())))
        for stream in list(self.streams):
            if self.apart(stream.here, stream.there):
                stream.cut()

    def heal(self) -> None:
        self.sides = None
        self.note("heal")

    def sever(self, a: str, b: str) -> None:
        """``a`` and ``b`` cannot reach each other (their streams break, new ones are
        refused) until :meth:`mend`; each still reaches every other host."""
        self.severed.add(frozenset((a, b)))
        self.note(f"sever {a}-{b}")
        for stream in list(self.streams):
            if self.apart(stream.here, stream.there):
                stream.cut()

    def mend(self, a: str, b: str) -> None:
        self.severed.discard(frozenset((a, b)))
        self.note(f"mend {a}-{b}")

    def crash(self, owner: str) -> None:
        """The host is gone: its listeners close, its streams break."""
        self.note(f"crash {owner}")
        for listener in [v for v in self.listeners.values() if v.owner == owner]:
            listener.close()
        for stream in list(self.streams):
            if owner in (stream.here, stream.there):
                stream.cut()
