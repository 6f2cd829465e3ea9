"""Putting text on the terminal's clipboard: the OSC 52 escape (the invite, for pasting)."""

from __future__ import annotations

import base64
import contextlib
from typing import Any

__all__ = ["copy_to_clipboard", "osc52"]


def osc52(text: str) -> str:
    """The terminal escape that puts ``text`` on the clipboard (OSC 52; a terminal that does
    not know it ignores it)."""
    return f"\x1b]52;c;{base64.b64encode(text.encode()).decode()}\x07"


def copy_to_clipboard(app: Any, text: str) -> None:
    """Ask the terminal of prompt_toolkit application ``app`` to put ``text`` on the
    clipboard, where it allows that."""
    with contextlib.suppress(Exception):  # no terminal (a test's dummy output): nothing to do
        app.output.write_raw(osc52(text))
        app.output.flush()
