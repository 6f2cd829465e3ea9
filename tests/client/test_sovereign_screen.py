"""The Sovereign screen: keys typed into prompt_toolkit (pipe input, no terminal) reach the
model; the table and side panes fit 80x24 (nothing wider than 80 columns) and a larger
terminal shows more; F1 toggles help; q quits."""

from __future__ import annotations

from typing import Any

import pytest

from fairtable.client.sovereign.model import ClientModel
from fairtable.client.sovereign.panes import DEFS
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignGame, flow
from tests.client import games
from tests.client.screen import render, run_keys
from tests.client.test_sovereign_model import configs, first_forge, model_for, play


def forge_model() -> tuple[ClientModel, list[Any], SovereignGame, Decision]:
    game, d = first_forge()
    return (*model_for(game, d), game, d)


def test_screen_typed_menu_choice_reaches_the_network_side() -> None:
    model, sent, game, _ = forge_model()
    games.check_menu_choice_reaches_the_network_side(model, sent, game)


def test_screen_shortcuts_are_typed_keys() -> None:
    model, sent, game, d = forge_model()
    run_keys(model, "end\rq\r")
    assert [type(a).__name__ for a in sent] == ["Pass"]
    model, sent, game, d = forge_model()
    run_keys(model, "acc 2\rq\r")
    assert len(sent) == 1 and sent[0].handle == game.state.boards[d.seat].forge[1].handle
    game.copy().apply(sent[0])


def test_screen_f1_shows_help_and_illegal_input_is_refused() -> None:
    model, sent, _, _ = forge_model()
    games.check_f1_shows_help_and_illegal_input_is_refused(model, sent, "play N")


def test_screen_fits_80x24_with_lanes_forge_hand_and_eight_options() -> None:
    model, _, game, d = forge_model()
    games.fill_log(model)
    lines = render(model)
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    screen = "\n".join(lines)
    pub = game.public()
    assert lines[0].startswith(f"R{pub['round']}/") and ", you: forge" in lines[0]
    assert ">you " in screen and " L: " in screen and " C: " in screen  # the two lanes
    assert f"E{len(pub['boards'][d.seat]['scored'])}/{pub['echo_target']}" in screen
    hand = game.view(d.seat).hand
    assert f"1 {DEFS[hand[0][1]].name[:12]}" in screen  # the side pane: your hand
    menu = model.menu()
    assert len(menu) > 8 and "(suggested)" in screen
    games.check_eight_options_and_the_newest_log_line(screen, menu, shown=4)  # a hand of 8
    assert "your move: forge" in lines[-3]  # above the prompt and the key hints


def test_screen_larger_terminal_shows_more() -> None:
    model, _, game, d = forge_model()
    small, large = "\n".join(render(model)), "\n".join(render(model, 120, 48))
    other = 1 - d.seat
    assert f"*seat {other} " in large and "Your forge" in large and "creche" in large
    assert len(large) > len(small)


def test_screen_every_decision_kind_draws_within_80_columns() -> None:
    seen: set[str] = set()

    def check(game: SovereignGame, d: Decision) -> None:
        if d.kind in seen:
            return
        model, _ = model_for(game, d)
        lines = render(model)
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines), d.kind
        assert "#1 " in "\n".join(lines)
        seen.add(d.kind)

    for seed, kinds, factions in configs():
        play(kinds, seed, factions, on_decision=check)
        if len(seen) >= 11:
            break
    assert len(seen) == 11


def test_screen_shows_a_battle_and_the_log_tells_it_round_by_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shots: list[str] = []
    models = {0: ClientModel(), 1: ClientModel()}
    rounds: list[int] = []  # the engine's combat round of each combat damage, in order
    damage = flow.HANDLERS["damage"]

    def counted(state: Any, r: int) -> None:
        mark = len(state.events)
        damage(state, r)
        rounds.extend(r for e in state.stored_events(mark) if e[0] == "combat_damage")

    monkeypatch.setitem(flow.HANDLERS, "damage", counted)

    def step(game: SovereignGame, request: Any, answer: Any) -> None:
        if game.state.battle.get("round") and not shots:
            shots.append("\n".join(render(models[0])))

    play(["heuristic", "heuristic"], 5, models=models, on_step=step)
    assert "Battle r1: " in shots[0]
    told: list[int] = []  # the round the log puts each combat damage in
    for line in models[0].log:
        if line.startswith("Combat round "):
            current = int(line.split()[2].rstrip(":"))
        elif line.startswith("  ") and " deals " in line:
            told.append(current)
    assert told == rounds and max(rounds) >= 2
    text = "\n".join(models[0].log)
    for words in (
        "Combat round 1:",
        "Combat round 2:",
        " deals ",
        " loses ",
        " is scrapped",
        "breach value",
        "You see the cards in seat 1's hand",
        "is discarded from",
        "scored the Echo",
        "Game over: ",
        "-- Turn 1:",
        "face down into the forge",
        "gets first health",
    ):
        assert words in text, words


def test_screen_a_clipped_pane_says_how_much_is_left_out_and_a_taller_one_shows_it() -> None:
    model, _, game, d = forge_model()
    hand = game.view(d.seat).hand
    small = render(model)
    side = [line[42:] for line in small[:10]]  # the side pane, beside the table
    assert side[0].startswith(f"Hand {len(hand)},")
    assert "Your forge ('acc" not in "\n".join(small)  # under the hand: cut at 80x24
    forge = len(game.view(d.seat).table.boards[d.seat].forge)
    cut = [line for line in side if "(a taller window" in line]  # by section, not a total
    assert cut == [f"forge +{forge} (a taller window shows them)"], "\n".join(small)
    large = "\n".join(render(model, 120, 40))
    assert all(DEFS[c].name[:12] in large for _, c in hand) and " more (a taller" not in large
    assert "Your forge" in large


def test_screen_the_whole_hand_shows_at_80x24_beside_a_long_menu() -> None:
    """A hand of eight beside a forge menu of thirteen options: the menu gives two rows (it
    scrolls, four options shown) so that no hand card is off-screen behind "+N more"; the
    log keeps its rows (issue 31)."""
    model, _, _, _ = forge_model()
    hand = model.view.hand
    assert len(hand) == 8 and len(model.menu()) > 8
    screen = render(model)
    side = [row.split("|", 1)[1] for row in screen[:12] if "|" in row]
    for i in range(1, len(hand) + 1):
        assert any(cell.startswith(f"{i} ") for cell in side), "\n".join(screen)
    options = [row for row in screen if row[:3] in (">#1", " #2", " #3", " #4")]
    assert len(options) == 4 and any("more below" in row for row in screen)
    rule = screen.index("-" * 80)
    decide = next(i for i, row in enumerate(screen) if row.startswith("Decide ("))
    assert decide - rule - 1 == 4  # the log's rows (the message is beside the status)


def test_screen_card_names_use_the_width_there_is() -> None:
    """At 160 columns the hand shows every card's whole name (issue 31: names were cut at
    19 columns whatever the width); at 80 they are cut with a "." as before."""
    model, _, game, d = forge_model()
    names = [DEFS[card].name for _, card in game.view(d.seat).hand]
    wide = "\n".join(render(model, 160, 50))
    assert all(n in wide for n in names), wide
    narrow = render(model)
    assert all(len(row) <= 80 for row in narrow)
    for n in names:
        assert n in "\n".join(narrow) or n[:18] + "." in "\n".join(narrow)


def test_screen_f1_says_what_the_three_letter_keywords_are() -> None:
    """Issue 31 (proof run): the hand shows "U6 4/2 4d Slo" and nothing said what Slo was."""
    model, _, _, _ = forge_model()
    assert "Air: Airborne, Slo: Slow" in model.help_text()
