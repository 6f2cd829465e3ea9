"""The Sodalis console model: every decision kind can be made from the keyboard (by menu and by
shortcut), refused input changes nothing, the log tells public events in words, the status line
names whom the table waits for, and no view, log line or pane shows another seat's pending
simultaneous choice."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from fairtable.client.games import bots_for
from fairtable.client.sodalis.model import HELP, ClientModel
from fairtable.client.sodalis.panes import arena_lines, side_lines
from fairtable.client.sodalis.words import who
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision, RollAnswer
from fairtable.engine.sodalis import SodalisConfig, SodalisGame, new_game
from fairtable.engine.sodalis.answers import Reversals
from fairtable.engine.sodalis.choices import legal_answers
from fairtable.netplay import events as ev
from tests.client import games
from tests.leaks import strings_in

BOTS = bots_for("sodalis")

KINDS = {
    "turn_tokens",
    "champion",
    "rearrange",
    "reversals",
    "place",
    "turn",
    "confuse",
    "carry",
    "forced_step",
    "respawn",
    "give_tribute",
    "strength_refresh",
    "refresh_token",
}
DIRS = {(1, 0): "e", (1, -1): "ne", (0, -1): "nw", (-1, 0): "w", (-1, 1): "sw", (0, 1): "se"}


def play(
    players: int,
    seed: int,
    kinds: list[str],
    round_limit: int = 100,
    on_decision: Callable[[SodalisGame, Decision], None] | None = None,
    on_step: Callable[[SodalisGame, Any, list[Any]], None] | None = None,
) -> SodalisGame:
    """One whole game among bots with a seeded referee."""
    game = new_game(SodalisConfig(players, round_limit))
    games.play(
        game,
        seed,
        [BOTS[k] for k in kinds],
        on_decision=on_decision,
        after=None if on_step is None else lambda g, _, a, events: on_step(g, a, events),
    )
    return game


def model_for(game: SodalisGame, d: Decision) -> tuple[ClientModel, list[Any]]:
    """A model seated at ``d``'s seat and asked ``d`` (no view before it); what it sends."""
    return games.model_for(ClientModel, game, d, view=False)


def typed(model: ClientModel, game: SodalisGame, d: Decision) -> list[str]:
    """What a person would type with the shortcuts."""
    if d.kind == "turn":
        me = game.public()["seats"][d.seat]
        if d.info.casts:
            card, plain, sighted, _ = d.info.casts[0]
            spread = [c for c in me["side"] if c] + [me["top"]]
            target = plain[0] if plain else sighted[0]
            words = [f"cast {spread.index(card) + 1}"]
            if target is not None:
                words.append("p" if target == -1 else str(target))
            return [" ".join(words + ([] if plain else ["+sight"]))]
        if d.info.steps:
            to = d.info.steps[0]
            return [f"go {DIRS[(to[0] - me['at'][0], to[1] - me['at'][1])]}"]
        return ["end"]
    if d.kind == "reversals":
        return ["flip " + " ".join(str(i + 1) for i in range(0, len(d.info.arcana), 2))]
    if d.kind in ("strength_refresh", "carry"):
        return ["pass"]
    return ["2" if len(model.menu()) > 1 else "#1"]


def menu_offers_every_legal_answer(model: ClientModel, game: SodalisGame, d: Decision) -> None:
    """Each answer is on the menu once; every legal answer is (reversals: typed with 'flip')."""
    menu = [a for _, a in model.menu()]
    assert len(menu) == len(set(menu))
    if d.kind != "reversals":  # every legal answer is on the menu (reversals: 'flip')
        assert set(menu) == set(legal_answers(game.view(d.seat), d))


def test_keyboard_every_decision_kind_can_be_made_by_menu_and_by_shortcut() -> None:
    seen: set[str] = set()

    def check(game: SodalisGame, d: Decision) -> None:
        games.check_by_menu_and_shortcut(game, d, model_for, typed, menu_offers_every_legal_answer)
        seen.add(d.kind)

    for seed in range(8):
        play(4, seed, ["random"] * 4, round_limit=30, on_decision=check)
        if seen >= KINDS:
            break
    assert KINDS <= seen <= KINDS | {"order_life"}  # order_life: rare, tested on its own


def test_keyboard_order_of_a_casts_life_changes_by_menu_and_shortcut() -> None:
    # Affecting Units: the caster orders the life changes when the order changes a result
    from fairtable.engine.sodalis import Cast
    from tests.engine.sodalis.helpers import build

    game, _ = build(
        "players=4 champions=empress,damned,archer,sage at=5:0,4:0,5:-1,0:0 "
        "life=1,10,2,8 active=1 spread1=damned_burst~r,damned_bolt,damned_mend"
    )
    game.apply(Cast(1, "damned_burst~r", None))
    game.apply(RollAnswer((7, 5, 1)))
    d = game.pending()[0]
    assert isinstance(d, Decision) and d.kind == "order_life"
    games.check_by_menu_and_shortcut(game, d, model_for, typed, menu_offers_every_legal_answer)
    model, _ = model_for(game, d)
    labels = [label for label, _ in model.menu()]
    assert labels[0].startswith("life changes: ") and "you" in labels[0]
    model.command("?")
    assert "order" in model.help_text()


def first_turn(seed: int = 1, players: int = 4) -> tuple[SodalisGame, Decision]:
    found: list[tuple[SodalisGame, Decision]] = []

    def grab(game: SodalisGame, d: Decision) -> None:
        if d.kind == "turn" and d.info.casts and d.info.steps and not found:
            found.append((game.copy(), d))

    play(players, seed, ["random"] * players, round_limit=3, on_decision=grab)
    return found[0]


@pytest.mark.parametrize(
    "line",
    [
        "99",
        "#99",
        "0",
        "#0",
        "x",
        "go",
        "go up",
        "go e banana",
        "cast",
        "cast 9",
        "cast 1 77",
        "cast 1 2 3",
        "cast x",
        "flip 1",
        "-1",
    ],
)
def test_keyboard_refused_input_gets_a_reason_and_changes_nothing(line: str) -> None:
    game, d = first_turn()
    model, sent = model_for(game, d)
    before = (model.decision, list(model.menu()), list(model.log), model.view)
    model.command(line)
    assert sent == [] and model.message
    assert (model.decision, list(model.menu()), list(model.log), model.view) == before


def test_keyboard_closed_spaces_and_other_decisions_refuse_turn_words() -> None:
    game, d = first_turn()
    model, sent = model_for(game, d)
    here = game.public()["seats"][d.seat]["at"]
    closed = [w for (dq, dr), w in DIRS.items() if (here[0] + dq, here[1] + dr) not in d.info.steps]
    model.command(f"go {closed[0]}")
    assert sent == [] and "closed" in model.message
    found: list[tuple[SodalisGame, Decision]] = []
    play(
        4,
        0,
        ["random"] * 4,
        round_limit=1,
        on_decision=lambda g, q: found.append((g.copy(), q)) if q.kind == "place" else None,
    )
    games.check_refused(*model_for(*found[0]), ("end", "go e", "cast 1", "pass", "flip 1"))


def test_keyboard_help_explains_each_decision_kind() -> None:
    seen: set[str] = set()
    play(4, 0, ["random"] * 4, round_limit=2, on_decision=games.help_checker(model_for, HELP, seen))
    assert {"turn_tokens", "champion", "reversals", "place", "turn"} <= seen


def test_hiding_nobody_sees_another_seats_pending_simultaneous_choice() -> None:
    game = new_game(SodalisConfig(4))
    models = {s: ClientModel() for s in range(4)}
    for seat, model in models.items():
        model.apply_event(ev.Seated(seat=seat, players=4))
    games.play(
        game,
        7,
        [BOTS["random"]] * 4,
        until=lambda _, r: isinstance(r, Decision) and r.kind == "reversals",
        after=lambda g, _r, _a, events: games.feed_views(models, g, events),
    )
    mine = [d for d in game.pending() if d.seat == 0][0]
    flip = tuple(mine.info.arcana)
    events = game.apply(Reversals(0, flip))
    assert events == ()  # nothing is told before every seat has chosen
    secret = {x + "~r" for x in flip} | {game.state.catalog.face(x + "~r").name for x in flip}
    for seat in (1, 2, 3):
        d = [r for r in game.pending() if r.seat == seat][0]
        model = models[seat]
        model.apply_event(ev.ViewChanged(view=game.view(seat), events=events))
        model.apply_event(ev.DecisionAsked(decision=d, view=game.view(seat)))
        shown = strings_in(json.loads(json.dumps(game.view(seat).to_dict())))
        text = " ".join(
            [
                *model.log,
                model.status,
                model.message,
                *(label for label, _ in model.menu()),
                *(t for _, t in arena_lines(model, 41) + side_lines(model)),
            ]
        )
        assert game.view(seat).secret is None
        assert not (secret & shown) and not any(s in text for s in secret)
    models[0].answered()
    models[0].apply_event(ev.ViewChanged(view=game.view(0), events=events))
    own = "".join(t for _, t in side_lines(models[0]))
    assert "Your hidden choice" in own
    assert game.state.catalog.face(flip[0] + "~r").name in own
    for seat in (1, 2, 3):
        d = [r for r in game.pending() if r.seat == seat][0]
        events = game.apply(Reversals(seat, ()))
    log = " ".join(e.KIND for e in events)
    assert "reversals" in log
    models[1].apply_event(ev.ViewChanged(view=game.view(1), events=events))
    assert any(game.state.catalog.face(flip[0] + "~r").name in line for line in models[1].log)


def test_log_tells_public_events_in_words_with_each_rolls_successes() -> None:
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=4))
    checked = [0]

    def feed(game: SodalisGame, answer: Any, events: list[Any]) -> None:
        before = len(model.log)
        model.apply_event(ev.ViewChanged(view=game.view(0), events=events))
        if not isinstance(answer, RollAnswer):
            return
        lines = list(model.log)[before:]
        roll = next(line for line in lines if line.startswith("  dice"))
        table = game.view(None).table
        for e in games.stored(events):  # successes = the life change, wherever no bound clipped it
            if e[0] == "life" and e[4] == "cast" and 0 < e[3] < 9 and e[2] != e[3]:
                assert f"{who(table, e[1], 0)} {abs(e[3] - e[2])}" in roll, (roll, e)
                checked[0] += 1

    text = ""
    for seed in range(4):
        model.log.clear()
        play(4, seed, ["heuristic", "random"] * 2, on_step=feed)
        text += "\n".join(model.log)
    for words in (
        "turn begins",
        "moved to",
        " cast ",
        "dice ",
        "successes:",
        "CRITICAL",
        "life:",
        "came back at full life",
        "earns the Tribute of",
        "took the Tribute of Sight",
        "Artifact is carried",
        "reached the centre",
        "cycles under the deck",
        "turned up",
        "wins the Trial of Sodalis",
        "-- Round",
        "chose The",
        "Turn order",
        "falls to 0",
    ):
        assert words in text, words
    assert checked[0] > 20


def test_status_line_names_whom_the_table_waits_for_and_the_end() -> None:
    game, d = first_turn()
    model = ClientModel()
    other = (d.seat + 1) % 4
    model.apply_event(ev.Seated(seat=other, players=4))
    model.apply_event(ev.ViewChanged(view=game.view(other), events=()))
    assert who(game.view(None).table, d.seat, other) in model.status  # the active seat
    model.apply_event(ev.WaitingFor(seats=[d.seat]))
    assert "waiting for " + who(game.view(None).table, d.seat, other) in model.status
    model.apply_event(ev.SeatWaiting(seat=d.seat, seconds=12))
    assert f"seat {d.seat} silent 12 s" in model.status
    model.apply_event(ev.Abandoned(seat=d.seat))
    assert f"Seat {d.seat} never came back" in model.log[-1]
    team = game.public()["seats"][other]["team"]
    model.apply_event(
        ev.GameOver(Outcome.of_team(team, game.state.members(team)), digest="x", end="tribute")
    )
    assert "you win!" in model.status and model.decision is None
    model.over = ""
    model.apply_event(ev.Verdict(seat=d.seat, kind="timeout", reason="silent"))
    assert f"seat {d.seat} never came back (silent) - q to leave" in model.status  # abandoned
    model.command("1")
    assert "Press q to leave" in model.message


def test_menu_labels_are_words_with_dice_and_tributes() -> None:
    game, d = first_turn()
    model, _ = model_for(game, d)
    labels = [label for label, _ in model.menu()]
    assert labels[0].endswith("(suggested)")
    assert any(label.startswith("cast ") and "d1" in label for label in labels)
    assert any(label.startswith("move ") and " paying " in label for label in labels)
    assert "end your turn" in labels


def test_log_a_roll_is_explained_against_each_targets_inertia_with_criticals_marked() -> None:
    """Each affected champion's line names its inertia (the engine's, as the dice fell),
    the die value that succeeds, and as many successes as dice at or above it; dice of 10
    and more carry ``*`` (docs/rules: Critical)."""
    from fairtable.engine.sodalis import casting, passives

    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=4))
    expected: dict[str, Any] = {}
    checked = [0, 0]

    def before(game: SodalisGame, request: Any) -> None:
        cast = game.state.cast
        expected.clear()
        if cast and cast.get("units"):
            face = game.state.catalog.face(cast["card"])
            for u in cast["units"]:
                if u >= 0:
                    pierce = (
                        face.piercing
                        + game.state.aura_total("piercing", cast["seat"])
                        + passives.piercing_against(game.state, cast["seat"], face, u)
                    )
                    expected[who(game.view(None).table, u, 0)] = (
                        game.state.inertia(u),
                        pierce,
                        cast["main"],
                    )

    def after(game: SodalisGame, request: Any, answer: Any, events: list[Any]) -> None:
        start = len(model.log)
        told = games.stored(events)
        model.apply_event(ev.ViewChanged(view=game.view(0), events=events))
        rolls = [e for e in told if e[0] == "roll"]
        if not rolls or not expected:
            return
        line = next(x for x in list(model.log)[start:] if x.startswith("  dice"))
        values = rolls[0][3]
        assert all(f"{v}*" in line for v in values if v >= casting.CRITICAL)
        checked[1] += any(v >= casting.CRITICAL for v in values)
        for name, (inertia, pierce, dice) in expected.items():
            need, main = inertia - pierce, values[:dice]  # recoil dice do not count
            found = re.search(
                re.escape(name) + r" (\d+) \(inertia (\d+)(?:, piercing (\d+))?: "
                r"(-?\d+)\+ succeeds\)",
                line,
            )
            assert found, (line, name)
            assert int(found[2]) == inertia and int(found[4]) == need
            assert int(found[1]) == sum(v >= need for v in main)
            checked[0] += 1

    for seed in range(3):
        game = new_game(SodalisConfig(4, 100))
        games.play(
            game, seed, [BOTS[k] for k in ["heuristic", "random"] * 2], before=before, after=after
        )
    assert checked[0] > 20 and checked[1] > 0


def test_the_end_says_whether_your_team_won_or_lost_and_a_spectator_reads_neither() -> None:
    """The third new-user run: a Dawn player read only "Game over: team Dusk wins"; the Dusk
    player read "... - you win!".  The losers are told so too (screen and plain alike)."""
    game, _ = first_turn()
    seats = game.public()["seats"]
    dusk = next(s for s, seat in enumerate(seats) if seat["team"] == "dusk")
    dawn = next(s for s, seat in enumerate(seats) if seat["team"] == "dawn")
    won = Outcome.of_team("dusk", game.state.members("dusk"))
    said = {}
    for name, seat in (("dusk", dusk), ("dawn", dawn), ("watching", None)):
        model = ClientModel()
        if seat is not None:
            model.apply_event(ev.Seated(seat=seat, players=4))
        model.apply_event(ev.ViewChanged(view=game.view(seat), events=()))
        model.apply_event(ev.GameOver(won, digest="x", end="tribute"))
        said[name] = model.over
        assert model.over in model.log and model.status.startswith(model.over)
    assert said == {
        "dusk": "Game over: team Dusk wins - you win!",
        "dawn": "Game over: team Dusk wins - you lose",
        "watching": "Game over: team Dusk wins",
    }
