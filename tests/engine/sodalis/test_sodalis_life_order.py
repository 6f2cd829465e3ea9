"""Affecting Units: the order of one cast's life changes.  The rulebook gives none; the caster,
who performs the cast, orders them -- asked only when the order can change a result
(readings in docs/rules/sodalis.md, "Resolving one cast")."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove, MalformedAnswer
from fairtable.engine.sodalis import Cast, GiveTribute, OrderLife, Respawn
from tests.engine.sodalis.helpers import asked, build, rejects, roll, unit

# Seat 1's Damned casts Wild Burst (within 2, all): her own Empress-guarded foes at 5:0 (the
# Empress, 1 life) and 5:-1 (the Archer, 2 life, +1 inertia beside the Empress), herself too.
GUARDED = (
    "players=4 champions=empress,damned,archer,sage at=5:0,4:0,5:-1,0:0 life=1,10,2,8 "
    "active=1 spread1=damned_burst~r,damned_bolt,damned_mend"
)


def to_respawn(game):
    """Dusk's captain gives the Strength its Empress's fall earned; the respawn is next."""
    give = asked(game)
    assert give.kind == "give_tribute" and give.info.tribute == "strength"
    game.apply(GiveTribute(give.seat, give.info.candidates[0]))
    return asked(game)


def cast_and_roll(line: str, *dice: int):
    game, ref = build(line)
    game.apply(Cast(1, "damned_burst~r", None))
    roll(game, *dice)
    return game, ref


def test_affecting_units_caster_orders_life_changes_when_a_fall_changes_another():
    # 7 and 5: the Empress falls (inertia 7); the Archer takes 1 (inertia 6) while she
    # stands beside it, 2 (inertia 5, so it falls too) once she has left to respawn.
    game, _ = cast_and_roll(GUARDED, 7, 5, 1)
    d = asked(game)
    assert (d.kind, d.seat, d.info.units) == ("order_life", 1, (0, 1, 2))
    assert rejects(game, OrderLife(1, (0, 2)), IllegalMove).rule == "Affecting Units"
    rejects(game, OrderLife(1, [2, 0, 1]), MalformedAnswer)  # type: ignore[arg-type]
    game.apply(OrderLife(1, (2, 0, 1)))  # the Archer first: the guard still stands
    assert ("life_ordered", 1, [2, 0, 1]) in game.state.stored_events()
    assert unit(game, 2)["life"] == 1
    respawn = to_respawn(game)
    assert (respawn.kind, respawn.seat) == ("respawn", 0)


def test_affecting_units_caster_order_empress_first_brings_both_down():
    game, _ = cast_and_roll(GUARDED, 7, 5, 1)
    game.apply(OrderLife(1, (0, 1, 2)))
    respawn = to_respawn(game)
    assert (respawn.kind, respawn.seat) == ("respawn", 0)
    far = max(respawn.info.spaces, key=lambda s: abs(s[0] - 5) + abs(s[1] + 1))
    game.apply(Respawn(0, far))
    lives = [e for e in game.state.stored_events() if e[0] == "life" and e[1] == 2]
    assert lives[-1][2:4] == (2, 0)  # the Archer reached 0 as well
    assert game.public()["tributes"]["dusk"]["strength"] is not None


def test_affecting_units_no_order_is_asked_when_nobody_falls():
    # 6 and 5: the Empress (inertia 7) takes nothing, the guarded Archer 1: nobody falls.
    game, _ = cast_and_roll(GUARDED, 6, 5, 1)
    assert not [e for e in game.state.stored_events() if e[0] == "life_ordered"]
    assert not any(getattr(r, "kind", None) == "order_life" for r in game.pending())
    assert unit(game, 0)["life"] == 1 and unit(game, 2)["life"] == 1


def test_affecting_units_no_order_is_asked_when_one_fall_changes_nothing_else():
    # The Archer stands away from the Empress (no guard): her fall changes no other count.
    line = GUARDED.replace("at=5:0,4:0,5:-1,0:0", "at=5:0,4:0,3:0,0:0")
    game, _ = cast_and_roll(line, 7, 1, 1)
    assert not [e for e in game.state.stored_events() if e[0] == "life_ordered"]
    assert to_respawn(game).kind == "respawn"


def test_affecting_units_caster_orders_when_two_champions_fall():
    # Both foes at 1 life fall whatever the order: each fall earns a tribute and picks its
    # base space before the next, so the caster orders them.
    line = GUARDED.replace("life=1,10,2,8", "life=1,10,1,8")
    game, _ = cast_and_roll(line, 9, 9, 1)
    d = asked(game)
    assert (d.kind, d.info.units) == ("order_life", (0, 1, 2))


# Tempest Strike (reversed: one unit within 1, push 2) at 4:0; Chain Lightning brings in the
# champion beside it.  Nobody falls (dice of 1); only the pushes can get in each other's way.
def pushed(at: str):
    game, _ = build(
        f"players=4 champions=tempest,empress,lover,sage at={at} life=8,8,8,8 "
        "spread0=tempest_strike~r,squall,tempest_mend"
    )
    game.apply(Cast(0, "tempest_strike~r", 1))
    roll(game, 1, 1, 1)
    return game


def test_affecting_units_caster_orders_pushes_that_get_in_each_others_way():
    # 4:0 and 5:0 in a line from the Tempest at 3:0: pushed first, 4:0 is blocked at once;
    # pushed second, it follows the other (who goes on to 7:0) to 6:0.
    for order, first_at in (((1, 3), [4, 0]), ((3, 1), [6, 0])):
        game = pushed("3:0,4:0,9:0,5:0")
        d = asked(game)
        assert (d.kind, d.seat, d.info.units) == ("order_life", 0, (1, 3))
        game.apply(OrderLife(0, order))
        assert unit(game, 1)["at"] == first_at and unit(game, 3)["at"] == [7, 0]


def test_affecting_units_no_order_is_asked_for_pushes_on_separate_ways():
    game = pushed("3:0,4:0,9:0,4:-1")  # pushed to 6:0 and 6:-3, nowhere near each other
    assert not [e for e in game.state.stored_events() if e[0] == "life_ordered"]
    assert unit(game, 1)["at"] == [6, 0]
