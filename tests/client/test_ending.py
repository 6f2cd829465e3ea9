"""The end of a game on every game's screen model: shown the moment the network side reports
it (the result, the decision gone, nothing stale), then what to do next -- the same words in
every game -- on the screen and printed after quitting."""

from __future__ import annotations

from typing import Any

import pytest

from fairtable.client import ending
from fairtable.client.help_parts import on_screen
from fairtable.client.netcli import describe
from fairtable.client.seat_names import SeatNames
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.client import test_sodalis_model as sodalis
from tests.client import test_sovereign_model as sovereign
from tests.client.screen import render
from tests.engine.driver import Table

SAVED = "/data/tables/0123abcd"


def asked(game: str) -> tuple[Any, list[Any]]:
    """A ``game`` model at a decision, told where the game is saved; what it sends."""
    if game == "reign":
        from fairtable.client.reign.model import ClientModel

        table = Table(3, seed=3, bots=["random"] * 3)
        while not isinstance(table.truth.pending()[0], Decision):
            table.step()
        d = table.truth.pending()[0]
        assert isinstance(d, Decision)
        sent: list[Any] = []
        model = ClientModel(sent.append)
        model.apply_event(ev.Seated(seat=d.seat, players=3))
        model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    elif game == "sodalis":
        model, sent = sodalis.model_for(*sodalis.first_turn())
    else:
        model, sent = sovereign.model_for(*sovereign.first_forge())
    model.apply_event(ev.FolderKnown(path=SAVED))
    return model, sent


GAMES = ["reign", "sodalis", "sovereign"]


def shows_the_end_and_what_next(model: Any, result: str) -> None:
    assert model.over.startswith(result), model.over
    assert model.decision is None and model.menu() == []
    assert model.message_parts == ending.LEAVE  # nothing stale: not "Sent; waiting..."
    assert model.status.endswith("q to leave") and len(model.status) <= 78
    assert model.status.startswith(model.over[:40])
    assert list(model.log)[-2:] == [model.over, ending.saved_line(SAVED)]
    drawn = "\n".join(render(model))
    assert (
        on_screen(ending.LEAVE) in drawn
        and "Sent; waiting" not in drawn
        and "Decide (" not in drawn
    )
    assert "q to leave" in drawn


@pytest.mark.parametrize("game", GAMES)
def test_ending_the_result_replaces_a_sent_answer_at_once(game: str) -> None:
    model, sent = asked(game)
    model.command("#1")
    assert len(sent) == 1 and model.message.startswith("Sent; waiting")
    model.answered()
    model.apply_event(ev.GameOver(Outcome.nobody(), digest="ab", end="limit"))
    shows_the_end_and_what_next(model, "Game over: nobody")
    model.command("#1")  # typing after the end sends nothing and says what to do next
    assert len(sent) == 1 and model.message_parts == ending.LEAVE
    printed = ending.after_screen(model, "Game kept.")
    assert printed == f"{model.over}\n{ending.saved_line(SAVED)}"


@pytest.mark.parametrize("game", GAMES)
def test_ending_the_winner_is_named_and_a_pending_decision_closes(game: str) -> None:
    model, sent = asked(game)
    assert model.seat is not None
    won = Outcome.of_team("dawn", (0,)) if game == "sodalis" else Outcome.seat(model.seat)
    model.apply_event(ev.GameOver(won, digest="ab", end="won"))
    shows_the_end_and_what_next(model, "Game over:")
    assert "win" in model.over and sent == []


@pytest.mark.parametrize("game", GAMES)
def test_ending_a_verdict_names_the_blamed_seat_and_its_reason(game: str) -> None:
    model, sent = asked(game)
    model.apply_event(ev.Verdict(seat=1, kind="bad-proof", reason="the proof does not verify"))
    shows_the_end_and_what_next(model, "The game stopped:")
    assert "seat 1" in model.over and "bad-proof" in model.over
    assert "the proof does not verify" in model.over


@pytest.mark.parametrize("game", GAMES)
def test_ending_an_abandoned_game_says_who_never_came_back_and_why(game: str) -> None:
    model, sent = asked(game)
    model.apply_event(ev.Abandoned(seat=2))
    model.apply_event(ev.Verdict(seat=2, kind="timeout", reason="seat 2 did not answer in time"))
    shows_the_end_and_what_next(model, "The game is abandoned:")
    assert "seat 2 never came back" in model.over and "did not answer in time" in model.over


def test_ending_told_where_the_game_is_saved_only_after_the_end_still_names_it() -> None:
    model, _ = asked("reign")  # a restarted peer replays a finished game before it is told
    model.saved = ""
    model.apply_event(ev.GameOver(Outcome.seat(1), digest="ab", end="won"))
    model.apply_event(ev.FolderKnown(path=SAVED))
    assert list(model.log)[-1] == ending.saved_line(SAVED) and model.message_parts == ending.LEAVE


def test_ending_a_game_not_over_prints_how_to_go_on() -> None:
    model, _ = asked("reign")
    assert ending.after_screen(model, "Game kept.") == "Game kept."


def test_ending_while_we_stay_for_seats_that_may_lack_the_last_moves_the_log_says_so() -> None:
    model, _ = asked("reign")
    model.names = SeatNames(["", "Ann", ""])
    model.apply_event(ev.GameOver(Outcome.seat(1), digest="ab", end="won"))
    model.apply_event(ev.Staying(seats=[1, 2], seconds=120))
    assert model.log_shown()[-1] == (
        "Staying until Ann and seat 2 have the last moves (up to 120 s; q leaves now)"
    )
    assert model.message_parts == ending.LEAVE  # leaving stays allowed


def test_the_terminal_line_while_we_stay_names_the_key_that_leaves() -> None:
    assert describe(ev.Staying(seats=[2], seconds=600)) == (
        "Staying until seat 2 has the last moves (up to 600 s; Ctrl-C leaves now)"
    )


def test_ending_printed_after_the_screen_names_the_winner_as_the_screen_did() -> None:
    """Issue 31: the line printed after quitting said "seat 2 wins" where the screen said
    "Edda (random) wins"."""
    model, _sent = asked("reign")
    model.apply_event(ev.PlayerNames(names=("Ada", "Bea", "Edda (random)")))
    winner = next(s for s in range(3) if s != model.seat)
    model.apply_event(ev.GameOver(Outcome.seat(winner), digest="ab", end="won"))
    name = ("Ada", "Bea", "Edda (random)")[winner]
    assert ending.after_screen(model, "Game kept.").startswith(f"Game over: {name} wins")
