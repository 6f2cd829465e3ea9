"""netplay's areas (docs/netplay.md, "Areas"): who may import what.

netplay's modules sit in one folder per area (``links``, ``table``, ``lan``, ``storage``,
``relay``, ``node``); a folder's ``_x`` modules are its own, and its ``__init__`` names what
other areas may use.  ``netplay/__init__.py`` (with ``netplay/events.py``) is the face the
client and the bench use.  These tests read every import statement (``ast``, nothing is
imported) and hold those rules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.imports import layer_name

ROOT = Path(__file__).resolve().parents[2]
NETPLAY = ROOT / "netplay"
AREAS = ("links", "table", "lan", "storage", "relay", "node")
FACE = frozenset({"netplay", "netplay.events"})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def exists(module: str) -> bool:
    """Whether ``module`` names a module or a package of this repository."""
    base = ROOT.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports: absolute names, ``from X import sub`` as ``X.sub``."""
    here = module_name(path)
    package = here if is_package(path) else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, layer_name(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = layer_name(node.module or "")
            for alias in node.names:
                if not source:  # from fairtable import netplay
                    yield node.lineno, alias.name
                    continue
                sub = f"{source}.{alias.name}"
                yield node.lineno, sub if exists(sub) else source


def area_of(module: str) -> str | None:
    """The area a netplay module belongs to; None for netplay's top (its face, events)."""
    parts = module.split(".")
    if parts[0] != "netplay" or len(parts) < 2 or parts[1] not in AREAS:
        return None
    return parts[1]


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split(".")[1:])


def netplay_imports() -> Iterator[tuple[str, int, str]]:
    for path in sorted(NETPLAY.rglob("*.py")):
        for line, target in imported(path):
            if target == "netplay" or target.startswith("netplay."):
                yield module_name(path), line, target


def test_every_area_is_a_folder_whose_init_names_its_public_part() -> None:
    for area in AREAS:
        init = NETPLAY / area / "__init__.py"
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"netplay/{area}/__init__.py says what the area owns"
        names = {
            target.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        assert "__all__" in names, f"netplay/{area}/__init__.py names its public part"
    flat = sorted(p.name for p in NETPLAY.glob("_*.py") if p.name != "__init__.py")
    assert flat == [], f"private modules at netplay's top, outside every area: {flat}"


def test_an_area_imports_another_only_through_its_init() -> None:
    wrong = []
    for importer, line, target in netplay_imports():
        mine, theirs = area_of(importer), area_of(target)
        if theirs is not None and theirs != mine and is_private(target):
            wrong.append(f"{importer}:{line} imports {target}")
        if mine is not None and target == "netplay":
            wrong.append(f"{importer}:{line} imports netplay's face from inside an area")
    assert wrong == []


def test_the_areas_import_each_other_without_a_circle() -> None:
    edges: dict[str, set[str]] = {area: set() for area in AREAS}
    for importer, _line, target in netplay_imports():
        mine, theirs = area_of(importer), area_of(target)
        if mine is not None and theirs is not None and theirs != mine:
            edges[mine].add(theirs)
    done: list[str] = []
    while len(done) < len(AREAS):
        ready = [a for a in AREAS if a not in done and edges[a] <= set(done)]
        assert ready, f"a circle among {sorted(set(AREAS) - set(done))}: {edges}"
        done.extend(ready)


def test_the_client_and_the_bench_import_only_netplays_face() -> None:
    wrong = []
    for folder in ("client", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, target in imported(path):
                if target.split(".")[0] == "netplay" and target not in FACE:
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert wrong == []


def test_the_rules_read_relative_imports_as_the_modules_they_name() -> None:
    """The checks above would pass on nothing: they see the imports they are about."""
    mesh = {target for _line, target in imported(NETPLAY / "node" / "_mesh.py")}
    assert {"netplay.events", "netplay.links", "netplay.relay", "netplay.node._node_parts"} <= mesh
    assert "netplay" not in mesh  # ``from .. import events`` names events, not the face
    assert is_private("netplay.node._node_parts") and not is_private("netplay.links")
    assert area_of("netplay.lan._joincode") == "lan" and area_of("netplay.events") is None
