"""Reading import statements for the house tests, in the names the repository's folders use.

The layers are installed as one package, ``fairtable`` (docs/packaging.md): the source says
``from fairtable.engine.games import GameRules`` or ``from fairtable import protocol as P``.
The house tests reason about layers (``engine``, ``protocol``, ...), so :func:`layer_name` strips
the package's name, and :func:`bare` finds an import that names a layer without it (which would
load a second copy of the module from the checkout instead of the installed package).
"""

from __future__ import annotations

PACKAGE = "fairtable"
LAYERS = ("engine", "protocol", "netplay", "client")
"""Bottom to top: a package may import those at or before its own place."""
TOPS = (*LAYERS, "games")
"""The folders reached as ``fairtable.<folder>``."""


def layer_name(name: str) -> str:
    """``fairtable.engine.games`` -> ``engine.games``; ``fairtable`` -> ``""``; any other name
    (the standard library, a dependency, an example game) unchanged."""
    if name == PACKAGE:
        return ""
    if name.startswith(PACKAGE + "."):
        return name[len(PACKAGE) + 1 :]
    return name


def bare(name: str) -> bool:
    """Whether an absolute import names a layer without the package (``import engine.games``)."""
    return name.split(".")[0] in TOPS
