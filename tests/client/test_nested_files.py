"""Nesting crashes peers (issue 29), from a file: ``fairtable audit`` and ``fairtable replay``
of a log whose signed table options are nested 2,000 deep (or whose header is nested
100,000 deep) refuse it in one line -- run as the command a person runs, in a process of
its own -- instead of stopping on an unexpected error (exit 70)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import fairtable.protocol as P

NESTED_OPTIONS = b'{"x":' + b"[" * 2_000 + b"]" * 2_000 + b"}"


def _nested_start_log(tmp_path: Path) -> Path:
    keys = tuple(P.Identity.generate().public.key for _ in range(2))
    spec = P.TableSpec("reign", keys, 60, os.urandom(32), NESTED_OPTIONS)
    path = tmp_path / "nested.log"
    path.write_bytes(P.write_log(spec, []))
    return path


def _bad_key_log(tmp_path: Path) -> Path:
    """A log whose table names a seat by 32 bytes that are no Ed25519 key (fuzz finding)."""
    keys = (P.Identity.generate().public.key, bytes(32))
    path = tmp_path / "bad-key.log"
    path.write_bytes(P.write_log(P.TableSpec("reign", keys, 60, os.urandom(32)), []))
    return path


def _nested_header_log(tmp_path: Path) -> Path:
    path = tmp_path / "deep.log"
    path.write_bytes(b'{"fairtable_log":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n")
    return path


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fairtable.client.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={
            **os.environ,
            "PYTHONPATH": str(Path(__file__).parents[2]),
            "HOME": str(cwd),
            "XDG_DATA_HOME": str(cwd / "data"),
        },
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    text = (done.stdout + done.stderr).strip()
    assert "Traceback" not in text and "unexpected error" not in text, text
    assert len(text.splitlines()) == 1, text
    return text


def _one_verdict(done: subprocess.CompletedProcess[str]) -> str:
    """The audit's answer: one verdict, in rows of at most 80 columns broken at spaces (its
    further rows indented; issue 31), its words joined again."""
    text = (done.stdout + done.stderr).strip()
    assert "Traceback" not in text and "unexpected error" not in text, text
    assert all(row.startswith("  ") for row in text.splitlines()[1:]), text
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("make", "words"),
    [(_nested_start_log, "nested deeper"), (_bad_key_log, "not a valid Ed25519 public key")],
    ids=["nested-start", "bad-key"],
)
def test_issue_29_audit_of_a_log_with_a_bad_table_fails_in_one_line(
    make: object, words: str, tmp_path: Path
) -> None:
    log = make(tmp_path)  # type: ignore[operator]
    done = _run("audit", str(log), cwd=tmp_path)
    text = _one_verdict(done)
    assert done.returncode == 1  # the audit's own answer: this log does not verify
    assert text.startswith("FAILED") and words in text


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_nested_start_log, "nested deeper"),
        (_nested_header_log, "nested deeper"),
        (_bad_key_log, "not a valid Ed25519 public key"),
    ],
    ids=["nested-start", "nested-header", "bad-key"],
)
def test_issue_29_replay_of_a_bad_log_is_refused_in_one_line(
    make: object, words: str, tmp_path: Path
) -> None:
    log = make(tmp_path)  # type: ignore[operator]
    done = _run("replay", str(log), "--export", str(tmp_path / "out"), cwd=tmp_path)
    text = _one_line(done)
    assert done.returncode == 1  # a bad file: refused in one line (docs/netplay.md, Commands)
    assert text.startswith("fairtable:") and words in text
    assert not list(tmp_path.glob("out*"))


def test_issue_29_audit_of_a_log_with_a_nested_header_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    done = _run("audit", str(_nested_header_log(tmp_path)), cwd=tmp_path)
    text = _one_line(done)
    assert done.returncode == 1 and "nested deeper" in text
