"""Styled text broken into screen rows at word boundaries (the panes' line breaking)."""

from __future__ import annotations

__all__ = ["SPLIT_MARK", "word_rows"]

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
