"""The engine contract, proven on whole games of Reign.

Determinism, replay, per-seat instances agreeing on every digest, views that
leak nothing, arrival order of simultaneous answers, and the invariants of
random legal play (hypothesis).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import UnknownSecret
from fairtable.engine.reign import Discard, ReignConfig, new_game, standard_catalog
from fairtable.engine.reign.answers import Bid
from fairtable.engine.requests import Decision, Shuffle
from tests.engine.driver import Table, for_seat

CATALOG = standard_catalog()


def card_zones(table: Table) -> Counter[str]:
    """Every card of the game counted in the zone it is in (omniscient)."""
    s = table.truth.state
    seen: Counter[str] = Counter()
    piles = dict(table.referee.piles)
    for request in s.pending:  # a pile being formed is not yet in the referee's hands
        if isinstance(request, Shuffle):
            piles[request.pile] = list(request.cards)
    for pile in piles.values():
        seen.update(pile)
    for cards in s.discards.values():
        seen.update(cards)
    for sec in s.secrets.values():
        seen.update(sec.hand)
        seen.update(sec.facedown.values())
        seen.update(c for _, c in sec.gifts)
    for cards in s.bid_cards.values():
        seen.update(cards)
    for cards in s.armies.values():
        seen.update(cards)
    for house in CATALOG.house_ids:
        if house not in s.houses:
            seen.update(CATALOG.military[house])
    return seen


def hidden_from(table: Table, seat: int | None) -> set[str]:
    """Card ids that ``seat`` may not know the whereabouts of right now."""
    s = table.truth.state
    out: set[str] = set()
    for pile in table.referee.piles.values():
        out.update(pile)
    for other, sec in s.secrets.items():
        if other == seat:
            continue
        out.update(sec.hand)
        out.update(sec.facedown.values())
        out.update(c for _, c in sec.gifts)
    if seat is not None:
        mine = s.secrets[seat]
        out -= set(mine.hand) | set(mine.facedown.values()) | {c for _, c in mine.gifts}
    return out


def strings_in(value: Any) -> set[str]:
    text = json.dumps(value)
    found: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, dict):
            for k, item in v.items():
                found.add(k)
                walk(item)
        elif isinstance(v, list):
            for item in v:
                walk(item)

    walk(json.loads(text))
    return found


def check_invariants(table: Table) -> None:
    s = table.truth.state
    if s.round >= 1:  # both piles formed
        zones = card_zones(table)
        assert set(zones) == set(CATALOG.defs), "a card is missing from every zone"
        assert max(zones.values()) == 1, f"a card is in two zones: {zones.most_common(1)}"
    for seat in range(s.players):
        assert s.hand_count[seat] == len(s.secrets[seat].hand)
        assert len(s.support_of(seat)) <= 1 or s.pending and s.pending[0].kind == "keep_support"
    if not any(isinstance(r, Shuffle) for r in s.pending):
        for name, pile in table.referee.piles.items():
            assert s.piles[name] == len(pile)


def check_monotone(previous: list[int], table: Table) -> list[int]:
    now = table.truth.state.legitimacy
    if previous:
        assert all(b >= a for a, b in zip(previous, now, strict=True)), "legitimacy decreased"
    return list(now)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_contract_per_seat_instances_agree_on_every_digest(players: int) -> None:
    table = Table(players, seed=players * 11, mirrors=True)

    def check(t: Table) -> None:
        digest = t.truth.digest()
        for viewer, mirror in t.mirrors.items():
            assert mirror.digest() == digest, f"instance of seat {viewer} desynced"
        if t.truth.pending() and isinstance(t.truth.pending()[0], Decision):
            seat = t.truth.pending()[0].seat
            assert t.mirrors[seat].view(seat) == t.truth.view(seat)

    table.play(check)
    assert table.truth.over


def test_contract_replaying_the_answers_reproduces_every_digest() -> None:
    table = Table(5, seed=3)
    table.play()
    replay = new_game(ReignConfig(5))
    digests = [replay.digest()]
    for answer in table.answers:
        replay.apply(answer)
        digests.append(replay.digest())
    assert digests == table.digests


def test_contract_same_seed_same_game_different_seed_different_game() -> None:
    a, b, c = Table(4, seed=9), Table(4, seed=9), Table(4, seed=10)
    for t in (a, b, c):
        t.play()
    assert a.digests == b.digests
    assert a.digests[-1] != c.digests[-1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 7),
    seed=st.integers(0, 2**32),
    kinds=st.lists(st.sampled_from(["random", "heuristic"]), min_size=7, max_size=7),
)
def test_property_random_legal_play_keeps_every_invariant(
    players: int, seed: int, kinds: list[str]
) -> None:
    table = Table(players, seed=seed, bots=kinds[:players])
    legit: list[int] = []

    def check(t: Table) -> None:
        nonlocal legit
        check_invariants(t)
        legit = check_monotone(legit, t)

    table.play(check)
    assert table.truth.state.over in ("won", "round_limit")
    if table.truth.over == "won":
        assert table.truth.outcome is not None
        (winner,) = table.truth.outcome.seats
        assert winner == table.truth.state.regent
        assert table.truth.state.legitimacy[winner] >= 9


@settings(max_examples=10, deadline=None)
@given(players=st.integers(3, 7), seed=st.integers(0, 2**32))
def test_property_views_never_hold_another_seats_hidden_cards(players: int, seed: int) -> None:
    table = Table(players, seed=seed)

    def check(t: Table) -> None:
        for seat in [None, *range(players)]:
            leaked = strings_in(t.truth.view(seat).to_dict()) & hidden_from(t, seat)
            assert not leaked, f"seat {seat} sees hidden {sorted(leaked)}"

    table.play(check)


def test_contract_simultaneous_discards_in_any_arrival_order_give_one_result() -> None:
    # Play until several seats must discard at once.
    for seed in range(200):
        table = Table(4, seed=seed)
        while not table.truth.over:
            pending = table.truth.pending()
            if len(pending) >= 2 and all(
                isinstance(r, Decision) and r.kind == "discard" for r in pending
            ):
                break
            table.step()
        else:
            continue
        answers = [table.bots[r.seat].decide(table.truth.view(r.seat), r) for r in pending]
        forward, backward = table.truth.copy(), table.truth.copy()
        for a in answers:
            forward.apply(a)
        for a in reversed(answers):
            backward.apply(a)
        assert forward.digest() == backward.digest()
        assert all(isinstance(a, Discard) for a in answers)
        return
    pytest.fail("no seed produced a simultaneous discard")


def test_contract_a_peer_is_never_told_another_seats_secret() -> None:
    table = Table(3, seed=1, mirrors=True)
    while True:
        pending = table.truth.pending()[0]
        if isinstance(pending, Decision) and pending.kind == "bid":
            answer = table.next_answer()
            if isinstance(answer, Bid) and answer.count:
                break
        table.step()
    other = (answer.seat + 1) % 3
    mirror = table.mirrors[other]
    before = mirror.digest()
    with pytest.raises(UnknownSecret):
        mirror.apply(answer)  # the full answer, secret part included
    assert mirror.digest() == before
    mirror.apply(for_seat(answer, other))
    assert mirror.digest() != before


def test_contract_check_refuses_what_apply_refuses_and_changes_nothing() -> None:
    from fairtable.engine.errors import EngineError

    table = Table(4, seed=12)
    checked = 0
    while not table.truth.over and checked < 60:
        request = table.truth.pending()[0]
        if isinstance(request, Decision):
            good = table.next_answer()
            before = table.truth.digest()
            table.truth.check(good)  # a legal answer passes
            bad = Bid(request.seat, 99, None) if request.kind != "bid" else Discard(0, ())
            try:
                table.truth.check(bad)
            except EngineError as refused:
                with pytest.raises(type(refused)):
                    table.truth.copy().apply(bad)
            assert table.truth.digest() == before
            checked += 1
        table.step()
    assert checked > 10
