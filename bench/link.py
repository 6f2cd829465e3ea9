"""Cost of opening a link: TCP connect, TLS 1.3 and the hello/auth handshake, over loopback.

Opens ``--links`` links one after another to a ``serve_links`` server in the
same process (so the figure is the CPU and round trips of both ends) and
prints the median and p90 wall time from ``open_link`` to a usable link, and
the time of one frame's round trip on an open link.  Run it with another
checkout first on ``PYTHONPATH`` to compare builds:

    .venv/bin/python bench/link.py [--links 200]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from functools import partial
from pathlib import Path

# this folder's netplay.py and protocol.py would shadow the packages: import them from
# PYTHONPATH (another checkout, to compare) or else from this checkout
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.append(str(Path(__file__).resolve().parents[1]))

import trio  # noqa: E402

from fairtable.netplay import Link, open_link, serve_links  # noqa: E402
from fairtable.protocol import Identity  # noqa: E402

SCOPE = hashlib.sha256(b"bench scope").digest()
SECRET = hashlib.sha256(b"bench secret").digest()


async def echo(link: Link) -> None:
    async for payload in link:
        await link.send(payload)


async def main(links: int) -> None:
    server, client = Identity.generate(), Identity.generate()
    opens: list[float] = []
    trips: list[float] = []
    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            partial(serve_links, 0, echo, identity=server, secrets_for=lambda _scope: SECRET)
        )
        for _ in range(links):
            start = time.perf_counter()
            async with open_link(
                "127.0.0.1",
                port,
                identity=client,
                scope=SCOPE,
                secret=SECRET,
                expect_key=server.public.key,
            ) as link:
                opens.append(time.perf_counter() - start)
                start = time.perf_counter()
                await link.send(b"x" * 200)
                await link.receive()
                trips.append(time.perf_counter() - start)
        nursery.cancel_scope.cancel()
    opens.sort()
    print(
        f"{links} links: open p50 {statistics.median(opens) * 1e3:.2f} ms, "
        f"p90 {opens[int(len(opens) * 0.9)] * 1e3:.2f} ms; "
        f"200-byte frame round trip p50 {statistics.median(trips) * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=200)
    trio.run(main, parser.parse_args().links)
