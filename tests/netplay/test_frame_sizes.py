"""Link frames tell no secrets by their size (docs/protocol.md §11.9): the entries of two runs
that differ only in a seat's secret choice go over a real TLS link on loopback in frames --
and TLS records -- of equal sizes, one entry at a time and several in one write."""

from __future__ import annotations

from functools import partial

import pytest
import trio

from fairtable.netplay.links._frames import FrameReader, encode_frame
from fairtable.netplay.links._link import Link
from tests.protocol.secret_runs import TWIN_GAMES, twin_runs

from .test_link import client, start_server


class CountingTap:
    """A TCP proxy that counts the bytes going from the client to the server."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.upstream_bytes = 0

    async def handle(self, downstream: trio.SocketStream) -> None:
        upstream = await trio.open_tcp_stream("127.0.0.1", self.target)

        async def pump(src: trio.SocketStream, dst: trio.SocketStream, count: bool) -> None:
            try:
                while data := await src.receive_some(65536):
                    if count:
                        self.upstream_bytes += len(data)
                    await dst.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            finally:
                await trio.aclose_forcefully(dst)

        async with upstream, trio.open_nursery() as nursery:
            nursery.start_soon(pump, downstream, upstream, True)
            nursery.start_soon(pump, upstream, downstream, False)


async def acking(link: Link) -> None:
    async for _payload in link:
        await link.send(b"ack")


async def _wire_sizes(batches: list[list[bytes]]) -> list[int]:
    """Send each batch of entries in one write over a TLS link through the tap, waiting for
    the server's ack of each entry; the bytes on the path each batch took."""
    sizes = []
    async with trio.open_nursery() as nursery:
        server = await start_server(nursery, acking)
        tap = CountingTap(server.port)
        listeners = await nursery.start(partial(trio.serve_tcp, tap.handle, 0, host="127.0.0.1"))
        async with client(listeners[0].socket.getsockname()[1]) as link:
            for batch in batches:
                before = tap.upstream_bytes
                await link.send_many(batch)
                for _ in batch:
                    assert await link.receive() == b"ack"
                sizes.append(tap.upstream_bytes - before)
        nursery.cancel_scope.cancel()
    return sizes


@pytest.mark.parametrize(("game", "players", "seed"), TWIN_GAMES)
def test_frames_of_a_secret_choice_have_the_sizes_of_the_other_choice(
    game: str, players: int, seed: int
) -> None:
    twins = twin_runs(game, players, seed)
    assert twins.swapped and any(a != b for _, a, b in twins.pairs)
    # the frame layer: one frame per entry
    a_frames = [encode_frame(a) for _, a, _ in twins.pairs]
    b_frames = [encode_frame(b) for _, _, b in twins.pairs]
    assert [len(f) for f in a_frames] == [len(f) for f in b_frames]
    reader = FrameReader()
    assert reader.feed(b"".join(b_frames)) == [b for _, _, b in twins.pairs]
    # the wire: alone, and three entries in one write (as a link's writer joins what queued)
    differing = [i for i, (_, a, b) in enumerate(twins.pairs) if a != b]
    picks = sorted({*differing[:6], *range(0, len(twins.pairs), max(1, len(twins.pairs) // 6))})
    alone_a = [[twins.pairs[i][1]] for i in picks]
    alone_b = [[twins.pairs[i][2]] for i in picks]
    joined_a = [[twins.pairs[j][1] for j in range(i, min(i + 3, len(twins.pairs)))] for i in picks]
    joined_b = [[twins.pairs[j][2] for j in range(i, min(i + 3, len(twins.pairs)))] for i in picks]

    async def main() -> tuple[list[int], list[int]]:
        with trio.fail_after(30):
            return (await _wire_sizes(alone_a + joined_a), await _wire_sizes(alone_b + joined_b))

    on_path_a, on_path_b = trio.run(main)
    assert on_path_a == on_path_b
    assert all(size > len(entry[0]) for size, entry in zip(on_path_a, alone_a, strict=False))
