"""Sodalis calls each seat one name (issue 31, the new-user run's N2): the player's, with the
champion beside it where one is chosen ("Blaise (the Tempest)"), in the log and the status
line as in the title and the Champions pane -- never the champion alone with a seat number."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fairtable.client.seat_names import SeatNames
from fairtable.client.sodalis.words import who

TABLE: Any = SimpleNamespace(
    seats=[SimpleNamespace(champion=c) for c in ("damned", "tempest", None)]
)


def test_a_seat_is_its_players_name_with_its_champion_beside() -> None:
    names = SeatNames(("Ann", "Blaise (heuristic)", "Cyra"), you=0)
    line = f"{who(TABLE, 1, 0)} cast Spark Leap on {who(TABLE, 0, 0)}"
    assert names.log_text(line) == "Blaise (the Tempest) cast Spark Leap on you"
    assert names.log_text(who(TABLE, 2, 0)) == "Cyra"  # no champion yet: the name alone
    # the status line keeps a bot's tag, but not two brackets in a row
    assert names.text(f"waiting for {who(TABLE, 1, 0)}") == "waiting for Blaise (the Tempest)"
    assert names.text("seat 1 is offline") == "Blaise (heuristic) is offline"
    unnamed = SeatNames((), you=0)
    assert unnamed.log_text(who(TABLE, 1, 0)) == "seat 1 (the Tempest)"
