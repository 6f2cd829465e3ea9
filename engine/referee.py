"""The local referee: answers chance, shuffle, deal and reveal requests from a seed.

For hot-seat play, bot simulations and tests there is no need for
cryptography: one omniscient engine instance (``known`` = every seat) and this
referee stand in for the protocol.  The referee keeps the hidden order of every
pile itself (the engine never learns it) and draws all chance from one
:class:`~engine.rng.ChanceStream`, so a seed fixes the whole game.
"""

from __future__ import annotations

from typing import Any, Protocol

from fairtable.engine.requests import (
    Chance,
    ChanceAnswer,
    Deal,
    DealAnswer,
    Flip,
    FlipAnswer,
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Request,
    Reveal,
    RevealAnswer,
    Roll,
    RollAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.rng import ChanceStream


class OmniscientGame(Protocol):
    def secret_of(self, handle: int) -> str: ...

    def handover_cards(self, giver: int, seat: int) -> tuple[str, ...]: ...


class Referee:
    """Answers every non-decision request of one game."""

    def __init__(self, seed: int | bytes) -> None:
        self.stream = ChanceStream.from_int(seed) if isinstance(seed, int) else ChanceStream(seed)
        self.piles: dict[str, list[str]] = {}

    def answer(self, game: OmniscientGame, request: Request) -> Any:
        if isinstance(request, Deal):  # the commonest request first
            if request.source.startswith("hand:"):
                cards = game.handover_cards(int(request.source[5:]), request.seat)
            else:
                pile = self.piles[request.source]
                cards = tuple(pile[: request.count])
                del pile[: request.count]
            return DealAnswer(request.seat, cards)
        if isinstance(request, Chance):
            order = self.stream.permutation(request.n)
            return ChanceAnswer(tuple(order[: request.k]))
        if isinstance(request, Roll):
            return RollAnswer(self.stream.dice(request.sides))
        if isinstance(request, Shuffle):
            order = self.stream.permutation(len(request.cards))
            self.piles[request.pile] = [request.cards[i] for i in order]
            return ShuffleAnswer(request.pile)
        if isinstance(request, Flip):
            pile = self.piles[request.pile]
            cards = tuple(pile[: request.count])
            del pile[: request.count]
            return FlipAnswer(request.pile, cards)
        if isinstance(request, Rehandle):
            held = [game.secret_of(h) for h in request.handles]
            order = self.stream.permutation(len(held))
            return RehandleAnswer(request.seat, tuple(held[i] for i in order))
        if isinstance(request, Peek):
            return PeekAnswer(
                request.label, request.seat, tuple(game.secret_of(h) for h in request.handles)
            )
        if isinstance(request, Reveal):
            groups = []
            for name, handles, mixed in request.groups:
                ids = [game.secret_of(h) for h in handles]
                groups.append((name, tuple(sorted(ids)) if mixed else tuple(ids)))
            return RevealAnswer(request.label, tuple(groups))
        raise TypeError(f"the referee does not answer {type(request).__name__}")
