"""No import circle among the layers' modules: a module never reaches itself through imports.

Read from the source (``ast``; nothing is imported), every import counted, those under
``if TYPE_CHECKING:`` included: a circle that only the type checker walks is still a knot the
next reader has to untie.  A module is one file; ``from package import name`` leads to the
module ``name`` when it is one, else to the package's ``__init__``.  Names are the folders'
(``tests/imports.py``), so ``fairtable.engine.games`` is ``engine/games.py``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.imports import LAYERS, layer_name

ROOT = Path(__file__).resolve().parent.parent


def _module_file(dotted: str) -> Path | None:
    """The file of a module or package of the layers, by its layer name (``engine.games``)."""
    if not dotted or dotted.split(".")[0] not in LAYERS:
        return None
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts.pop()  # the module itself, or __init__: its package is the folder
    return ".".join(parts)


def _targets(path: Path) -> Iterator[Path]:
    """The layer modules ``path`` imports."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (found := _module_file(layer_name(alias.name))) is not None:
                    yield found
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(path).split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = layer_name(node.module or "")
            for alias in node.names:
                sub = _module_file(f"{source}.{alias.name}" if source else alias.name)
                found = sub if sub is not None else _module_file(source)
                if found is not None:
                    yield found


def _graph(files: list[Path]) -> dict[Path, set[Path]]:
    return {path: {t for t in _targets(path) if t != path} for path in files}


def _circles(graph: dict[Path, set[Path]]) -> list[list[Path]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    found: list[list[Path]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[Path, Iterator[Path]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_no_module_of_the_layers_reaches_itself_through_imports() -> None:
    files = [path for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py"))]
    graph = _graph(files)
    assert sum(len(targets) for targets in graph.values()) > 500  # the scan reads the imports
    circles = [[str(p.relative_to(ROOT)) for p in part] for part in _circles(graph)]
    assert circles == []


def test_the_scan_sees_a_circle(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.py", tmp_path / "b.py", tmp_path / "c.py"
    assert _circles({a: {b}, b: {c}, c: {a}}) == [sorted([a, b, c])]
    assert _circles({a: {b}, b: {c}, c: set()}) == []


def test_relative_and_packaged_imports_are_followed() -> None:
    mesh = _graph([ROOT / "netplay" / "node" / "_mesh.py"])[ROOT / "netplay" / "node" / "_mesh.py"]
    assert ROOT / "netplay" / "events.py" in mesh  # from .. import events
    contract = _graph([ROOT / "engine" / "contract.py"])[ROOT / "engine" / "contract.py"]
    assert ROOT / "engine" / "requests.py" in contract  # from fairtable.engine.requests import
