"""Bad input: every refused answer raises a typed error from engine.errors and leaves the
game exactly as it was (digest, secrets, buffered answers, event log)."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import (
    EngineError,
    IllegalMove,
    IllegalReveal,
    MalformedAnswer,
    UnknownSecret,
    WrongPhase,
    WrongSeat,
)
from fairtable.engine.reign import (
    Bid,
    Covert,
    Discard,
    DrawChoice,
    KeepSupport,
    Overt,
    RegentDiscard,
    Spoils,
    TieBreak,
)
from fairtable.engine.requests import (
    ChanceAnswer,
    Deal,
    DealAnswer,
    Reveal,
    RevealAnswer,
    ShuffleAnswer,
)
from tests.engine.reign_helpers import (
    bid_round,
    decision,
    hand,
    play,
    plot,
    rejects,
    settle,
    spectator_copy,
    table,
)

SPEAR, RIDER = "crimson-ash-spearman.1", "crimson-steppe-rider.1"
MARINE, GUARD = "azure-tidecaller-marine.1", "azure-harbour-guard.1"
PIKE, WARDEN = "ivory-oathbound-pikeman.1", "ivory-temple-warden.1"
ARCHER, THRALL = "violet-veiled-archer.1", "violet-gloam-thrall.1"
HERALD, RALLY = "bought-herald.1", "rally-the-levies.1"
SUPPORT = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
PILE = (
    [f"violet-duskblade.{n}" for n in range(1, 5)]
    + [f"violet-gloam-thrall.{n}" for n in range(2, 5)]
    + ["violet-veiled-archer.2"]
)


# -- positions, each stopped at one kind of decision ---------------------------------------
def at_bid():
    game, ref = table(first=0, hands={0: [SPEAR, GUARD, HERALD, RALLY], 1: [RIDER], 2: [MARINE]})
    settle(game, ref)
    return game, ref


def at_overt():
    hands = {0: [SPEAR, RIDER, RALLY], 1: [MARINE], 2: [PIKE, WARDEN, ARCHER]}
    game, ref = table(first=2, phase="plotting", support=SUPPORT, hands=hands)
    settle(game, ref)
    return game, ref


def at_covert():
    game, ref = at_overt()
    plot(game, ref, stop=("covert", 2))
    return game, ref


def at_keep_support():
    support = {"crimson": None, "azure": None, "ivory": 0, "violet": None}
    game, ref = table(first=0, support=support, hands={0: [SPEAR], 1: [MARINE]})
    bid_round(game, ref, {0: [SPEAR]})
    return game, ref


def at_tie_break():
    support = {"crimson": 3, "azure": None, "ivory": None, "violet": None}
    hands = {0: [MARINE], 1: ["azure-tidecaller-marine.2"], 3: [SPEAR]}
    game, ref = table(first=3, regent=3, support=support, hands=hands)
    bid_round(game, ref, {0: [MARINE], 1: ["azure-tidecaller-marine.2"]})
    return game, ref


def at_regent_discard():
    support = {"crimson": 3, "azure": None, "ivory": None, "violet": None}
    game, ref = table(first=3, regent=3, support=support, hands={0: [MARINE], 3: [SPEAR]})
    bid_round(game, ref, {0: [MARINE]})
    return game, ref


def at_spoils():
    hands = {0: [SPEAR, RIDER, GUARD], 1: [MARINE], 2: [PIKE]}
    game, ref = table(first=0, phase="plotting", support=SUPPORT, hands=hands, military=PILE)
    plot(game, ref, covert={0: ((0, 0), (SPEAR, RIDER)), 1: ((1,), (MARINE,)), 2: ((0,), (PIKE,))})
    return game, ref


def at_draw():
    game, ref = table(phase="draw", regent=0, support=SUPPORT, military=PILE)
    settle(game, ref)
    return game, ref


def at_discard():
    hands = {
        0: [f"amber-quell-sellsword.{n}" for n in range(1, 5)]
        + [f"amber-coin-bound-crossbowman.{n}" for n in range(1, 4)]
    }
    game, ref = table(phase="draw", regent=0, support=SUPPORT, hands=hands, military=PILE)
    play(game, ref, DrawChoice(0, 0), DrawChoice(1, 0), DrawChoice(2, 0), DrawChoice(3, 0))
    return game, ref


POSITIONS = {
    "bid": at_bid,
    "overt": at_overt,
    "covert": at_covert,
    "keep_support": at_keep_support,
    "tie_break": at_tie_break,
    "regent_discard": at_regent_discard,
    "spoils": at_spoils,
    "draw": at_draw,
    "discard": at_discard,
}


@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_bad_input_positions_ask_what_they_say(kind):
    game, ref = POSITIONS[kind]()
    assert decision(game, ref).kind == kind


# -- wrong seat ----------------------------------------------------------------------------
WRONG_SEAT = [
    ("bid", Bid(1, 1, (RIDER,))),
    ("bid", Bid(9, 0, ())),
    ("overt", Overt(0, 0, SPEAR)),
    ("covert", Covert(0, (0,), (SPEAR,))),
    ("keep_support", KeepSupport(1, "azure")),
    ("tie_break", TieBreak(0, 0)),
    ("regent_discard", RegentDiscard(0, MARINE)),
    ("spoils", Spoils(1, (), ())),
    ("draw", DrawChoice(1, 0)),
    ("discard", Discard(1, ())),
]


@pytest.mark.parametrize(("kind", "answer"), WRONG_SEAT)
def test_bad_input_wrong_seat(kind, answer):
    game, _ = POSITIONS[kind]()
    rejects(game, answer, WrongSeat)


@pytest.mark.parametrize("seat", ["0", None, 0.0, True, 1.0])
@pytest.mark.parametrize("kind", ["bid", "overt", "draw", "regent_discard"])
def test_bad_input_a_seat_that_is_not_a_whole_number(kind, seat):
    game, _ = POSITIONS[kind]()
    answer = {
        "bid": Bid(seat, 0, ()),
        "overt": Overt(seat, None, None),
        "draw": DrawChoice(seat, 0),
        "regent_discard": RegentDiscard(seat, MARINE),
    }[kind]
    rejects(game, answer, MalformedAnswer)


# -- wrong phase ---------------------------------------------------------------------------
WRONG_PHASE = [
    ("bid", Overt(0, None, None)),
    ("bid", DrawChoice(0, 0)),
    ("bid", TieBreak(0, 0)),
    ("bid", ChanceAnswer((0,))),
    ("bid", ShuffleAnswer("military")),
    ("bid", DealAnswer(0, ())),
    ("bid", RevealAnswer("bids", ())),
    ("overt", Bid(2, 0, ())),
    ("overt", Covert(2, (), ())),
    ("covert", Overt(2, None, None)),
    ("draw", Discard(0, ())),
    ("spoils", KeepSupport(0, "crimson")),
]


@pytest.mark.parametrize(("kind", "answer"), WRONG_PHASE)
def test_bad_input_wrong_phase(kind, answer):
    game, _ = POSITIONS[kind]()
    rejects(game, answer, WrongPhase)


@pytest.mark.parametrize("answer", ["bid", None, 3, object(), ("bid", 0)])
def test_bad_input_not_an_answer(answer):
    game, _ = at_bid()
    rejects(game, answer, MalformedAnswer)


# -- cards not held ------------------------------------------------------------------------
NOT_HELD = [
    ("bid", Bid(0, 1, (RIDER,))),  # seat 1's card
    ("bid", Bid(0, 2, (SPEAR, SPEAR))),  # the same card twice
    ("bid", Bid(0, 1, ("crimson-ash-spearman.9",))),  # no such card
    ("overt", Overt(2, 0, SPEAR)),
    ("covert", Covert(2, (0,), (MARINE,))),
    ("covert", Covert(2, (0, 1), (PIKE, PIKE))),
    ("regent_discard", RegentDiscard(3, MARINE)),
    ("spoils", Spoils(0, ((2, 1),), ((2, PIKE),))),
    ("discard", Discard(0, (SPEAR, "amber-quell-sellsword.1"))),
]


@pytest.mark.parametrize(("kind", "answer"), NOT_HELD)
def test_bad_input_cards_not_held(kind, answer):
    game, _ = POSITIONS[kind]()
    rejects(game, answer, (IllegalMove, MalformedAnswer))


# -- too many cards ------------------------------------------------------------------------
def test_bad_input_too_many_covert_cards():
    game, _ = at_covert()
    rejects(game, Covert(2, (0, 1, 0), (PIKE, WARDEN, ARCHER)), IllegalMove)
    game, ref = at_covert()
    play(game, ref, Covert(2, (), ()))
    assert decision(game, ref).seat == 0
    rejects(game, Covert(0, (0, 0, 0), (SPEAR, RIDER, RALLY)), IllegalMove)


def test_bad_input_more_cards_than_in_hand():
    game, _ = at_bid()
    rejects(game, Bid(0, 5, (SPEAR, GUARD, HERALD, RALLY, RIDER)), MalformedAnswer)
    game, ref = at_overt()
    plot(game, ref, stop=("covert", 1))
    rejects(game, Covert(1, (1, 1), (MARINE, MARINE)), IllegalMove)  # holds one card


# -- garbage values ------------------------------------------------------------------------
GARBAGE = [
    # bids
    ("bid", Bid(0, "1", (SPEAR,)), MalformedAnswer),
    ("bid", Bid(0, None, ()), MalformedAnswer),
    ("bid", Bid(0, -1, ()), MalformedAnswer),
    ("bid", Bid(0, 1.0, (SPEAR,)), MalformedAnswer),
    ("bid", Bid(0, True, (SPEAR,)), MalformedAnswer),
    ("bid", Bid(0, 2, (SPEAR,)), MalformedAnswer),
    ("bid", Bid(0, 1, None), UnknownSecret),
    ("bid", Bid(0, 1, [SPEAR]), MalformedAnswer),
    ("bid", Bid(0, 1, (None,)), MalformedAnswer),
    ("bid", Bid(0, 1, SPEAR), MalformedAnswer),
    # overt
    ("overt", Overt(2, "0", PIKE), EngineError),
    ("overt", Overt(2, -1, PIKE), IllegalMove),
    ("overt", Overt(2, 0.0, PIKE), EngineError),
    ("overt", Overt(2, 0, None), MalformedAnswer),
    ("overt", Overt(2, 0, "no-such-card"), MalformedAnswer),
    ("overt", Overt(2, 0, 7), MalformedAnswer),
    ("overt", Overt(2, None, PIKE), MalformedAnswer),
    # covert
    ("covert", Covert(2, None, ()), MalformedAnswer),
    ("covert", Covert(2, [0], (PIKE,)), MalformedAnswer),
    ("covert", Covert(2, ("0",), (PIKE,)), MalformedAnswer),
    ("covert", Covert(2, (True,), (PIKE,)), MalformedAnswer),
    ("covert", Covert(2, (-1,), (PIKE,)), IllegalMove),
    ("covert", Covert(2, (0,), None), UnknownSecret),
    ("covert", Covert(2, (0,), (PIKE, WARDEN)), MalformedAnswer),
    ("covert", Covert(2, (0,), ("no-such-card",)), IllegalMove),
    # keep_support, tie_break, regent_discard
    ("keep_support", KeepSupport(0, None), IllegalMove),
    ("keep_support", KeepSupport(0, "gold"), IllegalMove),
    ("keep_support", KeepSupport(0, 3), IllegalMove),
    ("tie_break", TieBreak(3, None), IllegalMove),
    ("tie_break", TieBreak(3, "0"), IllegalMove),
    ("tie_break", TieBreak(3, -1), IllegalMove),
    ("tie_break", TieBreak(3, 0.0), IllegalMove),
    ("regent_discard", RegentDiscard(3, None), MalformedAnswer),
    ("regent_discard", RegentDiscard(3, "no-such-card"), MalformedAnswer),
    ("regent_discard", RegentDiscard(3, [SPEAR]), MalformedAnswer),
    # spoils
    ("spoils", Spoils(0, None, ()), MalformedAnswer),
    ("spoils", Spoils(0, [(2, 1)], ((2, GUARD),)), MalformedAnswer),
    ("spoils", Spoils(0, ((2, "1"),), ((2, GUARD),)), MalformedAnswer),
    ("spoils", Spoils(0, ((2, 1, 1),), ((2, GUARD),)), MalformedAnswer),
    ("spoils", Spoils(0, ((2, 1), (2, 1)), ((2, GUARD), (2, GUARD))), MalformedAnswer),
    ("spoils", Spoils(0, ((2, -1),), ()), IllegalMove),
    ("spoils", Spoils(0, ((2, 0),), ()), IllegalMove),
    ("spoils", Spoils(0, ((9, 1),), ((9, GUARD),)), IllegalMove),
    ("spoils", Spoils(0, ((2, 1),), None), UnknownSecret),
    ("spoils", Spoils(0, ((2, 1),), ((2, GUARD), (2, PILE[0]))), MalformedAnswer),
    ("spoils", Spoils(0, ((2, 1),), ((2, 5),)), MalformedAnswer),
    ("spoils", Spoils(0, ((2, 1),), [(2, GUARD)]), MalformedAnswer),
    # draw
    ("draw", DrawChoice(0, 2), MalformedAnswer),
    ("draw", DrawChoice(0, -1), MalformedAnswer),
    ("draw", DrawChoice(0, "1"), MalformedAnswer),
    ("draw", DrawChoice(0, None), MalformedAnswer),
    ("draw", DrawChoice(0, True), MalformedAnswer),
    # discard
    ("discard", Discard(0, None), MalformedAnswer),
    (
        "discard",
        Discard(0, ["amber-quell-sellsword.1", "amber-quell-sellsword.2"]),
        MalformedAnswer,
    ),
    ("discard", Discard(0, ("amber-quell-sellsword.1",)), IllegalMove),
    (
        "discard",
        Discard(0, ("amber-quell-sellsword.1", "amber-quell-sellsword.1")),
        MalformedAnswer,
    ),
    ("discard", Discard(0, ("amber-quell-sellsword.1", "no-such-card")), MalformedAnswer),
    ("discard", Discard(0, ("amber-quell-sellsword.1", 3)), MalformedAnswer),
]


@pytest.mark.parametrize(
    ("kind", "answer", "error"), GARBAGE, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(GARBAGE)]
)
def test_bad_input_garbage_values(kind, answer, error):
    game, _ = POSITIONS[kind]()
    rejects(game, answer, error)


@pytest.mark.parametrize("events", [1.0, 0.0])
def test_bad_input_garbage_draw_float_rejected(events):
    game, _ = at_draw()
    rejects(game, DrawChoice(0, events), MalformedAnswer)


# -- a referee that lies -----------------------------------------------------------------
def test_bad_input_reveal_that_contradicts_the_bid():
    game, ref = at_bid()
    game.apply(Bid(0, 1, (SPEAR,)))
    play(game, ref, Bid(1, 0, ()))
    game.apply(Bid(2, 0, ()))
    request = game.pending()[0]
    assert isinstance(request, Reveal) and request.label == "bids"
    rejects(game, RevealAnswer("bids", (("0", ("crimson-ash-spearman.2",)),)), IllegalReveal)
    rejects(game, RevealAnswer("bids", (("0", (RIDER,)),)), IllegalReveal)  # in seat 1's hand
    rejects(game, RevealAnswer("bids", (("0", ("no-such-card",)),)), MalformedAnswer)
    rejects(game, RevealAnswer("bids", (("0", (SPEAR, GUARD)),)), MalformedAnswer)
    rejects(game, RevealAnswer("armies", (("0", (SPEAR,)),)), MalformedAnswer)
    game.apply(ref.answer(game, request))


def test_bad_input_deal_that_contradicts_the_piles():
    game, ref = at_draw()
    game.apply(DrawChoice(0, 0))
    request = game.pending()[0]
    assert request == Deal("military", 0, 3)
    rejects(game, DealAnswer(0, (SPEAR, RIDER, GUARD)), IllegalReveal)  # not in the pile
    rejects(game, DealAnswer(0, tuple(PILE[:2])), MalformedAnswer)  # too few
    rejects(game, DealAnswer(1, tuple(PILE[:3])), MalformedAnswer)  # wrong seat
    rejects(game, DealAnswer(0, None), UnknownSecret)
    rejects(game, DealAnswer(0, (PILE[0], PILE[0], PILE[1])), MalformedAnswer)
    game.apply(ref.answer(game, request))
    assert hand(game, 0) == sorted(PILE[:3])


# -- simultaneous answers on an instance that does not know the hands --------------------
def test_bad_input_simultaneous_discards_on_a_spectator_agree_with_the_truth():
    game, ref = at_discard_two()
    spectator = spectator_copy(game)
    for seat in (1, 0):
        answer = Discard(seat, tuple(hand(game, seat)[:2]))
        spectator.apply(answer)
        game.apply(answer)
        assert spectator.digest() == game.digest()


def test_bad_input_simultaneous_discard_of_a_card_already_shown_leaves_state_unchanged():
    game, ref = at_discard_two()
    spectator = spectator_copy(game)
    shown = tuple(hand(game, 0)[:2])  # seat 1 claims seat 0's cards, then seat 0 shows them
    spectator.apply(Discard(1, shown))
    rejects(spectator, Discard(0, shown), IllegalReveal)


def at_discard_two():
    """Seats 0 and 1 both over the hand limit (simultaneous discards)."""
    hands = {
        0: [f"amber-quell-sellsword.{n}" for n in range(1, 5)]
        + [f"amber-coin-bound-crossbowman.{n}" for n in range(1, 4)],
        1: [f"ivory-temple-warden.{n}" for n in range(1, 5)]
        + [f"ivory-oathbound-pikeman.{n}" for n in range(1, 4)],
    }
    game, ref = table(
        phase="draw",
        regent=0,
        support=SUPPORT,
        hands=hands,
        military=PILE + [f"crimson-steppe-rider.{n}" for n in range(1, 5)],
    )
    play(game, ref, DrawChoice(0, 0), DrawChoice(1, 0), DrawChoice(2, 0), DrawChoice(3, 0))
    assert [d.seat for d in game.pending()] == [0, 1]
    return game, ref
