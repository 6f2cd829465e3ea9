"""The house rules of the repository, held by reading its source (no imports run).

- Layers point one way: client -> netplay -> protocol -> engine.  A module may import its own
  package and the packages below it, never one above.
- No private imports across packages: outside its own package, nothing names a module or an
  attribute whose name starts with ``_`` (``protocol._codec``, ``from netplay import _x``).
- No layer names a game declaration (``games``) or an example: games are found through the
  ``fairtable.games`` entry points.
- Every import of a layer names the installed package (``fairtable.engine``, never a bare
  ``engine``): a bare name would load a second copy of the module from the checkout.
- Files stay readable: at most ``MAX_LINES`` lines each.

The layers are named as their folders are (``engine``, ...); ``tests/imports.py`` reads
``fairtable.engine.x`` as ``engine.x``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.imports import LAYERS, bare, layer_name

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("games", "examples", "highcard", "tests", "bench")
"""Top-level names the layers must never import."""
MAX_LINES = 600


def _modules() -> list[tuple[str, Path]]:
    return [(layer, path) for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py"))]


def _raw_imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every absolute import in ``path`` as (line, dotted name) as written; ``from a.b import c``
    gives both ``a.b`` and ``a.b.c``, so a private name imported from a public module is seen."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """:func:`_raw_imports` in layer names (``fairtable.engine.x`` as ``engine.x``)."""
    for line, name in _raw_imports(path):
        if named := layer_name(name):
            yield line, named


def _every_source() -> list[Path]:
    """Every Python file of the repository that runs: the layers, games, tests, bench, examples."""
    folders = (*LAYERS, "games", "tests", "bench", "examples")
    return [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def _upward(layer: str, name: str) -> bool:
    top = name.split(".")[0]
    return top in LAYERS and LAYERS.index(top) > LAYERS.index(layer)


def _private(layer: str, name: str) -> bool:
    top, *rest = name.split(".")
    return top in LAYERS and top != layer and any(part.startswith("_") for part in rest)


def test_layers_point_one_way() -> None:
    wrong = [
        f"{_where(path, line)} imports {name} ({layer} is below {name.split('.')[0]})"
        for layer, path in _modules()
        for line, name in _imports(path)
        if _upward(layer, name)
    ]
    assert wrong == []


def test_no_private_import_across_packages() -> None:
    wrong = [
        f"{_where(path, line)} imports {name}"
        for layer, path in _modules()
        for line, name in _imports(path)
        if _private(layer, name)
    ]
    assert wrong == []


def test_layers_name_no_game_declaration_nor_tool() -> None:
    wrong = [
        f"{_where(path, line)} imports {name}"
        for _, path in _modules()
        for line, name in _imports(path)
        if name.split(".")[0] in OUTSIDE
    ]
    assert wrong == []


def test_every_import_of_a_layer_names_the_installed_package() -> None:
    wrong = [
        f"{_where(path, line)} imports {name} (say fairtable.{name})"
        for path in _every_source()
        for line, name in _raw_imports(path)
        if bare(name)
    ]
    assert wrong == []


_RUN_BARE = re.compile(r"-m (?:engine|protocol|netplay|client|games)\.")


def test_every_command_line_runs_the_installed_package() -> None:
    """``python -m client.cli`` in a test's command would run the checkout's folder as a second
    copy of the layers (it works only from the repository's root): ``-m fairtable.client.cli``."""
    wrong = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in _every_source()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _RUN_BARE.search(line) and path.name != "test_house.py"
    ]
    assert wrong == []


def test_files_stay_under_the_size_limit() -> None:
    long = [
        f"{path.relative_to(ROOT)}: {count} lines"
        for _, path in _modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert long == []


@pytest.mark.parametrize(
    ("source", "layer", "verdict"),
    [
        ("import fairtable.client.app\n", "engine", "upward"),
        ("from fairtable.netplay import node\n", "protocol", "upward"),
        ("from fairtable import netplay\n", "protocol", "upward"),
        ("from fairtable.protocol._codec import x\n", "netplay", "private"),
        ("from fairtable.netplay import _thing\n", "client", "private"),
        ("from fairtable.engine.games import GameRules\n", "protocol", "fine"),
        ("from fairtable.client._own import x\n", "client", "fine"),
        ("import engine.games\n", "protocol", "bare"),
        ("from protocol import wire\n", "netplay", "bare"),
    ],
)
def test_the_checks_see_what_they_forbid(
    tmp_path: Path, source: str, layer: str, verdict: str
) -> None:
    """The scanner itself: each kind of breach in a small file is seen (so an empty list above
    means the rule holds, not that the scan found nothing to read)."""
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    names = [name for _, name in _imports(path)]
    upward = any(_upward(layer, name) for name in names)
    private = any(_private(layer, name) for name in names)
    bare_name = any(bare(name) for _, name in _raw_imports(path))
    seen = "bare" if bare_name else "upward" if upward else "private" if private else "fine"
    assert seen == verdict
