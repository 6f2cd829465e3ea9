"""The registry of games (engine.games, the entry-point group ``fairtable.games``): every
installed game is found there with its parts for every layer, and the layers themselves name
no game they do not own -- a game from outside (examples/highcard) is not named by any of
them, and the game-neutral client names none in its code."""

from __future__ import annotations

import ast
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from fairtable.client.games import bots_for, client_game, default_bot
from fairtable.client.search import SearchHints, search_hints
from fairtable.engine.games import ENTRY_POINT_GROUP, GameEntry, GameRules, entry, game_names, rules

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "protocol", "netplay", "client")


def test_the_games_are_the_installed_entry_points_sorted() -> None:
    published = sorted(point.name for point in entry_points(group=ENTRY_POINT_GROUP))
    assert game_names() == tuple(published)
    assert {"reign", "sodalis", "sovereign", "highcard"} <= set(game_names())


@pytest.mark.parametrize("game", game_names())
def test_an_entry_holds_every_layers_part_of_its_game(game: str) -> None:
    found = entry(game)
    assert isinstance(found, GameEntry) and found.name == game
    assert isinstance(rules(game), GameRules) and rules(game).name == game
    assert found.default_seats in rules(game).seat_counts
    assert found.default_bots + 1 in rules(game).seat_counts
    assert found.default_bot in bots_for(game)
    assert callable(default_bot(game))
    assert client_game(game).styles == dict(found.styles)
    hints = search_hints(game)
    assert (found.search is None) == (hints is None)
    assert hints is None or isinstance(hints, SearchHints)
    assert found.bench.seats in rules(game).seat_counts
    for table in found.golden:
        assert table.seats in rules(game).seat_counts and len(table.bots) == table.seats
        assert set(table.bots) <= set(bots_for(game))


def test_an_unknown_game_is_a_key_error_naming_the_games() -> None:
    with pytest.raises(KeyError, match="no game 'chess': fairtable plays highcard, reign"):
        entry("chess")
    with pytest.raises(KeyError, match="no game 'chess'"):
        rules("chess")


def _layer_files() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def test_no_layer_names_the_example_game() -> None:
    named = [
        str(p.relative_to(ROOT))
        for p in _layer_files()
        if re.search(r"high\s*card", p.read_text(), re.IGNORECASE)
    ]
    assert named == []


def _code_names(path: Path) -> set[str]:
    """Identifiers, imported modules and string literals of a module, docstrings left out."""
    tree = ast.parse(path.read_text())
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out.add(node.value)
        elif isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            out.add(node.module or "")
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def test_the_game_neutral_client_names_no_game_in_its_code() -> None:
    """client/*.py (not a game's client/<game>/) take help text, defaults, colours and bots
    from the registry: no game's name is in their code."""
    words = re.compile(r"\b(" + "|".join(map(re.escape, game_names())) + r")\b", re.IGNORECASE)
    named = {
        f"{path.name}: {text!r}"
        for path in sorted((ROOT / "client").glob("*.py"))
        for text in _code_names(path)
        if words.search(text)
    }
    assert named == set()
