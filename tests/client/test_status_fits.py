"""The status line at 80 columns names the seats the table waits for without being cut
silently (issue 31, the new-user run's N8): names lose their bot tags first, and whatever
still does not fit ends with a mark that says so."""

from __future__ import annotations

from fairtable.client.reign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.client.screen import render
from tests.engine.driver import Table

NAMES = tuple(f"{n} (heuristic)" for n in ("Blaise", "Ada", "Cyra", "Dario", "Eve"))


def _waiting(names: tuple[str, ...]) -> tuple[ClientModel, str]:
    table = Table(5, seed=3, bots=["random"] * 5)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    me = (table.truth.pending()[0].seat + 1) % 5  # not the seat asked: we wait
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Seated(seat=me, players=5, names=names))
    model.apply_event(ev.ViewChanged(view=table.truth.view(me)))
    model.apply_event(ev.WaitingFor(seats=[s for s in range(5) if s != me]))
    rows = render(model, 80, 24)
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
    return model, next(row for row in rows if "waiting for" in row)


def test_the_status_line_drops_bot_tags_before_it_would_cut_names() -> None:
    model, row = _waiting(NAMES)
    others = [n.removesuffix(" (heuristic)") for i, n in enumerate(NAMES) if i != model.seat]
    assert "waiting for " + ", ".join(others) in row, row
    assert "(heuri" not in row


def test_a_status_line_too_long_still_ends_with_a_mark() -> None:
    long = tuple(f"Player{i} Longname-{i}{i}{i}{i}{i}" for i in range(5))
    _, row = _waiting(long)
    assert row.rstrip().endswith("…"), row
