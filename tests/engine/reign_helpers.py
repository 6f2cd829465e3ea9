"""Helpers for the Reign rule tests: drive a game as a sequence of seat decisions.

The local :class:`~engine.referee.Referee` answers every chance, shuffle, deal and
reveal request, so a test only says what each seat decides.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from fairtable.engine.errors import EngineError
from fairtable.engine.position_line import PositionLine, Value
from fairtable.engine.referee import Referee
from fairtable.engine.reign import (
    Bid,
    Covert,
    Discard,
    DrawChoice,
    KeepSupport,
    Overt,
    RegentDiscard,
    ReignGame,
    Spoils,
    TieBreak,
    standard_catalog,
)
from fairtable.engine.reign.position import position
from fairtable.engine.requests import Decision

DEFS = standard_catalog().defs
CATALOG = standard_catalog()


HOUSES4 = {"crimson": None, "azure": None, "ivory": None, "violet": None}


def build(line: str, seed: int = 0) -> tuple[ReignGame, Referee]:
    """A position from one line (``reign`` is prepended when missing)."""
    if not line.startswith("reign"):
        line = "reign " + line
    return position(line, seed)


def position_line(
    *,
    players: int = 4,
    round: int = 2,
    first: int | None = None,
    regent: int | None = None,
    legit: Iterable[int] | None = None,
    phase: str = "influence",
    support: dict[str, int | None] | None = None,
    hands: dict[int, Iterable[str]] | None = None,
    military: Iterable[str] = (),
    events: Iterable[str] = (),
    military_discard: Iterable[str] = (),
    event_discard: Iterable[str] = (),
    round_limit: int | None = None,
) -> str:
    """The one-line position text for keyword arguments (piles are top first)."""
    support = HOUSES4 if support is None else support
    words: list[tuple[str, Value]] = [("players", players), ("round", round), ("phase", phase)]
    if first is not None:
        words.append(("first", first))
    if regent is not None:
        words.append(("regent", regent))
    if legit is not None:
        words.append(("legit", list(legit)))
    if round_limit is not None:
        words.append(("round_limit", round_limit))
    words.append(("support", [f"{h}:{'-' if s is None else s}" for h, s in support.items()]))
    for seat, cards in sorted((hands or {}).items()):
        words.append((f"hand{seat}", list(cards)))
    for key, cards in (
        ("military", military),
        ("events", events),
        ("military_discard", military_discard),
        ("event_discard", event_discard),
    ):
        cards = list(cards)
        if cards:
            words.append((key, cards))
    return PositionLine.build("reign", words).write()


def table(seed: int = 0, **kw: Any) -> tuple[ReignGame, Referee]:
    """A position from keyword arguments (see :func:`position_line`)."""
    return position(position_line(**kw), seed)


def settle(game: ReignGame, referee: Referee) -> tuple[Any, ...]:
    """Answer chance, shuffle, deal and reveal requests until a decision is pending."""
    while not game.over:
        pending = game.pending()
        if not pending or isinstance(pending[0], Decision):
            return pending
        game.apply(referee.answer(game, pending[0]))
    return ()


def decision(game: ReignGame, referee: Referee) -> Decision:
    """The first pending decision (after settling)."""
    pending = settle(game, referee)
    assert pending and isinstance(pending[0], Decision), f"no decision pending: {pending}"
    return pending[0]


def decisions(game: ReignGame, referee: Referee) -> list[Decision]:
    return [r for r in settle(game, referee) if isinstance(r, Decision)]


def play(game: ReignGame, referee: Referee, *answers: Any) -> None:
    """Apply answers in order, settling non-decision requests before each."""
    for answer in answers:
        settle(game, referee)
        game.apply(answer)
    settle(game, referee)


def hand(game: ReignGame, seat: int) -> list[str]:
    return list(game.state.secrets[seat].hand)


def default_answer(game: ReignGame, d: Decision) -> Any:
    """A quiet legal answer: pass, draw military, keep/choose the first option."""
    seat = d.seat
    if d.kind == "bid":
        return Bid(seat, 0, ())
    if d.kind == "overt":
        return Overt(seat, None, None)
    if d.kind == "covert":
        return Covert(seat, (), ())
    if d.kind == "draw":
        return DrawChoice(seat, 0)
    if d.kind == "discard":
        return Discard(seat, tuple(hand(game, seat)[: d.info.count]))
    if d.kind == "keep_support":
        return KeepSupport(seat, d.info.houses[0])
    if d.kind == "tie_break":
        return TieBreak(seat, d.info.tied[0])
    if d.kind == "regent_discard":
        return RegentDiscard(seat, hand(game, seat)[0])
    if d.kind == "spoils":
        cards = hand(game, seat)
        gifts = tuple(zip(d.info.must_give, cards, strict=False))
        return Spoils(seat, tuple((s, 1) for s, _ in gifts), gifts)
    raise AssertionError(f"unknown decision {d.kind}")


def play_until(
    game: ReignGame,
    referee: Referee,
    predicate: Callable[[ReignGame], bool],
    answer: Callable[[ReignGame, Decision], Any] | None = None,
    limit: int = 500,
) -> None:
    """Answer every decision (with ``answer``, else :func:`default_answer`) until
    ``predicate(game)`` holds; fails if it never does."""
    for _ in range(limit):
        settle(game, referee)
        if predicate(game):
            return
        assert not game.over, "the game ended before the predicate held"
        d = decision(game, referee)
        chosen = answer(game, d) if answer is not None else None
        game.apply(chosen if chosen is not None else default_answer(game, d))
    raise AssertionError("predicate never held")


def pending_kind(kind: str, seat: int | None = None) -> Callable[[ReignGame], bool]:
    """A predicate: a decision of ``kind`` (for ``seat``) is pending."""

    def check(game: ReignGame) -> bool:
        return any(
            isinstance(r, Decision) and r.kind == kind and (seat is None or r.seat == seat)
            for r in game.pending()
        )

    return check


def snapshot(game: ReignGame) -> tuple[Any, ...]:
    s = game.state
    return (
        game.digest(),
        copy.deepcopy(s.secrets),
        dict(s.buffered),
        list(s.events),
        sorted(s.hidden),
        s.decisions,
    )


def rejects(game: ReignGame, answer: Any, error: type[EngineError] | tuple[type, ...]) -> Any:
    """``answer`` raises ``error`` and leaves the game exactly as it was."""
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.apply(answer)
    assert snapshot(game) == before, "a refused answer changed the state"
    return info.value


def events_of(game: ReignGame, name: str) -> list[tuple[Any, ...]]:
    return [e for e in game.state.stored_events() if e[0] == name]


def cards_of(house: str, n: int, skip: Iterable[str] = ()) -> list[str]:
    """``n`` physical military cards of ``house`` without abilities, for filler."""
    skip = set(skip)
    plain = [c for c in CATALOG.military[house] if not DEFS[c].effects and c not in skip]
    return plain[:n]


def bid_round(
    game: ReignGame, referee: Referee, bids: dict[int, Iterable[str]] | None = None
) -> list[int]:
    """Answer the bid decisions of one pass (seats not in ``bids`` pass); returns who was
    asked, in order."""
    bids = bids or {}
    asked: list[int] = []
    while True:
        pending = settle(game, referee)
        if not pending or not isinstance(pending[0], Decision) or pending[0].kind != "bid":
            return asked
        seat = pending[0].seat
        if seat in asked:  # a second pass (First Round Special Case) begins
            return asked
        asked.append(seat)
        cards = tuple(bids.get(seat, ()))
        game.apply(Bid(seat, len(cards), cards))


def plot(
    game: ReignGame,
    referee: Referee,
    overt: dict[int, tuple[int, str]] | None = None,
    covert: dict[int, tuple[tuple[int, ...], tuple[str, ...]]] | None = None,
    stop: tuple[str, int] | None = None,
) -> list[tuple[str, int]]:
    """Answer the overt then covert decisions (seats not named pass) up to the decision
    ``stop`` (``(kind, seat)``, left unanswered); returns ``(kind, seat)`` for each decision
    answered, in order."""
    overt, covert = overt or {}, covert or {}
    asked: list[tuple[str, int]] = []
    while True:
        pending = settle(game, referee)
        if not pending or not isinstance(pending[0], Decision):
            return asked
        d = pending[0]
        if (d.kind, d.seat) == stop:
            return asked
        if d.kind == "overt":
            target, card = overt.get(d.seat, (None, None))
            game.apply(Overt(d.seat, target, card))
        elif d.kind == "covert":
            targets, cards = covert.get(d.seat, ((), ()))
            game.apply(Covert(d.seat, tuple(targets), tuple(cards)))
        else:
            return asked
        asked.append((d.kind, d.seat))


def spectator_copy(game: ReignGame) -> ReignGame:
    """The same position as a spectator's engine instance holds it: the public state only,
    no seat's secrets."""
    state = copy.deepcopy(game.state, {id(game.state.catalog): game.state.catalog})
    state.known = frozenset()
    state.secrets = {}
    return ReignGame(state)
