"""Text broken into rows at word boundaries: styled text for the screen's panes
(:func:`word_rows`), and plain lines a command prints (:func:`plain_rows`)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["SPLIT_MARK", "TERMINAL_WIDTH", "plain_rows", "verdict_rows", "word_rows"]

TERMINAL_WIDTH = 80
"""The columns a command's printed lines keep within (a terminal folds longer ones
mid-word, and a mouse copy then carries the fold)."""

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
