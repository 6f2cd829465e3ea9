"""protocol/ knows games only through the engine contract (issue 13).

It imports nothing from a game package (``engine.<game>``) and names no game, label or
answer of one: what it needs to know of a request or an answer comes from
``engine.requests``, ``engine.contract`` and ``engine.games.GameRules``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from fairtable import engine, protocol
from tests.imports import layer_name

PROTOCOL = Path(protocol.__file__).parent
GAME_PACKAGES = sorted(
    p.name
    for p in Path(engine.__file__).parent.iterdir()
    if p.is_dir() and (p / "__init__.py").exists()
)
GAME_WORDS = re.compile(
    r"\b(reign|sodalis|sovereign|bids?|bidders?|arm(y|ies)|spoils|breach\w*|forges?|covert"
    r"|champions?|echo(es)?)\b|hand:",
    re.IGNORECASE,
)


def _sources() -> list[Path]:
    files = sorted(PROTOCOL.glob("*.py"))
    assert len(files) > 10
    return files


def test_the_engine_has_game_packages_to_keep_out() -> None:
    assert {"reign", "sodalis", "sovereign"} <= set(GAME_PACKAGES)


def test_protocol_imports_no_game_package() -> None:
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                parts = layer_name(name).split(".")
                if parts[0] == "engine" and len(parts) > 1 and parts[1] in GAME_PACKAGES:
                    found.append(f"{path.name}: {name}")
    assert found == []


def test_protocol_names_no_game_or_game_label() -> None:
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in _sources()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if GAME_WORDS.search(line)
    ]
    assert found == []


def test_the_word_check_catches_game_words() -> None:
    for line in (
        'if req.label == "bids":',
        'source.startswith("hand:")',
        "from engine.reign.answers import Bid",
        "a Sovereign forge",
    ):
        assert GAME_WORDS.search(line)
    assert not GAME_WORDS.search("def _forget_applied_notes(self, seat: int) -> None:")
