"""``table.json``: what a seat keeps about one table of its own, as one typed record.

:class:`TableInfo` owns the file's fields; nothing else reads or writes them by key.  It is
read with :meth:`TableInfo.parse` (a file that is no table description raises
:class:`TableInfoError`, naming the file and the field) and written with
:meth:`TableInfo.encode`, whose bytes are the ones the peer has always written: the fields
present, keys sorted, indented by one.  A field a peer never set stays out of the file, and
a key this version does not know is kept as it was, so an older or a newer file survives
being rewritten.

The fields: ``invite`` (its text), ``role`` (a :class:`TableRole`, written as its word:
``"host"`` or ``"joiner"``), ``kind`` (a
:class:`TableKind`, written as its word: ``"play"``, a game against bots at this terminal;
``"host"``, hosted on the LAN; ``"join"``, a seat at someone else's table; none in folders
made before kinds were kept),
``status`` (a :class:`TableStatus` while unfinished, written as its word: ``"lobby"`` or
``"playing"``; once ended, the words of how it ended), ``created`` and ``last_played``
(Unix times), ``port`` (the one we listened on), ``start`` (the host's signed start, hex)
and our ``seat``, ``bots`` and ``bot_specs`` (the bots this terminal brought), the public
summary ``round`` and ``turn`` (the seats a decision is awaited from, or :data:`TURN_OVER`), and
``end``/``resigned`` for a game given up, ``end``/``flagged``/``end_step`` for one a clock
ended (the verdict's kind, the seat and the step, to show: the clocks are not in the log) with
``time_notice``, the signed time notice that verdict rests on (hex), which is what ``audit``
takes the clock's end from.  Only public facts: never a card, a hand or a secret.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any

import attrs

import fairtable.protocol as P

from ..table import Invite
from ._storage import StorageError, TableFolder, _write_private

__all__ = [
    "TURN_OVER",
    "UNFINISHED",
    "TableInfo",
    "TableInfoError",
    "TableKind",
    "TableRole",
    "TableStatus",
    "keep_bots",
    "set_aside",
]


class TableStatus(StrEnum):
    """Where an unfinished table is; the value is the word ``table.json`` keeps as ``status``
    (an ended table's status is the words of how it ended, kept as text)."""

    LOBBY = "lobby"  # seats still filling, the game not started
    PLAYING = "playing"  # the signed start is kept: the game is under way


UNFINISHED = (TableStatus.LOBBY, TableStatus.PLAYING)
"""The ``status`` values of a table that has not ended."""

TURN_OVER = "over"
"""The ``turn`` ``table.json`` keeps once the game is over (its end not yet settled)."""


class TableKind(StrEnum):
    """What a table of ours is; the value is the word ``table.json`` keeps as ``kind``."""

    PLAY = "play"  # a game against bots at this terminal
    HOST = "host"  # hosted on the LAN
    JOIN = "join"  # a seat at someone else's table


class TableRole(StrEnum):
    """Our part at a table; the value is the word ``table.json`` keeps as ``role``."""

    HOST = "host"  # we host it
    JOINER = "joiner"  # we took a seat at it


class TableInfoError(StorageError):
    """A ``table.json`` that is not a table description; the message says which file and why."""


def _text(value: Any) -> bool:
    """text"""
    return type(value) is str


def _whole(value: Any) -> bool:
    """a whole number"""
    return type(value) is int


def _time(value: Any) -> bool:
    """a time (seconds since 1970, before the year 36000)"""
    return type(value) in (int, float) and 0 <= value <= 1 << 40


def _kind(value: Any) -> bool:
    """one of the words play, host or join"""
    return type(value) is str and value in set(TableKind)


def _role(value: Any) -> bool:
    """one of the words host or joiner"""
    return type(value) is str and value in set(TableRole)


def _hex(value: Any) -> bool:
    """lower-case hex digits"""
    return (
        type(value) is str and len(value) % 2 == 0 and all(c in "0123456789abcdef" for c in value)
    )


def _words(value: Any) -> bool:
    """a list of words"""
    return type(value) is list and all(type(s) is str for s in value)


def _turn(value: Any) -> bool:
    """a list of seats or a word"""
    return type(value) is str or (type(value) is list and all(type(s) is int for s in value))


_SHAPES: dict[str, Callable[[Any], bool]] = {
    "invite": _text,
    "start": _text,
    "status": _text,
    "role": _role,
    "kind": _kind,
    "end": _text,
    "seat": _whole,
    "port": _whole,
    "bots": _whole,
    "bot_specs": _words,
    "resigned": _whole,
    "flagged": _whole,
    "end_step": _whole,
    "time_notice": _hex,
    "round": _whole,
    "created": _time,
    "last_played": _time,
    "turn": _turn,
}
"""What each field must hold when present (a crafted file's other shapes are refused here,
not by whichever reader meets them first)."""


def _kind_of(value: str | None) -> TableKind | None:
    return None if value is None else TableKind(value)


def _role_of(value: str | None) -> TableRole | None:
    return None if value is None else TableRole(value)


def _specs_of(value: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _turn_of(value: Sequence[int] | str | None) -> tuple[int, ...] | str | None:
    return value if value is None or isinstance(value, str) else tuple(value)


@attrs.frozen(kw_only=True)
class TableInfo:
    """One table's ``table.json`` (None: the field is not in the file)."""

    invite: str | None = None
    role: TableRole | None = attrs.field(default=None, converter=_role_of)
    kind: TableKind | None = attrs.field(default=None, converter=_kind_of)
    status: str | None = None
    created: float | None = None
    last_played: float | None = None
    port: int | None = None
    start: str | None = None
    seat: int | None = None
    bots: int | None = None
    bot_specs: tuple[str, ...] | None = attrs.field(default=None, converter=_specs_of)
    round: int | None = None
    turn: tuple[int, ...] | str | None = attrs.field(default=None, converter=_turn_of)
    end: str | None = None
    resigned: int | None = None
    flagged: int | None = None
    end_step: int | None = None
    time_notice: str | None = None
    unknown: Mapping[str, Any] = attrs.field(factory=dict, repr=False)
    """Keys this version does not know, written back as they were read."""

    @classmethod
    def parse(cls, data: bytes, source: str) -> TableInfo:
        """The description in ``data`` (the bytes of the file ``source``); :class:`TableInfoError`
        if they are no table description."""
        try:
            raw = P.read_json(data, f"saved table {source}")
        except P.UntrustedInput as exc:  # crafted nesting, numbers, strings, bytes
            raise TableInfoError(f"{source}: cannot be read ({exc.why})") from None
        if not isinstance(raw, dict):
            raise TableInfoError(f"{source}: not a table description")
        known: dict[str, Any] = {}
        unknown: dict[str, Any] = {}
        for name, value in raw.items():
            shape = _SHAPES.get(name)
            if shape is None:
                unknown[name] = value
            elif value is None and name == "round":
                continue  # a game without rounds: as if never set
            elif not shape(value):
                raise TableInfoError(
                    f"{source}: not a table description (its {name!r} is not {shape.__doc__})"
                )
            else:
                known[name] = value
        return cls(**known, unknown=unknown)

    def encode(self) -> bytes:
        """The file's bytes: the fields present, keys sorted, indented by one."""
        fields: dict[str, Any] = dict(self.unknown)
        for field in attrs.fields(TableInfo):
            value = getattr(self, field.name)
            if field.name != "unknown" and value is not None:
                fields[field.name] = list(value) if type(value) is tuple else value
        return json.dumps(fields, sort_keys=True, indent=1).encode("utf-8")

    @classmethod
    def load(cls, folder: TableFolder) -> TableInfo:
        """The ``table.json`` of ``folder``: :class:`TableInfoError` if it is no table
        description, :class:`~netplay.StorageError` if it cannot be read at all."""
        path = folder.info_path
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise StorageError(f"{path}: cannot be read ({exc})") from None
        return cls.parse(data, str(path))

    def save(self, folder: TableFolder) -> None:
        """Write this as ``folder``'s ``table.json`` (fsynced, mode 0600)."""
        try:
            _write_private(folder.info_path, self.encode())
        except OSError as exc:
            raise StorageError(f"{folder.info_path}: {exc.strerror}") from None

    def but(self, **changes: Any) -> TableInfo:
        """This description with ``changes`` (field names) made."""
        return attrs.evolve(self, **changes)

    def parsed_invite(self) -> Invite:
        """The table's invite (:class:`~netplay.InviteError` if it has none, or a bad one)."""
        return Invite.parse(self.invite or "")

    @property
    def unfinished(self) -> bool:
        """Whether the table has not ended (it is in its lobby or being played)."""
        return self.status in UNFINISHED

    @property
    def in_lobby(self) -> bool:
        """Whether the table is in its lobby (its game not started)."""
        return self.status == TableStatus.LOBBY

    @property
    def playing(self) -> bool:
        """Whether the table's game is under way."""
        return self.status == TableStatus.PLAYING

    @property
    def game_over(self) -> bool:
        """Whether the summary says the game is over (its end not yet settled)."""
        return self.turn == TURN_OVER

    @property
    def hosted(self) -> bool:
        """Whether we host this table."""
        return self.role is TableRole.HOST


def keep_bots(folder: TableFolder, specs: Sequence[str]) -> None:
    """Record the bots this terminal brings to the table, one spec each (a resume brings
    them again)."""
    TableInfo.load(folder).but(bots=len(specs), bot_specs=tuple(specs)).save(folder)


def set_aside(folder: TableFolder, status: str) -> bool:
    """Take a table still in its lobby, never started, off the resume list: its status
    becomes ``status`` (``"given up"``, ``"never reached"``).  Whether it was such a table
    (one that started keeps its status: it ends by its game)."""
    info = TableInfo.load(folder)
    if not info.in_lobby or info.start is not None:
        return False
    info.but(status=status).save(folder)
    return True
