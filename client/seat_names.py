"""Players' names on the screen: "Ann" where the game's words say "seat 1".

The games' words (client/<game>/words.py, the panes, the log, the status line) name seats by
number, as the engine does; a player who gave a name (``--name``, signed by their seat: see
``netplay.name_problem``) is shown by it instead.  :class:`SeatNames` does that as the last step
before text reaches the screen, in one place: every "seat N" / "Seat N" of a named seat
becomes the name ("seat 2's army" -> "Ann's army").  Two things keep seat numbers:

* a name two seats share is shown as it is for the first of them and with a number for
  the others ("ada", "ada 2"), in seat order, so every screen tells them apart alike;
* "(seat N)" in brackets is already a label beside a name or a champion: it stays;
* "seat N of M" counts the seats (``The game starts: you are seat 0 of 3``): it stays.

In the log and in the options of a decision (:meth:`SeatNames.log_text`) a name is shown
without the bracket that ends it ("Mira (heuristic)" -> "Mira": a bot's strength), which the
places that list the seats (Reign's and Sodalis's table panes, the lobby) keep, so that a busy
table's lines do not wrap and an option names a seat as the log does; where two seats' names
would then read alike, both keep their brackets.  Sovereign's table pane, whose summary row
per seat must fit its 41 columns, names seats as the log does.  A name with a bracket after
it (Sodalis's "seat 1 (the Tempest)", Reign's "seat 2 (Regent)") is shown short everywhere:
"Blaise (the Tempest)", never two brackets in a row.

Our own seat (``you``: the seat this screen plays) is "you" everywhere, as the games' own
words already call it, whether the text comes from the game or from the network ("seat 0
ran out of time" -> "you ran out of time", "seat 0's turn" -> "your turn", "seat 0 is
offline" -> "you are offline"), never our name nor our number.

Names are checked before they get here (printable, no terminal escapes, never a word such
as "seat 2" or "you"), so a name can never pass itself off as a seat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only a type: headless commands never load prompt_toolkit
    from prompt_toolkit.formatted_text import StyleAndTextTuples

__all__ = ["SeatNames", "at_the_table", "host_words"]

_SEAT = re.compile(r"(?<![(\w])([Ss])eat (\d+)\b(?! of \d)('s\b| is\b| was\b| has\b)?")
_YOUR = {"'s": "r", " is": " are", " was": " were", " has": " have"}
"""What follows "you" where our seat is named: its possessive, its verbs in the plural."""


class SeatNames:
    """Each seat's player name ("" where none was given)."""

    def __init__(self, names: Sequence[str] = (), you: int | None = None) -> None:
        self.names = tuple(names)
        self.you = you  # our own seat, called "you" (None: a spectator's or a replay's words)
        self._labels = _labels(self.names)
        self._short = _short(self._labels)

    def __bool__(self) -> bool:
        return bool(self._labels)

    def named(self, seat: int) -> bool:
        """Whether the seat's player gave a name (or has one of the profile's)."""
        return seat in self._labels

    def label(self, seat: int) -> str:
        """The seat as the screen calls it: its name, or "seat N"."""
        return self._labels.get(seat, f"seat {seat}")

    def text(self, line: str) -> str:
        """``line`` with every named seat called by its name, and our own seat "you"."""
        if not self._labels and self.you is None:
            return line
        return _SEAT.sub(self._named, line)

    def log_text(self, line: str) -> str:
        """As :meth:`text`, with names called without their closing bracket ("Mira"): the
        log's and the options' words."""
        if not self._labels and self.you is None:
            return line
        return _SEAT.sub(lambda match: self._named(match, self._short), line)

    def fitted(self, line: str, width: int) -> str:
        """``line`` named to fit ``width`` columns: as :meth:`text` where it fits, else with
        names without their closing bracket (:meth:`log_text`), else cut with a mark -- never
        cut silently (the status line: "waiting for Blaise, Ada, Cyra")."""
        for named in (self.text(line), self.log_text(line)):
            if len(named) <= width:
                return named
        return named[: max(0, width - 1)] + "…"

    def fragments(self, fragments: StyleAndTextTuples) -> StyleAndTextTuples:
        """Formatted text with every named seat called by its name (styles kept)."""
        if not self._labels and self.you is None:
            return fragments
        return [(frag[0], self.text(frag[1]), *frag[2:]) for frag in fragments]

    def _named(self, match: re.Match[str], labels: dict[int, str] | None = None) -> str:
        seat, after = int(match.group(2)), match.group(3) or ""
        if seat == self.you:
            return ("Y" if match.group(1) == "S" else "y") + "ou" + _YOUR.get(after, after)
        if labels is None and match.string.startswith(" (", match.end()) and not after:
            labels = self._short  # a bracket follows (Sodalis's champion): not two in a row
        label = (self._labels if labels is None else labels).get(seat)
        return match.group(0) if label is None else label + after


def _labels(names: Sequence[str]) -> dict[int, str]:
    """Each named seat's label: its name, or -- for the second, third ... seat of a name
    another seat took first -- the name and a number ("ada 2"), never one a seat has."""
    taken = set(names)
    labels: dict[int, str] = {}
    for seat, name in enumerate(names):
        if not name:
            continue
        label, more = name, 1
        while label in labels.values() or (label != name and label in taken):
            more += 1
            label = f"{name} {more}"
        labels[seat] = label
    return labels


def _short(labels: dict[int, str]) -> dict[int, str]:
    """Each label without the bracket that ends it ("Mira (heuristic)" -> "Mira"), kept
    whole where the short one would read as another seat's."""
    short = {seat: re.sub(r" \([^()]*\)$", "", label) or label for seat, label in labels.items()}
    shared = [name for name in short.values() if list(short.values()).count(name) > 1]
    taken = set(labels.values())
    return {
        seat: labels[seat] if name in shared or (name != labels[seat] and name in taken) else name
        for seat, name in short.items()
    }


def at_the_table(names: Sequence[str]) -> str:
    """One log line naming who sits where ("At the table: Ann (seat 0), seat 1, ...")."""
    labels = _labels(names)
    return "At the table: " + ", ".join(
        f"{labels[seat]} (seat {seat})" if seat in labels else f"seat {seat}"
        for seat in range(len(names))
    )


def host_words(name: str, fingerprint: str) -> str:
    """The host of a table the LAN announces, as a list of tables shows it: its player's
    name and the start of its key ("ada (key cafc6d0a)"), or the key alone without a name."""
    return f"{name} (key {fingerprint[:8]})" if name else f"key {fingerprint[:16]}"
