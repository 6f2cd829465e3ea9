"""What makes one seed one run: every source of chance and time the real code reads, pinned.

Inside :func:`pinned` (one simulated run):

* ``os.urandom`` is a SHA-256 counter stream from the run's seed (invite secrets, table
  nonces, secret seed files, proofs' noise);
* trio schedules deterministically (its own hook for Hypothesis: the run queue sorted by
  task, then shuffled by a generator seeded from the run);
* ``time.time``/``time.time_ns`` read by the node (presence beat counts, table.json
  stamps) follow the simulated clock from a fixed epoch;
* the node's back-off generators (``random.Random()`` in ``netplay._mesh``) are seeded
  from the run.

Hash randomisation cannot be switched off from inside a process: ``python -m tests.sim``
re-executes itself with ``PYTHONHASHSEED=0`` so a replay in a new process is the same run.
TLS keeps its own randomness (OpenSSL's): ciphertexts differ, their lengths do not, and the
trace holds lengths only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import time
import types
from collections.abc import Iterator
from typing import Any

import trio
import trio._core._run as trio_run

import netplay._liveness
import netplay._mesh
import netplay._node_folder

__all__ = ["EPOCH", "pinned"]

EPOCH = 1_800_000_000  # the simulated wall clock's origin (seconds)


class _Urandom:
    def __init__(self, seed: int) -> None:
        self.key = hashlib.sha256(b"fairtable-sim/urandom/" + str(seed).encode()).digest()
        self.n = 0

    def __call__(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            self.n += 1
            out += hashlib.sha256(self.key + self.n.to_bytes(8, "big")).digest()
        return out[:size]


def _sim_time() -> float:
    try:
        return EPOCH + trio.current_time()
    except RuntimeError:  # outside the run
        return float(EPOCH)


class _Time(types.SimpleNamespace):
    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


class _Random(types.SimpleNamespace):
    def __getattr__(self, name: str) -> Any:
        return getattr(random, name)


@contextlib.contextmanager
def pinned(seed: int) -> Iterator[None]:
    """Pin every source of chance and time for one run of ``seed``."""
    draws = random.Random(f"fairtable-sim/random/{seed}")
    fake_time = _Time(time=_sim_time, time_ns=lambda: int(_sim_time() * 10**9))
    fake_random = _Random(Random=lambda *a: random.Random(draws.getrandbits(64)))
    saved = (os.urandom, trio_run._ALLOW_DETERMINISTIC_SCHEDULING, trio_run._r.getstate(),
             netplay._liveness.time, netplay._node_folder.time, netplay._mesh.random)
    os.urandom = _Urandom(seed)
    trio_run._ALLOW_DETERMINISTIC_SCHEDULING = True  # type: ignore[misc]
    trio_run._r.seed(seed)
    netplay._liveness.time = fake_time  # type: ignore[assignment]
    netplay._node_folder.time = fake_time  # type: ignore[assignment]
    netplay._mesh.random = fake_random  # type: ignore[assignment]
    try:
        yield
    finally:
        (os.urandom, allow, state, netplay._liveness.time,
         netplay._node_folder.time, netplay._mesh.random) = saved
        trio_run._ALLOW_DETERMINISTIC_SCHEDULING = allow  # type: ignore[misc]
        trio_run._r.setstate(state)
