"""The in-game words a new user still tripped on (issue 31, the new-user run's S12): the help
of a game against our own bots only names no invite key (there is nobody to invite), and a
new decision says "your move" once, on the status line; F1's help pages (S3); Sovereign's
title fits its pane (S9)."""

from __future__ import annotations

from typing import Any

import pytest

from fairtable.client.help_pages import help_page, page_step
from fairtable.client.play import model_for
from fairtable.client.room import side_width
from fairtable.client.screen_model import INVITE_HELP
from fairtable.client.sovereign.panes import header
from fairtable.engine.games import rules
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import events as ev
from tests.client.screen import render

GAMES = ["reign", "sodalis", "sovereign", "highcard"]


def _asked(game: str, *, all_bots: bool, invite: str = "") -> Any:
    """A model of seat 0, told its first decision (the game played on to one, by the rules'
    own random answers, where seat 0 is not asked first)."""
    model = model_for(game)
    model.all_bots = all_bots
    if invite:
        model.apply_event(ev.TableOpen(invite, None))
    seats = min(rules(game).seat_counts)
    truth = rules(game).new_game(seats)
    model.apply_event(ev.Seated(seat=0, players=seats))
    referee, stream = Referee(1), ChanceStream.from_int(1)
    while True:
        request = truth.pending()[0]
        if isinstance(request, Decision) and request.seat == 0:
            model.apply_event(ev.DecisionAsked(decision=request, view=truth.view(0)))
            return model
        if isinstance(request, Decision):
            truth.apply(rules(game).random_answer(truth.view(request.seat), request, stream))
        else:
            truth.apply(referee.answer(truth, request))


@pytest.mark.parametrize("game", GAMES)
def test_help_against_our_own_bots_names_no_invite_key(game: str) -> None:
    alone = _asked(game, all_bots=True)
    hosting = _asked(game, all_bots=False, invite="fairtable://x")
    assert "join code" not in alone.help_text() and "'i'" not in alone.help_text()
    assert INVITE_HELP in hosting.help_text()


@pytest.mark.parametrize("game", GAMES)
def test_a_new_decision_says_your_move_once(game: str) -> None:
    model = _asked(game, all_bots=True)
    said = f"{model.status} {model.message}".lower()
    assert said.count("your move") == 1, said
    assert model.decision is not None
    assert model.decision.kind.replace("_", " ") in model.status


def test_a_long_help_shows_a_page_at_a_time_and_says_what_is_above_and_below() -> None:
    """S3: the help is paged (PgUp/PgDn), never cut beyond reach; text that fits is whole."""
    text = "\n".join(f"line {n}" for n in range(10))
    assert help_page(text, 10, 80, 0) == (text, 0) and help_page(text, 10**4, 80, 5) == (text, 5)
    first, top = help_page(text, 4, 80, 0)
    assert (first.split("\n"), top) == (["line 0", "line 1", "line 2", "(+7 more: PgDn)"], 0)
    middle, top = help_page(text, 4, 80, page_step(4))
    assert middle.split("\n")[-1] == "(+2 above: PgUp, +5 more: PgDn)" and top == 2
    last, top = help_page(text, 4, 80, 99)  # past the end: the last page
    assert last.split("\n") == [
        "line 7",
        "line 8",
        "line 9",
        "(+7 above: PgUp; the end of the help)",
    ]
    assert top == 7 and help_page(text, 4, 80, -3)[1] == 0


def test_sovereign_title_fits_its_pane_at_80_columns_in_words_that_read() -> None:
    """S9: the table pane's title wrapped at 80 columns ("R4/60 turn 7: root 2's battle
    (battle|  end)") and read "your between (between turns)".  Through a whole game between
    'root' and a bot, each seat's title (names as the screen shows them) is one row of the
    table pane (41 columns at 80), and says 'between turns' for the phase between turns."""
    width = 80 - side_width() - 1
    assert width == 41
    truth = rules("sovereign").new_game(2)
    models = {}
    for seat in (0, 1):
        model = model_for("sovereign")
        model.apply_event(ev.Seated(seat=seat, players=2, names=("root", "Ada (heuristic)")))
        models[seat] = model
    referee, stream = Referee(3), ChanceStream.from_int(3)
    titles: set[str] = set()
    while not truth.over:
        for seat, model in models.items():
            model.apply_event(ev.ViewChanged(view=truth.view(seat)))
            title = model.names.text(header(model))
            assert len(title) <= width and "your between" not in title, title
            assert "between" not in model.status or "between turns" in model.status
            titles.add(title.split(", ", 1)[-1])
        request = truth.pending()[0]
        if isinstance(request, Decision):
            truth.apply(rules("sovereign").random_answer(truth.view(request.seat), request, stream))
        else:
            truth.apply(referee.answer(truth, request))
    assert {"you: between turns", "Ada: between turns"} <= titles, sorted(titles)


def test_a_sodalis_joiner_sees_the_arena_and_whom_it_waits_for_before_the_first_step() -> None:
    """S6: a 4-seat joiner's screen had an empty Champions pane and no arena until the host
    answered its first setup decision.  Drawn at 80x24: the arena (public from the start)
    and, in the Champions pane, whom the setting up waits for."""
    model = model_for("sodalis")
    model.apply_event(ev.LobbyUpdate(seated=4, seats=4))
    model.apply_event(ev.Seated(seat=2, players=4, names=("root", "", "", "")))
    model.apply_event(ev.WaitingFor(seats=[0]))
    rows = render(model)
    shown = "\n".join(rows)
    assert "Sodalis - setting up: the arena" in rows[0] and "Champions" in rows[0]
    assert "P Paragon" in shown and "# impassable" in shown and "* Dawn Artif." in shown
    assert "waiting for root" in shown, shown  # in the pane itself, by name
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
