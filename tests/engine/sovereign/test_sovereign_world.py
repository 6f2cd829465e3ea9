"""Sampling a Sovereign world from one seat's view (engine.sovereign.world): only worlds the
view allows, each as likely as the others, and never from another seat's secret."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import attrs
import pytest

from fairtable.client.bots import RandomBot
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import SovereignGame, standard_catalog
from fairtable.engine.sovereign.position import position
from fairtable.engine.sovereign.view import SovereignView
from fairtable.engine.sovereign.world import WorldError, sample_world
from tests.engine.sovereign.driver import Table

DEFS = standard_catalog().defs


def _placements(game: SovereignGame, referee: Referee, seat: int) -> dict[str, Any]:
    """Where a world put each card ``seat`` cannot place: (seat, "hand"/"forge", handle)
    or (seat, "deck", position from the top)."""
    state = game.state
    out: dict[str, Any] = {}
    for s, b in enumerate(state.boards):
        cards = state.secrets[s].cards
        for h in b.hand:
            out[cards[h]] = (s, "hand", h)
        for slot in b.forge:
            out[cards[slot.handle]] = (s, "forge", slot.handle)
        for i, c in enumerate(referee.piles[f"deck:{s}"]):
            out[c] = (s, "deck", i)
    own = {c for _, c in game.view(seat).cards}
    return {c: p for c, p in out.items() if c not in own}


def _check_world(view: SovereignView, world: SovereignGame, referee: Referee) -> None:
    seat = view.seat
    assert seat is not None and view.play is not None
    state = world.state
    assert world.view(seat) == view  # the seat cannot tell the world from the game
    for s, b in enumerate(state.boards):
        cards = state.secrets[s].cards
        deck = referee.piles[f"deck:{s}"]
        assert len(deck) == b.deck
        held = [cards[h] for h in b.hand] + [cards[x.handle] for x in b.forge] + deck
        assert sorted(held) == list(view.play.hidden[s])  # each hidden card in one place
        # Forge Phase: a reflex never enters the forge
        assert all(DEFS[cards[x.handle]].type != "reflex" for x in b.forge)
        for h, c in view.seen:
            if h in cards:
                assert cards[h] == c  # what the seat saw in a breach stays where it saw it


def _finish(world: SovereignGame, referee: Referee) -> None:
    bots = [RandomBot(ChanceStream.from_int(s), "sovereign") for s in range(world.state.players)]
    for _ in range(20000):
        if world.over:
            return
        r = world.pending()[0]
        if isinstance(r, Decision):
            world.apply(bots[r.seat].decide(world.view(r.seat), r))
        else:
            world.apply(referee.answer(world, r))
    raise AssertionError("the world's game did not end")


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (2, 5)])
def test_sampled_worlds_agree_with_the_view_at_every_decision_and_play_on(
    players: int, seed: int
) -> None:
    table = Table(players, seed)
    n = seen = 0
    while not table.truth.over:
        request = table.truth.pending()[0]
        if isinstance(request, Decision):
            view = table.truth.view(request.seat)
            world, referee = sample_world(view, ChanceStream.from_int(n))
            assert world.digest() == table.truth.digest()
            _check_world(view, world, referee)
            seen += bool(view.seen)
            if n % 97 == 0:  # the world plays on to its end
                _finish(world, referee)
            n += 1
        table.step()
    assert n > 100
    if seed == 0:
        assert seen  # some views hold cards seen in a breach


def test_sampling_leaves_the_view_untouched_for_the_next_world() -> None:
    # A world is played on and the view is used again: nothing mutable may be shared.
    table = Table(2, 3)
    for _ in range(120):
        table.step()
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    seat = table.truth.pending()[0].seat
    view = table.truth.view(seat)
    before = repr(view)
    for i in range(3):
        world, referee = sample_world(view, ChanceStream.from_int(i))
        _finish(world, referee)
    assert repr(view) == before
    assert table.truth.view(seat) == view


def test_sampler_reads_the_view_only_never_another_seats_secret() -> None:
    # An instance that knows only seat 1 makes the same view as the omniscient one, and the
    # same stream samples the same world from either: nothing else went in.
    table = Table(3, 7, mirrors=True)
    checked = 0
    while not table.truth.over and checked < 40:
        request = table.truth.pending()[0]
        if isinstance(request, Decision) and request.seat == 1:
            view = table.mirrors[1].view(1)
            assert view == table.truth.view(1)
            assert view.play == table.mirrors[None].view(None).play  # the play is public
            a, ra = sample_world(view, ChanceStream.from_int(checked))
            b, rb = sample_world(table.truth.view(1), ChanceStream.from_int(checked))
            assert a.state.secrets == b.state.secrets and ra.piles == rb.piles
            checked += 1
        table.step()
    assert checked > 10


# A small table (myrmidon against windwalker): every card is scrapped but a few.  Seat 0
# holds two cards and has two in its deck; seat 1 holds two, has two in its forge -- one of
# which seat 0 saw in a breach -- and one in its deck, a reflex among its unseen four.
def _cards(faction: str, kind: str, n: int, skip: int = 0) -> list[str]:
    deck = standard_catalog().faction(faction).deck
    return [c for c in deck if DEFS[c].type == kind][skip : skip + n]


MY_HAND = _cards("myrmidon", "unit", 2)
MY_DECK = _cards("myrmidon", "unit", 2, skip=2)
HIS_REFLEX = _cards("windwalker", "reflex", 1)
HIS_UNITS = _cards("windwalker", "unit", 4)
SEEN = HIS_UNITS[3]


def _small_game(arrangement: tuple[list[str], list[str], list[str]]) -> SovereignGame:
    """Seat 1's five hidden cards arranged as (hand, forge, deck); the forge's second card
    is the one seat 0 saw."""
    hand, forge, deck = arrangement
    kept = {0: MY_HAND + MY_DECK, 1: hand + forge + deck}
    scraps = [
        ",".join(c for c in standard_catalog().faction(f).deck if c not in kept[s])
        for s, f in enumerate(("myrmidon", "windwalker"))
    ]
    line = (
        "sovereign players=2 factions=myrmidon,windwalker active=0 phase=move "
        f"hand0={','.join(MY_HAND)} deck0={','.join(MY_DECK)} "
        f"hand1={','.join(hand)} forge1={forge[0]}:1,{forge[1]}:2 deck1={deck[0]} "
        f"scrap0={scraps[0]} scrap1={scraps[1]}"
    )
    game, _ = position(line)
    state = game.state
    state.secrets[0].seen[state.boards[1].forge[1].handle] = forge[1]
    return game


def _small_view() -> SovereignView:
    unseen = HIS_REFLEX + HIS_UNITS[:3]
    return _small_game(([unseen[0], unseen[1]], [unseen[2], SEEN], [unseen[3]])).view(0)


def _world_key(game: SovereignGame, referee: Referee) -> tuple[Any, ...]:
    return tuple(sorted(_placements(game, referee, 0).items()))


def _consistent_worlds(view: SovereignView) -> set[tuple[Any, ...]]:
    """Every world the view allows, by brute force over all arrangements."""
    board = view.public["boards"][1]
    hand, forge = board["hand"], [x[0] for x in board["forge"]]
    unseen = HIS_REFLEX + HIS_UNITS[:3]
    worlds = set()
    for his in itertools.permutations(unseen):
        if DEFS[his[2]].type == "reflex":
            continue  # Forge Phase: a reflex never enters the forge
        for mine in itertools.permutations(MY_DECK):
            places = {his[0]: (1, "hand", hand[0]), his[1]: (1, "hand", hand[1])}
            places[his[2]] = (1, "forge", forge[0])
            places[SEEN] = (1, "forge", forge[1])
            places[his[3]] = (1, "deck", 0)
            places.update({c: (0, "deck", i) for i, c in enumerate(mine)})
            worlds.add(tuple(sorted(places.items())))
    return worlds


def test_sampler_draws_each_consistent_world_equally_often() -> None:
    view = _small_view()
    allowed = _consistent_worlds(view)
    assert len(allowed) == 3 * 3 * 2 * 1 * 2  # forge from 3 non-reflexes, the rest, own deck
    runs = 100 * len(allowed)
    drawn: Counter[tuple[Any, ...]] = Counter()
    stream = ChanceStream.from_int(2026)
    for _ in range(runs):
        world, referee = sample_world(view, stream)
        drawn[_world_key(world, referee)] += 1
    assert set(drawn) == allowed  # every allowed world, and no other
    expected = runs / len(allowed)
    chi2 = sum((drawn[w] - expected) ** 2 / expected for w in allowed)
    assert chi2 < 66.6  # the chi-square's 99.9% point at 35 degrees of freedom


def test_the_same_view_from_two_different_games_gives_the_same_worlds() -> None:
    # Seat 1's cards lie elsewhere in the two games (hand, forge and deck swapped); seat 0's
    # views are equal, and so is every world drawn from them.
    r, u0, u1, u2 = HIS_REFLEX + HIS_UNITS[:3]
    one = _small_game(([r, u0], [u1, SEEN], [u2]))
    two = _small_game(([u2, u1], [r, SEEN], [u0]))
    assert one.state.secrets[1] != two.state.secrets[1]
    assert one.view(0) == two.view(0)
    for i in range(20):
        a, ra = sample_world(one.view(0), ChanceStream.from_int(i))
        b, rb = sample_world(two.view(0), ChanceStream.from_int(i))
        assert a.state.secrets == b.state.secrets and ra.piles == rb.piles


def test_a_view_that_admits_no_world_is_refused() -> None:
    view = _small_view()
    assert view.play is not None
    hidden = list(view.play.hidden)
    hidden[1] = hidden[1][:-1]  # one card fewer than the places it must fill
    play = view.play._replace(hidden=tuple(hidden))
    bad = SovereignView(view.seat, view.public, view.cards, view.seen, view.decisions, play)
    with pytest.raises(WorldError):
        sample_world(bad, ChanceStream.from_int(0))
    with pytest.raises(WorldError):
        sample_world(attrs.evolve(view, seat=None), ChanceStream.from_int(0))
