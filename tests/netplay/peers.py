"""``fairtable`` processes for tests: their JSON events as they come, or a whole run's output.

``prefix`` runs the command inside something else (``ip netns exec NS``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import trio

FAIRTABLE = [sys.executable, "-m", "fairtable.client.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def _as_in_a_terminal() -> None:
    """Ctrl-C's default meaning for the peer, as a command typed at a terminal has it.  A
    test run started in the background of a shell (``cmd &``) has SIGINT ignored, and an
    ignored signal stays ignored across exec: the peer would then rightly ignore Ctrl-C too,
    as a background job should (a local run of ``.ci/run &`` failed that way)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Peer:
    """A long-running ``fairtable`` process whose JSON event lines we read."""

    def __init__(self, args: list[str], prefix: tuple[str, ...] = ()) -> None:
        self.args = args  # what it was started with (a restart runs them again)
        self.command = [*prefix, *FAIRTABLE, *args]
        self.events: list[dict[str, Any]] = []
        self.process: trio.Process | None = None
        self._buffer = b""
        self._more = trio.Event()

    async def start(self, nursery: trio.Nursery) -> None:
        self.process = await trio.lowlevel.open_process(
            self.command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=ENV,
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

    async def event(self, kind: str) -> dict[str, Any]:
        """The first event of ``kind`` (waits for it; bound the wait with a deadline)."""
        while True:
            for e in self.events:
                if e["event"] == kind:
                    return e
            await self._more.wait()

    async def all_of(self, kind: str, count: int) -> list[dict[str, Any]]:
        """The events of ``kind`` once there are ``count`` of them (bound it with a deadline)."""
        while len(found := [e for e in self.events if e["event"] == kind]) < count:
            await self._more.wait()
        return found

    async def until(self, done: Callable[[list[dict[str, Any]]], bool]) -> None:
        """Wait until ``done(events so far)`` holds (bound the wait with a deadline)."""
        while not done(self.events):
            await self._more.wait()

    def kill(self) -> None:
        """SIGKILL: a crash, nothing cleaned up."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        """Kill it if it still runs (call from a ``finally``: a failed test leaves nothing)."""
        with trio.CancelScope(shield=True):
            if self.process is not None and self.process.returncode is None:
                self.process.kill()
                await self.process.wait()


async def run(
    args: list[str], prefix: tuple[str, ...] = (), stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    """Run ``fairtable ARGS`` to its end (bound the wait with a deadline)."""
    return await trio.run_process(
        [*prefix, *FAIRTABLE, *args],
        stdin=stdin,
        capture_stdout=True,
        capture_stderr=True,
        check=False,
        env=ENV,
    )


def events(output: bytes) -> list[dict[str, Any]]:
    """The JSON event lines of a finished run's output."""
    return [json.loads(line) for line in output.splitlines() if line.startswith(b"{")]
