"""Who re-mixes a pool of face-down cards (docs/protocol.md §7.5 "Re-mix", version 7): its
placers in seat order, nobody for a pool of one card -- and the reveal is the same."""

from __future__ import annotations

from collections import defaultdict

import protocol as P
from client.games import bots_for
from engine.games import rules
from engine.rng import ChanceStream
from protocol._reveals import pool_mixers


def test_pool_mixers_are_the_placers_in_seat_order_and_nobody_for_one_card() -> None:
    assert pool_mixers([3, 1, 3, 0]) == (0, 1, 3)
    assert pool_mixers([2, 2]) == (2,)
    assert pool_mixers([4]) == ()
    assert pool_mixers([]) == ()


def _played_reign(players: int, seed: int) -> list[P.TableSession]:
    _, sessions = P.make_table(players, seed, game="reign",
                               round_limit=rules("reign").default_round_limit)
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{seat}")) for seat in range(players)]
    P.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return sessions


def _parts(session: P.TableSession) -> list[tuple[int, object]]:
    out = []
    for data in session.entries():
        entry = P.Entry.parse(data)
        out += [(entry.header.seat, P.decode(raw)) for raw in entry.message().parts]
    return out


def test_section_7_5_a_pool_is_re_mixed_by_its_placers_only_in_seat_order() -> None:
    sessions = _played_reign(5, 7)
    assert all(s.finished is not None and s.verdict is None for s in sessions)
    assert len({s.finished for s in sessions}) == 1  # one outcome for every peer
    parts = _parts(sessions[0])
    placer_of = {item.card: seat for seat, part in parts  # pooled ciphertext -> its placer
                 if isinstance(part, P.HandOver) and part.to_seat == P.JOINT
                 for item in part.cards}
    mixes: dict[tuple[int, str], list[int]] = defaultdict(list)  # (step, pool) -> mixers
    for seat, part in parts:
        if isinstance(part, P.ShuffleStep) and part.deck.startswith("pool"):
            k, mix = part.step.split("/")
            assert mix == f"mix{seat}"
            mixes[(int(k[1:]), part.deck)].append(seat)
    reveals = sessions[0].exchanges.reveals
    first_input = {}  # (step, pool) -> the pool before any re-mix
    for _seat, label, step, before, _after in sessions[0].exchanges.cards.shuffles:
        if label.startswith("pool"):
            first_input.setdefault((int(step.split("/")[0][1:]), label), before)
    sizes = defaultdict(int)
    for k, pools in reveals.pools.items():
        for group, final in pools.items():
            pool = first_input.get((k, f"pool{group}"), final)
            placers = sorted({placer_of[c.to_bytes()] for c in pool})
            expected = placers if len(pool) > 1 else []
            assert mixes.get((k, f"pool{group}"), []) == expected, (k, group)
            sizes[(len(pool), len(placers))] += 1
    # the seed exercises a one-card pool, a pool of one placer's cards and a shared pool
    assert sizes[(1, 1)] and any(n > 1 and p == 1 for n, p in sizes)
    assert any(p > 1 for _, p in sizes)
