"""Benchmark vanishing's cost (issue 33): the key sharing at setup beside today's table start,
and the recovery of a departed seat's layer at a 6-seat Reign table.

Plain script, prints figures, asserts nothing::

    .venv/bin/python bench/vss.py [--repeat 3]

All seats run in this one process and every figure is CPU time (``time.process_time``) summed
over every seat, so the two parts of the ratio are measured alike, in the same run:

* **table start**: a real Reign table (``protocol.testing.make_table``, every seat's session)
  from nothing to its first decision (``run_table`` stops there), every entry delivered to
  every seat (``table_start`` of ``bench/vanish.py``, which measures it at ``go-on`` too):
  key shares, the chance of the houses, both decks shuffled and proven by every seat and
  verified by every other, the opening deals;
* **sharing**: every seat deals its key to the others (``deal``: commitments, sealed boxes),
  every seat checks every other seat's deal (``verify_deal``) and opens and checks its own
  share in each (``open_share``);
* **recovery** (6 seats, seat 5 gone): each survivor makes its recovery shares for every card
  of the 102-card deck (an upper bound: the whole deck still face down) with one DLEQ proof,
  checks the other four survivors' and combines them; the figure that matters is one
  survivor's (they work in parallel, each on its own machine), the issue's target 2 s.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vanish import cpu, table_start  # noqa: E402 -- bench/vanish.py, beside this script

import fairtable.protocol as P  # noqa: E402
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW

TABLE = hashlib.sha256(b"bench vss table").digest()
CARDS = 102  # Reign's deck at 6 seats: 5 houses of 15 military cards and 27 events


class Seated:
    """``n`` seats with identities and deck keys (made outside the timed parts)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.ids = [P.Identity.generate() for _ in range(n)]
        self.keys = [PC.DeckKey.generate() for _ in range(n)]
        self.t = PC.table_threshold(n)

    def sharing(self) -> tuple[list[PW.ShareDeal], dict[tuple[int, int], PC.KeyPiece]]:
        """Every seat's deal, every deal checked by every other seat, every share opened."""
        deals = []
        for dealer in range(self.n):
            holders = {j: self.ids[j].public for j in PC.holders_of(dealer, self.n)}
            deals.append(PC.deal(self.keys[dealer], TABLE, dealer, holders, self.t)[0])
        pieces = {}
        for seat in range(self.n):
            for dealer, msg in enumerate(deals):
                if dealer == seat:
                    continue
                holders = PC.holders_of(dealer, self.n)
                PC.verify_deal(dealer, self.keys[dealer].public, holders, self.t, msg)
                piece = PC.open_share(self.ids[seat], TABLE, dealer, seat, msg)
                assert isinstance(piece, PC.KeyPiece)
                pieces[dealer, seat] = piece
        return deals, pieces


def setup_figures(repeat: int) -> None:
    print("Setup: the key sharing beside today's table start (Reign, CPU summed over seats)")
    print(f"{'seats':>5} {'table start':>12} {'sharing':>9} {'added':>7} {'deal bytes':>11}")
    for n in range(3, 7):
        seated = Seated(n)
        start = cpu(lambda n=n: table_start(n, 1000 + n, b""), repeat)  # type: ignore[misc]
        share = cpu(seated.sharing, max(repeat, 5))
        deal_bytes = len(P.encode(seated.sharing()[0][0]))
        print(
            f"{n:>5} {start:>11.3f}s {share:>8.4f}s {100 * share / start:>6.2f}% {deal_bytes:>11}"
        )


def recovery_figures(repeat: int) -> None:
    n, departed = 6, 5
    seated = Seated(n)
    deals, pieces = seated.sharing()
    joint = PC.joint_key(k.public for k in seated.keys)
    book = PC.CardCodebook(TABLE, "military", CARDS)
    out, _ = PC.shuffle(PC.initial_deck(book, joint), joint)
    cards = dict(enumerate(out))
    survivors = PC.holders_of(departed, n)
    publics = {j: PC.share_key(deals[departed].commitments, j) for j in survivors}

    def make(j: int) -> PW.RecoveryShares:
        return PC.recovery_shares(pieces[departed, j], TABLE, "military", "s9/0", cards)

    msgs = {j: make(j) for j in survivors}

    def check_and_combine(me: int) -> dict[int, bytes]:
        partials = {me: {s.slot: s.share for s in msgs[me].shares}}
        for j in survivors:
            if j != me:
                partials[j] = PC.verify_recovery(TABLE, j, publics[j], msgs[j], cards)
        return PC.combine(partials, seated.t)

    prove = cpu(lambda: make(survivors[0]), repeat)
    verify_one = cpu(lambda: PC.verify_recovery(TABLE, 1, publics[1], msgs[1], cards), repeat)
    combine = cpu(lambda: check_and_combine(survivors[0]), repeat) - 4 * verify_one
    total = cpu(lambda: [check_and_combine(j) for j in survivors], 1) + 5 * prove
    real = PC.decryption_shares(seated.keys[departed], TABLE, departed, "military", "x", cards)
    assert check_and_combine(survivors[0]) == {s.slot: s.share for s in real.shares}
    print()
    print(f"Recovery: 6-seat Reign table, seat {departed} gone, all {CARDS} deck cards")
    print(f"  one survivor's recovery shares and proof: {prove:.3f}s")
    print(f"  checking one other survivor's:            {verify_one:.3f}s (x4)")
    print(f"  combining (Lagrange, 5 per card):         {combine:.3f}s")
    print(f"  one survivor, ready to play on:           {prove + 4 * verify_one + combine:.3f}s")
    print(f"  all five survivors in one process:        {total:.3f}s")
    print(f"  recovery message: {len(P.encode(msgs[0]))} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    setup_figures(args.repeat)
    recovery_figures(args.repeat)


if __name__ == "__main__":
    main()
