"""Spectators (``fairtable watch``) over real loopback sockets: one joins a game in progress,
catches up from the start, follows it live and ends with the players' digest, seeing no
hidden card before the end; a flooding spectator is dropped without the players noticing;
a host that refuses spectators refuses them."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    LinkClosed,
    NodeConfig,
    Pacing,
    Reach,
    TableNode,
    WatchRefused,
    connect,
    watch_table,
)
from fairtable.netplay.links._watchers import MAX_SAYS
from tests.leaks import strings_in
from tests.netplay.said import Told
from tests.netplay.test_tables import bot


async def _table(
    nursery: trio.Nursery,
    tmp: Path,
    seats: int,
    events: list[list[Any]],
    *,
    spectators: bool = True,
    first: Any = None,
    told: Told | None = None,
) -> tuple[Invite, list[TableNode]]:
    """A table of ``seats`` bots (seat 0's decider ``first`` if given) on loopback; ``told``
    wakes at each of their events and decisions."""
    told = told or Told()
    host = TableNode(
        NodeConfig(
            data_dir=tmp / "peer0", reach=Reach(spectators=spectators), pacing=Pacing(grace=0.5)
        ),
        P.Identity.generate(),
        seats=seats,
        game="reign",
        decider=first or told.deciding(bot(0)),
        emit=told.json_into(events[0]),
    )
    invite = await nursery.start(host.run)
    nodes = [host]
    for i in range(1, seats):
        node = TableNode(
            NodeConfig(data_dir=tmp / f"peer{i}", pacing=Pacing(grace=0.5)),
            P.Identity.generate(),
            invite=invite,
            decider=told.deciding(bot(i)),
            emit=told.json_into(events[i]),
        )
        nodes.append(node)
        nursery.start_soon(node.run)
    return invite, nodes


def _never_shown(node: TableNode) -> set[str]:
    """The cards some seat held at some step that no public view or event of the game ever
    named (a card drawn again from a reshuffled discard was public once: not counted), read
    from the host's log by the replay's verified open hands."""
    assert node.session is not None and node.log is not None
    replay = P.replay_log(node.session.spec, list(node.log.records))
    assert replay.audited
    held = {
        c
        for i in range(len(replay.steps))
        for cards in replay.open_hands(i).values()
        for c in cards
    }
    public = strings_in([[list(s.events), s.view.public] for s in replay.steps])
    return held - public


async def test_spectator_joins_in_progress_and_ends_with_the_players_digest(tmp_path: Path) -> None:
    events: list[list[Any]] = [[] for _ in range(4)]
    said: list[Any] = []  # everything the spectator was told, before the end
    news = Told()
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            invite, nodes = await _table(nursery, tmp_path, 4, events, told=news)
            host = nodes[0]
            await news.until(  # the game is under way
                lambda: host.session is not None and host.session.game.state.serial >= 12
            )
            assert host.session is not None and host.session.finished is None

            def told(event: Any, session: P.TableSession) -> None:
                if isinstance(event, P.StepApplied):
                    said.append(
                        [[e.as_tuple() for e in event.events], session.game.view(None).public]
                    )

            watched = await watch_table(invite, told)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    digests = {next(e for e in ev if e["event"] == "game_over")["digest"] for ev in events}
    assert watched.finished is not None and digests == {watched.finished.digest}
    assert said[0][0][0][0] == "houses"  # caught up from the very first step
    hidden = _never_shown(nodes[0])
    assert hidden and not hidden & strings_in(said)  # no hidden card reached the spectator
    assert not (tmp_path / "spectator").exists()


async def test_flooding_spectator_is_dropped_and_the_players_finish(tmp_path: Path) -> None:
    events: list[list[Any]] = [[] for _ in range(3)]
    news = Told()
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            invite, nodes = await _table(nursery, tmp_path, 3, events, told=news)
            host = nodes[0]
            await news.until(lambda: host.session is not None)  # said with "seated"
            link = await connect(
                nursery,
                invite.host,
                invite.port,
                identity=P.Identity.generate(),
                scope=invite.lobby_id,
                secret=invite.secret,
                role="observer",
                expect_key=invite.host_key,
            )
            await host.watchers.until(lambda watching: watching == 1)  # the host took us in
            with pytest.raises(LinkClosed) as closed:  # the host closes it under us
                for _ in range(MAX_SAYS + 50):
                    await link.send(b"x" * 1000)
                while True:
                    await link.receive()
            assert closed.value.reason in ("flood", "disconnected")
            await host.watchers.until(lambda watching: watching == 0)  # and lets it go
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    results = [next(e for e in ev if e["event"] == "game_over") for ev in events]
    assert len({r["digest"] for r in results}) == 1


async def test_host_that_refuses_spectators_refuses_them(tmp_path: Path) -> None:
    events: list[list[Any]] = [[] for _ in range(3)]
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            invite, nodes = await _table(nursery, tmp_path, 3, events, spectators=False)
            with pytest.raises(WatchRefused, match="not authorised"):
                await watch_table(invite, lambda event, session: None)
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()


class _HeldBot:
    """Seat 0's bot, held before its first answer until ``go`` is set: a game of bots ends in
    about a second, so a spectator process still starting could find the table already gone
    (and wait for it for ever) unless the game waits for it to arrive.  A :class:`Thinker`,
    so the node asks it in a worker thread and the table runs on meanwhile."""

    def __init__(self, decide: Any) -> None:
        self.decide, self.go = decide, threading.Event()

    def __call__(self, event: Any) -> Any:
        self.go.wait()
        return self.decide(event)

    def cancel(self) -> None:
        self.go.set()


async def test_watch_json_prints_public_steps_and_ends_with_game_over(tmp_path: Path) -> None:
    """``fairtable watch INVITE --json``, a real process, ends as ``join --bot`` does."""
    import json
    import sys

    events: list[list[Any]] = [[] for _ in range(3)]
    held = _HeldBot(bot(0))
    out = bytearray()
    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            invite, nodes = await _table(nursery, tmp_path, 3, events, first=held)
            command = [
                sys.executable,
                "-m",
                "fairtable.client.cli",
                "watch",
                invite.text(),
                "--json",
            ]
            watcher = await trio.lowlevel.open_process(
                command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tmp_path
            )
            try:
                assert watcher.stdout is not None
                async for chunk in watcher.stdout:
                    out += chunk
                    held.go.set()  # the spectator printed: it is at the table
                assert await watcher.wait() == 0
            finally:
                if watcher.returncode is None:
                    watcher.kill()
            for node in nodes:
                await node.done.wait()
            nursery.cancel_scope.cancel()
    lines = [json.loads(line) for line in out.decode().splitlines()]
    end = next(e for e in events[0] if e["event"] == "game_over")
    assert lines[-1]["event"] == "game_over" and lines[-1]["digest"] == end["digest"]
    assert lines[-1]["winner"] == end["winner"]
    steps = [line for line in lines if line["event"] == "step"]
    assert steps and steps[-1]["digest"] == end["digest"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["peer0", "peer1", "peer2"]  # the
    # spectator wrote nothing
