"""A LAN of two machines made on one: two network namespaces joined by a veth pair.

The host runs in one with default options (no --advertise, broadcast announcements); a
friend in the other joins first by the host's join code, then -- at a second table -- by
the invite exactly as the host printed it.  Needs root and ``ip`` (CI has both): without
them the test fails, it does not skip.  The namespaces are this test's own, removed after.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from fairtable.netplay import Invite

from .peers import ENV, FAIRTABLE, Peer, events, run

HOST_IP, GUEST_IP = "10.213.0.1", "10.213.0.2"


def ip(*args: str) -> None:
    subprocess.run([IP, *args], check=True, capture_output=True, timeout=10)


IP = shutil.which("ip") or "/usr/sbin/ip"


@pytest.fixture
def lan() -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Two namespaces on one /24, each with loopback up; yields the ``ip netns exec`` prefixes."""
    assert os.path.exists(IP), "this test needs the ip command (iproute2)"
    tag = f"ft{os.getpid() % 100000}"
    host_ns, guest_ns = f"{tag}-host", f"{tag}-guest"
    made: list[str] = []
    try:
        for ns in (host_ns, guest_ns):
            ip("netns", "add", ns)
            made.append(ns)
        ip("link", "add", f"{tag}a", "type", "veth", "peer", "name", f"{tag}b")
        for ns, dev, address in ((host_ns, f"{tag}a", HOST_IP), (guest_ns, f"{tag}b", GUEST_IP)):
            ip("link", "set", dev, "netns", ns)
            ip("-n", ns, "addr", "add", f"{address}/24", "dev", dev)
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        yield (IP, "netns", "exec", host_ns), (IP, "netns", "exec", guest_ns)
    finally:
        for ns in made:
            # whatever this test started in its namespaces ends with them (by process id)
            pids = subprocess.run(
                [IP, "netns", "pids", ns], capture_output=True, text=True, timeout=10
            ).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            # deleting a namespace deletes its end of the veth pair, and so both ends
            subprocess.run([IP, "netns", "del", ns], capture_output=True, timeout=10)


async def test_two_machines_join_by_code_then_by_printed_invite(
    lan: tuple[tuple[str, ...], tuple[str, ...]], tmp_path: Path
) -> None:
    in_host, in_guest = lan
    table = ["sodalis", "--seats", "2", "--bot", "random", "--round-limit", "2"]
    with trio.fail_after(150):
        async with trio.open_nursery() as nursery:
            # game 1: by the code
            host = Peer(
                ["host", *table, "--json", "--data-dir", str(tmp_path / "host")], prefix=in_host
            )
            await host.start(nursery)
            opened = await host.event("table_open")
            assert Invite.parse(opened["invite"]).host == HOST_IP  # the LAN address, unasked
            joined = await run(
                [
                    "join",
                    opened["code"],
                    "--bot",
                    "random",
                    "--json",
                    "--data-dir",
                    str(tmp_path / "guest"),
                ],
                prefix=in_guest,
            )
            assert joined.returncode == 0, joined.stderr
            first = [e for e in events(joined.stdout) if e["event"] == "game_over"]
            assert first and first[0]["digest"] == (await host.event("game_over"))["digest"]
            await host.stop()

            # game 2: by the invite exactly as printed in the host's text output
            host_text = await trio.lowlevel.open_process(
                [*in_host, *FAIRTABLE, "host", *table, "--data-dir", str(tmp_path / "host2")],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=ENV,
            )
            assert host_text.stdout is not None
            printed = b""
            while (found := re.search(rb"fairtable join '([^']*)'\n", printed)) is None:
                chunk = await host_text.stdout.receive_some(4096)
                assert chunk, f"the host ended without printing its invite: {printed!r}"
                printed += chunk
            written = found.group(1).decode()
            assert Invite.parse(written).host == HOST_IP and b"127.0.0.1" not in printed
            joined = await run(
                [
                    "join",
                    written,
                    "--bot",
                    "random",
                    "--json",
                    "--data-dir",
                    str(tmp_path / "guest2"),
                ],
                prefix=in_guest,
            )
            assert joined.returncode == 0, joined.stderr
            assert any(e["event"] == "game_over" for e in events(joined.stdout))
            with trio.move_on_after(20):
                await host_text.wait()
            assert host_text.returncode == 0
            nursery.cancel_scope.cancel()
