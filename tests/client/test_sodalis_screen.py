"""The Sodalis screen: keys typed into prompt_toolkit (pipe input, no terminal) reach the model;
the arena and side panes fit 80x24 and draw every space where ``text_positions`` puts it;
F1 toggles help; q quits.  And ``--round-limit`` reaches the node's configuration."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fairtable.client import cli, play
from fairtable.client.sodalis.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import SodalisGame
from fairtable.engine.sodalis.arena import standard_arena
from tests.client import games
from tests.client.screen import render, run_keys
from tests.client.test_sodalis_model import first_turn, model_for


def turn_model() -> tuple[ClientModel, list[Any], SodalisGame, Decision]:
    game, d = first_turn()
    return (*model_for(game, d), game, d)


def test_screen_typed_menu_choice_reaches_the_network_side() -> None:
    model, sent, game, _ = turn_model()
    games.check_menu_choice_reaches_the_network_side(model, sent, game)


def test_screen_shortcuts_end_and_cast_are_typed_keys() -> None:
    model, sent, game, d = turn_model()
    run_keys(model, "end\rq\r")
    assert [type(a).__name__ for a in sent] == ["EndTurn"]
    model, sent, game, d = turn_model()
    card, plain, _, _ = next(o for o in d.info.casts if o[1])
    me = game.public()["seats"][d.seat]
    index = ([c for c in me["side"] if c] + [me["top"]]).index(card) + 1
    target = "" if plain[0] is None else " p" if plain[0] == -1 else f" {plain[0]}"
    run_keys(model, f"cast {index}{target}\rq\r")
    assert len(sent) == 1 and sent[0].card == card
    game.copy().apply(sent[0])


def test_screen_f1_shows_help_and_illegal_input_is_refused() -> None:
    model, sent, _, _ = turn_model()
    games.check_f1_shows_help_and_illegal_input_is_refused(model, sent, "go DIR")


def test_screen_fits_80x24_and_draws_the_arena_from_text_positions() -> None:
    model, _, game, d = turn_model()
    lines = render(model)
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    arena = standard_arena()
    pub = game.public()
    units = {tuple(s["at"]): s for s in pub["seats"]}
    symbols = {c.id: c.symbol for c in game.state.catalog.champions}
    for space, row, col in arena.text_positions():  # one row down: the title line
        char = lines[1 + row][col // 2]
        if space in units:
            assert char == symbols[units[space]["champion"]]
        elif space == arena.paragon:
            assert char == "P"
        elif space in arena.impassable:
            assert char == "#"
        elif space == arena.centre:
            assert char == "+"
        elif space == model.highlighted_space():
            assert char == "@"  # the highlighted move, marked
        elif space in model.option_spaces():  # another option's space: its number
            assert char == str(model.option_spaces()[space])
        else:
            assert char in ".:*o"
    screen = "\n".join(lines)
    assert "Sodalis - round 1/3" in lines[0] and "your turn" in lines[0]
    assert ">" + symbols[pub["seats"][d.seat]["champion"]] + " you" in screen  # side pane
    me = pub["seats"][d.seat]
    spread = [c for c in me["side"] if c] + [me["top"]]
    for i, card in enumerate(spread, start=1):  # the spread, under the champions
        assert f"{i} {game.state.catalog.face(card).name[:12]}" in screen
    assert "#1 " in screen and "(suggested)" in screen
    assert "your move: turn" in lines[-3]  # above the prompt and the key hints


def test_screen_reversals_list_the_arcana_to_flip(tmp_path: Path) -> None:
    found: list[tuple[SodalisGame, Decision]] = []
    from tests.client.test_sodalis_model import play as run

    run(
        4,
        0,
        ["random"] * 4,
        round_limit=1,
        on_decision=lambda g, q: found.append((g.copy(), q)) if q.kind == "reversals" else None,
    )
    game, d = found[0]
    model, sent = model_for(game, d)
    lines = render(model)
    names = [game.state.catalog.arcana[a].front.name for a in d.info.arcana]
    assert all(any(f"{i} {n}" in line for line in lines) for i, n in enumerate(names, 1))
    model.command("info 2")  # the arcana numbered for flip, not the (empty) spread
    assert model.info.startswith(f"{names[1]}/") and "Reversed:" in model.info
    run_keys(model, "flip 1 2\rq\r")
    assert sent and sent[0].reversed == tuple(sorted(d.info.arcana[:2]))


def test_round_limit_reaches_the_node_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(play, "_network", lambda data_dir, **kw: seen.update(kw))
    monkeypatch.setattr(play, "_run_screen", lambda model, network: seen.update(model=model))
    monkeypatch.setattr(play, "require_terminal", lambda command, instead: None)  # no screen
    assert (
        cli.main(
            ["play", "sodalis", "--bots", "1", "--round-limit", "3", "--data-dir", str(tmp_path)]
        )
        == 0
    )
    assert seen["options"].round_limit == 3 and isinstance(seen["model"], ClientModel)
    assert (
        cli.main(
            ["host", "sodalis", "--seats", "2", "--round-limit", "5", "--data-dir", str(tmp_path)]
        )
        == 0
    )
    assert seen["options"].round_limit == 5 and seen["brings"] is None  # no --deck
    assert (
        cli.main(
            ["play", "sodalis", "--bots", "1", "--round-limit", "-1", "--data-dir", str(tmp_path)]
        )
        == 2
    )
    assert (
        cli.main(
            ["host", "sodalis", "--seats", "2", "--round-limit", "-2", "--data-dir", str(tmp_path)]
        )
        == 2
    )


def test_screen_at_80x24_shows_eight_options_even_with_a_full_log() -> None:
    model, _, _, _ = turn_model()
    games.fill_log(model)
    menu = model.menu()
    assert len(menu) > 8
    games.check_eight_options_and_the_newest_log_line("\n".join(render(model)), menu)
