"""protocol/'s public face: what the layers above use, and no private module reached past it.

``protocol`` exports what netplay/ and client/ use and nothing else; the rest is in three
public submodules (``protocol.wire``, ``protocol.crypto``, ``protocol.testing``).  No module
outside protocol/ imports a private ``protocol._x`` module, except the few tests and benchmarks
listed below that replace a name inside one to count or stub it (that only works in place).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from fairtable import protocol
from tests.imports import PACKAGE, layer_name

ROOT = Path(protocol.__file__).resolve().parent.parent
PUBLIC = ("protocol", "protocol.wire", "protocol.crypto", "protocol.testing")  # in fairtable
ABOVE = ("netplay", "client")

# file -> why it reaches a private module: each replaces a name inside one, in place
PATCHES_IN_PLACE = {
    "bench/peer_costs.py": "times the session's and the deck's functions where they are called",
    "bench/protocol.py": "counts the shuffle proof's multiplications",
    "bench/vanish.py": "takes the vanishing hooks out of the session, to time it as before",
    "tests/sim/memo.py": "memoises the deck's shuffle verification for the simulation",
    "tests/protocol/test_published_once.py": "counts the shares and hand-overs made",
    "tests/protocol/test_remix_placers.py": "replaces the reveals' remix to watch the placers",
    "tests/protocol/test_dice_and_flips.py": "gives the session a toy game's rules",
    "tests/protocol/test_held_cards.py": "gives the session a toy game's rules",
    "tests/protocol/test_held.py": "lowers the held-bytes budget",
    "tests/protocol/test_vanish_session.py": "makes a seat's deal or recovery shares wrong",
    "tests/protocol/test_vanish_pool_cheats.py": "makes a seat's pool recovery shares wrong",
    "tests/protocol/test_vanish_pool_timing.py": "splits a seat's vote from its recovery shares",
    "tests/protocol/test_sealed.py": "builds a sealed header byte for byte",
    "tests/protocol/make_vectors.py": "prints intermediate values of the sealed box and proof",
}


def _sources() -> list[Path]:
    tops = [p for p in ROOT.iterdir() if p.name != "protocol" and not p.name.startswith(".")]
    return sorted(f for top in tops for f in ([top] if top.suffix == ".py" else top.rglob("*.py")))


def _private_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [layer_name(a.name) for a in node.names]
            found += [name for name in names if name.startswith("protocol._")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            module = layer_name(node.module)
            if module.startswith("protocol._"):
                found.append(module)
            elif module == "protocol":
                found += [f"protocol.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def _names_used_from_protocol(package: str) -> set[str]:
    """Names netplay/client take from ``protocol`` itself (``from protocol import x`` and
    ``P.x`` after ``import protocol as P``)."""
    used: set[str] = set()
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {"protocol"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                aliases |= {
                    a.asname or a.name for a in node.names if a.name == "fairtable.protocol"
                }
            elif isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
                aliases |= {a.asname or a.name for a in node.names if a.name == "protocol"}
            elif isinstance(node, ast.ImportFrom) and layer_name(node.module or "") == "protocol":
                used |= {a.name for a in node.names}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                used.add(node.attr)
    return used


def test_no_module_outside_protocol_imports_a_private_one() -> None:
    sources = _sources()
    assert len(sources) > 100
    reached = {str(p.relative_to(ROOT)): found for p in sources if (found := _private_imports(p))}
    assert set(reached) - set(PATCHES_IN_PLACE) == set(), reached
    # the list stays true: each file listed still needs its reach (else it comes off)
    assert set(PATCHES_IN_PLACE) - set(reached) == set()


def test_the_layers_above_reach_no_private_module_at_all() -> None:
    for package in ("engine", *ABOVE):
        for path in sorted((ROOT / package).rglob("*.py")):
            assert _private_imports(path) == [], path


def test_every_public_name_is_there() -> None:
    for name in PUBLIC:
        module = importlib.import_module(f"{PACKAGE}.{name}")
        assert module.__doc__
        missing = [n for n in module.__all__ if not hasattr(module, n)]
        assert missing == [], (name, missing)
        assert len(set(module.__all__)) == len(module.__all__), name


def test_protocol_exports_what_netplay_and_client_use_and_nothing_else() -> None:
    used = set().union(*(_names_used_from_protocol(p) for p in ABOVE))
    assert used - set(protocol.__all__) == set()  # nothing past the face
    # nothing nobody above needs, but the base class every protocol error derives from
    assert set(protocol.__all__) - used == {"ProtocolError"}
    assert 40 <= len(protocol.__all__) <= 60
