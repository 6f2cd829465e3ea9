"""The screen itself: keys typed into prompt_toolkit (pipe input, no terminal) reach the
model; the layout fits 80x24; F1 toggles help; q quits."""

from __future__ import annotations

from typing import Any

from fairtable.client.reign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.client.screen import run_keys
from tests.engine.driver import Table


def decision_model() -> tuple[ClientModel, list[Any], Table]:
    table = Table(3, seed=3, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    sent: list[Any] = []
    model = ClientModel(sent.append)
    model.apply_event(ev.Seated(seat=d.seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    return model, sent, table


def test_screen_typed_menu_choice_reaches_the_network_side() -> None:
    model, sent, table = decision_model()
    run_keys(model, "#1\rq\r")
    assert len(sent) == 1
    table.truth.copy().apply(sent[0])  # a legal answer


def test_screen_building_a_bid_card_by_card() -> None:
    model, sent, _ = decision_model()
    military = [
        i
        for i, c in enumerate(model.hand(), start=1)
        if c.split("-")[0] in {h for h in model.view.public["houses"]}
    ]  # type: ignore[union-attr]
    first = military[0]
    run_keys(model, f"{first}\r{first}\rpass\rq\r")  # pick, take back, then pass
    assert sent and sent[0].count == 0


def test_screen_f1_shows_help_and_illegal_input_is_refused() -> None:
    model, sent, _ = decision_model()
    run_keys(model, "\x1bOP" + "banana\rq\r")
    assert sent == [] and "Pick a card" in model.message


def test_screen_seven_players_at_80x24_the_table_says_what_it_leaves_out() -> None:
    from tests.client.screen import render

    table = Table(7, seed=2, bots=["random"] * 7)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model = ClientModel()
    model.apply_event(ev.Seated(seat=d.seat, players=7))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    small = render(model)
    assert len(small) == 24 and all(len(line) <= 80 for line in small)
    upper = [line.split("|")[0] for line in small[: small.index("-" * 80)]]
    assert upper[-1].startswith("+") and " more " in upper[-1]  # not cut silently
    large = "\n".join(render(model, 120, 40))
    assert "centre " in large and "piles " in large and " more (a taller" not in large


def test_screen_log_pages_skip_no_line_when_lines_wrap() -> None:
    """PgUp and PgDn page by the lines the pane showed: with long (wrapped) lines in the log,
    every line is on some page going back to the first and forward to the newest."""
    from fairtable.client.app import LogPane

    model, _, _ = decision_model()
    model.log.clear()
    for i in range(60):  # every third line wraps over two or three rows of 80 columns
        model.log.append(f"line {i} " + ("wrapped " * (12 * (i % 3)) if i % 3 else ""))
    pane = LogPane(model)
    assert pane.size()[0] < 20  # a pane shorter than the log: paging is needed
    seen = set(range(*pane.window(model.log_back)))
    while pane.window(model.log_back)[0] > 0:
        pane.scroll(1)
        seen |= set(range(*pane.window(model.log_back)))
    assert seen == set(range(60))
    seen = set(range(*pane.window(model.log_back)))
    while model.log_back:
        before = model.log_back
        pane.scroll(-1)
        assert model.log_back < before
        seen |= set(range(*pane.window(model.log_back)))
    assert seen == set(range(60))
    shown = "".join(text for _, text in pane.lines())
    assert "line 59" in shown and "newer" not in shown
