"""Knowing the game from its screen: what wins and how far each seat is from it, a summary of
the game in our own words (``fairtable rules GAME``, ``rules`` or F3 on the screen), one name
for each Reign house everywhere, and game names in any case."""

from __future__ import annotations

import pytest

from fairtable.client import cli
from fairtable.client.reign.model import ClientModel
from fairtable.client.reign.words import card_label
from fairtable.client.rules_summary import summary
from fairtable.engine.games import game_names
from fairtable.netplay import events as ev
from tests.client.screen import render, run_keys
from tests.client.test_screen import decision_model


@pytest.mark.parametrize("game", game_names())
def test_fairtable_rules_prints_the_game_in_short_at_any_case(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["rules", game.title()]) == 0
    out = capsys.readouterr().out.rstrip("\n").split("\n")
    assert out == summary(game).split("\n")
    assert len(out) <= 22 and all(len(line) <= 76 for line in out)  # the overlay at 80x24
    assert any(line.startswith("Win:") for line in out)


def test_the_summaries_name_the_win_and_the_phases() -> None:
    assert "9 or more legitimacy" in summary("reign")
    for phase in ("Influence", "Plotting", "Combat", "Regent"):
        assert f" {phase}:" in summary("reign")
    assert "all three Tributes" in summary("sodalis")
    assert "Echo target (10; 12 at two players)" in summary("sovereign")
    for phase in ("Growth", "Upkeep", "Forge", "Battle", "Move", "Draw"):
        assert f" {phase}:" in summary("sovereign")


def test_an_unknown_game_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["rules", "chess"])
    assert stopped.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err


def test_game_names_in_any_case_and_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    args = cli.build_parser().parse_args(["simulate", "Reign"])
    assert args.game == "reign"
    assert cli.build_parser().parse_args(["host", "SODALIS", "--seats", "2"]).game == "sodalis"
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    assert stopped.value.code == 0 and capsys.readouterr().out.startswith("fairtable ")


def test_rules_on_the_screen_and_f3_show_the_summary_over_the_board() -> None:
    model, sent, _ = decision_model()
    model.command("rules")
    shown = "\n".join(render(model))
    assert "Reign: The Card Game, in short" in shown and "(Esc or F3 closes)" in shown
    model.command("#1")  # any line hides it (and is still the line it was)
    assert not model.show_rules and len(sent) == 1
    model2, _, _ = decision_model()
    run_keys(model2, "\x1bOR" + "q\r")  # F3
    assert model2.show_rules


def test_reign_names_a_house_one_way_and_shows_the_legitimacy_to_win() -> None:
    assert card_label("amber-quell-sellsword.1") == "Quell Sellsword [Quell 2]"
    model, _, _ = decision_model()
    shown = render(model, 120, 40)
    assert any(" L0/9 " in line for line in shown), shown
    assert any("win: Regent with 9+ L" in line for line in shown), shown
    assert not any("[amber" in line or "centre amber" in line for line in shown), shown
    bids = [label for label, _ in model.menu() if label.startswith("bid all ")]
    houses = {"Quell", "Essendel", "Varrow", "Oriel", "Morcant"}
    assert all(label.split()[2].rstrip(":") in houses for label in bids), bids


def test_sodalis_shows_the_tributes_each_team_holds_of_the_three_that_win() -> None:
    from tests.client.test_sodalis_screen import turn_model

    model = turn_model()[0]
    assert any("3 Tributes win: Dawn 0, Dusk 0" in line for line in render(model))


def test_a_spectator_model_has_the_rules_too() -> None:
    model = ClientModel()
    model.apply_event(ev.PlayerNames(names=()))
    model.command("rules")
    assert model.show_rules


def test_reign_log_lines_call_a_house_by_its_name() -> None:
    from fairtable.client.reign.words import describe_public_event
    from fairtable.engine.reign import events as E

    assert describe_public_event(E.SupportGained(1, "amber"), 0) == (
        "seat 1 gained the support of House Quell"
    )
    assert describe_public_event(E.Houses(["amber", "ivory"]), 0) == (
        "Houses in play: Quell, Oriel"
    )
