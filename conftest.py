"""The suite's command-line seam: pyproject's ``addopts`` runs the tests on every core with
pytest-xdist (``--numprocesses auto --dist worksteal``).  ``pytest -n0`` runs them in one
process, and ``pytest -p no:xdist`` (the plugin not loaded) still accepts those two options
and ignores them, so a debugging run needs neither the plugin nor a changed command."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("xdist")
    if any(option.dest == "numprocesses" for option in group.options):
        return  # the plugin is loaded: its own options stand
    group.addoption("--numprocesses", dest="numprocesses", default=0, help="(xdist not loaded)")
    group.addoption("--dist", dest="dist", default="no", help="(xdist not loaded)")
