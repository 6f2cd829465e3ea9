"""The protocol's Roll (fair dice) and Flip (a pile's next cards face up) exchanges.

A tiny game drives them without any real game's rules: shuffle five cards, flip
two, roll three dice, roll again, then seat 0 guesses.  The dice and flipped
cards must agree on every peer, come out of joint randomness (equal to what
the joint seed gives), and a cheat at either exchange must name its seat.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.engine.common_state import CommonState
from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import IllegalMove, WrongSeat
from fairtable.engine.games import GameRules
from fairtable.engine.outcome import Outcome
from fairtable.engine.referee import Referee
from fairtable.engine.requests import (
    Decision,
    DecisionInfo,
    DecisionKind,
    Flip,
    FlipAnswer,
    Roll,
    RollAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.rng import ChanceStream

CARDS = ("ash", "bell", "crow", "dusk", "ember")


class DiceDecisionKind(DecisionKind):
    """The one decision of the dice game."""

    GUESS = "guess"


@attrs.frozen(kw_only=True)
class GuessInfo(DecisionInfo):
    """The seat guesses one of ``choices``."""

    KIND = DiceDecisionKind.GUESS

    choices: tuple[int, ...]


@attrs.frozen
class Guess:
    seat: int
    number: int


@attrs.define
class _State(CommonState):
    DIGEST_DOMAIN = "dice-test"

    round: int = 0
    flipped: tuple[str, ...] = ()
    rolls: list[tuple[int, ...]] = attrs.Factory(list)
    guess: int | None = None

    def public(self) -> dict[str, Any]:
        return {
            "flipped": list(self.flipped),
            "rolls": [list(r) for r in self.rolls],
            "guess": self.guess,
        }

    def digest_data(self) -> dict[str, Any]:
        return {"serial": self.serial, **self.public()}


class DiceGame(ContractGame[_State, dict[str, Any]]):
    """Shuffle, flip 2, roll (10, 10, 12), roll (10,), then seat 0 guesses 1..3: a script that
    keeps the contract, answering in its own ``apply`` rather than through the dispatch."""

    game = "dice"

    def __init__(self, seats: int) -> None:
        super().__init__(_State(known=frozenset(range(seats)), next_handle=0))
        self.seats = seats
        self.state.pending = [Shuffle("pile", CARDS)]

    def advance(self) -> None:
        """The script asks its next request in ``apply``."""

    @property
    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        return Outcome.seat(0 if self.state.guess == 2 else None)

    def check(self, answer: Any) -> None:
        if not isinstance(answer, Guess) or answer.seat != 0:
            raise WrongSeat("only seat 0 guesses")
        if not 1 <= answer.number <= 3:
            raise IllegalMove("a guess is 1, 2 or 3", rule="guess")

    def apply(self, answer: Any) -> list[Any]:
        s = self.state
        request = s.pending[0]
        if isinstance(request, Shuffle):
            assert isinstance(answer, ShuffleAnswer)
            s.pending = [Flip("pile", 2)]
        elif isinstance(request, Flip):
            assert isinstance(answer, FlipAnswer) and len(answer.cards) == 2
            s.flipped = answer.cards
            s.pending = [Roll("strike", (10, 10, 12))]
        elif isinstance(request, Roll):
            assert isinstance(answer, RollAnswer)
            s.rolls.append(answer.values)
            s.pending = (
                [Roll("again", (10,))]
                if len(s.rolls) == 1
                else [Decision(0, GuessInfo(choices=(1, 2, 3)))]
            )
        else:
            self.check(answer)
            s.guess = answer.number
            s.decisions += 1
            s.pending = []
            s.over = "guessed"
        s.serial += 1
        return []

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"flipped": self.state.flipped, "rolls": self.state.rolls}


RULES = GameRules(
    name="dice",
    title="Dice test",
    seat_counts=(2, 3, 4),
    new_game=lambda seats, round_limit=None, known=None, options=(): DiceGame(seats),
    answer_kinds=(Guess,),
    legal_answers=lambda view, d: [Guess(d.seat, n) for n in (1, 2, 3)],
    random_answer=lambda view, d, rng: Guess(d.seat, rng.below(3) + 1),
    summary=lambda game: {},
)


@pytest.fixture(autouse=True)
def _dice_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import fairtable.protocol._session as session_module

    monkeypatch.setattr(
        session_module, "game_rules", lambda name: RULES if name == "dice" else pytest.fail(name)
    )


def _play(seats: int, seed: int, **kwargs: Any) -> list[P.TableSession]:
    _, sessions = PT.make_table(seats, seed, game="dice", **kwargs)
    PT.run_table(sessions, lambda seat, event: Guess(seat, 2))
    return sessions


@pytest.mark.parametrize("seats", [2, 4])
def test_roll_and_flip_agree_on_every_peer_and_finish(seats: int) -> None:
    sessions = _play(seats, 5)
    games = [s.game.state for s in sessions]
    assert all(s.finished is not None and s.verdict is None for s in sessions)
    assert len({(g.flipped, tuple(g.rolls)) for g in games}) == 1
    flipped, rolls = games[0].flipped, games[0].rolls
    assert len(set(flipped)) == 2 and set(flipped) <= set(CARDS)
    (a, b, c), (d,) = rolls
    assert 1 <= a <= 10 and 1 <= b <= 10 and 1 <= c <= 12 and 1 <= d <= 10


def test_roll_faces_are_the_joint_seeds_dice() -> None:
    sessions = _play(3, 11)
    ex = sessions[0].exchanges.chance
    rounds = sorted(ex.chance)  # randomness rounds 0, 1 (and the pre-commitment to 2)
    first, second = ex.chance[rounds[0]][0], ex.chance[rounds[1]][0]
    assert first.stream().dice((10, 10, 12)) == sessions[0].game.state.rolls[0]
    assert second.stream().dice((10,)) == sessions[0].game.state.rolls[1]


def test_every_roll_needs_only_reveals() -> None:
    """Each seat commits to round 0 in the entry with its key share, and to round n+1 in the
    entry with its reveal of round n: no roll waits for a round of commitments."""
    sessions = _play(3, 2)
    for seat in range(3):
        # which signed entry carried each part, as another peer filed it
        origin = sessions[(seat + 1) % 3]._origin  # noqa: SLF001
        key, commit0 = PW.KeySharePart(), PW.CommitPart("chance:c0")
        assert origin[(seat, key)] is origin[(seat, commit0)]
        assert (
            origin[(seat, PW.RevealPart("chance:c0"))] is origin[(seat, PW.CommitPart("chance:c1"))]
        )


def test_flip_with_a_bad_share_proof_blames_its_sender() -> None:
    sessions = _play(3, 4, session_class=PT.cheating_session("bad-proof"), cheaters=[2])
    honest = sessions[:2]
    assert all(s.verdict is not None and s.verdict.seat == 2 for s in honest)
    assert all(s.verdict.kind == "bad-proof" for s in honest)  # type: ignore[union-attr]


def test_roll_withheld_reveal_is_blamed_on_the_silent_seat() -> None:
    _, sessions = PT.make_table(
        3, 9, game="dice", session_class=PT.cheating_session("withheld-reveal"), cheaters=[1]
    )
    run = PT.run_table(sessions, lambda seat, event: Guess(seat, 2))
    assert run is not None
    for session in (sessions[0], sessions[2]):
        session.timeout(1)
        assert session.verdict is not None and session.verdict.seat == 1
        assert session.verdict.kind == "withheld-reveal"


def test_referee_dice_are_uniform_chi_square() -> None:
    """60 000 d10 and d12 faces from the referee's stream: chi-square well inside the 99.9 %
    bound for 9 and 11 degrees of freedom (27.88 and 31.26)."""
    referee = Referee(2026)
    counts10: Counter[int] = Counter()
    counts12: Counter[int] = Counter()
    for _ in range(10_000):
        values = referee.answer(None, Roll("test", (10, 10, 10, 12, 12, 12))).values  # type: ignore[arg-type]
        counts10.update(values[:3])
        counts12.update(values[3:])
    assert set(counts10) == set(range(1, 11)) and set(counts12) == set(range(1, 13))

    def chi2(counts: Counter[int], sides: int) -> float:
        expected = sum(counts.values()) / sides
        return math.fsum((counts[v] - expected) ** 2 / expected for v in range(1, sides + 1))

    assert chi2(counts10, 10) < 27.88
    assert chi2(counts12, 12) < 31.26


def test_joint_randomness_dice_are_uniform_chi_square() -> None:
    """Dice read from many joint seeds (as the protocol reads them) are uniform too."""
    counts: Counter[int] = Counter()
    root = ChanceStream.from_int(7)
    for i in range(4_000):
        counts.update(ChanceStream(root.child(f"seed/{i}").take(32)).dice((10,) * 5))
    expected = sum(counts.values()) / 10
    chi2 = math.fsum((counts[v] - expected) ** 2 / expected for v in range(1, 11))
    assert chi2 < 27.88
