"""One real check per distinct shuffle proof in a run: the simulator's time, not its behaviour.

Every peer of a simulated table verifies every other seat's shuffle proofs on arrival, and
the end-of-run invariant audits every honest peer's saved table, which verifies them all
again: the same statement and proof checked up to ``2N - 1`` times in one process, about
two thirds of a run's time.  :func:`protocol._shuffle_proof.verify_shuffle` is a pure
function of its arguments (no state, no randomness), so :func:`verified_once` remembers
the arguments of each check that *passed*, for one run, and lets an identical later check
pass without redoing the arithmetic.  Any difference in the bytes -- a seat that sends two
peers different steps, a tampered proof, another context -- is a new key and runs the real
check; a check that fails is never remembered, so every refusal and verdict is computed
as in a real peer.  The run's trace is unchanged (the clock is simulated).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import fairtable.protocol._deck as deck_module
from fairtable.protocol.crypto import Card, ProofContext, verify_shuffle

__all__ = ["verified_once"]


@contextlib.contextmanager
def verified_once() -> Iterator[None]:
    """Within the block, each passing shuffle-proof check is done once (see the module)."""
    passed: set[tuple[object, ...]] = set()

    def verify(
        ctx: ProofContext,
        deck: str,
        key: bytes,
        inputs: Sequence[Card],
        outputs: Sequence[Card],
        proof: bytes,
    ) -> None:
        args = (
            ctx.table,
            ctx.step,
            ctx.seat,
            ctx.slot,
            deck,
            key,
            tuple(map(tuple, inputs)),
            tuple(map(tuple, outputs)),
            proof,
        )
        if args in passed:
            return
        verify_shuffle(ctx, deck, key, inputs, outputs, proof)
        passed.add(args)

    deck_module.verify_shuffle = verify
    try:
        yield
    finally:
        deck_module.verify_shuffle = verify_shuffle
