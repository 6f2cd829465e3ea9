"""Typing a Sovereign ``finish_forge`` answer part by part.

The menu lists at most ``MENU_LIMIT`` answers, and the end of a forge phase (first health of
each newly forged unit, their lanes, hosts of loose augments) can have many more, so some
legal answers would be out of reach.  As Reign's model builds multi-card answers, the player
types the parts, then ``done``:

- ``health N T D``: newly forged unit N gets T talents and D drones of first health;
- ``lane N L|C``: unit N goes to the Leader (L) or Citadel (C) lane, after those typed before;
- ``attach N M``: loose augment N onto its M-th possible host (0: scrap it, when it has none);
- ``clear`` forgets what was typed; ``done`` sends the answer, parts not typed taken from the
  suggestion (menu #1).  The model checks it like any answer: a refusal changes nothing.

The five words are the members of :class:`Part`: the model's shortcuts are keyed by them, and
a typed word is read into its member once (:func:`typed_answer`), then dispatched on.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import attrs

from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign.decisions import FinishForgeInfo, SovereignDecisionKind
from fairtable.engine.sovereign.flow import host_options
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.words import word_of

LANES = {"l": 0, "c": 1, "leader": 0, "citadel": 1}
"""The lane a typed ``lane N`` names (0: the Leader's lane, 1: the Citadel's)."""


class Part(StrEnum):
    """A word that builds a finish answer part by part."""

    HEALTH = "health"
    LANE = "lane"
    ATTACH = "attach"
    CLEAR = "clear"
    DONE = "done"


@attrs.define
class FinishDraft:
    """The parts of a finish answer typed so far (numbers are 1-based, as shown)."""

    health: dict[str, tuple[int, int]] = attrs.Factory(dict)
    lanes: list[tuple[str, int]] = attrs.Factory(list)
    attach: dict[str, str] = attrs.Factory(dict)

    def words(self) -> str:
        parts = [
            f"{len(self.health)} health",
            f"{len(self.lanes)} lanes",
            f"{len(self.attach)} hosts",
        ]
        return "Finish so far: " + ", ".join(parts) + "; 'done' to send, 'clear' to restart."


def _number(word: str, count: int, low: int = 1) -> int | None:
    return int(word) if word.isdecimal() and low <= int(word) <= count else None


def edit(
    draft: FinishDraft, d: Decision, state: SovereignState, part: Part, words: list[str]
) -> str:
    """Apply one typed part to ``draft``; returns the one-line message (the draft is left
    unchanged when the part is refused)."""
    info = d.info
    if not isinstance(info, FinishForgeInfo):
        return (
            f"'{part}' builds the end of a forge phase; this is a "
            f"{d.kind.replace('_', ' ')} decision."
        )
    new, loose = list(info.new_units), list(info.loose)
    match part:
        case Part.CLEAR:
            draft.health.clear()
            draft.lanes.clear()
            draft.attach.clear()
            return "Finish cleared."
        case Part.HEALTH:
            n = _number(words[0], len(new)) if len(words) == 3 else None
            if n is None or not words[1].isdecimal() or not words[2].isdecimal():
                return f"health N T D: N a new unit (1 to {len(new)}), T talents, D drones."
            draft.health[new[n - 1]] = (int(words[1]), int(words[2]))
        case Part.LANE:
            n = _number(words[0], len(new)) if len(words) == 2 else None
            if n is None or words[1] not in LANES:
                return f"lane N L|C: N a new unit (1 to {len(new)}), L Leader lane, C Citadel lane."
            draft.lanes = [p for p in draft.lanes if p[0] != new[n - 1]]
            draft.lanes.append((new[n - 1], LANES[words[1]]))
        case Part.ATTACH:
            return _attach(draft, state, loose, words)
    return draft.words()  # Part.DONE is typed_answer's: it sends the answer


def _attach(draft: FinishDraft, state: SovereignState, loose: list[str], words: list[str]) -> str:
    n = _number(words[0], len(loose)) if len(words) == 2 else None
    hosts = host_options(state, loose[n - 1]) if n is not None else []
    m = _number(words[1], len(hosts), 0 if not hosts else 1) if n is not None else None
    if n is None or m is None:
        return (
            f"attach N M: N a loose augment (1 to {len(loose)}), M its host (1 to "
            f"{len(hosts)}; 0 scraps it when it has none)."
            if loose
            else "There is no loose augment to attach."
        )
    draft.attach[loose[n - 1]] = hosts[m - 1] if m else ""
    return draft.words()


def build(
    draft: FinishDraft, d: Decision, state: SovereignState, suggestion: A.FinishForge
) -> A.FinishForge:
    """The typed parts, completed from ``suggestion`` where nothing was typed."""
    info = FinishForgeInfo.of(d)
    new = list(info.new_units)
    health = dict((r, (t, dr)) for r, t, dr in suggestion.health) | draft.health
    lanes: tuple[tuple[str, int], ...] = suggestion.lanes
    if draft.lanes:
        typed = {r for r, _ in draft.lanes}
        where = dict(suggestion.lanes) or {
            r: lane for lane, refs in enumerate(state.boards[d.seat].lanes) for r in refs
        }
        lanes = tuple(draft.lanes) + tuple((r, where.get(r, 0)) for r in new if r not in typed)
    attach = dict(suggestion.attach) | draft.attach
    return A.FinishForge(
        d.seat,
        tuple((r, *health[r]) for r in new if r in health),
        lanes,
        tuple((g, attach[g]) for g in info.loose if g in attach),
    )


def typed_answer(
    draft: FinishDraft,
    d: Decision,
    state: SovereignState,
    suggestion: Any,
    word: str,
    words: list[str],
) -> Any:
    """The shortcut: ``done`` gives the answer to check and send, other words a message."""
    part = word_of(Part, word)
    if part is None:
        return f"'{word}' is none of {', '.join(Part)}."
    if part is not Part.DONE:
        return edit(draft, d, state, part, words)
    if d.kind != SovereignDecisionKind.FINISH_FORGE:
        return (
            f"'done' ends the finish of a forge phase; this is a "
            f"{d.kind.replace('_', ' ')} decision."
        )
    return build(draft, d, state, suggestion)
