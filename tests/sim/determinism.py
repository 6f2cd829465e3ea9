"""What makes one seed one run: every source of chance and time the real code reads, pinned.

Inside :func:`pinned` (one simulated run):

* ``os.urandom`` is a SHA-256 counter stream from the run's seed (invite secrets, table
  nonces, secret seed files, proofs' noise);
* trio schedules deterministically (its own hook for Hypothesis: the run queue sorted by
  task, then shuffled by a generator seeded from the run);
* ``time.time``/``time.time_ns`` read by the node (presence beat counts, table.json
  stamps) follow the simulated clock from a fixed epoch;
* the node's back-off generators (``random.Random()`` in ``netplay.node._mesh``) are seeded
  from the run;
* so is every other generator made without a seed (a relay's nameplate numbers: seed 70,
  and seeds 14, 17 and 26 of two campaigns side by side, gave another trace about one run in
  ten through a relay -- a one-digit number makes the relay's answer a byte shorter), the
  module ``random``'s own generator, and ``random.SystemRandom``, which ``secrets`` draws
  from (a join code's words) -- each from a stream of its own, so that pinning them moved
  no run that did not read them;
* the objects netplay keeps in sets -- its links (``Link``), the mesh's peers (``_Peer``), a
  relay's links, the spectators (``_Watcher``) -- hash by the order in which the run first
  hashed them, not by their address: a set iterates in hash order, so the order in which a
  node sends a message to its peers followed the process's allocation history, and the same
  seed gave another run after other runs in the same process (seed 40933; one of 30 campaign
  seeds re-run alone).

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

from fairtable.netplay.links import _link, _watchers
from fairtable.netplay.node import _liveness, _mesh, _node_folder, _node_parts

__all__ = ["EPOCH", "HASH_ORDERS", "pinned"]

EPOCH = 1_800_000_000  # the simulated wall clock's origin (seconds)


class _Urandom:
    def __init__(self, seed: int, stream: str = "") -> None:
        name = f"fairtable-sim/urandom/{seed}" + (f"/{stream}" if stream else "")
        self.key = hashlib.sha256(name.encode()).digest()
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


_SET_MEMBERS: tuple[type, ...] = (
    _link.Link,
    _node_parts._Peer,
    _watchers._Watcher,
)
"""The classes netplay keeps in sets, hashed by identity (``eq=False``)."""


HASH_ORDERS = ("birth", "reversed")
"""How :func:`pinned` hashes the objects of :data:`_SET_MEMBERS`: by their rank among those
first hashed, or by its negation (a set of them then iterates the other way round).  A run
whose trace differs between the two depends on the pinning: without it, on the process's
allocation history (``python -m tests.sim.find hash-order``)."""


@contextlib.contextmanager
def _hash_by_birth(order: str = "birth") -> Iterator[None]:
    """Within the block, each object of :data:`_SET_MEMBERS` hashes to its rank among those
    first hashed (kept alive until the block ends, so an address is never reused), or to
    ``-2 - rank`` in the ``reversed`` order (-1 is no hash in CPython)."""
    if order not in HASH_ORDERS:
        raise ValueError(f"no hash order {order!r}; the orders are {', '.join(HASH_ORDERS)}")
    ranks: dict[int, int] = {}
    alive: list[object] = []

    def rank(obj: object) -> int:
        key = id(obj)
        if key not in ranks:
            ranks[key] = len(ranks) if order == "birth" else -2 - len(ranks)
            alive.append(obj)
        return ranks[key]

    for cls in _SET_MEMBERS:
        assert "__hash__" not in cls.__dict__, f"{cls.__name__} has a hash of its own"
        cls.__hash__ = rank  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        for cls in _SET_MEMBERS:
            del cls.__hash__


@contextlib.contextmanager
def pinned(seed: int, hash_order: str = "birth") -> Iterator[None]:
    """Pin every source of chance and time for one run of ``seed`` (``hash_order``: one of
    :data:`HASH_ORDERS`)."""
    draws = random.Random(f"fairtable-sim/random/{seed}")
    unseeded = random.Random(f"fairtable-sim/unseeded/{seed}")
    make_random = random.Random.__init__

    def seeded(rng: random.Random, x: Any = None) -> None:
        make_random(rng, unseeded.getrandbits(64) if x is None else x)

    fake_time = _Time(time=_sim_time, time_ns=lambda: int(_sim_time() * 10**9))
    fake_random = _Random(Random=lambda *a: random.Random(draws.getrandbits(64)))
    saved = (
        os.urandom,
        trio_run._ALLOW_DETERMINISTIC_SCHEDULING,
        trio_run._r.getstate(),
        _liveness.time,
        _node_folder.time,
        _mesh.random,
        random._urandom,  # type: ignore[attr-defined]
        random.getstate(),
    )
    os.urandom = _Urandom(seed)
    random.Random.__init__ = seeded  # type: ignore[method-assign]
    random._urandom = _Urandom(seed, "system")  # type: ignore[attr-defined]
    random.seed(f"fairtable-sim/global/{seed}")
    trio_run._ALLOW_DETERMINISTIC_SCHEDULING = True  # type: ignore[misc]
    trio_run._r.seed(seed)
    _liveness.time = fake_time  # type: ignore[assignment]
    _node_folder.time = fake_time  # type: ignore[assignment]
    _mesh.random = fake_random  # type: ignore[assignment]
    try:
        with _hash_by_birth(hash_order):
            yield
    finally:
        (
            os.urandom,
            allow,
            state,
            _liveness.time,
            _node_folder.time,
            _mesh.random,
            random._urandom,  # type: ignore[attr-defined]
            global_state,
        ) = saved
        random.Random.__init__ = make_random  # type: ignore[method-assign]
        random.setstate(global_state)
        trio_run._ALLOW_DETERMINISTIC_SCHEDULING = allow  # type: ignore[misc]
        trio_run._r.setstate(state)
