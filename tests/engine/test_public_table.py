"""A view's typed public record (``view.table``) says what its public state says, by field.

The public state stays the canonical dict digests and logs hold; screens and bots read the
record made from it (engine/public_table.py), so each field must agree with its key at every
step of a game, seat-keyed tables keyed by seat numbers and words as the game's members.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from fairtable.engine.public_table import PublicTable
from fairtable.engine.reign.state import RoundPhase
from fairtable.engine.sodalis.cards import Action
from fairtable.engine.sodalis.team import Team
from fairtable.engine.sovereign.kinds import TurnPhase
from tests.bot_games import BotTable

PLAYERS = {"reign": 4, "sodalis": 4, "sovereign": 3}
PHASES: dict[str, type] = {"reign": RoundPhase, "sodalis": str, "sovereign": TurnPhase}
SEAT_KEYED = ("bids", "bid_cards", "armies", "army_down", "backing")  # Reign's


def _plain(value: Any) -> Any:
    """``value`` as the public dict holds it: tuples as lists, seat keys as text."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _agrees(table: PublicTable, public: dict[str, Any], game: str) -> None:
    assert type(table.phase) is PHASES[game]
    assert table.departed == tuple(public.get("departed", ()))
    for name in ("players", "round", "round_limit", "phase"):
        assert getattr(table, name) == public[name], name
    if game == "reign":
        for name in ("houses", "legitimacy", "hand_count", "discards", "combat_totals"):
            assert _plain(getattr(table, name)) == public[name], name
        for name in ("regent", "first_player", "winner", "over", "support", "piles"):
            assert getattr(table, name) == public[name], name
        for name in SEAT_KEYED:
            assert all(type(seat) is int for seat in getattr(table, name)), name
            assert _plain(dict(getattr(table, name))) == public[name], name
    elif game == "sodalis":
        assert table.order == tuple(public["order"]) and table.active == public["active"]
        assert table.paragon_sight is public["paragon"]["sight"]
        assert _plain(dict(table.artifacts)) == public["artifacts"]
        assert all(type(team) is Team for team in table.artifacts)
        assert table.winner == public["winner"] and table.over == public["over"]
        assert _plain(table.paragon_at) == public["paragon"]["at"]
        assert _plain({t: dict(held) for t, held in table.tributes.items()}) == public["tributes"]
        assert len(table.seats) == len(public["seats"])
        for seat, plain in zip(table.seats, public["seats"], strict=True):
            for field in attrs.fields(type(seat)):
                value = getattr(seat, field.name)
                value = dict(value) if field.name == "tributes" else value
                assert _plain(value) == plain[field.name], field.name
            assert type(seat.team) is Team and all(type(a) is Action for a in seat.up)
            assert seat.spread == [c for c in plain["side"] if c] + (
                [plain["top"]] if plain["top"] else []
            )
        for record, stored in (
            (table.cast, public["cast"]),
            (table.last_roll, public["last_roll"]),
        ):
            assert (record is None) == (stored is None)
            for field in attrs.fields(type(record)) if record is not None else ():
                key = "from" if field.name == "at" else field.name  # the cast's "from"
                assert _plain(getattr(record, field.name)) == stored[key], field.name
    else:
        for name in ("echo_target", "first_player", "active", "turn", "creche_out", "moved"):
            assert getattr(table, name) == public[name], name
        assert table.winner == public["winner"] and table.over == public["over"]
        assert len(table.boards) == len(public["boards"])
        pairs = [*zip(table.boards, public["boards"], strict=True)]
        pairs += [(table.units[r], u) for r, u in public["units"].items()]
        pairs += [(table.facilities[r], f) for r, f in public["facilities"].items()]
        assert set(table.units) == set(public["units"])
        assert set(table.facilities) == set(public["facilities"])
        for record, plain in pairs:
            for field in attrs.fields(type(record)):
                assert _plain(getattr(record, field.name)) == plain[field.name], field.name
        window, battle = public["window"], public["battle"]
        for field in attrs.fields(type(table.window)):  # each key the open window has
            if field.name in window:
                assert _plain(getattr(table.window, field.name)) == window[field.name], field.name
        assert table.window.name == window.get("name")
        assert (table.window.order is None) == ("order" not in window)
        assert (table.battle is None) == (not battle)
        for field in attrs.fields(type(table.battle)) if table.battle is not None else ():
            value = getattr(table.battle, field.name)
            if field.name == "area":
                assert (value or "") == battle["area"]
            elif field.name in battle:
                assert _plain(value) == battle[field.name], field.name


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_each_field_of_the_record_is_its_key_of_the_public_state_at_every_step(game: str) -> None:
    table = BotTable(game, PLAYERS[game], seed=3, bot="heuristic")
    seen_phases, casts = set(), 0
    for step, _ in enumerate(table.requests()):
        view = table.game.view(step % PLAYERS[game])
        record = view.table
        assert record is view.table  # made once per view
        _agrees(record, view.public, game)
        seen_phases.add(record.phase)
        casts += view.public.get("cast") is not None or bool(view.public.get("battle"))
    assert len(seen_phases) >= 2  # the game went through its phases
    assert casts or game == "reign"  # a cast, or a battle, was compared while under way
    final = table.game.view(None).table
    _agrees(final, table.game.view(None).public, game)
    assert final.over


def test_a_spectators_view_has_its_record_too_and_a_departed_seat_is_listed() -> None:
    table = BotTable("reign", 4, seed=5, bot="random")
    game = table.game
    for step, _ in enumerate(table.requests()):
        if step == 60:
            break
    assert game.view(None).table.players == 4 and not game.view(None).table.departed
    seat = next(s for s in range(4) if game.can_depart(s))
    game.depart(seat)
    view = game.view(None)
    assert seat in view.table.departed and view.public["departed"] == list(view.table.departed)
