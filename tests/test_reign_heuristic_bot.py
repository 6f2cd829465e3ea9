"""Reign's heuristic bot where it used to blunder (issue 32): no kingmaking, bidding while
holding a support card, discarding by value, no accidental backing.

Each test builds a position, lets the bot answer from its seat's view, and applies the
answer (so it is legal too).
"""

from __future__ import annotations

from fairtable.client.reign.bots import HeuristicBot
from fairtable.engine.referee import Referee
from fairtable.engine.reign import Bid, Covert, Overt, ReignGame
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from tests.engine.reign_helpers import DEFS, decision, default_answer, table

SPEAR, SPEAR2, RIDER = "crimson-ash-spearman.1", "crimson-ash-spearman.2", "crimson-steppe-rider.1"
MARINE, GUARD, OAR = "azure-tidecaller-marine.1", "azure-harbour-guard.1", "azure-harbour-guard.2"
WINE = "poisoned-wine"


def bot() -> HeuristicBot:
    return HeuristicBot(ChanceStream(b"k" * 32))


def answer_as_bot(game: ReignGame, ref: Referee, seat: int, kind: str) -> object:
    """Play quietly for everyone else until ``seat`` is asked ``kind``; the bot answers it
    (the answer is applied, so it is legal) and is returned."""
    for _ in range(50):
        d = decision(game, ref)
        if d.seat == seat and d.kind == kind:
            answer = bot().decide(game.view(seat), d)
            game.apply(answer)
            return answer
        game.apply(default_answer(game, d))
    raise AssertionError(f"seat {seat} was never asked {kind}")


def plotting_table(legit: list[int], hands: dict[int, list[str]]) -> tuple[ReignGame, Referee]:
    # Five seats; seat 0 is the Regent and holds crimson, seat 1 holds azure.
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    return table(
        players=5, first=0, regent=0, legit=legit, phase="plotting", support=support, hands=hands
    )


def test_bot_never_backs_the_regent_whose_crowning_would_win_the_game() -> None:
    # Issue 32's seed 9000: seat 3 on 2 points put its best card covertly into the army of
    # the Regent on 6, who won with it.  The Regent's army looks strongest (+3 as Regent),
    # yet crowning it ends the game: the bot lends its cards to seat 1 instead.
    hands = {0: [RIDER], 1: [GUARD], 3: [SPEAR, SPEAR2, MARINE]}
    game, ref = plotting_table([6, 1, 0, 2, 0], hands)
    overt = answer_as_bot(game, ref, 3, "overt")
    assert isinstance(overt, Overt) and overt.target == 1
    covert = answer_as_bot(game, ref, 3, "covert")
    assert isinstance(covert, Covert) and 0 not in covert.targets and covert.targets
    assert game.state.backing[3] == 1


def test_bot_backs_the_strongest_army_when_no_crowning_wins_the_game() -> None:
    # The same table with the Regent on 5: its crowning does not end the game, and the bot
    # backs the army most likely to win (for its own 2 points), as before.
    hands = {0: [RIDER], 1: [GUARD], 3: [SPEAR, SPEAR2, MARINE]}
    game, ref = plotting_table([5, 1, 0, 2, 0], hands)
    overt = answer_as_bot(game, ref, 3, "overt")
    assert isinstance(overt, Overt) and overt.target == 0


def test_bot_backs_nobody_when_every_army_would_win_the_game_for_a_rival() -> None:
    hands = {0: [RIDER], 1: [GUARD], 3: [SPEAR, WINE]}
    game, ref = plotting_table([6, 7, 0, 2, 0], hands)
    assert answer_as_bot(game, ref, 3, "overt") == Overt(3, None, None)
    assert answer_as_bot(game, ref, 3, "covert") == Covert(3, (), ())
    assert 3 not in game.state.backing


def test_a_lone_betrayal_card_never_backs_the_rival_it_weakens() -> None:
    # Seat 1 holds azure and has only a betrayal card to place: into seat 0's army it would
    # count as backing seat 0.  It keeps it.
    hands = {0: [RIDER], 1: [WINE], 3: [SPEAR]}
    game, ref = plotting_table([0, 1, 0, 2, 0], hands)
    covert = answer_as_bot(game, ref, 1, "covert")
    assert covert == Covert(1, (), ())
    assert game.state.backing.get(1, 1) == 1


def test_a_betrayal_goes_first_so_the_last_card_backs_the_bots_own_army() -> None:
    hands = {0: [RIDER], 1: [WINE, MARINE, GUARD], 3: [SPEAR]}
    game, ref = plotting_table([0, 1, 0, 2, 0], hands)
    answer_as_bot(game, ref, 1, "overt")
    covert = answer_as_bot(game, ref, 1, "covert")
    assert isinstance(covert, Covert) and covert.cards is not None
    assert covert.targets[0] == 0 and covert.cards[0] == WINE
    assert covert.targets[-1] == 1
    assert game.state.backing[1] == 1


def test_bot_bids_for_a_rivals_house_while_holding_a_support_card() -> None:
    # Seat 1 holds azure and a strong crimson hand; crimson is seat 2's.  It contests it
    # (before issue 32 a seat with a support card never bid, so no house was ever contested).
    support = {"crimson": 2, "azure": 1, "ivory": None, "violet": None}
    hands = {1: [SPEAR, SPEAR2, RIDER, GUARD], 2: [MARINE]}
    game, ref = table(players=4, first=1, legit=[0, 0, 0, 0], support=support, hands=hands)
    bid = answer_as_bot(game, ref, 1, "bid")
    assert isinstance(bid, Bid) and bid.count >= 2 and bid.cards is not None
    assert {DEFS[c].house for c in bid.cards if DEFS[c].kind == "military"} == {"crimson"}


def test_bot_holding_a_support_card_keeps_a_weak_hand_out_of_bidding() -> None:
    support = {"crimson": 2, "azure": 1, "ivory": None, "violet": None}
    hands = {1: ["crimson-horde-drummer.1", GUARD], 2: [MARINE]}
    game, ref = table(players=4, first=1, legit=[0, 0, 0, 0], support=support, hands=hands)
    assert answer_as_bot(game, ref, 1, "bid") == Bid(1, 0, ())


def test_regent_discards_a_weak_soldier_rather_than_the_forged_crown_seal() -> None:
    # Regent's Special Rules: a new support card costs the Regent a card.  The Seal is +3 to
    # a bid, worth more than a force-1 drummer.
    support = {"crimson": None, "azure": 0, "ivory": None, "violet": None}
    hands = {0: ["forged-crown-seal", "crimson-horde-drummer.1", OAR], 1: [SPEAR]}
    game, ref = table(
        players=4, first=1, regent=0, legit=[3, 0, 0, 0], support=support, hands=hands
    )
    for _ in range(20):
        d = decision(game, ref)
        if d.kind == "regent_discard":
            break
        game.apply(
            Bid(1, 1, (SPEAR,)) if (d.seat, d.kind) == (1, "bid") else default_answer(game, d)
        )
    assert isinstance(d, Decision) and d.kind == "regent_discard"
    answer = bot().decide(game.view(0), d)
    game.apply(answer)
    assert answer.card == "crimson-horde-drummer.1"


def test_regent_whose_overt_card_went_elsewhere_ends_covert_backing_in_its_own_army() -> None:
    # Plotting Phase > Regent's Special Rules: "their last card must be placed into their own
    # army" -- even when its overt card went to a rival (as a search bot's candidate may).
    hands = {0: [RIDER, SPEAR, WINE], 1: [GUARD], 3: [SPEAR2]}
    game, ref = plotting_table([0, 1, 0, 2, 0], hands)
    d = decision(game, ref)
    assert (d.seat, d.kind) == (0, "overt")
    game.apply(Overt(0, 1, RIDER))
    covert = answer_as_bot(game, ref, 0, "covert")
    assert isinstance(covert, Covert) and covert.targets and covert.targets[-1] == 0
    assert game.state.backing[0] == 0
