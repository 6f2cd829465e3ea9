"""Several processes starting at once in one empty data folder all get the same identity.

The first ``fairtable`` run makes ``identity.key``.  Four windows opened at once used to
race on one temporary file name: one of them could fail ("No such file or directory") or
go on with a key that is not the one saved.  Now the first writer wins and every one of
them reads the key that is on disk.
"""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

from fairtable.netplay import load_identity_seed


def _race_threads(data_dir: Path, count: int) -> list[bytes | BaseException]:
    barrier = threading.Barrier(count)
    results: list[bytes | BaseException] = [b""] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = load_identity_seed(data_dir)
        except BaseException as exc:  # noqa: BLE001 -- reported by the assertion
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_threads_making_the_identity_at_once_all_get_the_saved_key(tmp_path: Path) -> None:
    for round_ in range(30):
        data_dir = tmp_path / str(round_)
        results = _race_threads(data_dir, 8)
        saved = (data_dir / "identity.key").read_bytes()
        assert results == [saved] * 8
        assert sorted(p.name for p in data_dir.iterdir()) == ["identity.key"]  # no temp left


def _load_in_process(data_dir: str, barrier: object, out: object) -> None:
    barrier.wait()  # type: ignore[attr-defined]
    try:
        out.put(load_identity_seed(Path(data_dir)))  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001 -- reported by the assertion
        out.put(repr(exc))  # type: ignore[attr-defined]


def test_processes_making_the_identity_at_once_all_get_the_saved_key(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    for round_ in range(5):
        data_dir = tmp_path / str(round_)
        barrier, out = ctx.Barrier(4), ctx.Queue()
        procs = [
            ctx.Process(target=_load_in_process, args=(str(data_dir), barrier, out))
            for _ in range(4)
        ]
        for p in procs:
            p.start()
        results = [out.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        saved = (data_dir / "identity.key").read_bytes()
        assert results == [saved] * 4
