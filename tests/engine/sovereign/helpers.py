"""Helpers for Sovereign rule tests: reach a decision point with quiet answers, then set the
table up by hand (units, citizens, forge cards) for a rule clause or a worked example."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fairtable.engine.errors import EngineError
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignConfig, SovereignGame, new_game
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign.state import Unit


def settle(game: SovereignGame, referee: Referee) -> tuple[Any, ...]:
    while not game.over:
        pending = game.pending()
        if not pending or isinstance(pending[0], Decision):
            return pending
        game.apply(referee.answer(game, pending[0]))
    return ()


def quiet(game: SovereignGame, d: Decision) -> Any:
    """A quiet legal answer: keep, pass, no attack, no health, nothing returned."""
    s = d.seat
    if d.kind == "mulligan":
        return A.Mulligan(s, "keep")
    if d.kind == "attack":
        return A.Attack(s, None)
    if d.kind == "upkeep_return":
        return A.UpkeepReturn(s, ())
    if d.kind == "findings":
        seen = game.state.secrets[s].seen
        defs = game.state.catalog.defs
        echoes = tuple(sorted(h for h in d.info.handles if defs[seen[h]].type == "echo"))
        discard = None if echoes or d.info.area == "forge" else d.info.handles[0]
        return A.Findings(s, echoes, discard)
    if d.kind == "breach_pick":
        return A.BreachPick(s, tuple(d.info.slots[: d.info.count]))
    if d.kind == "losses":
        units = game.state.units
        return A.Losses(s, tuple((r, max(0, n - units[r].health[1])) for r, n in d.info.units))
    if d.kind == "order_triggers":
        return A.OrderTriggers(s, d.info.sources)
    if d.kind == "add_health":
        return A.AddHealth(s, d.info.talents[0])
    if d.kind == "optional_effect":
        return A.OptionalEffect(s, False)
    if d.kind == "finish_forge":
        return A.FinishForge(
            s,
            tuple((r, 0, 0) for r in d.info.new_units),
            (),
            tuple((g, "") for g in d.info.loose),
        )
    return A.Pass(s)


def until(
    game: SovereignGame,
    referee: Referee,
    kind: str,
    seat: int | None = None,
    window: str | None = None,
    limit: int = 400,
) -> Decision:
    """Answer quietly until a decision of ``kind`` (for ``seat``, in ``window``) is pending."""
    for _ in range(limit):
        pending = settle(game, referee)
        for d in pending:
            if (
                isinstance(d, Decision)
                and d.kind == kind
                and (seat is None or d.seat == seat)
                and (window is None or d.info.window == window)
            ):
                return d
        d = pending[0]
        game.apply(quiet(game, d))
    raise AssertionError(f"no {kind} decision came")


def start(players: int = 2, seed: int = 0, **config: Any) -> tuple[SovereignGame, Referee]:
    game = new_game(SovereignConfig(players, **config))
    return game, Referee(seed)


def windwalkers(players: int) -> tuple[str, ...]:
    """Every seat plays Windwalker (for tests that use ``ww-`` cards)."""
    return ("windwalker",) * players


def at_forge(
    players: int = 2, seed: int = 0, **config: Any
) -> tuple[SovereignGame, Referee, Decision]:
    game, ref = start(players, seed, **config)
    d = until(game, ref, "forge")
    return game, ref, d


def put_unit(
    game: SovereignGame,
    seat: int,
    lane: int,
    card: str,
    talents: int = 0,
    drones: int | None = None,
) -> str:
    """Place a unit of ``seat``'s deck into a lane (taken out of its hidden cards)."""
    s = game.state
    d = s.catalog.defs[card]
    ref = f"{seat}:{card}"
    s.units[ref] = Unit(seat, card, [talents, d.drones if drones is None else drones])
    s.creche_out += talents + s.units[ref].health[1]
    s.boards[seat].lanes[lane].append(ref)
    if card in s.hidden[seat]:
        s.hidden[seat].remove(card)
        _drop_from_hand(game, seat, card)
    return ref


def _drop_from_hand(game: SovereignGame, seat: int, card: str) -> None:
    s = game.state
    for h, c in list(s.secrets[seat].cards.items()):
        if c == card:
            del s.secrets[seat].cards[h]
            b = s.boards[seat]
            if h in b.hand:
                b.hand.remove(h)
            b.forge = [x for x in b.forge if x.handle != h]
            return
    s.boards[seat].deck -= 1  # it was still in the deck (the referee's pile keeps a copy)


def hand_card(game: SovereignGame, seat: int, card: str) -> int:
    """Make sure ``card`` is in ``seat``'s hand; returns its handle."""
    s = game.state
    for h in s.boards[seat].hand:
        if s.secrets[seat].cards[h] == card:
            return h
    assert card in s.hidden[seat] and card not in s.secrets[seat].cards.values()
    h = s.new_handle()
    s.boards[seat].hand.append(h)
    s.boards[seat].deck -= 1
    s.secrets[seat].cards[h] = card
    return h


def snapshot(game: SovereignGame) -> tuple[Any, ...]:
    s = game.state
    return (
        game.digest(),
        copy.deepcopy(s.secrets),
        dict(s.buffered),
        list(s.events),
        s.decisions,
    )


def rejects(game: SovereignGame, answer: Any, error: type[EngineError]) -> EngineError:
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.apply(answer)
    assert snapshot(game) == before, "a refused answer changed the state"
    return info.value


def pos(line: str, seed: int = 0, catalog: Any = None) -> tuple[SovereignGame, Referee]:
    """A position from one line (``sovereign`` is prepended when missing)."""
    from fairtable.engine.sovereign.position import position

    return position(line if line.startswith("sovereign") else f"sovereign {line}", seed, catalog)


def handle_of(game: SovereignGame, seat: int, card: str) -> int:
    """The hand handle of ``card`` in ``seat``'s hand."""
    s = game.state
    return next(h for h in s.boards[seat].hand if s.secrets[seat].cards[h] == card)


def play(
    game: SovereignGame,
    referee: Referee,
    seat: int,
    card: str,
    talents: int,
    drones: int,
    targets: tuple[str, ...] = (),
) -> tuple[Any, ...]:
    """Play reflex ``card`` from ``seat``'s hand (it must be asked now) and settle."""
    game.apply(A.PlayReflex(seat, handle_of(game, seat, card), talents, drones, targets))
    return settle(game, referee)
