"""Crash and resume with real processes: SIGKILL a peer (or the relay) mid-game, run the
same command again with the same data directory, and the game ends with one digest."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import trio

from fairtable.netplay import Invite, TableInfo
from tests.netplay.peers import Peer

PACE = "0.1"  # slow enough that the crash lands mid-game, not after it
CRASH_AT = 25  # steps the victim (the host, when the relay is the victim) has applied


async def crash_point(peer: Peer) -> None:
    """Wait until ``peer`` says (its ``applied`` lines) it has applied ``CRASH_AT`` steps:
    round 1 or 2 of a 3-seat Reign game."""
    await peer.all_of("applied", CRASH_AT)


async def started(peer: Peer, nursery: trio.Nursery, every: list[Peer]) -> Peer:
    """Start ``peer`` and list it among those to stop, even on failure."""
    every.append(peer)
    await peer.start(nursery)
    return peer


def common(data_dir: Path, via: str | None) -> list[str]:
    extra = ["--via", via] if via else []
    return ["--bot", "random", "--json", "--data-dir", str(data_dir), "--pace", PACE, *extra]


async def play_with_a_crash(tmp: Path, victim: str) -> list[dict[str, Any]]:
    """Host + two joiners (+ a relay when the relay is the victim); kill one, restart it."""
    every: list[Peer] = []
    try:
        return await _crash(tmp, victim, every)
    finally:
        for peer in every:  # never leave a process behind, even on failure
            await peer.stop()


async def _crash(tmp: Path, victim: str, every: list[Peer]) -> list[dict[str, Any]]:
    async with trio.open_nursery() as nursery:
        via = None
        relay_args = ["relay", "--port", "0", "--json", "--data-dir", str(tmp / "relay")]
        relay = None
        if victim == "relay":
            relay = await started(Peer(relay_args), nursery, every)
            port = (await relay.event("relay_open"))["port"]
            via = f"127.0.0.1:{port}"
            relay_args[2] = str(port)  # restart on the same port
        host = Peer(["host", "reign", "--seats", "3", "--no-announce", *common(tmp / "host", via)])
        await started(host, nursery, every)
        invite = Invite.parse((await host.event("table_open"))["invite"])
        joiners = [Peer(["join", invite.text(), *common(tmp / f"joiner{i}", via)]) for i in (1, 2)]
        for joiner in joiners:
            await started(joiner, nursery, every)
        peers = [host, *joiners]
        if victim == "relay":
            assert relay is not None
            await crash_point(host)
            relay.kill()
            await relay.process.wait()  # type: ignore[union-attr]
            assert not host.events or all(e["event"] != "game_over" for e in host.events)
            extra = [await started(Peer(relay_args), nursery, every)]
        else:
            index = {"host": 0, "joiner": 2}[victim]
            folder = tmp / ("host" if index == 0 else "joiner2")
            await crash_point(peers[index])
            peers[index].kill()
            await peers[index].process.wait()  # type: ignore[union-attr]
            info = json.loads(
                (folder / "tables" / invite.lobby_id.hex() / "table.json").read_text()
            )
            assert info["status"] == "playing", "the crash must land mid-game"
            peers[index] = await started(Peer(peers[index].args), nursery, every)
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
