"""The node's typed events and their one JSON form: the ``--json`` lines stay exactly what
they were when the node emitted dicts (docs/netplay.md lists them; scripts parse them)."""

from __future__ import annotations

import attrs
import pytest

from fairtable import netplay
from fairtable.engine.events import Departed, FirstPlayer
from fairtable.engine.outcome import Outcome
from fairtable.netplay import LobbyId
from fairtable.netplay import events as ev
from fairtable.protocol import Leavers, SeenWhy, TableId, TimeLimits


def test_json_lines_are_the_documented_ones_byte_for_byte() -> None:
    lines = [
        (
            ev.TableOpen("INV", TimeLimits(0, 0, 1), "7-a-b"),
            '{"clock":{"abandon_ms":1,"bank_ms":0,"increment_ms":0},"code":"7-a-b",'
            '"event":"table_open","invite":"INV","leavers":"end"}',
        ),
        (
            ev.TableOpen("INV", None),
            '{"clock":null,"event":"table_open","invite":"INV","leavers":"end"}',
        ),
        (
            ev.TableOpen("INV", None, leavers=Leavers.GO_ON),
            '{"clock":null,"event":"table_open","invite":"INV","leavers":"go-on"}',
        ),
        (ev.Joining("INV"), '{"event":"joining","invite":"INV","leavers":"end"}'),
        (
            ev.Joining("INV", Leavers.GO_ON),
            '{"event":"joining","invite":"INV","leavers":"go-on"}',
        ),
        (
            ev.Seated(1, 3, TableId(b"\xab"), False, None),
            '{"clock":null,"event":"seated","leavers":"end","names":[],"players":3,'
            '"resumed":false,"seat":1,"table":"ab"}',
        ),
        (
            ev.Seated(1, 3, TableId(b"\xab"), True, None, 5.5, ("Ann", "", "Bob")),
            '{"at":5.5,"clock":null,"event":"seated","leavers":"end","names":["Ann","","Bob"],'
            '"players":3,"resumed":true,"seat":1,"table":"ab"}',
        ),
        (ev.PlayerNames(("Ann", "", "")), '{"event":"names","names":["Ann","",""]}'),
        (
            ev.GameOver(Outcome.seat(2), "d1", "score"),
            '{"digest":"d1","end":"score","event":"game_over","winner":2}',
        ),
        (
            ev.GameOver(Outcome.seat(1), "d1", None),
            '{"digest":"d1","end":null,"event":"game_over","winner":1}',
        ),
        (
            ev.GameOver(Outcome.of_team("dusk", (1, 3)), "d1", "tribute"),
            '{"digest":"d1","end":"tribute","event":"game_over","winner":"dusk"}',
        ),
        (
            ev.GameOver(
                Outcome.nobody(),
                "d1",
                None,
                ev.GameStats(2.5, 3, 10, ((3, 1.25, "bid"),), ((3, 1.5),)),
            ),
            '{"digest":"d1","end":null,"event":"game_over","stats":{"applied":{"3":1.5},"at":2.5,'
            '"bytes":10,"decided":{"3":[1.25,"bid"]},"messages":3},"winner":null}',
        ),
        (
            ev.ClockReadings(
                [ev.ClockReading(2, 9.0, False, None), ev.ClockReading(0, None, True, 3.5)]
            ),
            '{"event":"clock","seats":[{"ends_in":null,"left":9.0,"offline":false,"seat":2},'
            '{"ends_in":3.5,"left":null,"offline":true,"seat":0}]}',
        ),
        (
            ev.Verdict(None, "starved", "why"),
            '{"event":"verdict","kind":"starved","reason":"why","seat":null}',
        ),
        (
            ev.Resuming(LobbyId(b"\x0f"), "reign", "lobby", 12, None),
            '{"event":"resuming","game":"reign","round":null,"started":12,"status":"lobby",'
            '"table":"0f"}',
        ),
        (
            ev.TimeClaim(0, 1, "out-of-time", "r", None),
            '{"by":0,"event":"time_claim","kind":"out-of-time","left":null,"reason":"r","seat":1}',
        ),
        (
            ev.Unreachable("h:1", "timed out", 2, 0.5),
            '{"address":"h:1","attempt":2,"event":"unreachable","retry_in":0.5,"why":"timed out"}',
        ),
        (ev.JoinCodeUsed(), '{"event":"code_used"}'),
        (
            ev.RelayOpen(9, 2, 0, "a2V5"),
            '{"dropped":0,"event":"relay_open","key":"a2V5","port":9,"tables":2}',
        ),
        (ev.SeatOffline(2), '{"event":"offline","seat":2}'),
        (ev.StepDone(41), '{"event":"applied","step":41}'),
        (ev.Asked(42, True), '{"alone":true,"event":"asked","step":42}'),
        (ev.SeatOnline(2), '{"event":"online","seat":2}'),
        (
            ev.ViewChanged({"round": 1}, [FirstPlayer(2), Departed(1, 3)]),
            '{"event":"view","events":[["first_player",2],["departed",1,3]],"view":{"round":1}}',
        ),
        (
            ev.CardsShown(["a", "b"], SeenWhy.REHANDLED),
            '{"cards":["a","b"],"event":"cards_seen","why":"re-handled"}',
        ),
        (ev.CardsShown(["c"], "dealt"), '{"cards":["c"],"event":"cards_seen","why":"dealt"}'),
    ]
    for event, line in lines:
        assert netplay.event_line(event) == line


def test_a_view_change_carries_the_games_records_and_writes_their_stored_tuples() -> None:
    """A screen gets the typed records the engine returned; only JSON turns them back into
    the stored tuples ``(KIND, *fields)`` logs and digests hold."""
    told = ev.ViewChanged(None, [FirstPlayer(0)])
    assert told.events == (FirstPlayer(0),)
    assert ev.event_json(told)["events"] == (("first_player", 0),)


def test_why_cards_are_seen_is_a_member_written_as_its_word() -> None:
    assert ev.CardsShown(["c"], "peeked").why is SeenWhy.PEEKED
    assert [str(why) for why in SeenWhy] == ["dealt", "handed", "peeked", "re-handled"]
    with pytest.raises(ValueError, match="glimpsed"):
        ev.CardsShown(["c"], "glimpsed")


def test_every_event_class_has_its_own_name_and_is_frozen() -> None:
    names = [cls.EVENT for cls in ev.EVENT_CLASSES.values()]
    assert len(names) == len(set(names)) == len(ev.EVENT_CLASSES)
    for name, cls in ev.EVENT_CLASSES.items():
        assert name == cls.EVENT and attrs.has(cls) and cls.__name__ in netplay.__all__
    event = ev.Abandoned(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.seat = 2  # type: ignore[misc]
    assert event.seat == 1


def test_netplay_faces_every_event_by_the_events_modules_own_list() -> None:
    """netplay's public face takes the events module's ``__all__`` as it is (not a copy kept
    in step by hand): every event class is named there, and each name is the class itself."""
    assert {cls.__name__ for cls in ev.EVENT_CLASSES.values()} <= set(ev.__all__)
    assert set(ev.__all__) <= set(netplay.__all__)
    assert len(netplay.__all__) == len(set(netplay.__all__))
    for name in ev.__all__:
        assert getattr(netplay, name) is getattr(ev, name)
