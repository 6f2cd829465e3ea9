"""High Card's rules: a toy game from outside fairtable, played over its protocol unchanged.

Six cards ``h1``..``h6`` (worth 1..6) are shuffled into a hidden deck; each seat draws
two privately (a Deal), then, in seat order, secretly bids one of its cards face down
(a Decision whose card is committed), and the bids are revealed together (an unmixed
Reveal, opened by each bidder).  The highest card wins.  The rules live here and nowhere
else: the protocol learns them through :class:`engine.games.GameRules` (:data:`RULES`, which
the game's registry entry names), :class:`engine.contract.ContractGame` and the requests of
:mod:`engine.requests` only.  Like every game's rules, this module imports the engine and
nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from fairtable.engine.common_state import CommonState, known_seats
from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import IllegalReveal, MalformedAnswer
from fairtable.engine.games import GameRules
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import (
    Deal,
    DealAnswer,
    Decision,
    DecisionInfo,
    DecisionKind,
    Reveal,
    RevealAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.rng import ChanceStream
from fairtable.engine.tasks import push_front, run_tasks
from highcard import events as E

NAME = "highcard"
CARDS = tuple(f"h{n}" for n in range(1, 7))
DRAW = 2


class HighCardDecisionKind(DecisionKind):
    """High Card asks one kind of decision: which card to bid, and how much to stake."""

    BID = "bid"


@attrs.frozen(kw_only=True)
class BidInfo(DecisionInfo):
    """The seat bids one of the ``hand`` cards it holds."""

    KIND = HighCardDecisionKind.BID

    hand: int


def value(card: str) -> int:
    """What a card is worth: ``h5`` is worth 5."""
    return int(card[1:])


@attrs.frozen
class HighBid:
    """Seat ``seat`` bids ``card`` face down (``None`` in the public part), staking
    ``stake`` points (1 or 2, public)."""

    seat: int
    stake: int
    card: str | None = None


@attrs.define
class ToyState(CommonState):
    DIGEST_DOMAIN = "highcard"

    seats: int
    winner: int | None = None
    hands: dict[int, list[str]] = attrs.Factory(dict)  # known seats only
    hand_count: dict[int, int] = attrs.Factory(dict)
    bids: dict[int, int] = attrs.Factory(dict)  # seat -> the handle of its face-down bid
    secret: dict[int, str] = attrs.Factory(dict)  # handle -> card, known seats only
    revealed: dict[int, str] = attrs.Factory(dict)  # seat -> the card its bid showed

    def public(self) -> dict[str, Any]:
        """What every seat sees: the one round, cards in hand, bids placed and shown."""
        return {
            "round": 1,
            "counts": dict(self.hand_count),
            "bids": dict(self.bids),
            "revealed": dict(self.revealed),
        }

    def digest_data(self) -> dict[str, Any]:
        """The step, the end and the public zones (as sorted pairs)."""
        return {
            "serial": self.serial,
            "over": self.over,
            "winner": self.winner,
            "counts": sorted(self.hand_count.items()),
            "bids": sorted(self.bids.items()),
            "revealed": sorted(self.revealed.items()),
        }


def _start(s: ToyState) -> None:
    s.pending = [Shuffle("deck", CARDS)]
    push_front(s, ("deal", 0))


def _deal(s: ToyState, seat: int) -> None:
    s.pending = [Deal("deck", seat, DRAW)]
    push_front(s, ("deal", seat + 1) if seat + 1 < s.seats else ("bid", 0))


def _bid(s: ToyState, seat: int) -> None:
    s.pending = [Decision(seat, BidInfo(hand=s.hand_count[seat]))]
    push_front(s, ("bid", seat + 1) if seat + 1 < s.seats else ("reveal",))


def _reveal(s: ToyState) -> None:
    groups = tuple((str(seat), (handle,), False) for seat, handle in sorted(s.bids.items()))
    s.pending = [Reveal("bids", groups)]
    push_front(s, ("score",))


def _score(s: ToyState) -> None:
    best = max(s.revealed.values(), key=value)
    s.winner = next(seat for seat, card in sorted(s.revealed.items()) if card == best)
    s.over = "won"
    s.log(E.Won(s.winner, best))


_TASKS: dict[str, Callable[..., None]] = {
    "start": _start,
    "deal": _deal,
    "bid": _bid,
    "reveal": _reveal,
    "score": _score,
}


def _on_shuffle(s: ToyState, answer: ShuffleAnswer) -> None:
    if answer.pile != "deck":
        raise MalformedAnswer("the shuffle is of the deck")
    s.pending = []


def _cards(value: Any) -> tuple[str, ...] | None:
    """``value`` as a tuple of card ids of the deck, or ``None`` if it is not one."""
    if not isinstance(value, tuple) or not all(isinstance(c, str) for c in value):
        return None
    return value if all(c in CARDS for c in value) else None


def _on_deal(s: ToyState, answer: DealAnswer) -> None:
    req = s.pending[0]
    assert isinstance(req, Deal)  # the contract dispatches a deal's answer only to a Deal
    if type(answer.seat) is not int or answer.seat != req.seat:
        raise MalformedAnswer("the deal is for another seat")
    known = req.seat in s.known
    if not known and answer.cards is not None:
        raise MalformedAnswer("this engine may not learn another seat's draw")
    if known:
        cards = _cards(answer.cards)
        if cards is None or len(cards) != req.count:
            raise MalformedAnswer("a known seat's deal names its cards")
        seen = {c for hand in s.hands.values() for c in hand}
        if any(c in seen for c in cards) or len(set(cards)) < len(cards):
            raise IllegalReveal("a dealt card is dealt twice")
        s.hands[req.seat] = list(cards)
    s.pending = []
    s.hand_count[req.seat] = req.count
    s.log(E.Dealt(req.seat, req.count))


def _on_reveal(s: ToyState, answer: RevealAnswer) -> None:
    req = s.pending[0]
    assert isinstance(req, Reveal)  # the contract dispatches a reveal's answer only to a Reveal
    groups = answer.cards
    if (
        answer.label != req.label
        or not isinstance(groups, tuple)
        or len(groups) != len(req.groups)
        or not all(isinstance(g, tuple) and len(g) == 2 for g in groups)
    ):
        raise MalformedAnswer("the reveal does not answer the request")
    shown: dict[int, str] = {}
    for (group, (handle,), _), (name, cards) in zip(req.groups, groups, strict=True):
        seat = int(group)
        found = _cards(cards)
        if name != group or found is None or len(found) != 1:
            raise IllegalReveal(f"seat {seat}'s bid is not one card of the deck", seat=seat)
        if handle in s.secret and s.secret[handle] != found[0]:
            raise IllegalReveal(f"seat {seat}'s bid is not the card it placed", seat=seat)
        shown[seat] = found[0]
    if len(set(shown.values())) != len(shown):
        raise IllegalReveal("two bids show the same card")
    s.pending = []
    s.revealed = shown
    s.log(E.Revealed(tuple(sorted(shown.items()))))


def _check_bid(s: ToyState, req: Decision, answer: HighBid) -> None:
    if type(answer.stake) is not int or answer.stake not in (1, 2):
        raise MalformedAnswer("a bid stakes 1 or 2 points")
    if answer.seat in s.known and answer.card not in s.hands.get(answer.seat, []):
        raise MalformedAnswer("a bid is a card of the bidder's hand")


def _apply_bid(s: ToyState, req: Decision, answer: HighBid) -> None:
    handle = s.next_handle
    s.next_handle += 1
    s.bids[answer.seat] = handle
    s.hand_count[answer.seat] -= 1
    if answer.card is not None:
        s.secret[handle] = answer.card
        s.hands[answer.seat].remove(answer.card)
    s.log(E.Placed(answer.seat, answer.stake))


@attrs.frozen
class HighCardView:
    """What one seat sees: its own ``hand`` (empty for a spectator), every seat's card
    ``counts`` and the bids ``revealed`` (seat -> card) once they are shown."""

    hand: tuple[str, ...]
    counts: dict[int, int]
    revealed: dict[int, str]


class ToyGame(ContractGame[ToyState, HighCardView]):
    """High Card as one engine instance sees it (no hand-overs)."""

    game = NAME
    EVENT_PARSER = E.PARSER
    DECISIONS = {HighBid: ("bid", _check_bid, _apply_bid)}
    GENERIC = {
        ShuffleAnswer: (Shuffle, None, _on_shuffle),
        DealAnswer: (Deal, None, _on_deal),
        RevealAnswer: (Reveal, None, _on_reveal),
    }

    @property
    def outcome(self) -> Outcome | None:
        return Outcome.seat(self.state.winner) if self.over else None

    def advance(self) -> None:
        run_tasks(self.state, _TASKS)

    def secret_of(self, handle: int) -> str:
        """The card a face-down bid holds (an instance that knows its bidder only)."""
        if handle not in self.state.secret:
            raise KeyError(f"this engine instance does not know bid {handle}")
        return self.state.secret[handle]

    def view(self, seat: int | None) -> HighCardView:
        s = self.state
        hand = tuple(s.hands.get(seat, [])) if seat is not None else ()
        return HighCardView(hand, dict(s.hand_count), dict(s.revealed))


def new_game(
    seats: int,
    round_limit: int | None = None,
    known: Iterable[int] | None = None,
    options: tuple[tuple[str, Any], ...] = (),
) -> ToyGame:
    state = ToyState(seats=seats, known=known_seats(seats, known))
    state.tasks = [("start",)]
    game = ToyGame(state)
    game.advance()
    return game


def _legal(view: HighCardView, decision: Decision) -> list[HighBid]:
    return [HighBid(decision.seat, stake, card) for card in view.hand for stake in (1, 2)]


def _random(view: HighCardView, decision: Decision, rng: ChanceStream) -> HighBid:
    options = _legal(view, decision)
    return options[rng.below(len(options))]


def _departure_ends(view: HighCardView, seat: int) -> bool:
    """High Card never goes on without a seat (it lets none leave): whoever resigns ends the
    game, whatever the table sees."""
    return True


def _summary(game: ToyGame) -> dict[str, Any]:
    s = game.state
    return {"rounds": 1, "decisions": s.decisions, "revealed": sorted(s.revealed.items())}


RULES = GameRules(
    name=NAME,
    title="High Card",
    seat_counts=(2, 3),
    new_game=new_game,
    answer_kinds=(HighBid,),
    legal_answers=_legal,
    random_answer=_random,
    summary=_summary,
    public_part=lambda a: HighBid(a.seat, a.stake, None) if isinstance(a, HighBid) else a,
    secret_cards=lambda a: (a.card,) if isinstance(a, HighBid) and a.card else (),
    places_face_down=lambda a: isinstance(a, HighBid),
    illegal_answer=lambda d: HighBid(d.seat, 9) if d.kind == HighCardDecisionKind.BID else None,
    departure_ends=_departure_ends,
)
