"""A fixed sample of the decoder fuzz campaign (the long campaign: ``python -m tests.fuzz``).

Every decoder that takes bytes from outside gets its corpus seeds and 400 generated inputs and
raises nothing but its typed errors; the seeds reach each decoder's success path (so the sample
tests the decoder, not only its first refusal); a planted fault is reported with a replay line.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .__main__ import campaign, input_at
from .hostile import KINDS
from .targets import TARGETS, Target

SAMPLE = 400


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_decoder_raises_only_its_typed_errors(name: str) -> None:
    out = io.StringIO()
    findings = campaign(TARGETS[name], SAMPLE, seed=20261202, out=out)
    assert findings == [], out.getvalue()


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_corpus_seeds_reach_the_success_path(name: str) -> None:
    target = TARGETS[name]
    outcomes = {target.outcome(data) for data in target.corpus()}
    assert any(o.startswith("ok") for o in outcomes), outcomes


@st.composite
def _planted(draw: st.DrawFn, target: Target) -> bytes:
    """A planted attack (deep nesting, huge numbers, long strings, duplicate keys, invalid
    UTF-8: tests/fuzz/hostile.py) on one of ``target``'s corpus items."""

    def pick(lo: int, hi: int) -> int:
        return draw(st.integers(lo, hi))

    corpus = target.corpus()
    return target.plant(pick, corpus[pick(0, len(corpus) - 1)])


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_planted_attacks_meet_only_typed_errors(name: str) -> None:
    """Issue 29: every entry point, fed each kind of attack, raises only its typed errors."""
    target = TARGETS[name]

    @settings(
        max_examples=30,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(_planted(target))
    def check(data: bytes) -> None:
        target.outcome(data)

    check()


def test_the_planted_attacks_are_the_five_the_issue_names() -> None:
    assert KINDS == ("deep", "huge-number", "long-string", "duplicate-key", "invalid-utf8")


def test_inputs_are_the_same_for_the_same_seed_and_index() -> None:
    target = TARGETS["codec"]
    corpus = target.corpus()
    first = [input_at(target, corpus, 7, i) for i in range(50)]
    assert first == [input_at(target, corpus, 7, i) for i in range(50)]
    assert len(set(first)) > 40  # and they differ from each other


def test_a_decoder_fault_is_a_finding_with_its_replay_line() -> None:
    codec = TARGETS["codec"]

    def faulty(data: bytes) -> str:
        if b"seq" in data:
            raise KeyError("seq")  # not the codec's typed error
        return codec.run(data)

    planted = Target("codec", codec.errors, faulty)
    findings = campaign(planted, 200, seed=3, out=io.StringIO())
    replayed = [f for f in findings if "--replay codec:3:" in f]
    assert replayed and all("KeyError" in f for f in findings)
