"""Loading Sodalis champion files into a :class:`~engine.sodalis.cards.Catalog`.

Parsing one file is :mod:`engine.sodalis.cards`' job; this module reads a set of files,
checks them against each other and against the passives the engine implements
(:mod:`engine.sodalis.passives`), and holds the standard catalog.  Kept apart from
``cards`` so that the passives can name card faces without an import circle.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from fairtable.engine.errors import CardDataError
from fairtable.engine.sodalis.cards import Catalog, Champion, parse_champion
from fairtable.engine.sodalis.passives import PASSIVES

__all__ = ["catalog_dir", "load_catalog", "standard_catalog"]


def load_catalog(paths: Iterable[str | Path]) -> Catalog:
    """Load and cross-check champion files (ids, symbols and arcana ids unique; every
    passive one the engine has)."""

    champions: list[Champion] = []
    seen_symbols: dict[str, str] = {}
    seen_arcana: dict[str, str] = {}
    for path in sorted(Path(p) for p in paths):
        file = str(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CardDataError(file, "", "", f"not valid TOML: {exc}") from None
        champion = parse_champion(data, file, PASSIVES)
        if any(c.id == champion.id for c in champions):
            raise CardDataError(file, champion.id, "id", "two champions share this id")
        if champion.symbol in seen_symbols:
            raise CardDataError(
                file,
                champion.id,
                "symbol",
                f"symbol already used by {seen_symbols[champion.symbol]}",
            )
        seen_symbols[champion.symbol] = champion.id
        for a in champion.arcana:
            if a.id in seen_arcana:
                raise CardDataError(
                    file, a.id, "id", f"arcana id already used by {seen_arcana[a.id]}"
                )
            seen_arcana[a.id] = champion.id
        champions.append(champion)
    if not champions:
        raise CardDataError("engine/sodalis/data/champions", "", "", "no champion files")
    return Catalog(tuple(sorted(champions, key=lambda c: c.id)))


def catalog_dir(directory: str | Path) -> Catalog:
    """Every ``*.toml`` champion file of a directory."""
    return load_catalog(sorted(Path(directory).glob("*.toml")))


@cache
def standard_catalog() -> Catalog:
    """The nine champions of ``engine/sodalis/data/champions/`` (loaded once)."""
    root = resources.files("fairtable.engine.sodalis") / "data" / "champions"
    return catalog_dir(str(root))
