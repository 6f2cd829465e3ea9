"""Typed events: every record gives exactly today's stored tuple, and back."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import attrs
import pytest

from fairtable.engine.events import Event, EventParser, UnknownEvent
from fairtable.engine.reign import events as reign_events
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import events as sodalis_events
from fairtable.engine.sodalis.cards import Action
from fairtable.engine.sodalis.team import Team, Tribute
from fairtable.engine.sovereign import events as sovereign_events
from tests.bot_games import BotTable

MODULES = {"reign": reign_events, "sodalis": sodalis_events, "sovereign": sovereign_events}
PLAYERS = {"reign": (3, 5), "sodalis": (2, 4), "sovereign": (2, 4)}

SAMPLES: dict[str, Any] = {
    "int": 3,
    "str": "crimson",
    "bool": True,
    "int | None": None,
    "str | None": None,
    "Action | None": None,  # a word or nothing: the word's case is tested on its own below
    "LifeWhy | None": None,
    "tuple[int, ...]": (2, 0),
    "tuple[str, ...]": ("a", "b"),
    "tuple[tuple[int, int], ...]": ((0, 2), (1, 1)),
}
"""A value of each field type the records use (annotations are strings here)."""

STORED: dict[str, Any] = {
    "tuple[int, ...]": [2, 0],
    "tuple[str, ...]": ["a", "b"],
    "tuple[tuple[int, int], ...]": [[0, 2], [1, 1]],
}
"""The same values as the stored tuple holds them: sequences are lists."""


def _sample(field: Any) -> Any:
    """A value of the field: a game word's field (its converter is the word's StrEnum)
    takes its first member."""
    if isinstance(field.converter, type) and issubclass(field.converter, StrEnum):
        return next(iter(field.converter))
    return SAMPLES[field.type]


def _word(value: Any) -> Any:
    """A stored tuple holds a word as the plain text (a member is a str subclass)."""
    return value.value if isinstance(value, StrEnum) else value


def _every_event() -> list[type[Event]]:
    return [kind for module in MODULES.values() for kind in module.EVENTS]


@pytest.mark.parametrize("kind", _every_event(), ids=lambda k: f"{k.__module__}.{k.__name__}")
def test_an_event_is_its_stored_tuple_and_back(kind: type[Event]) -> None:
    fields = attrs.fields(kind)
    event = kind(*(_sample(f) for f in fields))
    stored = event.as_tuple()
    expected = (kind.KIND, *(STORED.get(f.type, _word(_sample(f))) for f in fields))
    assert repr(stored) == repr(expected)  # repr: a list is not a tuple here
    assert kind.from_tuple(stored) == event


@pytest.mark.parametrize("game", sorted(MODULES))
def test_each_game_names_each_event_kind_once(game: str) -> None:
    kinds = [k.KIND for k in MODULES[game].EVENTS]
    assert len(set(kinds)) == len(kinds)
    assert set(MODULES[game].PARSER.kinds) == set(kinds)


@pytest.mark.parametrize("game", sorted(MODULES))
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_every_logged_event_parses_back_to_the_same_tuple(game: str, bot: str) -> None:
    parser: EventParser = MODULES[game].PARSER
    for players in PLAYERS[game]:
        table = BotTable(game, players, seed=11, bot=bot)
        for _ in table.requests():
            pass
        events = table.game.state.stored_events()
        assert events
        for stored in events:
            assert repr(parser.parse(stored).as_tuple()) == repr(stored)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_the_log_holds_immutable_records_that_apply_returned_and_copies_share(game: str) -> None:
    table = BotTable(game, PLAYERS[game][0], seed=5, bot="random")
    returned: list[Event] = []
    while not table.game.over:
        request = table.game.pending()[0]
        if isinstance(request, Decision):
            answer = table.bots[request.seat].decide(table.game.view(request.seat), request)
        else:
            answer = table.referee.answer(table.game, request)
        returned.extend(table.game.apply(answer))
    logged = table.game.state.events
    assert logged and returned == logged[len(logged) - len(returned) :]
    for e in logged:
        hash(e)  # a frozen record of tuples all the way down: safe to share
    twin = table.game.copy()
    assert twin.state.events == logged and twin.state.events is not logged
    assert all(a is b for a, b in zip(twin.state.events, logged, strict=True))


def test_a_tuple_of_no_kind_or_the_wrong_length_is_refused() -> None:
    parser = reign_events.PARSER
    with pytest.raises(UnknownEvent):
        parser.parse(("no_such_event", 1))
    with pytest.raises(UnknownEvent):
        parser.parse(("bid", 1))
    with pytest.raises(UnknownEvent):
        parser.parse(())
    with pytest.raises(UnknownEvent):
        reign_events.Bid.from_tuple(("overt_pass", 1))


def test_a_stored_word_naming_no_member_is_an_unknown_event() -> None:
    with pytest.raises(UnknownEvent, match="attic"):
        sovereign_events.PARSER.parse(("breach", 0, 1, "attic", 2))
    with pytest.raises(UnknownEvent, match="noon"):
        sodalis_events.PARSER.parse(("won", "noon"))
    with pytest.raises(UnknownEvent, match="nap"):
        sodalis_events.PARSER.parse(("strength_refresh", "dawn", 1, "nap"))


def test_a_word_or_nothing_is_the_member_or_none_and_stored_as_before() -> None:
    refreshed = sodalis_events.PARSER.parse(("strength_refresh", "dusk", 1, "minor"))
    assert refreshed == sodalis_events.StrengthRefresh(Team.DUSK, 1, Action.MINOR)
    assert isinstance(refreshed, sodalis_events.StrengthRefresh)
    assert type(refreshed.token) is Action and type(refreshed.team) is Team
    assert repr(refreshed.as_tuple()) == repr(("strength_refresh", "dusk", 1, "minor"))
    declined = sodalis_events.StrengthRefresh(Team.DAWN, None, None)
    assert declined.as_tuple() == ("strength_refresh", "dawn", None, None)
    life = sodalis_events.PARSER.parse(("life", 2, 5, 3, "recoil"))
    assert isinstance(life, sodalis_events.Life) and life.why is sodalis_events.LifeWhy.RECOIL
    moved = sodalis_events.PARSER.parse(("moved", 1, [0, 0], [1, 0], "push"))
    assert isinstance(moved, sodalis_events.Moved) and moved.why is sodalis_events.MoveWhy.PUSH
    assert repr(moved.as_tuple()) == repr(("moved", 1, [0, 0], [1, 0], "push"))
    given = sodalis_events.PARSER.parse(("tribute", "dawn", "sight", 2))
    assert isinstance(given, sodalis_events.Tribute) and given.tribute is Tribute.SIGHT
