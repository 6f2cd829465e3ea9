"""Benchmark the protocol building blocks: shuffle, draw, reveal, commit-reveal, DLEQ.

Plain script, prints figures, asserts nothing::

    .venv/bin/python bench/protocol.py

All seats run in this one process, so "total CPU" is the sum of every seat's
work (``time.process_time``); "bytes" are the signed feed entries each seat
broadcasts for the operation (one entry per seat per round: everything is
batched), before the flooding fan-out.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fairtable.protocol as P  # noqa: E402
import fairtable.protocol.crypto as PC

TABLE = hashlib.sha256(b"bench table").digest()
DECK = "main"
CARDS = 102


class Seats:
    """``n`` seats with identities, feeds, deck keys and a joint key."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.ids = [P.Identity.generate() for _ in range(n)]
        self.feeds = [PC.Feed(ident, TABLE, seat) for seat, ident in enumerate(self.ids)]
        self.keys = [PC.DeckKey.generate() for _ in range(n)]
        self.pub = [
            PC.verify_key_share(TABLE, s, k.key_share(TABLE, s)) for s, k in enumerate(self.keys)
        ]
        self.joint = PC.joint_key(self.pub)
        self.codebook = PC.CardCodebook(TABLE, DECK, CARDS)
        self.log = PC.FeedLog(TABLE, {s: i.public for s, i in enumerate(self.ids)})

    def send(self, seat: int, msg: object) -> bytes:
        """Sign ``msg`` into ``seat``'s feed; the framed entry, as it goes on the wire."""
        return P.encode(self.feeds[seat].append(msg))

    def receive(self, frame: bytes) -> object:
        """A peer's side: decode and verify the entry, decode its body."""
        entry = P.Entry.parse(frame)
        self.log.add(entry)
        return entry.message()


def cpu(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Median CPU seconds of ``fn`` over ``repeat`` runs, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def full_shuffle(seats: Seats) -> tuple[list[PC.Ciphertext], int]:
    """Every seat in turn: verify its input's proof (from the wire), shuffle and prove,
    sign, send.  (At a table every other peer verifies each step too: see the step
    figures below for one verification.)"""
    deck = PC.initial_deck(seats.codebook, seats.joint)
    wire, frame, before = 0, b"", deck
    for seat in range(seats.n):
        if seat:  # the previous seat's output arrives over the wire and is verified
            msg = seats.receive(frame)
            deck = PC.verify_shuffle_step(TABLE, seat - 1, msg, before, seats.joint)
        before = deck
        step, deck, _secret = PC.shuffle_step(
            DECK, f"shuffle/{seat}", deck, seats.joint, table=TABLE, seat=seat
        )
        frame = seats.send(seat, step)
        wire += len(frame)
    return deck, wire


def proof_figures(seats: Seats, repeat: int = 5) -> None:
    """One 102-card step: prove and verify against an unproved step (shuffle, and the
    receiver validating its 204 points) in the same run, and the multiplications."""
    import fairtable.protocol._shuffle_proof as _shuffle_proof  # its mul counted in place

    start_deck, _ = PC.shuffle(PC.initial_deck(seats.codebook, seats.joint), seats.joint)
    unproved, _ = cpu(lambda: PC.shuffle(start_deck, seats.joint), repeat)
    out, secret = PC.shuffle(start_deck, seats.joint)
    validate, _ = cpu(lambda: PC.parse_cards([c.to_bytes() for c in out], seat=1), repeat)
    step, _, _ = PC.shuffle_step(DECK, "s1/1", start_deck, seats.joint, table=TABLE, seat=1)
    prove, _ = cpu(
        lambda: PC.shuffle_step(DECK, "s1/1", start_deck, seats.joint, table=TABLE, seat=1), repeat
    )
    verify, _ = cpu(lambda: PC.verify_shuffle_step(TABLE, 1, step, start_deck, seats.joint), repeat)
    counts = {"mul": 0, "base": 0}
    real, real_base = _shuffle_proof.mul, _shuffle_proof.base_mul

    def counting(scalar: bytes, point: bytes) -> bytes:
        counts["mul"] += 1
        return real(scalar, point)

    def counting_base(scalar: bytes) -> bytes:
        counts["base"] += 1
        return real_base(scalar)

    _shuffle_proof.mul = counting  # type: ignore[assignment]
    _shuffle_proof.base_mul = counting_base  # type: ignore[assignment]
    try:
        _shuffle_proof.prove_shuffle(
            PC.ProofContext(TABLE, "s1/1", 1),
            DECK,
            seats.joint,
            [(c.a, c.b) for c in start_deck],
            [(c.a, c.b) for c in out],
            secret.permutation,
            secret.randomisers,
        )
        prove_muls, prove_base = counts["mul"], counts["base"]
        counts.update(mul=0, base=0)
        PC.verify_shuffle_step(TABLE, 1, step, start_deck, seats.joint)
        verify_muls, verify_base = counts["mul"], counts["base"]
    finally:
        _shuffle_proof.mul = real  # type: ignore[assignment]
        _shuffle_proof.base_mul = real_base  # type: ignore[assignment]
    point, scalar = start_deck[0].b, PC.random_scalar()
    reps = 300
    begin = time.process_time()
    for _ in range(reps):
        PC.mul(scalar, point)
    unit = (time.process_time() - begin) / reps
    begin = time.process_time()
    for _ in range(reps):
        PC.base_mul(scalar)
    unit_base = (time.process_time() - begin) / reps
    # the unproved shuffle itself: CARDS variable-base and CARDS base multiplications
    prove_muls, prove_base = prove_muls + CARDS, prove_base + CARDS
    prove_floor = prove_muls * unit + prove_base * unit_base
    verify_floor = verify_muls * unit + verify_base * unit_base
    print(f"proof of a correct shuffle, one {CARDS}-card step (CPU ms, median of {repeat}):")
    print(
        f"  unproved step: shuffle {unproved * 1e3:.1f} ms, receiver validates its "
        f"{2 * CARDS} points {validate * 1e3:.1f} ms"
    )
    print(
        f"  multiplications: variable-base {unit * 1e6:.0f} us, base-point "
        f"{unit_base * 1e6:.0f} us (same run)"
    )
    print(
        f"  prove  (shuffle + proof) {prove * 1e3:6.1f} ms = {prove / unproved:4.1f} x the "
        f"unproved shuffle; {prove_muls} variable-base + {prove_base} base-point "
        f"multiplications = {prove_floor * 1e3:.1f} ms floor ({prove / prove_floor:.2f} x it)"
    )
    print(
        f"  verify                   {verify * 1e3:6.1f} ms = {verify / validate:4.1f} x the "
        f"unproved validation; {verify_muls} variable-base + {verify_base} base-point "
        f"multiplications = {verify_floor * 1e3:.1f} ms floor "
        f"({verify / verify_floor:.2f} x it)"
    )
    print(f"  proof {len(step.proof)} bytes; targets: prove <= 100 ms, verify <= 100 ms\n")


def private_draw(seats: Seats, deck: list[PC.Ciphertext], slot: int) -> int:
    """Seats 1.. send shares for ``slot``; seat 0 checks them and opens its card."""
    ct = deck[slot]
    frames = [
        seats.send(s, PC.decryption_shares(seats.keys[s], TABLE, s, DECK, f"d{slot}", {slot: ct}))
        for s in range(1, seats.n)
    ]
    ct.check(seat=seats.n - 1)  # the drawer validates the B point of the drawn card once
    shares = []
    for s, frame in zip(range(1, seats.n), frames, strict=True):
        msg = seats.receive(frame)
        shares.append(PC.verify_shares(TABLE, s, seats.pub[s], msg, {slot: ct})[slot])
    held = PC.strip_shares(ct, shares)
    return seats.codebook.index(PC.open_held(seats.keys[0], held))


def bystander_checks(seats: Seats, deck: list[PC.Ciphertext], slot: int) -> float:
    """CPU for the n-1 non-drawing seats to also check the shares (n-2 each, not their own)."""
    ct = deck[slot]
    msgs = {
        s: PC.decryption_shares(seats.keys[s], TABLE, s, DECK, "x", {slot: ct})
        for s in range(1, seats.n)
    }
    start = time.process_time()
    for viewer in range(1, seats.n):
        for s, msg in msgs.items():
            if s != viewer:
                PC.verify_shares(TABLE, s, seats.pub[s], msg, {slot: ct})
    return time.process_time() - start


def public_reveal(seats: Seats, deck: list[PC.Ciphertext], slot: int) -> tuple[int, int]:
    """Every seat sends its share; every seat checks the others' and finishes."""
    ct = deck[slot]
    frames = [
        seats.send(s, PC.decryption_shares(seats.keys[s], TABLE, s, DECK, f"r{slot}", {slot: ct}))
        for s in range(seats.n)
    ]
    card = -1
    for viewer in range(seats.n):
        shares = []
        for s, frame in enumerate(frames):
            if s == viewer:  # its own share: no check needed
                shares.append(P.Entry.parse(frame).message().shares[0].share)
                continue
            msg = P.Entry.parse(frame).message()
            shares.append(PC.verify_shares(TABLE, s, seats.pub[s], msg, {slot: ct})[slot])
        card = PC.reveal_card(seats.codebook, ct, shares)
    return card, sum(map(len, frames))


def commit_reveal(seats: Seats) -> int:
    """One joint-randomness round: everyone commits, reveals; every seat checks all."""
    rounds = [PC.JointRandomness(TABLE, "roll", range(seats.n)) for _ in range(seats.n)]
    pairs = [rounds[s].contribute(s) for s in range(seats.n)]
    commit_frames = [seats.send(s, c) for s, (c, _) in enumerate(pairs)]
    reveal_frames = [seats.send(s, r) for s, (_, r) in enumerate(pairs)]
    for rnd in rounds:
        for s, frame in enumerate(commit_frames):
            rnd.add_commit(s, P.Entry.parse(frame).message())
        for s, frame in enumerate(reveal_frames):
            rnd.add_reveal(s, P.Entry.parse(frame).message())
        rnd.stream().below(6)
    return sum(map(len, commit_frames)) + sum(map(len, reveal_frames))


def dleq(seats: Seats, deck: list[PC.Ciphertext]) -> tuple[float, float]:
    key, ct = seats.keys[0], deck[0]
    ctx = PC.ProofContext(TABLE, "bench", 0)

    shares = [(0, ct.a, PC.mul(key.secret, ct.a))]  # a one-card shares message
    reps = 200
    start = time.process_time()
    for _ in range(reps):
        proof = PC.prove_shares(key.secret, key.public, shares, ctx)
    prove = (time.process_time() - start) / reps
    start = time.process_time()
    for _ in range(reps):
        PC.verify_shares_proof(key.public, shares, proof, ctx)
    verify = (time.process_time() - start) / reps
    return prove, verify


def main() -> None:
    print(f"fairtable protocol bench: {CARDS}-card deck, {os.cpu_count()} CPUs, CPU time per op")
    print("(medians; 'bytes' = signed entries broadcast, before fan-out to each peer)\n")
    header = (
        f"{'seats':>5} {'shuffle ms':>10} {'bytes':>7} | {'draw ms':>7} {'+others':>7} {'bytes':>6}"
        f" | {'reveal ms':>9} {'bytes':>6} | {'c-r ms':>6} {'bytes':>6}"
        f" | {'dleq prove/verify us':>20}"
    )
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    proof_figures(Seats(3))
    print(header)
    print("-" * len(header))
    for n in (3, 5, 6, 7):
        seats = Seats(n)
        shuffle_cpu, (deck, shuffle_bytes) = cpu(lambda s=seats: full_shuffle(s), 3)
        slots = iter(range(CARDS))
        draw_cpu, _ = cpu(lambda s=seats, d=deck, it=slots: private_draw(s, d, next(it)), 15)
        one = {0: deck[0]}
        draw_bytes = sum(
            len(seats.send(s, PC.decryption_shares(seats.keys[s], TABLE, s, DECK, "b", one)))
            for s in range(1, n)
        )
        others = statistics.median(bystander_checks(seats, deck, 90) for _ in range(3))
        reveal_cpu, (_, reveal_bytes) = cpu(
            lambda s=seats, d=deck, it=slots: public_reveal(s, d, next(it)), 7
        )
        cr_cpu, cr_bytes = cpu(lambda s=seats: commit_reveal(s), 7)
        prove, verify = dleq(seats, deck)
        print(
            f"{n:>5} {shuffle_cpu * 1e3:>10.1f} {shuffle_bytes:>7} | {draw_cpu * 1e3:>7.2f}"
            f" {others * 1e3:>7.2f} {draw_bytes:>6} | {reveal_cpu * 1e3:>9.2f} {reveal_bytes:>6}"
            f" | {cr_cpu * 1e3:>6.2f} {cr_bytes:>6} | {prove * 1e6:>9.0f} / {verify * 1e6:<9.0f}"
        )
    print(
        "\nshuffle: every seat verifies its input deck's proof and re-randomises + permutes"
        "\n  102 ciphertexts with a proof; total over all seats (one verifier per step)."
        "\ndraw: n-1 seats prove a share; the drawer validates and checks them and opens the card."
        "\n  Target: <= 6 ms.  '+others': the n-1 other seats also checking the shares"
        "\n  (n-2 each), which only accountability needs, not the drawer."
        "\nreveal: n seats prove a share; every seat checks the n-1 others' shares."
        "\nc-r: one commit-reveal round (2 entries per seat), every seat checking every reveal."
    )


if __name__ == "__main__":
    main()
