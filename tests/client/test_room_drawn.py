"""The screen's rows are worked out once a draw (client.room_drawn): however many panes ask
their rows and cuts while the layout draws, :func:`client.room.plan` runs once; outside a
draw (a key pressed) it is worked out anew from the model as it is then."""

from __future__ import annotations

from typing import Any

import pytest

from fairtable.client import room, room_drawn
from tests.client.screen import render
from tests.client.test_log_pane import busy_log
from tests.client.test_screen import decision_model


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every plan worked out from now on, counted (one item a plan)."""
    made: list[int] = []
    real = room.plan

    def plan(model: Any) -> room.Plan:
        made.append(1)
        return real(model)

    monkeypatch.setattr(room, "plan", plan)
    monkeypatch.setattr(room_drawn, "plan", plan)
    return made


@pytest.mark.parametrize(("size", "since"), [((80, 24), 0), ((80, 24), 30), ((120, 40), 8)])
def test_one_plan_a_draw(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], since: int
) -> None:
    model, _, _ = decision_model()
    busy_log(model, before=20, since=since)  # 30: the panes give the log rows, and say so
    made = _counted(monkeypatch)
    shown = render(model, *size)
    assert len(made) == 1, len(made)
    assert len(shown) == size[1]
    assert any(row.startswith("Decide (") for row in shown)  # every pane drew
    said = any("Esc shows them" in row or "table hidden" in row for row in shown)
    assert said == (since > 20)


def test_outside_a_draw_the_rows_are_the_models_now() -> None:
    model, _, _ = decision_model()
    busy_log(model, before=20, since=0)
    rows = room_drawn.DrawnRows(model)
    before = rows.plan()
    assert not before.for_log
    model.log.extend(f"since {i}" for i in range(30))  # lines arrive between two draws
    assert rows.plan() != before and rows.plan() == room.plan(model)
