"""Sampling a Sodalis world from one seat's view (engine.sodalis.world): the same game,
each deck's unseen cards in a uniformly random order, from the view alone."""

from __future__ import annotations

from collections import Counter

from fairtable.client.games import bots_for
from fairtable.engine.games import rules
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis import new_game
from fairtable.engine.sodalis.state import SodalisConfig
from fairtable.engine.sodalis.world import sample_world, unseen_cards


def _play(players: int, seed: int, check) -> int:
    game = rules("sodalis").new_game(players)
    mirror = new_game(SodalisConfig(players), known=[0])
    root = ChanceStream.from_int(seed)
    referee = Referee(root.child("referee").take(32))
    bots = [bots_for("sodalis")["heuristic"](root.child(f"bot/{s}")) for s in range(players)]
    n = 0
    while not game.over and n < 400:
        request = game.pending()[0]
        if isinstance(request, Decision):
            check(game, mirror, request, n)
            n += 1
            answer = bots[request.seat].decide(game.view(request.seat), request)
        else:
            answer = referee.answer(game, request)
        game.apply(answer)
        mirror.apply(answer)
    return n


def test_sampled_worlds_are_the_game_itself_but_for_the_decks_unseen_order() -> None:
    def check(game, mirror, request, n):
        view = game.view(request.seat)
        world, referee = sample_world(view, ChanceStream.from_int(n))
        assert world.digest() == game.digest()
        assert world.view(request.seat) == view
        for s, seat in enumerate(world.state.seats):
            pile = referee.piles.get(f"deck:{s}", [])
            assert len(pile) == seat.unseen
            if seat.unseen:  # (before its shuffle a deck has none: the world shuffles it)
                assert sorted(pile) == unseen_cards(game.state.seats[s])
        if request.seat == 0:  # an instance knowing only seat 0 samples the same world
            again, _ = sample_world(mirror.view(0), ChanceStream.from_int(n))
            assert again.digest() == world.digest()
        if n % 40 == 0:  # the world plays on
            bots = [
                bots_for("sodalis")["random"](ChanceStream.from_int(s))
                for s in range(world.state.players)
            ]
            for _ in range(300):
                if world.over:
                    break
                r = world.pending()[0]
                world.apply(
                    bots[r.seat].decide(world.view(r.seat), r)
                    if isinstance(r, Decision)
                    else referee.answer(world, r)
                )

    assert _play(2, 1, check) > 20
    assert _play(4, 2, check) > 20


def test_every_unseen_card_is_equally_likely_to_come_up_next() -> None:
    game = rules("sodalis").new_game(2)
    root = ChanceStream.from_int(5)
    referee = Referee(root.child("referee").take(32))
    bots = [bots_for("sodalis")["heuristic"](root.child(f"bot/{s}")) for s in range(2)]
    while True:
        request = game.pending()[0]
        if isinstance(request, Decision) and game.state.seats[1].unseen >= 3:
            break
        game.apply(
            bots[request.seat].decide(game.view(request.seat), request)
            if isinstance(request, Decision)
            else referee.answer(game, request)
        )
    view = game.view(request.seat)
    unseen = unseen_cards(game.state.seats[1])
    runs = 2000
    stream = ChanceStream.from_int(6)
    tops = Counter(sample_world(view, stream)[1].piles["deck:1"][0] for _ in range(runs))
    assert set(tops) == set(unseen)  # only unseen cards, every one of them
    p = 1 / len(unseen)
    sigma = (p * (1 - p) / runs) ** 0.5
    for card in unseen:
        assert abs(tops[card] / runs - p) <= 4.5 * sigma, (card, tops[card])
