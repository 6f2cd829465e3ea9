"""Held cards named by handle (Sovereign's hands and forges): peek and reveal by the holder.

A tiny game: one shuffled pile; three cards dealt to seat 0 (handles 0-2) and three
to seat 1 (handles 3-5); seat 1 peeks at seat 0's handles 0 and 2 (a breach); seat 0
re-handles its three cards (handles 6-8, in an order only it knows) and reveals handle
7 (a forged card); then seat 2 decides and the game ends, audited.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.engine.common_state import CommonState
from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import IllegalMove, WrongSeat
from fairtable.engine.games import GameRules
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import (
    Deal,
    DealAnswer,
    Decision,
    DecisionInfo,
    DecisionKind,
    Peek,
    PeekAnswer,
    Rehandle,
    RehandleAnswer,
    Reveal,
    RevealAnswer,
    Shuffle,
)

CARDS = tuple(f"card{i}" for i in range(9))


class HeldDecisionKind(DecisionKind):
    """The one decision of the held-cards game."""

    DONE = "done"


@attrs.frozen(kw_only=True)
class DoneInfo(DecisionInfo):
    """The seat says it is done."""

    KIND = HeldDecisionKind.DONE


@attrs.frozen
class Done:
    seat: int


@attrs.define
class _State(CommonState):
    DIGEST_DOMAIN = "held-test"

    round: int = 0
    hands: dict[int, list[int]] = attrs.Factory(dict)
    cards: dict[int, str] = attrs.Factory(dict)  # handle -> identity, where known
    original: list[str] = attrs.Factory(list)  # seat 0's first three cards, where known
    peeked: dict[int, str] = attrs.Factory(dict)
    revealed: tuple[str, ...] = ()

    def public(self) -> dict[str, Any]:
        return {"revealed": list(self.revealed)}

    def digest_data(self) -> dict[str, Any]:
        return {"serial": self.serial, **self.public()}


class HeldGame(ContractGame[_State, dict[str, Any]]):
    """A script that keeps the contract, answering in its own ``apply``."""

    game = "held"

    def __init__(self, known: frozenset[int]) -> None:
        super().__init__(_State(known=known, next_handle=0))
        self.state.pending = [Shuffle("pile", CARDS)]
        self.steps = iter(
            [
                Deal("pile", 0, 3),
                Deal("pile", 1, 3),
                Peek("breach", 1, (0, 2)),
                Rehandle(0, (0, 1, 2)),
                Reveal("forge", (("0", (7,), False),)),
                Decision(2, DoneInfo()),
            ]
        )

    def advance(self) -> None:
        """The script asks its next request in ``apply``."""

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.nobody() if self.over else None

    def check(self, answer: Any) -> None:
        if not isinstance(answer, Done) or answer.seat != 2:
            raise WrongSeat("only seat 2 decides")

    def apply(self, answer: Any) -> list[Any]:
        s = self.state
        if isinstance(answer, DealAnswer | RehandleAnswer):
            handles = list(range(s.next_handle, s.next_handle + 3))
            s.next_handle += 3
            old = s.hands.get(answer.seat, [])
            if old and answer.cards is not None:  # a re-handle: the same cards, reordered
                assert sorted(answer.cards) == sorted(s.cards.pop(h) for h in old)
            s.hands[answer.seat] = handles
            assert (answer.cards is not None) == (answer.seat in s.known)
            if answer.seat == 0 and not old and answer.cards is not None:
                s.original = list(answer.cards)
            for h, c in zip(handles, answer.cards or (), strict=False):
                s.cards[h] = c
        elif isinstance(answer, PeekAnswer):
            assert (answer.cards is not None) == (answer.seat in s.known)
            for h, c in zip((0, 2), answer.cards or (), strict=False):
                s.peeked[h] = c
        elif isinstance(answer, RevealAnswer):
            ((group, ids),) = answer.cards
            if 7 in s.cards and s.cards[7] != ids[0]:
                raise IllegalMove("the revealed card is not the one held", rule="forge")
            s.revealed = ids
        elif isinstance(answer, Done):
            self.check(answer)
            s.decisions += 1
            s.over = "done"
        s.serial += 1
        s.pending = [] if s.over else [next(self.steps)]
        return []

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"revealed": self.state.revealed}


RULES = GameRules(
    name="held",
    title="Held cards test",
    seat_counts=(3,),
    new_game=lambda seats, round_limit=None, known=None, options=(): HeldGame(
        frozenset(range(seats)) if known is None else frozenset(known)
    ),
    answer_kinds=(Done,),
    legal_answers=lambda view, d: [Done(d.seat)],
    random_answer=lambda view, d, rng: Done(d.seat),
    summary=lambda game: {},
)


@pytest.fixture(autouse=True)
def _held_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import fairtable.protocol._session as session_module

    monkeypatch.setattr(
        session_module, "game_rules", lambda name: RULES if name == "held" else pytest.fail(name)
    )


def _play(seed: int, **kwargs: Any) -> list[P.TableSession]:
    _, sessions = PT.make_table(3, seed, game="held", **kwargs)
    PT.run_table(sessions, lambda seat, event: Done(seat))
    return sessions


def test_peek_shows_the_held_cards_to_the_peeking_seat_only() -> None:
    sessions = _play(3)
    assert all(s.finished is not None and s.verdict is None for s in sessions)
    holder, peeker, other = (s.game.state for s in sessions)
    assert peeker.peeked == {0: holder.original[0], 2: holder.original[2]}
    assert holder.peeked == {} and other.peeked == {}
    assert set(other.cards) == set()  # seat 2 was dealt nothing and saw nothing


def test_reveal_by_the_holder_shows_the_card_to_everyone() -> None:
    sessions = _play(5)
    holder = sessions[0].game.state
    assert all(s.game.state.revealed == (holder.cards[7],) for s in sessions)


def test_deal_handles_stand_for_the_dealt_slots_on_every_peer() -> None:
    sessions = _play(6)
    maps = [dict(s.exchanges.cards.handle_slot) for s in sessions]
    assert maps[0] == maps[1] == maps[2] and sorted(maps[0]) == list(range(9))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_rehandle_keeps_the_cards_and_hides_their_new_order(seed: int) -> None:
    sessions = _play(seed)
    assert all(s.finished is not None for s in sessions)  # the audit opened the re-handle
    holder, peeker = sessions[0].exchanges.cards, sessions[1].exchanges.cards
    old = [holder.handle_slot[h] for h in (0, 1, 2)]
    new = [holder.handle_slot[h] for h in (6, 7, 8)]
    assert all(slot not in holder.held[0] for slot in old)  # the old cards are gone
    shown = sessions[0].game.state.revealed[0]
    kept = [slot for slot in new if slot in peeker.held[0]]  # the revealed one was shown
    assert len(kept) == 2 and all(slot in holder.held[0] for slot in kept)
    cards = sorted([holder.mine[slot] for slot in kept] + [shown])
    assert cards == sorted(sessions[0].game.state.original)  # the same three cards
    before, after = peeker.rehandles[0][3], peeker.rehandles[0][4]
    assert not {ct.b for ct in before} & {ct.b for ct in after}  # unlinkable without opening


class _RehandleSwap(P.TableSession):
    """Seat 0 re-handles one of its cards twice, dropping another, in a place it never
    shows (its proof of a correct shuffle cannot cover that: blamed at the step)."""

    def publish(self, msg: Any) -> None:
        from fairtable.protocol.wire import ShuffleStep

        if isinstance(msg, ShuffleStep) and msg.step.endswith("/rehandle"):
            msg = attrs.evolve(msg, cards=(msg.cards[0], msg.cards[1], msg.cards[0]))
        super().publish(msg)


def test_a_rehandle_that_changes_the_cards_is_blamed_at_its_step() -> None:
    sessions = _play(9, session_class=_RehandleSwap, cheaters=[0])
    for honest in sessions[1:]:
        assert honest.verdict is not None
        assert (honest.verdict.seat, honest.verdict.kind) == (0, "bad-shuffle")
        assert not honest.exchanges.audit.audited and not honest.exchanges.cards.rehandles


class _BadPeekCopy(P.TableSession):
    """Seat 0 hands the peeking seat a copy with a spoiled proof."""

    def publish(self, msg: Any) -> None:
        from fairtable.protocol.wire import HandOver

        if isinstance(msg, HandOver) and msg.step.endswith("/peek"):
            item = msg.cards[0]
            spoiled = attrs.evolve(item, proof=bytes([item.proof[0] ^ 1]) + item.proof[1:])
            msg = attrs.evolve(msg, cards=(spoiled, *msg.cards[1:]))
        super().publish(msg)


def test_peek_with_a_spoiled_copy_proof_blames_the_holder() -> None:
    sessions = _play(7, session_class=_BadPeekCopy, cheaters=[0])
    for honest in sessions[1:]:
        assert honest.verdict is not None
        assert (honest.verdict.seat, honest.verdict.kind) == (0, "bad-proof")


class _SilentHolder(P.TableSession):
    """Seat 0 never answers the peek."""

    def publish(self, msg: Any) -> None:
        from fairtable.protocol.wire import HandOver

        if not (isinstance(msg, HandOver) and msg.step.endswith("/peek")):
            super().publish(msg)


def test_a_holder_that_never_answers_a_peek_is_the_one_waited_for() -> None:
    sessions = _play(8, session_class=_SilentHolder, cheaters=[0])
    for honest in sessions[1:]:
        assert honest.finished is None and honest.waiting == {0}
        honest.timeout(0)
        assert honest.verdict is not None and honest.verdict.seat == 0


def test_audit_opens_the_cards_never_revealed_for_the_rules_to_judge() -> None:
    seen: list[dict[int, str]] = []

    def judge(game: Any, cards: dict[int, str]) -> tuple[int, str] | None:
        seen.append(dict(cards))
        return None

    object.__setattr__(RULES, "audit_cards", judge)  # GameRules is frozen
    try:
        sessions = _play(4)
    finally:
        object.__setattr__(RULES, "audit_cards", None)
    assert all(s.finished is not None for s in sessions)
    holder = sessions[0].exchanges.cards
    hidden = {6: holder.mine[holder.handle_slot[6]], 8: holder.mine[holder.handle_slot[8]]}
    assert len(seen) == 3  # every peer judged
    for cards in seen:  # seat 0's two cards never shown, seat 1's three, the two peeked
        assert {h: cards[h] for h in (6, 8)} == hidden and set(cards) == {0, 2, 3, 4, 5, 6, 8}


def test_a_hidden_card_the_rules_forbid_is_blamed_at_the_audit() -> None:
    object.__setattr__(RULES, "audit_cards", lambda game, cards: (0, "a card that may not be"))
    try:
        sessions = _play(4)
    finally:
        object.__setattr__(RULES, "audit_cards", None)
    for session in sessions:
        assert session.verdict is not None and session.finished is None
        assert (session.verdict.seat, session.verdict.kind) == (0, "illegal-move")
