"""The words a decision lists beside its options ("Also: ..." in plain mode, the '?' overlay)
are words it takes: S11 of the new-user run found Reign's draw decision listing "pass" and
then refusing it ("Type a number from 1 to 2").  Whole games of each game are played by
bots; at the first decisions of every kind, each word listed is typed (with the arguments a
person would add) into a fresh model of the deciding seat, and one of the tries must send
an answer the engine takes."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from fairtable.client.games import bots_for
from fairtable.client.help_parts import in_plain
from fairtable.client.reign.model import ClientModel as ReignModel
from fairtable.client.sodalis.model import DIRECTIONS
from fairtable.client.sodalis.model import ClientModel as SodalisModel
from fairtable.client.sovereign.model import ClientModel as SovereignModel
from fairtable.engine.errors import EngineError
from fairtable.engine.games import rules
from fairtable.engine.requests import Decision
from tests.client import games

MODELS: dict[str, Callable[..., Any]] = {
    "reign": ReignModel,
    "sodalis": SodalisModel,
    "sovereign": SovereignModel,
}
TABLES = [
    ("reign", 3, 11),
    ("reign", 4, 5),
    ("sodalis", 4, 3),
    ("sodalis", 2, 8),
    ("sovereign", 2, 5),
]
PER_KIND = 3  # decisions of each kind checked (the first ones met)

NUMBERS = [[str(n)] for n in range(1, 11)]
TARGETS = [[str(n), t] for n in range(1, 6) for t in (*map(str, range(6)), "p")]
ARGUMENTS: dict[str, list[list[str]]] = {
    "go": [[d] for d in DIRECTIONS],
    "cast": NUMBERS + TARGETS,
    "play": NUMBERS,
    "acc": NUMBERS,
    "reveal": NUMBERS,
    "lane": [[str(n), lane] for n in range(1, 6) for lane in ("l", "c")],
    "attach": [[str(n), str(h)] for n in range(1, 4) for h in range(1, 6)],
    "health": [["1", str(t), str(d)] for t, d in itertools.product(range(4), range(4))],
}
BUILDERS = {"lane", "attach", "health", "clear"}
"""Words that build a Sovereign forge finish: 'done' sends what they built."""
REIGN_PICKING = {"done", "clear"}
"""Reign's words for a decision built card by card (they send nothing alone, by design)."""


def listed(model: Any) -> list[str]:
    """The words the model lists for its decision, as plain mode says them."""
    words: list[str] = []
    for key, _what in model.game_keys():
        if key == "words":  # Sodalis, Sovereign: "end, pass ('help' says how)"
            words += in_plain(_what).split(" ('help'")[0].split(", ")
        elif key not in ("N", "N>S"):  # Reign: a card number is not a word
            words.append(key)
    return words


def takes(game: Any, model_class: Callable[..., Any], d: Decision, word: str) -> bool:
    """Whether ``word`` (with some arguments a person would add) sends an answer the engine
    takes, typed into a fresh model of the deciding seat."""
    for args in ARGUMENTS.get(word, [[]]):
        model, sent = games.model_for(model_class, game, d, view=True)
        model.command(" ".join([word, *args]))
        if word in BUILDERS and not sent:
            model.command("done")
        if sent:
            try:
                game.copy().apply(sent[0])
            except EngineError:
                continue
            return True
    return False


@pytest.mark.parametrize(("game_name", "seats", "seed"), TABLES)
def test_every_word_listed_beside_a_decision_is_taken(
    game_name: str, seats: int, seed: int
) -> None:
    model_class = MODELS[game_name]
    checked: Counter[str] = Counter()
    wrong: list[str] = []

    def on_decision(game: Any, d: Decision) -> None:
        if checked[d.kind] >= PER_KIND:
            return
        checked[d.kind] += 1
        model, _ = games.model_for(model_class, game, d, view=True)
        for word in listed(model):
            if game_name == "reign" and word in REIGN_PICKING:
                continue
            if not takes(game, model_class, d, word):
                wrong.append(f"{d.kind}: {word!r} is listed and refused")

    bots = bots_for(game_name)
    kind = "heuristic" if "heuristic" in bots else "random"
    games.play(
        rules(game_name).new_game(seats), seed, [bots[kind]] * seats, on_decision=on_decision
    )
    assert not wrong, sorted(set(wrong))
    assert len(checked) >= 3, checked


def test_reign_lists_pass_only_where_the_first_option_passes() -> None:
    """The draw decision (two options, neither a pass) lists no 'pass'; a bid lists it."""
    seen: dict[str, list[str]] = {}

    def on_decision(game: Any, d: Decision) -> None:
        if d.kind not in seen:
            model, _ = games.model_for(ReignModel, game, d, view=True)
            seen[d.kind] = listed(model)

    bots = bots_for("reign")
    games.play(rules("reign").new_game(3), 11, [bots["random"]] * 3, on_decision=on_decision)
    assert "pass" in seen["bid"]
    assert "draw" in seen and "pass" not in seen["draw"], seen
