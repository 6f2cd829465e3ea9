"""Sampling a world from one seat's view (engine.reign.world): only worlds the view
allows, each as likely as the others, and never from another seat's secret."""

from __future__ import annotations

import itertools
from collections import Counter

from fairtable.engine.reign import Bid
from fairtable.engine.reign.flow import check_bid
from fairtable.engine.reign.world import sample_world
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from tests.engine.driver import Table
from tests.engine.reign_helpers import DEFS, decision, table


def _placements(game, referee, seat):
    """(card, place) for every card the seat cannot see, as a sampled world lays them."""
    state = game.state
    out = []
    for s, sec in state.secrets.items():
        if s != seat:
            out += [(c, ("hand", s)) for c in sec.hand]
            out += [(c, ("down", s, h)) for h, c in sec.facedown.items()]
    for pile, cards in referee.piles.items():
        out += [(c, ("pile", pile, i)) for i, c in enumerate(cards)]
    return out


def _locations(game, referee, seat):
    return dict(_placements(game, referee, seat))


def test_sampled_worlds_agree_with_the_view_at_every_decision_and_play_on() -> None:
    for seed in range(3):
        table_ = Table(4 + seed % 2, seed, bots=["heuristic"] * (4 + seed % 2))
        n = 0
        while not table_.truth.over:
            request = table_.truth.pending()[0]
            if isinstance(request, Decision):
                seat = request.seat
                view = table_.truth.view(seat)
                world, referee = sample_world(view, ChanceStream.from_int(n))
                n += 1
                state = world.state
                assert world.digest() == table_.truth.digest()
                assert world.view(seat) == view
                placed = [c for c, _ in _placements(world, referee, seat)]
                own = set(view.hand) | {c for _, c in view.facedown}
                assert len(placed) == len(set(placed))  # no card in two places
                assert set(placed) == set(view.play.hidden) - own  # every unseen card
                for s in range(state.players):
                    assert len(state.secrets[s].hand) == state.hand_count[s]
                for pile, cards in referee.piles.items():
                    assert len(cards) == state.piles[pile]
                    assert all(
                        ("military" if DEFS[c].kind == "military" else "event") == pile
                        for c in cards
                    )
                number = next((t[-1] for t in state.tasks if t[0] == "reveal_bids"), 1)
                for s, handles in state.bids.items():
                    cards = [state.secrets[s].facedown[h] for h in handles]
                    check_bid(state, s, cards, number)  # one house it may bid for
                for entries in state.army_down.values():
                    for handle, placer in entries:
                        card = state.secrets[placer].facedown[handle]
                        assert DEFS[card].phase != "influence"
                if n % 15 == 0:  # the world plays on to its end
                    finish(world, referee)
            table_.step()


def finish(world, referee) -> None:
    from fairtable.client.bots import RandomBot

    bots = [RandomBot(ChanceStream.from_int(s), "reign") for s in range(world.state.players)]
    while not world.over:
        r = world.pending()[0]
        if isinstance(r, Decision):
            world.apply(bots[r.seat].decide(world.view(r.seat), r))
        else:
            world.apply(referee.answer(world, r))


def test_sampler_reads_the_view_only_never_another_seats_secret() -> None:
    # An instance that knows only seat 2 makes the same view as the omniscient one, and the
    # same stream samples the same world from it: nothing else went in.
    table_ = Table(4, 7, bots=["heuristic"] * 4, mirrors=True)
    checked = 0
    while not table_.truth.over and checked < 40:
        request = table_.truth.pending()[0]
        if isinstance(request, Decision) and request.seat == 2:
            view = table_.mirrors[2].view(2)
            assert view == table_.truth.view(2)
            assert view.play == table_.mirrors[None].view(None).play  # the play is public
            a, _ = sample_world(view, ChanceStream.from_int(checked))
            b, _ = sample_world(table_.truth.view(2), ChanceStream.from_int(checked))
            assert a.state.secrets == b.state.secrets
            checked += 1
        table_.step()
    assert checked > 10


# A small table: seat 1 bid two cards face down; seat 0 sees 8 cards it cannot place.
A, B = "crimson-ash-spearman.1", "crimson-ash-spearman.2"
C, D, G, H = (
    "azure-harbour-guard.1",
    "azure-tidecaller-marine.1",
    "azure-harbour-guard.2",
    "azure-wave-sworn-blade.1",
)
E, J = "rally-the-levies.1", "sworn-witnesses.1"
F = "ivory-temple-warden.1"


def _small_view():
    support = {"crimson": None, "azure": None, "ivory": None}
    game, ref = table(
        players=3,
        first=1,
        legit=[0, 0, 0],
        support=support,
        hands={0: [F], 1: [A, B, C], 2: [D, E]},
        military=[G, H],
        events=[J],
    )
    game.apply(Bid(1, 2, (A, B)))
    decision(game, ref)
    game.apply(Bid(2, 0, ()))
    d = decision(game, ref)
    assert (d.seat, d.kind) == (0, "bid")
    return game.view(0)


def _exact_marginals(view):
    """Every consistent world by brute force: each card's chance of each place."""
    unseen = sorted(view.play.hidden - set(view.hand))
    handles = tuple(view.public["bids"]["1"])
    worlds = Counter()
    total = 0
    for perm in itertools.permutations(unseen):
        bid, pile_m, pile_e, hand1, hand2 = perm[:2], perm[2:4], perm[4:5], perm[5:6], perm[6:]
        if tuple(sorted(hand2)) != hand2:
            continue  # a hand is a set: count each once
        houses = {DEFS[c].house for c in bid}
        if any(DEFS[c].kind != "military" for c in bid) or len(houses) != 1:
            continue
        if any(DEFS[c].kind != "military" for c in pile_m) or DEFS[pile_e[0]].kind != "event":
            continue
        total += 1
        for c, place in zip(bid, handles, strict=True):
            worlds[(c, ("down", 1, place))] += 1
        for i, c in enumerate(pile_m):
            worlds[(c, ("pile", "military", i))] += 1
        worlds[(pile_e[0], ("pile", "event", 0))] += 1
        worlds[(hand1[0], ("hand", 1))] += 1
        for c in hand2:
            worlds[(c, ("hand", 2))] += 1
    return {k: v / total for k, v in worlds.items()}, total


def test_sampler_draws_each_consistent_world_equally_often() -> None:
    # 2 crimson and 4 azure soldiers unseen: a uniform world holds a crimson bid 2 times in
    # 14 (2 ordered pairs against 12), not half the time as a house picked at random would.
    view = _small_view()
    exact, total = _exact_marginals(view)
    assert total > 100
    runs = 3000
    seen = Counter()
    stream = ChanceStream.from_int(99)
    for _ in range(runs):
        world, referee = sample_world(view, stream)
        seen.update(_locations(world, referee, 0).items())
    assert set(seen) <= set(exact)  # no world the view forbids
    for key, p in exact.items():
        sigma = (p * (1 - p) / runs) ** 0.5
        assert abs(seen[key] / runs - p) <= 4.5 * sigma + 1e-9, (key, seen[key] / runs, p)
    crimson_bid = sum(v for (c, place), v in seen.items() if c == A and place[0] == "down")
    assert abs(crimson_bid / runs - 2 / 14) < 0.03
