"""A seat computes each of its shares and hand-overs once, however many passes its exchange
takes while other seats' parts come in (each is deterministic from the seat's secret seed, so a
second computation could only give the same part again: publishing dropped it, after costing
two multiplications a card)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import fairtable.protocol as P
import fairtable.protocol._piles as piles
import fairtable.protocol._reveals as reveals
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client.games import bots_for
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream


def test_each_shares_and_hand_over_part_is_computed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: Counter[str] = Counter()

    def counted(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            made[name] += 1
            return real(*args, **kwargs)

        return wrapper

    for module in (piles, reveals):
        monkeypatch.setattr(
            module, "decryption_shares", counted("shares", module.decryption_shares)
        )
    monkeypatch.setattr(reveals, "hand_over", counted("hand-over", reveals.hand_over))
    players, seed = 5, 7
    _, sessions = PT.make_table(
        players, seed, game="reign", round_limit=rules("reign").default_round_limit
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{seat}")) for seat in range(players)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    assert all(s.finished is not None for s in sessions)
    # every peer's log holds every seat's entries: one log is the whole table
    batches: list[Any] = [P.Entry.parse(data).message() for data in sessions[0].entries()]
    parts = [P.decode(raw) for batch in batches for raw in batch.parts]
    sent = Counter(
        "shares" if isinstance(p, PW.DecryptShares) else "hand-over"
        for p in parts
        if isinstance(p, PW.DecryptShares) or (isinstance(p, PW.HandOver) and p.to_seat == PW.JOINT)
    )
    # (the shares a move or an opening shows ride inside it, made by _cards.shares_for)
    assert made["hand-over"] == sent["hand-over"] > 0
    assert made["shares"] == sent["shares"] > 0
