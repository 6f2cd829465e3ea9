"""``fairtable replay``: a finished table's log, step by step, and its exported record.

This module owns reading the table (a ``simulate --log`` file, or a seat's or a relay's
table folder, as ``fairtable audit`` reads it), replaying it (:func:`protocol.replay_log`),
the words of every step (the game's own screen model, as a spectator -- seat None -- sees
them) and the export.  ``--export FILE`` writes three files beside each other (FILE's
suffix, if ``.txt``, ``.jsonl`` or ``.log``, is dropped to name them):

- ``NAME.txt``: a header, then one line per step: index, engine step, round, who answered
  what, the step's public events in words, and its public digest; the ending last.
- ``NAME.jsonl``: a header object, one object per step (``index``, ``step``, ``round``,
  ``seat``, ``seats``, ``decision``, ``events``, ``words``, ``digest``, and with
  ``--open-hands`` ``hands`` by card name, as the replay screen shows them, and
  ``hand_ids`` by card id), then an ``ending`` object.

Hidden cards are named by the game's own ``card_name`` (:meth:`Record.named_hands`, which
the replay screen shows too), and a step whose events the game's words leave unsaid is
told by its event kinds in words (``overt pass``), never as a bare identifier.
- ``NAME.log``: the signed table log itself (the ``simulate --log`` format), which
  ``fairtable audit NAME.log`` checks again and ``fairtable replay NAME.log`` replays again;
  both record headers name it with its SHA-256, and the ending carries the audit's digest.

A refused log (tampered, cut) is one line naming the line and the step the game cannot
pass; nothing is written.  The console screen is :mod:`client.replay_screen`, the command
line :mod:`client.replay_cli`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import fairtable.protocol as P
from fairtable.client import games
from fairtable.client.errors import FileRefused, UsageError
from fairtable.client.seat_names import SeatNames

__all__ = ["Record", "export", "load_table", "record_for"]


def load_table(path: Path) -> tuple[P.TableSpec, list[bytes]]:
    """The spec and entries of a ``simulate --log`` file or a peer's saved table folder."""
    spec, entries, _names = load_named_table(path)
    return spec, entries


def load_named_table(path: Path) -> tuple[P.TableSpec, list[bytes], tuple[str, ...]]:
    """:func:`load_table`, with each seat's player name from a saved table's start (checked
    against its seat's key; ``""`` where none, and none at all in a ``simulate`` log)."""
    from fairtable.netplay import StorageError, saved_table

    try:
        if path.is_file() and path.read_bytes()[:1] == b"{":
            return (*P.read_log(path.read_bytes()), ())
        saved = saved_table(path)
        return saved.spec, saved.entries, saved.names
    except OSError as exc:
        raise FileRefused(f"cannot read {path}: {exc.strerror}") from None
    except P.LogError as exc:
        raise FileRefused(f"{path}: {exc}") from None
    except StorageError as exc:
        raise FileRefused(str(exc)) from None


def model_for(game: str) -> Any:
    """The game's screen model, seated nowhere (a spectator's words and panes)."""
    return games.model_for(game)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def who_answered(step: P.ReplayStep) -> str:
    """Who answered what at a step, in words (``regent discard``, not ``regent_discard``)."""
    kind = step.kind.replace("_", " ")
    if step.seat is not None:
        return f"seat {step.seat}: {kind}"
    if len(step.seats) > 1:
        return f"seats {', '.join(map(str, step.seats))}: {kind}"
    if step.seats:
        return f"{kind} for seat {step.seats[0]}"
    return kind


def ending_words(ending: P.Ending) -> str:
    if ending.kind is P.EndingKind.FINISHED:
        who = "nobody" if ending.outcome is None else ending.outcome.words()
        why = ending.reason.replace("_", " ")
        return f"game over at step {ending.step} ({why}): winner {who}"
    if ending.verdict is P.VerdictKind.INCONCLUSIVE:
        why = ending.reason.removeprefix(f"{ending.verdict}: ")
        found = "an early audit that found no seat at fault"
        return f"stopped at step {ending.step} for {found}: {why}"
    if ending.verdict is P.VerdictKind.CANNOT_FOLLOW:
        why = ending.reason.removeprefix(f"{ending.verdict}: ")
        return f"could not follow the table past step {ending.step}: {why}"
    if ending.kind is P.EndingKind.VERDICT:
        who = f"seat {ending.seat}" if ending.seat is not None else "nobody can be named"
        return f"stopped by a verdict at step {ending.step}: {who} blamed for {ending.reason}"
    if ending.kind is P.EndingKind.RESIGNED:
        return f"ended at step {ending.step}: {ending.reason}"
    return f"incomplete at step {ending.step}: {ending.reason}"


class Record:
    """A replay with every step's words (and round), ready to show or export."""

    def __init__(self, replay: P.Replay, names: tuple[str, ...] = ()) -> None:
        self.replay = replay
        self.names = SeatNames(names)  # the players' names: words call named seats by them
        self.spec = replay.spec
        self.steps = replay.steps
        self.ending = replay.ending
        model = model_for(self.spec.game)
        self.card_name = games.client_game(self.spec.game).card_name
        self.words: list[list[str]] = []
        from fairtable.netplay import ViewChanged

        for step in self.steps:
            mark = len(model.log)
            model.apply_event(ViewChanged(view=step.view, events=step.events))
            self.words.append([self.names.text(line) for line in list(model.log)[mark:]])

    def round_of(self, index: int) -> int | None:
        value = getattr(self.steps[index].view, "public", {}).get("round")
        return value if isinstance(value, int) else None

    def named_hands(self, index: int) -> dict[int, list[str]]:
        """Every seat's verified hidden cards after step ``index``, by the names the game's
        screens give them (the one naming the replay screen and the export share)."""
        return {
            seat: [self.card_name(c) for c in cards]
            for seat, cards in self.replay.open_hands(index).items()
        }

    def ending_words(self) -> str:
        """How the game ended, named seats called by their players' names ("winner Ada",
        not "winner seat 1"), as the log's words call them."""
        return self.names.text(ending_words(self.ending))

    def step_words(self, index: int) -> str:
        """A step's public events in words: the game's log lines, else its event kinds."""
        unsaid = ", ".join(e.KIND.replace("_", " ") for e in self.steps[index].events)
        return "; ".join(self.words[index]) or unsaid or "-"

    def step_object(self, index: int, *, open_hands: bool = False) -> dict[str, Any]:
        step = self.steps[index]
        out: dict[str, Any] = {
            "index": step.index,
            "step": step.serial,
            "round": self.round_of(index),
            "seat": step.seat,
            "seats": list(step.seats),
            "decision": step.kind,
            "events": _jsonable([e.as_tuple() for e in step.events]),
            "words": self.words[index],
            "digest": step.digest,
        }
        if open_hands:
            out["hands"] = {str(s): c for s, c in self.named_hands(index).items()}
            out["hand_ids"] = {str(s): c for s, c in self.replay.open_hands(index).items()}
        return out

    def step_line(self, index: int, *, open_hands: bool = False) -> str:
        step = self.steps[index]
        rnd = self.round_of(index)
        words = self.step_words(index)
        line = (
            f"{step.index:4d} step {step.serial:4d} round {rnd if rnd is not None else '-'}"
            f" | {who_answered(step)} | {words} | {step.digest[:16]}"
        )
        if open_hands:
            hands = self.named_hands(index)
            line += " | hands " + "; ".join(
                f"seat {s}: {', '.join(c) or '-'}" for s, c in hands.items()
            )
        return line


def record_for(spec: P.TableSpec, entries: list[bytes], names: tuple[str, ...] = ()) -> Record:
    try:
        return Record(P.replay_log(spec, entries), names)
    except P.ReplayError as exc:
        raise FileRefused(str(exc)) from None


def export_names(target: Path) -> tuple[Path, Path, Path]:
    base = target.with_suffix("") if target.suffix in (".txt", ".jsonl", ".log") else target
    return (
        base.with_name(base.name + ".txt"),
        base.with_name(base.name + ".jsonl"),
        base.with_name(base.name + ".log"),
    )


def _write(path: Path, data: bytes) -> None:
    """Whole or not at all: a temporary file beside it, renamed over it."""
    tmp = path.with_name(path.name + ".part")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None


def export(record: Record, target: Path, *, open_hands: bool) -> tuple[Path, Path, Path]:
    """Write the record's text, JSON lines and signed log (see the module docstring)."""
    if open_hands and not record.replay.audited:
        raise UsageError(f"--open-hands needs an audited game: this one {record.ending_words()}")
    text_path, json_path, log_path = export_names(target)
    log = P.write_log(record.spec, record.replay.entries)
    sha = hashlib.sha256(log).hexdigest()
    spec = record.spec
    header = {
        "fairtable_replay": 1,
        "game": spec.game,
        "seats": spec.seats,
        "table": spec.table_id.hex(),
        "log": log_path.name,
        "log_sha256": sha,
        "steps": len(record.steps),
        "open_hands": open_hands,
    }
    ending = {
        "ending": record.ending.kind,
        "step": record.ending.step,
        "winner": None if record.ending.outcome is None else record.ending.outcome.plain(),
        "digest": record.ending.digest,
        "seat": record.ending.seat,
        "reason": record.ending.reason,
    }
    lines = [json.dumps(header, sort_keys=True)]
    lines += [
        json.dumps(record.step_object(i, open_hands=open_hands), sort_keys=True)
        for i in range(len(record.steps))
    ]
    lines.append(json.dumps(ending, sort_keys=True))
    text = [
        f"fairtable replay of a {spec.game} table, {spec.seats} seats; signed log "
        f"{log_path.name} (sha256 {sha}); check it with: fairtable audit {log_path.name}"
    ]
    text += [record.step_line(i, open_hands=open_hands) for i in range(len(record.steps))]
    text.append(
        record.ending_words() + (f", digest {record.ending.digest}" if record.ending.digest else "")
    )
    _write(log_path, log)
    _write(json_path, ("\n".join(lines) + "\n").encode("utf-8"))
    _write(text_path, ("\n".join(text) + "\n").encode("utf-8"))
    return text_path, json_path, log_path
