"""The help (F1) a page at a time, where it is longer than its pane.

At 80x24 the decision pane has about eight rows, and the help of a busy decision (Sodalis'
turn, with the legend of the champion lines) takes a dozen: :func:`help_page` shows the rows
from ``top`` on and says on its last row what is above and below and which key shows it
(PgUp/PgDn, while the help shows; the screen's bindings move ``ScreenModel.help_top`` by
:func:`page_step`).  Nothing is cut silently, and every row of the help can be read.
"""

from __future__ import annotations

__all__ = ["help_page", "page_step"]


def _rows(line: str, width: int) -> int:
    return 1 + max(0, len(line) - 1) // max(1, width)


def page_step(room: int) -> int:
    """Lines PgDn/PgUp move the help by in a pane of ``room`` rows: a page less one, so the
    last line read stays in sight."""
    return max(1, room - 2)


def help_page(text: str, room: int, width: int, top: int) -> tuple[str, int]:
    """The part of ``text`` (already broken into lines of at most ``width`` columns, but for
    a single long word) that ``room`` rows show from line ``top`` on, with a last row saying
    what is above and below; and ``top`` as used (kept between the first and the last page).
    Text that fits is shown whole, and ``top`` given back as it was (the screen measures the
    whole help in a pane without end: that keeps the page read)."""
    lines = text.split("\n")
    if sum(_rows(line, width) for line in lines) <= room:
        return text, top
    avail = max(1, room - 1)  # the last row says what else there is

    def end_from(start: int) -> int:
        end, used = start, 0
        while end < len(lines) and used + _rows(lines[end], width) <= avail:
            used += _rows(lines[end], width)
            end += 1
        return max(end, start + 1)  # a line longer than the pane still shows (cut by it)

    last = len(lines) - 1
    while last > 0 and end_from(last - 1) == len(lines):
        last -= 1  # the first line of the last page
    top = max(0, min(top, last))
    end = end_from(top)
    above, below = top, len(lines) - end
    said = []
    if above:
        said.append(f"+{above} above: PgUp")
    if below:
        said.append(f"+{below} more: PgDn")
    note = "(" + ", ".join(said) + ("" if below else "; the end of the help") + ")"
    return "\n".join([*lines[top:end], note]), top
