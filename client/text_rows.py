"""Styled text broken into screen rows at word boundaries (the panes' line breaking)."""

from __future__ import annotations

__all__ = ["word_rows"]


def word_rows(row: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    """One styled line broken at spaces into rows of at most ``width`` columns, as
    :func:`client.room.wrapped` breaks plain text: further rows indented by two; a word
    longer than a row is broken where it must."""
    chars = [(style, ch) for style, text in row for ch in text]
    if len(chars) <= width or width < 8 or " " not in "".join(c for _, c in chars).strip():
        return [row]
    pieces: list[tuple[str, list[tuple[str, str]]]] = []
    start, indent = 0, ""
    while len(chars) - start + len(indent) > width:
        limit = start + width - len(indent)
        cut = next((i for i in range(limit, start, -1) if chars[i][1] == " "), None)
        end, start_next = (limit, limit) if cut is None else (cut, cut + 1)
        pieces.append((indent, chars[start:end]))
        start, indent = start_next, "  "
    pieces.append((indent, chars[start:]))
    out: list[list[tuple[str, str]]] = []
    for lead, part in pieces:
        frags: list[tuple[str, str]] = [("", lead)] if lead else []
        for style, ch in part:
            if frags and frags[-1][0] == style:
                frags[-1] = (style, frags[-1][1] + ch)
            else:
                frags.append((style, ch))
        out.append(frags)
    return out
