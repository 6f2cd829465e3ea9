"""Independent review of the Sodalis engine against the rulebook and docs/rules/sodalis.md:
one test per finding or per rule clause the other files did not yet prove, each named after
the rulebook section it proves."""

from __future__ import annotations

import itertools

from fairtable.engine.errors import EngineError, IllegalMove
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import (
    Carry,
    Cast,
    ChooseChampion,
    ConfuseChoice,
    EndTurn,
    ForcedStep,
    GiveTribute,
    OrderLife,
    Place,
    Rearrange,
    RefreshToken,
    Respawn,
    Reversals,
    Step,
    StrengthRefresh,
    TurnTokens,
    standard_catalog,
)
from fairtable.engine.sodalis.choices import legal_answers
from tests.engine.sodalis.helpers import Table, asked, build, rejects, roll, unit

DUEL = "players=2 champions=tempest,empress"


# -- Affecting Units: "at" ranges and the caster -----------------------------------------------
def test_affecting_units_an_at_range_lowered_by_an_aura_never_reaches_its_caster() -> None:
    """Finding: the Sage's Dilated Moment (range -1 on the affected) turned the Empress's
    "At 1" arcana into "at 0", which reached the Empress herself -- so she could refresh
    herself with Banner of Noon.  An "at" numeral stops at 1 (docs/rules, "A lowered 'At'
    range"); an "at 2" still drops to "at 1"."""
    game, _ = build(
        "players=2 champions=sage,empress at=4:-1,5:-1 active=1 "
        "cont0=echo_of_moments~r@1 "
        "spread1=banner_of_noon,courtly_step,decree_of_silence",
        catalog=standard_catalog(),
    )
    casts = {c[0]: c for c in asked(game).info.casts}
    assert "banner_of_noon" not in casts  # "at 1, one friend": no friend at 1, never herself
    assert casts["courtly_step"][1] == (0,)  # "at 1, one any": the Sage beside her only
    assert casts["decree_of_silence"][1] == (0,)  # "at 2" lowered to "at 1"
    rejects(game, Cast(1, "banner_of_noon", 1), IllegalMove)
    rejects(game, Cast(1, "courtly_step", 1), IllegalMove)


def test_tribute_of_sight_adds_one_to_an_at_range_after_an_aura_lowered_it() -> None:
    game, _ = build(
        "players=2 champions=sage,empress at=3:-1,5:-1 active=1 tributes=sight:1 "
        "cont0=echo_of_moments~r@1 "
        "spread1=courtly_step,banner_of_noon,decree_of_silence",
        catalog=standard_catalog(),
    )
    casts = {c[0]: c for c in asked(game).info.casts}
    assert casts["courtly_step"][1] == () and casts["courtly_step"][2] == (0,)  # at 1 + 1


# -- Champion Cards: respawn ---------------------------------------------------------------------
def test_champion_cards_a_respawn_keeps_tokens_marks_and_tribute_and_leaves_the_artifact() -> None:
    game, _ = build(
        f"{DUEL} at=3:-1,5:-1 life=10,1 artifacts=dusk:5:-1 up=Mmv,m marks=-,cs tributes=sight:1"
    )
    game.apply(Cast(0, "squall", 1))
    roll(game, 8, 1, 1)  # one success, no critical: the Empress falls, Sight stays hers
    spaces = asked(game).info.spaces
    assert (8, 0) not in spaces and all(s in game.state.arena.base_of("dusk") for s in spaces)
    game.apply(Respawn(1, (9, 0)))
    empress = unit(game, 1)
    assert empress["at"] == [9, 0] and empress["life"] == 10
    assert empress["up"] == ["minor"] and empress["confused"] and empress["slowed"]
    assert empress["tributes"] == {"sight": True}
    assert game.public()["artifacts"]["dusk"] == [5, -1]  # the Artifact stays where it was
    assert game.public()["tributes"]["dawn"]["strength"] == 0


# -- Tribute of Strength: several champions fall in one effect -----------------------------------
def test_tribute_of_strength_two_champions_falling_at_once_earn_strength_then_a_refresh() -> None:
    """Burst (within 1, all enemies) with Chain Lightning: seats 1 and 3 fall.  The first, in
    the caster's order (asked: two fall), brings Dawn Strength; the second, Strength already
    held, a refresh."""
    game, _ = build(
        "players=4 champions=tempest,empress,lover,sage at=3:0,4:0,5:-1,2:0 "
        "life=10,1,10,1 spread0=tempest_burst,squall,tempest_mend"
    )
    game.apply(Cast(0, "tempest_burst", None))
    roll(game, 10, 10)
    order = asked(game)
    assert (order.kind, order.seat, order.info.units) == ("order_life", 0, (1, 2, 3))
    game.apply(OrderLife(0, (1, 2, 3)))
    give = asked(game)
    assert give.kind == "give_tribute" and give.info.tribute == "strength"
    game.apply(GiveTribute(0, 2))
    assert asked(game).kind == "respawn" and asked(game).seat == 1
    game.apply(Respawn(1, (9, 0)))
    offer = asked(game)
    assert offer.kind == "strength_refresh" and offer.info.options == ((0, "major"),)
    game.apply(StrengthRefresh(0, 0, "major"))
    assert "major" in unit(game, 0)["up"]
    assert asked(game).kind == "respawn" and asked(game).seat == 3


# -- Tribute of Speed / Victory: forced delivery wins at once ------------------------------------
def test_tribute_of_speed_a_forced_carry_to_the_centre_wins_at_once_in_the_others_turn() -> None:
    """The Empress stands on her Artifact next to the centre; the Tempest pushes her onto
    it, she carries the Artifact along: Dusk gains Speed and, holding the other two, wins
    in the middle of the Tempest's turn."""
    game, _ = build(
        f"{DUEL} at=5:0,5:-1 artifacts=dusk:5:-1 tributes=strength:1,sight:1 "
        "spread0=tempest_lure~r,squall,tempest_mend"
    )
    game.apply(Cast(0, "tempest_lure~r", 1))
    carry = asked(game)
    assert carry.kind == "carry" and carry.info.to == (5, -2)
    game.apply(Carry(1, True))
    assert (
        game.outcome == Outcome.of_team("dusk", game.state.members("dusk")) and game.pending() == ()
    )
    assert game.public()["artifacts"]["dusk"] is None


# -- the contract: legal answers are exactly what check accepts ----------------------------------
def _candidates(game, d: Decision) -> list:  # type: ignore[no-untyped-def]
    s, seat, kind = game.state, d.seat, d.kind
    spaces = sorted(s.arena.spaces)
    tokens = ("major", "minor", "move", "speed")
    if kind == "turn":
        cards = sorted(set(s.seats[seat].cards) | {"squall"})
        out = [Step(seat, to, pay, c) for to in spaces for pay in tokens for c in (False, True)]
        out += [
            Cast(seat, card, t, si, st)
            for card in cards
            for t in (None, -1, *range(s.players))
            for si in (False, True)
            for st in (False, True)
        ]
        return [*out, EndTurn(seat)]
    if kind in ("turn_tokens", "rearrange"):
        cls = TurnTokens if kind == "turn_tokens" else Rearrange
        return [cls(seat, p) for n in range(4) for p in itertools.permutations(range(1, 7), n)]
    if kind == "champion":
        return [ChooseChampion(seat, c) for c in s.catalog.ids]
    if kind == "reversals":
        arcana = sorted(a.id for a in s.champion_of(seat).arcana)
        return [Reversals(seat, c) for n in range(3) for c in itertools.combinations(arcana, n)]
    if kind in ("place", "respawn"):
        return [(Place if kind == "place" else Respawn)(seat, sp) for sp in spaces]
    if kind in ("confuse", "refresh_token"):
        return [(ConfuseChoice if kind == "confuse" else RefreshToken)(seat, t) for t in tokens]
    if kind == "forced_step":
        return [ForcedStep(seat, sp) for sp in spaces]
    if kind == "give_tribute":
        return [GiveTribute(seat, u) for u in range(-1, s.players)]
    if kind == "strength_refresh":
        return [
            StrengthRefresh(seat, u, t) for u in (None, *range(s.players)) for t in (None, *tokens)
        ]
    return [Carry(seat, True), Carry(seat, False)]


def test_contract_legal_answers_are_exactly_what_check_accepts_over_whole_games() -> None:
    seen = set()
    for players, seed in ((2, 21), (4, 22), (6, 23)):
        table = Table(players, seed=seed, round_limit=4)
        for step in itertools.count():
            if table.truth.over:
                break
            for d in table.truth.pending():
                if not isinstance(d, Decision) or (d.kind == "turn" and step % 3):
                    continue
                seen.add(d.kind)
                legal = set(legal_answers(table.truth.view(d.seat), d))
                accepted = set()
                for answer in set(_candidates(table.truth, d)) | legal:
                    try:
                        table.truth.check(answer)
                    except EngineError:
                        continue
                    accepted.add(answer)
                assert accepted == legal, d
            table.step()
    assert {"turn", "turn_tokens", "rearrange", "champion", "reversals", "place"} <= seen
