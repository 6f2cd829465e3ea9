"""Commitments and joint randomness."""

from __future__ import annotations

import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.engine.rng import ChanceStream

from .helpers import OTHER_TABLE, TABLE, seed

NONCE = seed("nonce")


def test_commitment_opens() -> None:
    commit, reveal = PC.make_commitment(TABLE, 1, "bid:1", b"7 gold", nonce=NONCE)
    assert PC.verify_reveal(TABLE, 1, commit, reveal) == b"7 gold"
    assert commit.digest == PC.commitment_digest(TABLE, 1, "bid:1", NONCE, b"7 gold")


def test_commitment_hides_with_fresh_nonces() -> None:
    c1, _ = PC.make_commitment(TABLE, 1, "bid:1", b"7")
    c2, _ = PC.make_commitment(TABLE, 1, "bid:1", b"7")
    assert c1.digest != c2.digest


@pytest.mark.parametrize(
    "tamper",
    ["nonce", "payload", "purpose", "seat", "table", "reveal-purpose"],
)
def test_commitment_binding(tamper: str) -> None:
    commit, reveal = PC.make_commitment(TABLE, 1, "bid:1", b"7 gold", nonce=NONCE)
    table, seat = TABLE, 1
    if tamper == "nonce":
        reveal = PW.Reveal(reveal.purpose, seed("other"), reveal.payload)
    elif tamper == "payload":
        reveal = PW.Reveal(reveal.purpose, reveal.nonce, b"8 gold")
    elif tamper == "purpose":
        commit = PW.Commit("bid:2", commit.digest)
        reveal = PW.Reveal("bid:2", reveal.nonce, reveal.payload)
    elif tamper == "reveal-purpose":
        reveal = PW.Reveal("bid:2", reveal.nonce, reveal.payload)
    elif tamper == "seat":
        seat = 2
    else:
        table = OTHER_TABLE
    with pytest.raises(PC.BadCommitment) as err:
        PC.verify_reveal(table, seat, commit, reveal)
    assert err.value.seat == seat and err.value.kind == "bad-reveal"


def _round(values: dict[int, bytes]) -> PC.JointRandomness:
    rnd = PC.JointRandomness(TABLE, "roll/1", values)
    pairs = {s: rnd.contribute(s, value=v) for s, v in values.items()}
    for s, (commit, _) in pairs.items():
        rnd.add_commit(s, commit)
    for s, (_, reveal) in pairs.items():
        rnd.add_reveal(s, reveal)
    return rnd


def test_same_reveals_same_seed_and_stream() -> None:
    values = {s: seed(f"v{s}") for s in range(3)}
    a, b = _round(values), _round(dict(reversed(values.items())))
    assert a.complete and a.seed() == b.seed()
    assert a.seed() == PC.joint_seed(TABLE, "roll/1", values)
    assert a.stream().permutation(10) == ChanceStream(a.seed()).permutation(10)
    changed = _round({**values, 2: seed("x")})
    assert changed.seed() != a.seed()


def test_seed_depends_on_table_and_step() -> None:
    values = {0: seed("a"), 1: seed("b")}
    seeds = {
        PC.joint_seed(TABLE, "roll/1", values),
        PC.joint_seed(TABLE, "roll/2", values),
        PC.joint_seed(OTHER_TABLE, "roll/1", values),
    }
    assert len(seeds) == 3


def test_withheld_reveal_blames_that_seat() -> None:
    rnd = PC.JointRandomness(TABLE, "roll/1", [0, 1, 2])
    pairs = {s: rnd.contribute(s) for s in range(3)}
    for s in range(3):
        rnd.add_commit(s, pairs[s][0])
    rnd.add_reveal(0, pairs[0][1])
    rnd.add_reveal(2, pairs[2][1])
    assert not rnd.complete and rnd.missing_reveals() == [1]
    with pytest.raises(P.LocalProtocolError):
        rnd.seed()
    blame = rnd.withheld()
    assert isinstance(blame, PC.WithheldReveal) and blame.seats == (1,)


def test_missing_commit_blames_that_seat() -> None:
    rnd = PC.JointRandomness(TABLE, "roll/1", [0, 1, 2])
    rnd.add_commit(0, rnd.contribute(0)[0])
    assert rnd.withheld().seats == (1, 2)


def test_bad_reveal_blames_that_seat() -> None:
    rnd = PC.JointRandomness(TABLE, "roll/1", [0, 1])
    (c0, r0), (c1, r1) = rnd.contribute(0), rnd.contribute(1)
    rnd.add_commit(0, c0)
    rnd.add_commit(1, c1)
    rnd.add_reveal(0, r0)
    with pytest.raises(PC.BadCommitment) as err:
        rnd.add_reveal(1, PW.Reveal(r1.purpose, r1.nonce, seed("changed my mind")))
    assert err.value.seat == 1
    with pytest.raises(PC.BadCommitment) as err:  # seat 0's reveal is not seat 1's
        rnd.add_reveal(1, r0)
    assert err.value.seat == 1
    with pytest.raises(PC.BadCommitment):
        rnd.add_commit(1, PW.Commit(c1.purpose, bytes(32)))  # a second commitment
    with pytest.raises(P.RemoteProtocolError):
        rnd.add_commit(5, c1)  # not a participant


def test_reveal_needs_own_commit_and_right_purpose() -> None:
    rnd = PC.JointRandomness(TABLE, "roll/1", [0, 1])
    c0, r0 = rnd.contribute(0)
    with pytest.raises(PC.BadCommitment):
        rnd.add_reveal(0, r0)
    with pytest.raises(PC.BadCommitment):
        rnd.add_commit(0, PW.Commit("chance:roll/2", c0.digest))
