"""The engine contract, proven on Sodalis: simultaneous answers in any arrival order, refused
answers changing nothing, per-seat instances agreeing on every digest, views leaking
nothing, whole games to the end, and the invariants of random legal play (hypothesis)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import EngineError
from fairtable.engine.games import rules
from fairtable.engine.requests import Decision, Shuffle
from fairtable.engine.sodalis import (
    RULES,
    ChooseChampion,
    Rearrange,
    Reversals,
    SodalisConfig,
    TurnTokens,
    new_game,
)
from fairtable.engine.sodalis.choices import legal_answers
from fairtable.engine.sodalis.team import TEAMS, TRIBUTES
from tests.engine.sodalis.helpers import CATALOG, Table, asked
from tests.leaks import strings_in


def four_player_setup():  # type: ignore[no-untyped-def]
    game = new_game(SodalisConfig(4), catalog=CATALOG)
    return game


def _drive_setup(order: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """Answer every simultaneous decision of a 4-player setup in the given seat order."""
    game = four_player_setup()
    plan = {
        "turn_tokens": {0: TurnTokens(0, (5, 1)), 1: TurnTokens(1, (6, 2))},
        "rearrange": {0: Rearrange(0, (1, 5)), 1: Rearrange(1, (2, 6))},
    }
    picks = iter(["tempest", "empress", "lover", "sage"])
    while isinstance(game.pending()[0], Decision):
        pending = game.pending()
        kind = pending[0].kind
        if kind == "champion":
            game.apply(ChooseChampion(pending[0].seat, next(picks)))
            continue
        seats = sorted(d.seat for d in pending)
        for seat in sorted(seats, key=lambda s: order.index(s) if s in order else s):
            if kind == "reversals":
                arcana = asked_for(game, seat).info.arcana
                game.apply(Reversals(seat, arcana[: seat + 1]))
            else:
                game.apply(plan[kind][seat])
    return game


def asked_for(game, seat):  # type: ignore[no-untyped-def]
    return next(d for d in game.pending() if d.seat == seat)


def test_contract_arrival_order_of_simultaneous_answers_never_changes_the_outcome() -> None:
    results = set()
    for order in itertools.permutations(range(4)):
        game = _drive_setup(order)
        results.add(
            (
                game.digest(),
                json.dumps(game.public(), sort_keys=True),
                repr(game.state.stored_events()),
            )
        )
    assert len(results) == 1


def test_contract_a_buffered_answer_is_shown_to_its_seat_only() -> None:
    game = four_player_setup()
    before = game.digest()
    game.apply(TurnTokens(0, (5, 1)))
    assert game.digest() == before  # not applied yet: nothing public changed
    assert [d.seat for d in game.pending()] == [1]
    assert game.view(0).secret == {"answer": "TurnTokens", "seat": 0, "tokens": (5, 1)}
    for seat in (1, 2, 3, None):
        view = game.view(seat)
        assert view.secret is None
        assert 5 not in json.loads(json.dumps(view.to_dict()))["public"]["seats"][0].values()
    game.apply(TurnTokens(1, (2, 6)))
    assert game.public()["seats"][0]["token"] == 5


def test_contract_a_buffered_reversal_choice_never_appears_in_another_seats_view() -> None:
    game = four_player_setup()
    game.apply(TurnTokens(0, (1, 3)))
    game.apply(TurnTokens(1, (2, 4)))
    for champion in ("tempest", "empress", "lover", "sage"):
        game.apply(ChooseChampion(asked(game).seat, champion))
    game.apply(Rearrange(0, (1, 3)))
    game.apply(Rearrange(1, (2, 4)))
    others = {seat: json.dumps(game.view(seat).to_dict(), default=list) for seat in (0, 1, 3, None)}
    game.apply(Reversals(2, ("lover_bolt", "lover_mend")))
    assert game.view(2).secret == {
        "answer": "Reversals",
        "seat": 2,
        "reversed": ("lover_bolt", "lover_mend"),
    }
    for seat, before in others.items():
        after = json.dumps(game.view(seat).to_dict(), default=list)
        assert after == before, f"seat {seat}'s view changed while the choice was secret"
    for seat in (0, 1, 3):
        game.apply(Reversals(seat, ()))
    assert "lover_bolt~r" in game.public()["seats"][2]["cards"]


def test_contract_refused_answers_change_nothing_during_a_whole_game() -> None:
    table = Table(4, seed=3, round_limit=6)
    wrong = 0
    while not table.truth.over:
        request = table.truth.pending()[0]
        if isinstance(request, Decision):
            game = table.truth
            digest, events = game.digest(), len(game.state.events)
            view = game.view(request.seat)
            legal = list(itertools.islice(legal_answers(view, request), 50))
            for answer in legal[:3]:
                for seat in range(4):
                    if seat == request.seat:
                        continue
                    bad = type(answer)(
                        seat, *[getattr(answer, f.name) for f in answer.__attrs_attrs__[1:]]
                    )
                    if any(d.seat == seat for d in game.pending()):
                        continue
                    with pytest.raises(EngineError):
                        game.apply(bad)
                    wrong += 1
            assert game.digest() == digest and len(game.state.events) == events
        table.step()
    assert wrong > 100


@pytest.mark.parametrize("players", [2, 4, 6])
def test_contract_per_seat_instances_agree_on_every_digest(players: int) -> None:
    table = Table(players, seed=40 + players, mirrors=True, round_limit=8)

    def check(t: Table) -> None:
        digest = t.truth.digest()
        for viewer, mirror in t.mirrors.items():
            assert mirror.digest() == digest, f"instance of seat {viewer} desynced"

    table.play(check)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_contract_views_leak_neither_deck_order_nor_pending_choices(players: int) -> None:
    table = Table(players, seed=players, round_limit=6)

    def check(t: Table) -> None:
        s = t.truth.state
        for seat in [None, *range(players)]:
            view = t.truth.view(seat)
            text = json.dumps(view.to_dict(), default=list)
            for pile in t.referee.piles.values():
                if len(pile) >= 2:
                    assert json.dumps(pile) not in text
                    assert json.dumps(pile)[1:-1] not in text
            for other, answer in s.buffered.items():
                if other != seat:
                    assert view.secret is None or view.secret["seat"] == seat
                    if isinstance(answer, Reversals):
                        flipped = {a + "~r" for a in answer.reversed}
                        assert not flipped & strings_in(json.loads(text))

    table.play(check)


def test_contract_determinism_same_seed_same_game() -> None:
    first, second = Table(4, seed=9, round_limit=5), Table(4, seed=9, round_limit=5)
    first.play()
    second.play()
    assert first.answers == second.answers
    assert first.truth.digest() == second.truth.digest()


def test_contract_copy_is_independent() -> None:
    table = Table(2, seed=1, round_limit=3)
    for _ in range(15):
        table.step()
    assert not table.truth.over
    clone = table.truth.copy()
    digest = clone.digest()
    table.play()
    assert clone.digest() == digest and not clone.over


def test_contract_the_registry_starts_sodalis_and_summarises_it() -> None:
    assert rules("sodalis") is RULES or rules("sodalis").name == "sodalis"
    table = Table(2, seed=2, round_limit=4)
    table.play()
    summary = RULES.summary(table.truth)
    assert summary["rounds"] == table.truth.state.round
    assert set(summary["tributes"]) == {"dawn", "dusk"}
    assert RULES.seat_counts == (2, 4, 6) and RULES.default_round_limit == 100
    with pytest.raises(KeyError):
        table.truth.secret_of(1)
    with pytest.raises(KeyError):
        table.truth.handover_cards(0, 1)


# -- whole games and invariants ---------------------------------------------------------------
def check_invariants(t: Table) -> None:
    s = t.truth.state
    spaces = []
    for seat, u in enumerate(s.seats):
        if u.champion is not None and s.phase != "setup":
            assert 0 <= u.life <= s.max_life(seat)
        if u.at is not None:
            assert u.at in s.arena.passable, "a unit on an impassable space"
            assert s.artifacts[s.other(u.team)] != u.at, "a unit on the opposing Artifact"
            spaces.append(u.at)
    spaces.append(s.arena.paragon)
    assert len(spaces) == len(set(spaces)), "two units share a space"
    sight = int(s.paragon_sight)
    for team in TEAMS:
        for kind in TRIBUTES:
            held = sum(kind in s.seats[x].tributes for x in s.members(team))
            assert held <= 1, f"{team} holds two {kind}"
        sight += s.holder(team, "sight") is not None
    giving = any(
        isinstance(r, Decision) and r.kind == "give_tribute" and r.info.tribute == "sight"
        for r in s.pending
    )
    giving = giving or any(t[:1] == ("earn",) and t[-1] == "sight" for t in s.tasks)
    assert sight == (0 if giving else 1), "exactly one Tribute of Sight"
    if not any(isinstance(r, Shuffle) for r in s.pending):
        for seat, u in enumerate(s.seats):
            pile = t.referee.piles.get(f"deck:{seat}")
            if pile is None:
                continue
            assert u.unseen == len(pile)
            zones = u.spread() + u.bottom + [c for c, _ in u.continuous] + pile
            assert sorted(zones) == sorted(u.cards), f"deck {seat} lost a card"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_contract_whole_games_with_random_answers_reach_the_end(players: int, seed: int) -> None:
    table = Table(players, seed=seed, round_limit=40, check_legal=True)
    table.play(check_invariants)
    assert table.truth.over
    assert table.truth.state.over in ("tribute", "round_limit")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 4, 6]), seed=st.integers(0, 10**6))
def test_contract_random_legal_play_keeps_every_invariant(players: int, seed: int) -> None:
    table = Table(players, seed=seed, round_limit=12)
    digests = []

    def check(t: Table) -> None:
        check_invariants(t)
        digests.append(t.truth.digest())

    _play_capped(table, check, 3000)
    replay = Table(players, seed=seed, round_limit=12)
    for i in range(len(digests)):
        replay.step()
        assert replay.truth.digest() == digests[i]


def _play_capped(table: Table, check, cap: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(cap):
        if table.truth.over:
            return
        table.step(check)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_contract_whole_games_with_the_real_champions(players: int) -> None:
    from fairtable.engine.sodalis import standard_catalog

    table = Table(
        players, seed=players, round_limit=30, catalog=standard_catalog(), check_legal=True
    )
    table.play(check_invariants)
    assert table.truth.over


def test_contract_rules_new_game_uses_the_real_champions_and_views_are_canonical() -> None:
    from fairtable.engine.canonical import canonical_bytes

    game = RULES.new_game(4)
    assert [d.kind for d in game.pending()] == ["turn_tokens", "turn_tokens"]
    assert game.state.config.round_limit == 100
    table = Table(6, seed=12, round_limit=3)
    table.play(lambda t: [canonical_bytes(t.truth.view(s).to_dict()) for s in (None, *range(6))])
