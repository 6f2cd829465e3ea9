"""At 80x24 every hand card a decision names is on screen (issue 31): a Sovereign priority
window offering a reflex from the hand ("Shield Bash (hand 7)") keeps the hand's rows down
to that card while the log wants rows for what happened since our move (the menu, then the
log's earlier lines give them); when the terminal is too small for both, the log keeps its
lines and the hand says what it cut and that Esc shows it."""

from __future__ import annotations

from typing import Any

from fairtable.client.sovereign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignGame
from fairtable.engine.sovereign import answers as A
from tests.client.screen import render
from tests.client.test_sovereign_model import model_for, play


def _side(lines: list[str]) -> list[str]:
    """The side pane's rows: right of the upper panes' border, above the rule."""
    rule = next(i for i, row in enumerate(lines) if row.startswith("----"))
    return [row.split("|", 1)[1] for row in lines[:rule] if "|" in row]


def _busy(model: ClientModel, since: int) -> None:
    """Twenty lines before our last answer and ``since`` after it: the log wants rows."""
    model.log += [f"before {i}" for i in range(20)]
    model.log_mark = len(model.log)
    model.log += [f"since {i}" for i in range(since)]


def test_sovereign_window_reflex_names_a_hand_card_that_is_on_screen() -> None:
    checked: list[tuple[str, int]] = []
    top: list[int] = []  # the hand cards named at the windows drawn: ever further down

    def check(game: SovereignGame, d: Decision) -> None:
        if d.kind != "window" or len(game.view(d.seat).hand) <= max(top, default=0):
            return
        model, _ = model_for(game, d)
        if not any(isinstance(a, A.PlayReflex) for _, a in model.menu()):
            return
        named = model.hand_named()
        top.append(named)
        _busy(model, since=4)  # room for both
        lines = render(model)
        assert len(lines) == 24 and all(len(row) <= 80 for row in lines)
        side = _side(lines)
        numbered = [row for row in side if row[:1].isdigit()]
        assert len(numbered) >= named, "\n".join(lines)
        assert not any("more (" in row for row in side[: named + 1]), "\n".join(lines)
        assert "\n".join(lines).count("\nsince ") == 4, "\n".join(lines)
        model.log += [f"since {i}" for i in range(4, 10)]  # more than leaves room for both
        lines = render(model)
        if not lines[0].startswith("-- table hidden (Esc: back)"):  # else said on the rule
            side = _side(lines)
            if len([row for row in side if row[:1].isdigit()]) < named:  # cut, and said so
                said = side[-1].strip()  # the hand's cut by itself, and what shows it
                assert said.startswith("Hand") and said.endswith("(Esc shows them)"), said
        checked.append((d.kind, named))

    for seed in range(40):
        play(["heuristic", "heuristic"], seed, on_decision=check, round_limit=12)
        if max(top, default=0) >= 6:
            break
    assert checked and max(named for _, named in checked) >= 6, checked


def test_no_hand_card_named_leaves_the_menu_as_it_was() -> None:
    """A decision naming no hand card takes no rows for the hand (hand_named is 0)."""
    seen: list[Any] = []

    def check(game: SovereignGame, d: Decision) -> None:
        if seen or d.kind != "move":
            return
        model, _ = model_for(game, d)
        seen.append(model.hand_named())

    play(["heuristic", "heuristic"], 3, on_decision=check, round_limit=6)
    assert seen == [0]
