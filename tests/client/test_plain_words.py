"""Plain mode's lines name no screen key in any game (issue 30): every registered game is
played in plain lines at the first decision of each kind met in seeded games (played by the
rules' own random answers), at a table with an invite to show, with lines typed that bring
each kind of reply -- a word the decision does not take, a card typed wrong, 'info' alone,
'rules', 'i', 'resign', the status line ('clock') -- and then at the game's end (the message
saying how to leave, for a player, a spectator and a seeded game).  No line said names
F1/F2/F3, Esc, PgUp/PgDn, a Ctrl- key, the arrows, Enter or "Press q".

The message, decision, status and end lines are typed (client/help_parts): the screen's keys
are parts of their own, which plain mode says with its words or leaves out, so no sentence
is rewritten and a reworded one cannot bring a key in.  The same lines as the screen shows
them do name keys: the test reaches the sentences that carry them."""

from __future__ import annotations

import re

import pytest

from fairtable.client.games import model_for
from fairtable.client.help_parts import on_screen
from fairtable.client.plain import PlainSession
from fairtable.client.screen_model import ScreenModel
from fairtable.client.seeded import LEAVE_UNKEPT
from fairtable.engine.games import game_names
from fairtable.netplay import events as ev
from tests.client.test_plain_help import SCREEN_KEY, first_of_each_kind

KEY = re.compile(f"{SCREEN_KEY.pattern}|Press q")
"""A screen key's name, or the words that press one."""

TYPED = (
    "",  # the decision again
    "zzz",  # a word the decision does not take (F1 for help)
    "card 3>",  # a card with no seat after it (Reign: N>S)
    "card 3",  # a hand card where the decision picks none
    "done",  # nothing picked yet
    "info",  # how info is used (F2 on the screen)
    "info #1",
    "rules",  # the game in short (F3; Sovereign's summary names F2)
    "i",  # the invite again (copied, on the screen)
    "clock",  # the status line
    "resign",
    "no",
    "#999",
    "99",
    "skip",
    "skip",
)
"""Lines typed at a decision: each brings a reply of its own kind (a query of the panes,
'hand' and 'table', is left out: a Sovereign card's type and cost read "F3")."""

AT_THE_END = ("", "zzz", "clock", "resign", "i", "#1", "rules", "info")
"""Lines typed once the game is over."""


class Said:
    """Plain lines said, and the screen's own words for the same moments."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.screen: list[str] = []

    def session(self, model: ScreenModel) -> PlainSession:
        return PlainSession(model, self.lines.append)

    def typed(self, session: PlainSession, line: str) -> None:
        session.line(line)
        session.update()
        model = session.model
        self.screen += [model.message, model.decision_line(), model.info, model.status]

    def leaked(self) -> list[str]:
        return [line for line in self.lines if KEY.search(line)]


def _seated(game: str, seat: int, players: int, said: Said) -> PlainSession:
    model = model_for(game)
    session = said.session(model)
    model.apply_event(ev.TableOpen("fairtable://x", None))  # a table others can join
    session.update()
    said.screen.append(model.message)  # the invite copied (to a clipboard plain lines lack)
    model.apply_event(ev.Seated(seat=seat, players=players))
    session.update()
    return session


@pytest.mark.parametrize("game", game_names())
def test_plain_lines_at_every_decision_kind_and_the_end_name_no_screen_key(game: str) -> None:
    said = Said()
    asked = first_of_each_kind(game)
    assert asked
    for decision, view, seats in asked:
        session = _seated(game, decision.seat, seats, said)
        session.model.apply_event(ev.DecisionAsked(decision=decision, view=view))
        session.update()
        for line in TYPED:
            said.typed(session, line)
        session.model.end("Game over: seat 0 wins")
        session.update()
        for line in AT_THE_END:
            said.typed(session, line)
    assert said.lines and not said.leaked(), said.leaked()
    assert [line for line in said.screen if KEY.search(line)]  # the screen's words name keys


@pytest.mark.parametrize("who", ["spectator", "seeded"])
def test_plain_says_how_to_leave_a_game_watched_or_not_kept_without_a_key(who: str) -> None:
    said = Said()
    model = model_for("reign")
    session = said.session(model)
    model.spectating = who == "spectator"
    if who == "seeded":
        model.leave = LEAVE_UNKEPT
    model.apply_event(ev.Seated(seat=0, players=3))
    model.end("Game over: seat 1 wins")
    session.update()
    said.typed(session, "zzz")
    assert any(line.startswith("Type quit to leave.") for line in said.lines), said.lines
    assert not said.leaked()
    assert model.message.startswith("Press q to leave.")


def test_a_line_typed_in_parts_says_its_keys_on_the_screen_only() -> None:
    """What the screen and plain mode make of the same typed message."""
    model = model_for("reign")
    model.message = LEAVE_UNKEPT
    assert model.message == on_screen(LEAVE_UNKEPT) and model.message_parts == LEAVE_UNKEPT
    model.message = "Selection cleared."  # a line with no key in it is words alike
    assert model.message == model.message_parts == "Selection cleared."
