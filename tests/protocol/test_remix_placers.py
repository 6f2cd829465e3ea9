"""Who re-mixes a pool of face-down cards (docs/protocol.md §7.5 "Re-mix", version 7): its
placers in seat order, nobody for a pool of one card -- and the reveal is the same."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client.games import bots_for
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from fairtable.protocol._reveals import pool_mixers


def test_pool_mixers_are_the_placers_in_seat_order_and_nobody_for_one_card() -> None:
    assert pool_mixers([3, 1, 3, 0]) == (0, 1, 3)
    assert pool_mixers([2, 2]) == (2,)
    assert pool_mixers([4]) == ()
    assert pool_mixers([]) == ()


def _played_reign(players: int, seed: int) -> list[P.TableSession]:
    _, sessions = PT.make_table(
        players, seed, game="reign", round_limit=rules("reign").default_round_limit
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{seat}")) for seat in range(players)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return sessions


def _parts(session: P.TableSession) -> list[tuple[int, Any]]:
    out = []
    for data in session.entries():
        entry = P.Entry.parse(data)
        batch: Any = entry.message()
        out += [(entry.header.seat, P.decode(raw)) for raw in batch.parts]
    return out


def test_section_7_5_a_pool_is_re_mixed_by_its_placers_only_in_seat_order() -> None:
    sessions = _played_reign(5, 18)
    assert all(s.finished is not None and s.verdict is None for s in sessions)
    assert len({s.finished for s in sessions}) == 1  # one outcome for every peer
    parts = _parts(sessions[0])
    placer_of = {
        item.card: seat
        for seat, part in parts  # pooled ciphertext -> its placer
        if isinstance(part, PW.HandOver) and part.to_seat == PW.JOINT
        for item in part.cards
    }
    mixes: dict[tuple[int, str], list[int]] = defaultdict(list)  # (step, pool) -> mixers
    for seat, part in parts:
        if isinstance(part, PW.ShuffleStep) and part.deck.startswith("pool"):
            at, mix = part.step.split("/")
            assert mix == f"mix{seat}"
            mixes[(int(at[1:]), part.deck)].append(seat)
    reveals = sessions[0].exchanges.reveals
    first_input: dict[tuple[int, str], list[Any]] = {}  # (step, pool) -> before any re-mix
    for _seat, label, step, before, _after in sessions[0].exchanges.cards.shuffles:
        if label.startswith("pool"):
            first_input.setdefault((int(step.split("/")[0][1:]), label), before)
    sizes: dict[tuple[int, int], int] = defaultdict(int)
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


def test_section_7_5_a_re_mix_from_a_seat_that_placed_nothing_is_never_used() -> None:
    """A seat that placed no card in a pool sends its own proven re-mix of it anyway (as every
    seat did before version 7), to take the pool's order into its hands: nobody reads it, and
    the game ends as it does without that seat's meddling."""
    players, seed, meddler = 5, 16, 0
    _, honest = PT.make_table(
        players, seed, game="reign", round_limit=rules("reign").default_round_limit
    )
    _, sessions = PT.make_table(
        players, seed, game="reign", round_limit=rules("reign").default_round_limit
    )
    reveals = sessions[meddler].exchanges.reveals
    real_remix = reveals.remix
    sent: list[tuple[int, str]] = []

    def meddle(
        group: str,
        pools: dict[str, list[Any]],
        mixers: tuple[int, ...],
        members: tuple[PW.CardRef, ...],
    ) -> bool:
        k, joint = reveals.port.step, reveals.cards.joint
        assert joint is not None
        if meddler not in mixers and (k, group) not in sent:
            sent.append((k, group))
            step, _, _ = PC.shuffle_step(
                f"pool{group}",
                f"s{k}/mix{meddler}",
                pools[group],
                joint,
                table=reveals.port.table,
                seat=meddler,
                inputs=members,
            )
            reveals.port.publish(step)
        return real_remix(group, pools, mixers, members)

    reveals.remix = meddle  # type: ignore[method-assign]
    for table in (honest, sessions):
        root = ChanceStream.from_int(seed)
        bots = [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(players)]

        def decide(seat: int, event: Any, bots: list[Any] = bots) -> Any:
            return bots[seat].decide(event.view, event.decision)

        PT.run_table(table, decide)
    assert sent  # the meddler did send uninvited re-mixes
    for peer in sessions:
        assert peer.verdict is None and peer.finished is not None
        assert not any(
            seat == meddler and (k, label[4:]) in sent
            for seat, label, step, _, _ in peer.exchanges.cards.shuffles
            for k in [int(step.split("/")[0][1:])]
        )
    digests = {p.finished.digest for p in sessions if p.finished is not None}
    assert digests == {p.finished.digest for p in honest if p.finished is not None}
    assert len(digests) == 1
