"""Rule clauses an independent review found wanting, pinned down."""

from __future__ import annotations

import copy

import pytest

from fairtable.engine.errors import IllegalReveal, MalformedAnswer
from fairtable.engine.reign import DrawChoice, Overt, ReignConfig, new_game, standard_catalog
from fairtable.engine.reign.combat import resolve
from fairtable.engine.requests import DealAnswer, RevealAnswer
from tests.engine.reign_helpers import build, rejects

CATALOG = standard_catalog()


def test_combat_reveal_a_soldiers_own_bonus_counts_when_the_strongest_deserts() -> None:
    """Turncoat Captain: "The military card with the highest force in this army deserts." The
    Red Banner Sergeant (2, +2 with at least 4 other military cards) is the strongest at 4."""
    army = [
        "crimson-red-banner-sergeant.1",
        "crimson-ash-spearman.1",
        "crimson-steppe-rider.1",
        "crimson-steppe-rider.2",
        "crimson-steppe-rider.3",
        "turncoat-captain.1",
    ]
    result = resolve(CATALOG, [(0, "azure", army)], None)
    assert result.totals == ((0, 3 + 2 + 2 + 2),)  # the sergeant left, with his bonus


def test_combat_reveal_deserting_cards_take_their_own_bonus_with_them() -> None:
    army = [
        "amber-paymasters-enforcer.1",
        "amber-paymasters-enforcer.2",
        "crimson-steppe-rider.1",
        "crimson-steppe-rider.2",
        "deserters-in-the-night.1",
    ]
    result = resolve(CATALOG, [(0, "azure", army)], None)
    text = CATALOG.defs["deserters-in-the-night.1"].text
    assert "lowest" in text
    assert result.totals == ((0, 3 + 3),)  # the two 2-force riders desert; the enforcers stay


DRAW = (
    "players=3 round=2 phase=draw first=0 support=crimson:-,azure:-,ivory:- "
    "hand0=crimson-ash-spearman.1 military=crimson-steppe-rider.2,crimson-steppe-rider.3,"
    "crimson-steppe-rider.4,azure-harbour-guard.3"
)


def test_draw_a_card_cannot_be_dealt_into_a_hand_that_holds_it() -> None:
    game, _ = build(DRAW)
    game.apply(DrawChoice(0, 0))
    rejects(
        game,
        DealAnswer(
            0, ("crimson-ash-spearman.1", "crimson-steppe-rider.2", "crimson-steppe-rider.3")
        ),
        IllegalReveal,
    )


@pytest.mark.parametrize("entry", ["x", 5, ("0",), ("0", (), "extra")])
def test_bad_input_a_malformed_reveal_is_refused(entry: object) -> None:
    game, referee = build(
        "players=3 round=2 phase=influence first=0 "
        "support=crimson:-,azure:-,ivory:- hand0=crimson-ash-spearman.1 "
        "hand1=azure-harbour-guard.1 hand2=ivory-temple-warden.1"
    )
    from fairtable.engine.reign import Bid

    game.apply(Bid(0, 1, ("crimson-ash-spearman.1",)))
    game.apply(Bid(1, 0, ()))
    game.apply(Bid(2, 0, ()))
    rejects(game, RevealAnswer("bids", (entry,)), MalformedAnswer)  # type: ignore[arg-type]


def test_overt_backing_a_peer_cannot_show_a_card_another_known_hand_holds() -> None:
    full, referee = build(
        "players=3 round=2 phase=plotting first=0 "
        "support=crimson:0,azure:1,ivory:- hand0=crimson-ash-spearman.1 "
        "hand1=azure-harbour-guard.1 hand2=ivory-temple-warden.1"
    )
    mine = new_game(ReignConfig(3), known=[0])
    mine.state = copy.deepcopy(full.state)
    mine.state.known = frozenset({0})
    mine.state.secrets = {0: mine.state.secrets[0]}
    mine.apply(Overt(0, None, None))
    rejects(mine, Overt(1, 1, "crimson-ash-spearman.1"), IllegalReveal)
