"""Crash and resume with real processes: SIGKILL a peer (or the relay) mid-game, run the
same command again with the same data directory, and the game ends with one digest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio

from fairtable.netplay import Invite, TableInfo

PACE = "0.1"  # slow enough that the crash lands mid-game, not after it
CRASH_AFTER = 40  # log records the victim holds when it is killed (round 1 or 2)


def _as_in_a_terminal() -> None:
    """Ctrl-C's default meaning for the peer, as a command typed at a terminal has it.  A
    test run started in the background of a shell (``cmd &``) has SIGINT ignored, and an
    ignored signal stays ignored across exec: the peer would then rightly ignore Ctrl-C too,
    as a background job should (a local run of ``.ci/run &`` failed that way)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Peer:
    """A ``fairtable`` process whose JSON events we read as they come."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.events: list[dict[str, Any]] = []
        self.process: trio.Process | None = None
        self._buffer = b""
        self._more = trio.Event()

    async def start(self, nursery: trio.Nursery, started: list[Peer] | None = None) -> None:
        if started is not None:
            started.append(self)
        self.process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "fairtable.client.cli", *self.args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=_as_in_a_terminal,
        )
        nursery.start_soon(self._read, self.process)

    async def _read(self, process: trio.Process) -> None:
        assert process.stdout is not None
        async for chunk in process.stdout:
            self._buffer += chunk
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                if line.startswith(b"{"):
                    self.events.append(json.loads(line))
                    self._more.set()
                    self._more = trio.Event()

    async def event(self, kind: str, after: int = 0) -> dict[str, Any]:
        while True:
            for e in self.events[after:]:
                if e["event"] == kind:
                    return e
            await self._more.wait()

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def log_records(data_dir: Path, invite: Invite) -> int:
    path = data_dir / "tables" / invite.lobby_id.hex() / "log"
    if not path.exists():
        return 0
    data, count, pos = path.read_bytes(), 0, 0
    while pos + 8 <= len(data):
        pos += 8 + int.from_bytes(data[pos : pos + 4], "big")
        count += pos <= len(data)
    return count


async def grown(data_dir: Path, invite: Invite, records: int) -> None:
    """Wait (polling the peer's own log) until it holds ``records`` entries."""
    while log_records(data_dir, invite) < records:
        await trio.sleep(0.02)


def common(data_dir: Path, via: str | None) -> list[str]:
    extra = ["--via", via] if via else []
    return ["--bot", "random", "--json", "--data-dir", str(data_dir), "--pace", PACE, *extra]


async def play_with_a_crash(tmp: Path, victim: str) -> list[dict[str, Any]]:
    """Host + two joiners (+ a relay when the relay is the victim); kill one, restart it."""
    peers: list[Peer] = []
    started: list[Peer] = []
    try:
        return await _crash(tmp, victim, peers, started)
    finally:
        with trio.CancelScope(shield=True):
            for peer in started:  # never leave a process behind, even on failure
                await peer.stop()


async def _crash(
    tmp: Path, victim: str, peers: list[Peer], started: list[Peer]
) -> list[dict[str, Any]]:
    async with trio.open_nursery() as nursery:
        via = None
        relay_args = ["relay", "--port", "0", "--json", "--data-dir", str(tmp / "relay")]
        relay = None
        if victim == "relay":
            relay = Peer(relay_args)
            await relay.start(nursery, started)
            port = (await relay.event("relay_open"))["port"]
            via = f"127.0.0.1:{port}"
            relay_args[2] = str(port)  # restart on the same port
        host = Peer(["host", "reign", "--seats", "3", "--no-announce", *common(tmp / "host", via)])
        await host.start(nursery, started)
        invite = Invite.parse((await host.event("table_open"))["invite"])
        joiners = [Peer(["join", invite.text(), *common(tmp / f"joiner{i}", via)]) for i in (1, 2)]
        for joiner in joiners:
            await joiner.start(nursery, started)
        peers = [host, *joiners]
        if victim == "relay":
            assert relay is not None
            await grown(tmp / "host", invite, CRASH_AFTER)
            relay.kill()
            await relay.process.wait()  # type: ignore[union-attr]
            assert not host.events or all(e["event"] != "game_over" for e in host.events)
            revived = Peer(relay_args)
            await revived.start(nursery, started)
            extra = [revived]
        else:
            index = {"host": 0, "joiner": 2}[victim]
            folder = tmp / ("host" if index == 0 else "joiner2")
            await grown(folder, invite, CRASH_AFTER)
            peers[index].kill()
            await peers[index].process.wait()  # type: ignore[union-attr]
            info = json.loads(
                (folder / "tables" / invite.lobby_id.hex() / "table.json").read_text()
            )
            assert info["status"] == "playing", "the crash must land mid-game"
            peers[index] = Peer(peers[index].args)
            await peers[index].start(nursery, started)
            extra = []
        results = [await peer.event("game_over") for peer in peers]
        if victim not in ("relay",):
            seated = await peers[{"host": 0, "joiner": 2}[victim]].event("seated")
            assert seated["resumed"] is True
        for peer in peers + extra + ([relay] if relay else []):
            await peer.stop()
        nursery.cancel_scope.cancel()
    return results


def audit_every_saved_table(tmp: Path, digest: str) -> None:
    """``fairtable audit`` passes on every seat's and the relay's saved table, with the
    digest every peer ended on."""
    import contextlib
    import io

    from fairtable.client.cli import main

    folders = sorted(tmp.glob("*/tables/*")) + sorted(tmp.glob("relay/relay/*"))
    assert len(folders) >= 3
    for folder in folders:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["audit", str(folder), "--json"])
        report = json.loads(out.getvalue())
        assert code == 0 and report["ok"] and report["digest"] == digest, (folder, report)


async def test_liveness_a_joiner_killed_mid_game_resumes_and_the_game_ends(tmp_path: Path) -> None:
    with trio.fail_after(180):
        results = await play_with_a_crash(tmp_path, "joiner")
    assert len({r["digest"] for r in results}) == 1
    audit_every_saved_table(tmp_path, results[0]["digest"])


async def test_liveness_the_host_killed_mid_game_resumes_and_the_game_ends(tmp_path: Path) -> None:
    with trio.fail_after(180):
        results = await play_with_a_crash(tmp_path, "host")
    assert len({r["digest"] for r in results}) == 1
    audit_every_saved_table(tmp_path, results[0]["digest"])


async def test_liveness_the_relay_killed_mid_game_comes_back_and_the_game_ends(
    tmp_path: Path,
) -> None:
    with trio.fail_after(180):
        results = await play_with_a_crash(tmp_path, "relay")
    assert len({r["digest"] for r in results}) == 1
    audit_every_saved_table(tmp_path, results[0]["digest"])


async def test_ctrl_c_stops_a_peer_cleanly_and_keeps_the_game(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = Peer(
                ["host", "reign", "--seats", "3", "--no-announce", *common(tmp_path / "host", None)]
            )
            await host.start(nursery)
            invite = Invite.parse((await host.event("table_open"))["invite"])
            assert host.process is not None
            host.process.send_signal(signal.SIGINT)
            code = await host.process.wait()
            nursery.cancel_scope.cancel()
    assert code == 130
    info = json.loads(
        (tmp_path / "host" / "tables" / invite.lobby_id.hex() / "table.json").read_text()
    )
    assert info["invite"] == invite.text() and info["role"] == "host"


async def test_a_game_saved_by_another_protocol_version_is_refused_and_kept(
    tmp_path: Path,
) -> None:
    """A table folder from a version-1 build: a clear StorageError, nothing rewritten away."""
    import fairtable.protocol as P
    from fairtable.netplay import NodeConfig, StorageError, TableFolder, TableNode
    from fairtable.netplay.table._lobby import sign_start

    me = P.Identity.generate()
    others = [P.Identity.generate().public.key for _ in range(2)]
    invite = Invite("127.0.0.1", 4711, os.urandom(32), me.public.key, os.urandom(32), "reign", 3)
    spec = P.TableSpec("reign", (me.public.key, *others), 60, bytes(32))
    current = P.encode(sign_start(me, spec, (b"", b"", b""), invite.lobby_id))
    older = current.replace(f'"v":{P.PROTOCOL_VERSION}'.encode(), b'"v":1')
    assert older != current
    folder = TableFolder(tmp_path, "tables", invite.lobby_id)
    TableInfo(
        invite=invite.text(),
        role="host",
        kind="host",
        status="playing",
        start=older.hex(),
        seat=0,
    ).save(folder)
    folder.log().append(b"an entry of the old game", durable=True)
    node = TableNode(NodeConfig(data_dir=tmp_path), me, seats=3, game="reign")
    with trio.fail_after(10):
        try:
            await node.run()
        except BaseExceptionGroup as group:
            refused = group.subgroup(StorageError)
            assert refused is not None
            reason = str(refused.exceptions[0])
        else:
            raise AssertionError("the old game was opened")
    assert "cannot be read" in reason and "protocol version 1" in reason
    assert TableInfo.load(folder).start == older.hex()
    assert folder.log().records == [b"an entry of the old game"]
