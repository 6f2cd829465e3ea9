"""Text broken into rows at word boundaries: styled text for the screen's panes
(:func:`word_rows`), and plain lines a command prints (:func:`plain_rows`, :func:`fold`:
to the width of the terminal they go to, :func:`terminal_width`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO

__all__ = [
    "CUT_MARK",
    "SPLIT_MARK",
    "TERMINAL_WIDTH",
    "fold",
    "listed",
    "said_on",
    "plain_rows",
    "shortened",
    "terminal_width",
    "verdict_rows",
    "word_rows",
]

TERMINAL_WIDTH = 80
"""The columns a command's printed lines keep within when they go to no terminal (a file,
a pipe); on a terminal, its own width (:func:`terminal_width`).  A terminal folds a longer
line mid-word, and a mouse copy then carries the fold."""

LONG_WORD = 20
"""A word of this many characters or more (or with a ``/`` in it: a path, an invite) is one
a person copies: when it does not fit the row it would end, it stands on a row of its own."""


def terminal_width(stream: TextIO | None = None) -> int:
    """The columns of the terminal ``stream`` (standard output when None) shows: ``COLUMNS``
    when set, as :func:`shutil.get_terminal_size` reads it, else the terminal's own size;
    :data:`TERMINAL_WIDTH` when the stream is no terminal."""
    stream = sys.stdout if stream is None else stream
    try:
        if stream is None or not stream.isatty():
            return TERMINAL_WIDTH
        env = os.environ.get("COLUMNS", "")
        columns = int(env) if env.isdecimal() else os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return TERMINAL_WIDTH
    return columns if columns >= 20 else TERMINAL_WIDTH


def _copied(word: str) -> bool:
    return len(word) >= LONG_WORD or "/" in word


def _units(words: list[str]) -> list[str]:
    """The words, with a command to type kept as one: one quoted in the line (``(see
    'fairtable simulate --help')``), or one that ends it (``to check it: fairtable audit
    ID --data-dir DIR``)."""
    units: list[str] = []
    quoted = False
    for index, word in enumerate(words):
        if word == "fairtable":  # a command, to the end of the line
            return [*units, " ".join(words[index:])]
        if quoted:
            units[-1] += " " + word
            quoted = "'" not in word
        else:
            units.append(word)
            quoted = "'fairtable" in word and word.count("'") == 1
    return units


def _line_rows(line: str, width: int) -> list[str]:
    body = line.lstrip(" ")
    lead = line[: len(line) - len(body)]
    if len(line) <= width or body.startswith("fairtable "):  # a command shown to be typed
        return [line]
    rows: list[str] = []
    row, alone = "", False
    for word in _units(body.split()):
        if not row:
            row = lead + word
        elif not alone and len(row) + 1 + len(word) <= width:
            row += " " + word
        else:
            rows.append(row)
            row = lead + "  " + word
            alone = _copied(word)  # moved down: it keeps its row to itself
            continue
        alone = False
    return [*rows, row]


def fold(text: str, width: int | None = None) -> str:
    """``text`` as a command prints it: each line longer than ``width`` columns (the
    terminal's: :func:`terminal_width`) broken at spaces, its further rows indented two more
    than the line.  A word is never broken; a long one (a path, an invite, a key) that does
    not fit its row moves down to a row of its own; a command to type is kept whole, to be
    copied as one: a line that shows one (``fairtable ...`` after its indent), one that ends
    a line (``to check it: fairtable audit ...``) or one quoted in it (``'fairtable
    simulate --help'``)."""
    width = terminal_width() if width is None else width
    return "\n".join(row for line in text.split("\n") for row in _line_rows(line, width))


SPLIT_MARK = "\u21a9"  # ends a row that breaks a word too long for any row: it goes on below


def word_rows(row: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    """One styled line broken at spaces into rows of at most ``width`` columns, as
    :func:`client.room.wrapped` breaks plain text: further rows indented by two.  Only a
    word longer than a row is broken, and the row it is broken on ends with
    :data:`SPLIT_MARK`, so no word is split silently."""
    chars = [(style, ch) for style, text in row for ch in text]
    if len(chars) <= width or width < 8:
        return [row]
    pieces: list[tuple[str, list[tuple[str, str]], bool]] = []
    start, indent = 0, ""
    while len(chars) - start + len(indent) > width:
        limit = start + width - len(indent)
        cut = next((i for i in range(limit, start, -1) if chars[i][1] == " "), None)
        if cut is None:  # one word fills the row: split it, marked
            pieces.append((indent, chars[start : limit - 1], True))
            start = limit - 1
        else:
            pieces.append((indent, chars[start:cut], False))
            start = cut + 1
        indent = "  "
    pieces.append((indent, chars[start:], False))
    out: list[list[tuple[str, str]]] = []
    for lead, part, split in pieces:
        frags: list[tuple[str, str]] = [("", lead)] if lead else []
        for style, ch in part:
            if frags and frags[-1][0] == style:
                frags[-1] = (style, frags[-1][1] + ch)
            else:
                frags.append((style, ch))
        if split:
            frags.append(("class:dim", SPLIT_MARK))
        out.append(frags)
    return out


CUT_MARK = "\u2026"  # ends a name shortened to a column too narrow for it (shortened)

_LOOSE_ENDS = frozenset({"a", "an", "and", "of", "the", "to"})
"""Words a shortened name does not end on ("Cannon of the..." reads as "Cannon...")."""


def shortened(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns for a column that cannot hold it: whole when it
    fits, else cut after its last whole word that fits (without a trailing comma or a
    dangling "of", "the") and marked with :data:`CUT_MARK` -- one visible mark, never a cut
    mid-word unless its first word alone is too long ("Reassembly Protocol" in 14 columns
    is "Reassembly\u2026")."""
    if len(text) <= width:
        return text
    if width < 2:
        return CUT_MARK[:width]
    words, kept = text.split(" "), ""
    for count in range(len(words) - 1, 0, -1):
        head = words[:count]
        while head and head[-1].lower().strip(",;:") in _LOOSE_ENDS:
            head.pop()
        candidate = " ".join(head).rstrip(",;:-'")
        if candidate and len(candidate) < width:
            kept = candidate
            break
    return (kept or text[: width - 1].rstrip(" ,;:-'")) + CUT_MARK


def listed(head: str, items: Sequence[str], sep: str, width: int | None) -> str:
    """``head`` and ``items`` joined by ``sep`` (", ", " | "): one line when it fits
    ``width`` columns (always when ``width`` is None: read aloud, not drawn), else rows broken
    at the separators -- an item moves whole to the next row, indented two past the head's
    indent, rather than be broken inside a card's name; the row before keeps the separator's
    mark (","). Only an item longer than a row is left to :func:`word_rows` to break."""
    if width is None:
        return head + sep.join(items)
    indent = " " * (len(head) - len(head.lstrip(" ")) + 2)
    rows: list[str] = []
    row = head
    mark = sep.rstrip()  # ends a row the list goes on from
    for i, item in enumerate(items):
        more = len(mark) if i < len(items) - 1 else 0
        if i == 0 or len(row) + len(sep) + len(item) + more <= width:
            row += (sep if i else "") + item
        else:
            rows.append(row + mark)
            row = indent + item
    return "\n".join([*rows, row])


def plain_rows(chunks: Sequence[str], width: int = TERMINAL_WIDTH) -> list[str]:
    """``chunks`` (words, or a path that must stay whole) joined by spaces into rows of at
    most ``width`` columns, further rows indented by two.  A chunk is never broken: one
    longer than a row stands alone on its row, whole, so that a copied path still works."""
    rows: list[str] = []
    row = ""
    for chunk in chunks:
        if not row:
            row = ("  " if rows else "") + chunk
        elif len(row) + 1 + len(chunk) <= width:
            row += " " + chunk
        else:
            rows.append(row)
            row = "  " + chunk
    return [*rows, row] if row or not rows else rows


def verdict_rows(verdict: str, path: str, summary: str, width: int = TERMINAL_WIDTH) -> list[str]:
    """``VERDICT PATH: SUMMARY`` (``fairtable audit``'s answer) in rows of at most ``width``
    columns, broken at spaces: one row when it fits; a path too long to share the first row
    with the verdict stands alone on the next row (no colon after it), whole, and the
    summary follows on rows of its own."""
    words = summary.split()
    if len(f"{verdict} {path}:") <= width:
        return plain_rows([verdict, f"{path}:", *words], width)
    rest = plain_rows(words, width - 2) if words else []
    return [verdict, f"  {path}", *(f"  {rest[0]}" for _ in rest[:1]), *rest[1:]]


def said_on(stream: TextIO | None, text: str) -> str:
    """``text`` as it is written to ``stream``: folded at words to its width when the stream
    is a terminal (:func:`fold`), as it is otherwise -- a log or a script reading the stream
    finds each line as it was written."""
    try:
        folding = stream is not None and stream.isatty()
    except (OSError, ValueError, AttributeError):
        folding = False
    return fold(text, terminal_width(stream)) if folding else text
