"""Sizes tell no secrets (docs/protocol.md §11.9, issue 29): what a seat keeps secret never
changes the size of anything it sends.

Two kinds of test.  The attacks, as an observer holding only the public log runs them: link
revealed covert cards to their placers from the sizes of the placers' entries, and narrow a
simultaneous answer before the reveal from the size of its commitment's entry.  Then the
property: for each game, two runs from one seed that differ only in one seat's secret choice
give entries of equal sizes, pair by pair, for as long as their public history is the same.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.client.games import bots_for
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.games import rules
from fairtable.engine.referee import Referee
from fairtable.engine.reign.answers import Covert
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.crypto import NOTE_BLOCK
from fairtable.protocol.wire import Note

from .secret_runs import TWIN_GAMES, feeds, play, twin_runs


@functools.cache
def _other_table(game: str) -> P.TableSession:
    return PT.make_table(min(rules(game).seat_counts), 99, game=game)[1][0]


def _note_size(game: str, step: int, answer: Any) -> int:
    """The size a note of ``answer`` has, as anyone can compute with the public code (the key
    is another table's: a note's size cannot depend on its key)."""
    return len(P.encode(_other_table(game).note(step, answer)))


def _notes(session: P.TableSession) -> dict[tuple[int, int], int]:
    """(seat, step) -> the encoded size of that seat's note for its decision at that step."""
    return {
        (seat, part.step): len(P.encode(part))
        for seat, feed in feeds(session).items()
        for _, parts in feed
        for part in parts
        if isinstance(part, Note)
    }


# -- the attacks ---------------------------------------------------------------------------
def _covert_moves(sessions: list[P.TableSession]) -> list[tuple[int, int, Covert]]:
    """(step, seat, the seat's whole covert answer) of every covert backing in the game."""
    out = []
    for session in sessions:
        assert session.seat is not None
        for step, answer in session.exchanges.decisions.my_answers.items():
            if isinstance(answer, Covert) and answer.cards:
                out.append((step, session.seat, answer))
    return sorted(out, key=lambda m: (m[0], m[1]))


def _assignments(
    slots: list[tuple[int, int]], cards: list[str]
) -> Iterator[dict[tuple[int, int], tuple[str, ...]]]:
    """Every way to deal an army's revealed ``cards`` to its (move, count) slots."""
    if not slots:
        if not cards:
            yield {}
        return
    (move, count), rest = slots[0], slots[1:]
    for chosen in sorted(set(itertools.combinations(sorted(cards), count))):
        left = list(cards)
        for card in chosen:
            left.remove(card)
        for more in _assignments(rest, left):
            yield {(move, count): chosen, **more}


def _linked(
    moves: list[tuple[int, int, Covert]],
    reveal: list[int],
    fits: Callable[[int, tuple[str, ...]], bool],
) -> tuple[int, int]:
    """How many revealed cards of pools with two or more placers an observer links to their
    placer: a card is linked when every assignment of the revealed cards to the covert moves
    that ``fits`` (each move's cards) gives it the same placer.  Returns (linked, total)."""
    linked = total = 0
    for before, at in itertools.pairwise([-1, *reveal]):
        batch = [(i, m) for i, m in enumerate(moves) if before < m[0] < at]
        armies: dict[int, list[tuple[int, str]]] = defaultdict(list)  # army -> (move, card)
        for i, (_, _, answer) in batch:
            assert answer.cards is not None
            for army, card in zip(answer.targets, answer.cards, strict=True):
                armies[army].append((i, card))
        shared = {a for a, placed in armies.items() if len({moves[i][1] for i, _ in placed}) > 1}
        per_army = []
        for army in sorted(armies):
            slots = sorted(Counter(i for i, _ in armies[army]).items())
            cards = [c for _, c in armies[army]]
            per_army.append([(army, a) for a in _assignments(slots, cards)])
        placers: dict[tuple[int, str], set[int]] = defaultdict(set)
        for combo in itertools.product(*per_army):
            by_move: dict[int, list[str]] = defaultdict(list)
            for _, assignment in combo:
                for (i, _), chosen in assignment.items():
                    by_move[i] += chosen
            if not all(fits(i, tuple(sorted(cards))) for i, cards in by_move.items()):
                continue
            for army, assignment in combo:
                for (i, _), chosen in assignment.items():
                    for card in chosen:
                        placers[(army, card)].add(moves[i][1])
        for army in sorted(shared):
            for card in sorted({c for _, c in armies[army]}):
                n = sum(1 for _, c in armies[army] if c == card)
                total += n
                linked += n if len(placers[(army, card)]) == 1 else 0
    return linked, total


def test_sizes_link_revealed_covert_cards_no_better_than_the_public_counts() -> None:
    """The observer knows each covert move's public part (its targets: how many cards go to
    each army) and, at each reveal, the cards of each army; it also sees the size of each
    placer's note.  It keeps the assignments of revealed cards to moves whose notes would have
    the sizes seen (the order of a move's cards changes no size, so it tries one)."""
    sessions = play("reign", 5, 7)
    assert all(s.finished is not None and s.verdict is None for s in sessions)
    moves = _covert_moves(sessions)
    sizes = _notes(sessions[0])
    reveal = sorted(sessions[0].exchanges.reveals.pools)

    def by_count(_i: int, _cards: tuple[str, ...]) -> bool:
        return True

    def by_size(i: int, cards: tuple[str, ...]) -> bool:
        step, seat, answer = moves[i]
        return _note_size("reign", step, attrs.evolve(answer, cards=cards)) == sizes[(seat, step)]

    counted, total = _linked(moves, reveal, by_count)
    sized, _ = _linked(moves, reveal, by_size)
    assert total >= 10  # the game has enough shared pools to tell
    assert sized <= counted, f"sizes link {sized} of {total} covert cards, counts {counted}"


def test_a_simultaneous_answer_is_not_narrowed_before_the_reveal() -> None:
    """Sodalis' reversals are answered by every seat at once: each seat commits, then all
    reveal.  Before any reveal, the observer sees each seat's commitment entry; it keeps the
    answers whose note would have the size seen.  It must keep every answer the seat had."""
    game, players = "sodalis", 6
    seen: dict[tuple[int, int], list[Any]] = {}

    def record(seat: int, event: P.DecisionNeeded, answer: Any) -> Any:
        if event.decision.kind == "reversals":
            seen[(event.step, seat)] = list(rules(game).legal_answers(event.view, event.decision))
        return answer

    sessions = play(game, players, 3, swap=record, stop_after=40)
    sizes = _notes(sessions[0])
    assert len(seen) >= 4
    possible = narrowed = 0
    for (step, seat), candidates in sorted(seen.items()):
        observed = sizes[(seat, step)]
        keep = [a for a in candidates if _note_size(game, step, a) == observed]
        possible += len(candidates)
        narrowed += len(keep)
    assert narrowed == possible, f"narrowed from {possible} answers to {narrowed}"


# -- the property: secret choices change no size -------------------------------------------
@pytest.mark.parametrize(("game", "players", "seed"), TWIN_GAMES)
def test_a_secret_choice_changes_no_entry_size(game: str, players: int, seed: int) -> None:
    twins = twin_runs(game, players, seed)
    assert twins.swapped, "the run offered no secret choice to change"
    for seat, a, b in twins.pairs:
        assert len(a) == len(b), (
            f"seat {seat}'s entry differs in size ({len(a)} vs {len(b)}) with the same public "
            f"parts, after seat {twins.swapped['seat']}'s secret {twins.swapped['kind']} at "
            f"step {twins.swapped['step']}"
        )
    assert any(a != b for _, a, b in twins.pairs), "no entry carried the changed secret"
    assert len(twins.pairs) > 10


@pytest.mark.parametrize("game", ["reign", "sodalis", "sovereign"])
def test_every_decision_of_a_game_fits_one_note_block_with_room_to_spare(game: str) -> None:
    """§9.1's note block is a public constant only as long as no decision needs two blocks:
    random games at every seat count stay under half a block."""
    game_rules = rules(game)
    longest = 0
    for seats in game_rules.seat_counts:
        state = game_rules.new_game(seats, game_rules.default_round_limit, None, ())
        root = ChanceStream.from_int(seats)
        referee = Referee(root.child("referee").take(32))
        bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(seats)]
        for _ in range(20_000):
            if state.over:
                break
            request = state.pending()[0]
            if isinstance(request, Decision):
                answer = bots[request.seat].decide(state.view(request.seat), request)
                full = canonical_bytes({"type": type(answer).__name__, **attrs.asdict(answer)})
                longest = max(longest, len(full))
            else:
                answer = referee.answer(state, request)
            state.apply(answer)
        assert state.over
    assert 0 < longest < NOTE_BLOCK // 2
