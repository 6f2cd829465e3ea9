"""Two values followed through the code go one way, held by reading the source (no imports run).

- **The command's options** are read from argparse once, at the command line's edge: every
  options record of :mod:`fairtable.client.options` is made there and nowhere else, and no other
  module names ``argparse.Namespace``.  The records are frozen, so what the edge read is what
  every later step sees; below the client they travel only as the typed values they hold (a
  game's name, a seed, a ``NodeConfig``), since no lower layer may import the client.
- **A table's id** is minted in one place, the hash of the signed table spec
  (``protocol/_table.py``), and every other module only carries the typed ``TableId`` it was
  handed: nothing above the protocol makes one of its own from bytes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import attrs
import pytest

from fairtable.client import options as client_options
from tests.imports import LAYERS

ROOT = Path(__file__).resolve().parent.parent
OPTIONS_HOME = Path("client/options.py")
TABLE_ID_HOME = Path("protocol/_table.py")


def _option_records() -> frozenset[str]:
    return frozenset(
        name
        for name in client_options.__all__
        if name.endswith("Options") and attrs.has(getattr(client_options, name))
    )


def _called(tree: ast.AST, names: frozenset[str]) -> list[tuple[int, str]]:
    """Each call ``Name(...)`` or ``module.Name(...)`` whose name is one of ``names``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in names:
                found.append((node.lineno, name))
    return found


def _named(tree: ast.AST, attribute: str) -> list[int]:
    """Lines naming ``<something>.attribute`` (as ``argparse.Namespace``) or the bare name."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Attribute) and node.attr == attribute)
        or (isinstance(node, ast.Name) and node.id == attribute)
    ]


def _sources() -> list[tuple[Path, ast.AST]]:
    return [
        (path.relative_to(ROOT), ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.py"))
    ]


def _options_made_elsewhere(sources: list[tuple[Path, ast.AST]]) -> list[str]:
    records = _option_records()
    return [
        f"{path}:{line} makes {name}"
        for path, tree in sources
        if path != OPTIONS_HOME
        for line, name in _called(tree, records)
    ] + [
        f"{path}:{line} reads an argparse Namespace"
        for path, tree in sources
        if path != OPTIONS_HOME
        for line in _named(tree, "Namespace")
    ]


def _table_ids_minted_elsewhere(sources: list[tuple[Path, ast.AST]]) -> list[str]:
    return [
        f"{path}:{line} makes a TableId"
        for path, tree in sources
        if path != TABLE_ID_HOME
        for line, _ in _called(tree, frozenset({"TableId"}))
    ]


def test_the_options_are_made_once_at_the_command_line_edge() -> None:
    assert len(_option_records()) >= 12  # every command's record is seen, not an empty set
    assert _options_made_elsewhere(_sources()) == []


def test_the_options_records_are_frozen() -> None:
    """What the edge read cannot be changed by a later step (each record refuses a write)."""
    made = client_options.parse(["play", "reign", "--bots", "2", "--seed", "3"])
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.game = "sodalis"  # type: ignore[misc]
    assert all(
        getattr(client_options, name).__setattr__ is not object.__setattr__
        for name in _option_records()
    )


def test_a_table_id_is_minted_only_from_the_signed_spec() -> None:
    assert _table_ids_minted_elsewhere(_sources()) == []


@pytest.mark.parametrize(
    ("path", "source", "found"),
    [
        (Path("client/play.py"), "from x import PlayOptions\nPlayOptions(game='reign')\n", 1),
        (Path("client/play.py"), "import argparse\ndef f(a: argparse.Namespace): ...\n", 1),
        (Path("client/options.py"), "PlayOptions(game='reign')\n", 0),
        (Path("netplay/table/x.py"), "P.TableId(b'')\n", 1),
        (Path("protocol/_table.py"), "TableId(b'')\n", 0),
    ],
)
def test_the_scans_see_what_they_forbid(path: Path, source: str, found: int) -> None:
    """The scanners themselves: each breach in a small source is seen, in its place only (so
    an empty list above means the rule holds, not that nothing was read)."""
    sources = [(path, ast.parse(source))]
    assert len(_options_made_elsewhere(sources) + _table_ids_minted_elsewhere(sources)) == found
