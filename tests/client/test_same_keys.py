"""The same keys in all three games: Enter on an empty prompt answers with the highlighted
option (Up/Down move it); a line shown over the menu is only hidden by it; bare numbers
pick the option N everywhere except in Reign's card-by-card answers, where the decision's
first line says that N picks hand card N; and Reign's 'done' with nothing picked asks
before it passes."""

from __future__ import annotations

from typing import Any

import pytest

from fairtable.client.room import menu_lines
from fairtable.engine.requests import Decision
from tests.client import test_model as reign
from tests.client import test_sodalis_model as sodalis
from tests.client import test_sovereign_model as sovereign
from tests.client.screen import run_keys
from tests.engine.driver import Table


def reign_at(kinds: tuple[str, ...]) -> tuple[Any, list[Any]]:
    table = Table(4, seed=2, bots=["random"] * 4)
    while not (
        isinstance(table.truth.pending()[0], Decision) and table.truth.pending()[0].kind in kinds
    ):
        table.step()
    return reign.model_for(table, table.truth.pending()[0])


def models() -> list[tuple[Any, list[Any]]]:
    return [
        reign_at(("bid",)),
        sodalis.model_for(*sodalis.first_turn()),
        sovereign.model_for(*sovereign.first_forge()),
    ]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["reign", "sodalis", "sovereign"])
def test_enter_answers_with_the_highlighted_option_in_every_game(which: int) -> None:
    model, sent = models()[which]
    menu = model.menu()
    assert len(menu) >= 2
    run_keys(model, "\x1b[B" + "\r" + "\x11")  # Down, Enter, Ctrl-Q
    assert sent == [menu[1][1]]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["reign", "sodalis", "sovereign"])
def test_enter_after_card_text_only_hides_it(which: int) -> None:
    model, sent = models()[which]
    model.command("info #1")
    assert model.info
    model.command("")
    assert sent == [] and model.info == ""
    model.command("")
    assert sent == [model.menu()[0][1]]


def test_bare_numbers_are_explained_where_they_pick_hand_cards() -> None:
    model, _ = reign_at(("bid",))
    first = "".join(text for _, text in menu_lines(model)).split("\n")[0]
    assert "N picks hand card N" in first and "#N or Enter: an option" in first
    assert len(first) <= 80
    model, _ = reign_at(("draw",))
    first = "".join(text for _, text in menu_lines(model)).split("\n")[0]
    assert "type N or #N" in first
    for model, _ in models()[1:]:
        first = "".join(text for _, text in menu_lines(model)).split("\n")[0]
        assert "type N or #N, or Up/Down and Enter" in first and len(first) <= 80


def test_reign_done_with_nothing_picked_asks_before_passing() -> None:
    model, sent = reign_at(("bid",))
    model.command("done")
    assert sent == [] and "Nothing is picked: 'done' again passes" in model.message
    model.command("done")
    assert len(sent) == 1 and sent[0].count == 0


def test_reign_enter_with_cards_picked_sends_nothing_and_says_why() -> None:
    model, sent = reign_at(("bid",))
    military = [i for i, c in enumerate(model.hand(), start=1) if reign.DEFS[c].kind == "military"]
    model.command(str(military[0]))
    model.command("")
    assert sent == [] and "'done' sends them" in model.message
