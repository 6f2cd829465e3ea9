"""The client's game registry (client/games.py): every game the engine plays has its client
parts, and a process loads only the game it plays -- a bot seat not even its screen."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

import pytest

from fairtable.client.games import bots_for, client_game, model_for
from fairtable.client.help_parts import Key
from fairtable.client.screen_model import ScreenModel
from fairtable.engine.games import game_names
from fairtable.engine.rng import ChanceStream


@pytest.mark.parametrize("game", game_names())
def test_every_game_has_its_client_parts(game: str) -> None:
    entry = client_game(game)
    assert entry.name == game
    assert issubclass(entry.model, ScreenModel)
    assert isinstance(model_for(game), entry.model)
    assert callable(entry.panes)
    assert isinstance(entry.bots, Mapping) and isinstance(entry.words, Mapping)
    assert entry.words and all(  # a help text: a string, or words and screen keys
        isinstance(text, str) or all(isinstance(part, str | Key) for part in text)
        for text in entry.words.values()
    )
    kinds = bots_for(game)
    assert kinds.keys() == {"random", *entry.bots}
    for make in kinds.values():
        assert callable(make(ChanceStream(b"seed".ljust(32, b"\0"))).decide)


def test_an_unknown_game_is_a_key_error_naming_the_games() -> None:
    with pytest.raises(KeyError, match="reign, sodalis, sovereign"):
        client_game("chess")
    with pytest.raises(KeyError, match="reign, sodalis, sovereign"):
        bots_for("chess")


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; import fairtable.client.cli; {code};"
            " print(' '.join(sorted(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(out.stdout.split())


def test_a_bot_seat_loads_only_its_games_bots() -> None:
    loaded = _modules_after("from fairtable.client.games import bots_for; bots_for('reign')")
    assert "fairtable.client.reign.bots" in loaded
    others = {
        m
        for m in loaded
        if m.startswith(
            (
                "fairtable.client.sovereign",
                "fairtable.client.sodalis",
                "fairtable.engine.sovereign",
                "fairtable.engine.sodalis",
            )
        )
    }
    assert others == set()
    assert "fairtable.client.reign.panes" not in loaded and "prompt_toolkit" not in loaded


def test_the_screen_of_a_game_loads_with_its_model() -> None:
    loaded = _modules_after("from fairtable.client.games import model_for; model_for('sodalis')")
    assert {"fairtable.client.sodalis.model", "fairtable.client.sodalis.panes"} <= loaded
    assert not any(
        m.startswith(("fairtable.client.reign.", "fairtable.client.sovereign.")) for m in loaded
    )
