"""What a table node (and a relay, and a host's join-code listener) tells the client.

Every event is a frozen attrs class here; a client matches on the classes.  The one
place that turns an event into JSON is :func:`event_json` (a plain dict: ``{"event":
<name>, <field>: <value>, ...}``) and :func:`event_line` (that dict as the one line
``--json`` prints, keys sorted, no spaces).  Those lines are a documented interface
(docs/netplay.md): a field marked :func:`_optional` is left out of the JSON while it is
None, exactly as the node left it out before events were typed.

Adding an event: write a class below with ``@_event("its_json_name")``, emit an
instance, and match on it in the client.  Nothing here reads a secret: an event carries
only what its seat may see (a ``DecisionAsked``/``ViewChanged``/``CardsShown`` carries our
own seat's view, and only a screen asks for those: ``NodeConfig.ui_events``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Generic, TypeVar, cast

import attrs

from fairtable.engine.events import Event as GameEvent
from fairtable.engine.outcome import Outcome
from fairtable.engine.requests import Decision
from fairtable.protocol import Leavers, SeenWhy, TableId, TimeLimits, VerdictKind

from .storage import TableStatus
from .table import ClockReading, LobbyId, TimeFlag

__all__ = [
    "Abandoned",
    "AnswerRefused",
    "Answered",
    "Asked",
    "BotThinking",
    "CardsShown",
    "ClockReading",
    "ClockReadings",
    "DecisionAsked",
    "Departed",
    "EVENT_CLASSES",
    "Emit",
    "FolderKnown",
    "GameOver",
    "GameStats",
    "JoinCodeRetired",
    "JoinCodeUsed",
    "Joining",
    "LinkRefused",
    "LobbyUpdate",
    "NoLanAddress",
    "NodeEvent",
    "PlayerNames",
    "Refused",
    "RelayCodeGone",
    "RelayOpen",
    "Resigned",
    "Resuming",
    "SeatOffline",
    "SeatOnline",
    "SeatWaiting",
    "Seated",
    "Staying",
    "StepDone",
    "TableOpen",
    "TimeClaim",
    "Unreachable",
    "Vanishing",
    "Verdict",
    "ViewChanged",
    "WaitingFor",
    "WrongJoinCode",
    "event_json",
    "event_line",
]

EVENT_CLASSES: dict[str, type[NodeEvent]] = {}
"""Every event class by its JSON name."""


class NodeEvent:
    """The base of every event: ``EVENT`` is its name in JSON (``{"event": EVENT}``)."""

    EVENT: ClassVar[str] = ""


Emit = Callable[[NodeEvent], None]


_T = TypeVar("_T", bound=type[NodeEvent])
GameView = TypeVar("GameView")
"""The game's view type (``ContractGame[State, View]``'s ``View``: ``ReignView``, ...)."""


def _event(name: str) -> Callable[[_T], _T]:
    """Name an event class in JSON and register it."""

    def register(cls: _T) -> _T:
        cls.EVENT = name
        EVENT_CLASSES[name] = cls
        return cls

    return register


def _optional() -> Any:
    """A field left out of the JSON while it is None."""
    return attrs.field(default=None, metadata={"optional": True})


def _written_as(name: str, plain: Callable[[Any], Any]) -> dict[str, Any]:
    """Field metadata: the JSON names the field ``name`` and writes ``plain(value)`` (a typed
    field whose JSON form predates its type)."""
    return {"json": (name, plain)}


def _time_flag(kind: str) -> TimeFlag:
    return TimeFlag(kind)


def _hex(value: bytes | None) -> str:
    return "" if value is None else value.hex()


def _limits_plain(limits: TimeLimits | None) -> dict[str, int] | None:
    """A table's time limits as the JSON has always had them (milliseconds by name)."""
    return None if limits is None else limits.option()


def _limits() -> Any:
    """A field holding the table's :class:`~protocol.TimeLimits` (None: not known yet)."""
    return attrs.field(default=None, metadata=_written_as("clock", _limits_plain))


def _game_events(events: Iterable[GameEvent]) -> tuple[GameEvent, ...]:
    return tuple(events)


def _stored_events(events: tuple[GameEvent, ...]) -> tuple[tuple[Any, ...], ...]:
    """The game's events as JSON writes them: each record's stored tuple ``(KIND, *fields)``."""
    return tuple(e.as_tuple() for e in events)


def _cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(cards)


def _readings(readings: Iterable[ClockReading]) -> tuple[ClockReading, ...]:
    return tuple(readings)


def event_json(event: NodeEvent) -> dict[str, Any]:
    """The event as the JSON object ``--json`` prints (values as they are: not copied)."""
    found: dict[str, Any] = {"event": event.EVENT}
    for field in attrs.fields(cast(Any, type(event))):
        value = getattr(event, field.name)
        if value is None and field.metadata.get("optional"):
            continue
        name, plain = field.metadata.get("json", (field.name, None))
        found[name] = value if plain is None else plain(value)
    return found


def event_line(event: NodeEvent) -> str:
    """The one JSON line ``--json`` prints for ``event``."""
    return json.dumps(event_json(event), sort_keys=True, separators=(",", ":"))


@attrs.frozen
class GameStats:
    """How a game went over the network, for bench/netplay.py: when it ended (monotonic
    seconds), what we sent, and per step when we decided it (and what) and when it was
    applied."""

    at: float
    messages: int
    bytes: int
    decided: tuple[tuple[int, float, str], ...]  # (step, when, decision kind)
    applied: tuple[tuple[int, float], ...]  # (step, when)

    def plain(self) -> dict[str, Any]:
        """As the JSON line has always had it (steps as text keys)."""
        return {
            "at": self.at,
            "messages": self.messages,
            "bytes": self.bytes,
            "decided": {str(step): (when, kind) for step, when, kind in self.decided},
            "applied": {str(step): when for step, when in self.applied},
        }


def _stats_plain(stats: GameStats | None) -> dict[str, Any] | None:
    return None if stats is None else stats.plain()


def _readings_plain(readings: tuple[ClockReading, ...]) -> list[dict[str, Any]]:
    return [attrs.asdict(r) for r in readings]


# -- forming the table ------------------------------------------------------------------------
@_event("table_open")
@attrs.frozen
class TableOpen(NodeEvent):
    """We host: the invite, the table's time limits, and the LAN join code if announced;
    ``leavers``: what the table does when a seat vanishes (the invite says it to joiners)."""

    invite: str
    clock: TimeLimits | None = _limits()
    code: str | None = _optional()
    code_via: str | None = _optional()
    """The relay (``HOST:PORT``) the code works through, if one holds it."""
    code_lan: bool | None = _optional()
    """Whether the code is announced on the LAN (it works there); None: no word (it is)."""
    leavers: Leavers = Leavers.END


@_event("joining")
@attrs.frozen
class Joining(NodeEvent):
    """We join the table this invite names; ``leavers``: what the table does when a seat
    vanishes, as its invite says (its signed start must say the same, or we refuse it)."""

    invite: str
    leavers: Leavers = Leavers.END


@_event("resuming")
@attrs.frozen
class Resuming(NodeEvent):
    """A table of ours on disk goes on (its public summary); in JSON its lobby id is the
    ``table``, in hex."""

    lobby_id: LobbyId = attrs.field(metadata=_written_as("table", bytes.hex))
    game: str
    status: TableStatus = attrs.field(converter=TableStatus)  # lobby or playing
    started: float
    round: int | None = None


@_event("no_lan_address")
@attrs.frozen
class NoLanAddress(NodeEvent):
    message: str


@_event("unreachable")
@attrs.frozen
class Unreachable(NodeEvent):
    """Dialling ``address`` failed the ``attempt``-th time in a row; retried in ``retry_in`` s."""

    address: str
    why: str
    attempt: int
    retry_in: float


@_event("link_refused")
@attrs.frozen
class LinkRefused(NodeEvent):
    reason: str


@_event("refused")
@attrs.frozen
class Refused(NodeEvent):
    """Something was refused (a join, a start, a link, our seat); ``reason`` says what."""

    reason: str


@_event("lobby")
@attrs.frozen
class LobbyUpdate(NodeEvent):
    seated: int
    seats: int


@_event("seated")
@attrs.frozen
class Seated(NodeEvent):
    """The game starts (or resumes) with us at ``seat``; ``names``: each seat's player name,
    signed by that seat ("" where none was given); ``at`` only with ``stats``; in JSON
    the table id is the ``table``, in hex ("" while not known)."""

    seat: int
    players: int
    table_id: TableId | None = attrs.field(default=None, metadata=_written_as("table", _hex))
    resumed: bool = False
    clock: TimeLimits | None = _limits()
    at: float | None = _optional()
    names: tuple[str, ...] = ()
    leavers: Leavers = Leavers.END


@_event("names")
@attrs.frozen
class PlayerNames(NodeEvent):
    """A spectator's: each seat's player name from the table's start, each signed by its
    seat ("" where none was given)."""

    names: tuple[str, ...]


# -- the game ------------------------------------------------------------------------------
@_event("decision")
@attrs.frozen
class DecisionAsked(NodeEvent, Generic[GameView]):
    """A screen's seat must decide (``ui_events`` only): the engine's request, and our
    seat's view as the game gives it."""

    decision: Decision
    view: GameView


@_event("view")
@attrs.frozen
class ViewChanged(NodeEvent, Generic[GameView]):
    """A step was applied: our seat's new view and the step's public events, the game's
    typed records (``engine/<game>/events.py``); JSON writes their stored tuples."""

    view: GameView
    events: tuple[GameEvent, ...] = attrs.field(
        default=(), converter=_game_events, metadata=_written_as("events", _stored_events)
    )


@_event("applied")
@attrs.frozen
class StepDone(NodeEvent):
    """A step was applied (a node without ``ui_events``; a screen gets :class:`ViewChanged`
    instead): its number, which every seat knows.  ``--json`` prints it, text says nothing:
    what a script watching a headless peer waits on."""

    step: int


@_event("asked")
@attrs.frozen
class Asked(NodeEvent):
    """The engine asks our seat for a decision (a node without ``ui_events``; a screen gets
    :class:`DecisionAsked` instead): the request's serial, and ``alone`` when no other seat
    has a decision pending with it.  Whose turn it is is public; ``--json`` prints it, text
    says nothing: what a script watching a headless peer waits on."""

    step: int
    alone: bool


@_event("cards_seen")
@attrs.frozen
class CardsShown(NodeEvent):
    """Cards our seat may now see (``ui_events`` only), and why (written as its word)."""

    cards: tuple[str, ...] = attrs.field(converter=_cards)
    why: SeenWhy = attrs.field(converter=SeenWhy)


@_event("waiting_for")
@attrs.frozen
class WaitingFor(NodeEvent):
    """The seats (other than ours) the table waits on now."""

    seats: list[int]


@_event("bot_thinking")
@attrs.frozen
class BotThinking(NodeEvent):
    """A bot seat is thinking about its decision: how long so far and how many sampled
    worlds it has played out (never what it leans to: that may hold its secrets)."""

    seat: int
    seconds: float
    worlds: int


@_event("answered")
@attrs.frozen
class Answered(NodeEvent):
    """The screen's answer was taken."""


@_event("refused_answer")
@attrs.frozen
class AnswerRefused(NodeEvent):
    reason: str


@_event("verdict")
@attrs.frozen
class Verdict(NodeEvent):
    """The game stopped: ``seat`` (or nobody) blamed for ``kind``."""

    seat: int | None
    kind: VerdictKind = attrs.field(converter=VerdictKind)
    reason: str


@_event("resigned")
@attrs.frozen
class Resigned(NodeEvent):
    """Seat ``seat`` gave the game up at step ``step``: the game is over for everyone;
    ``vanished``: it did not resign, it vanished where the table cannot go on without it
    (docs/protocol.md §11.11) -- with ``you``, the others agreed that we vanished."""

    seat: int
    step: int
    you: bool
    vanished: bool = False


@_event("departed")
@attrs.frozen
class Departed(NodeEvent):
    """Seat ``seat`` left the game for good at step ``step`` and the others play on
    (docs/protocol.md §11.10); ``you``: it was our seat, and this node stops; ``vanished``:
    it did not leave, it vanished and the others recovered its part (§11.11)."""

    seat: int
    step: int
    you: bool
    vanished: bool = False


@_event("game_over")
@attrs.frozen
class GameOver(NodeEvent):
    """The game ended: who won (in JSON the ``winner``, :meth:`Outcome.plain`), the final
    digest, how it ended (the game's word; None: not said); ``stats`` only with
    ``NodeConfig.stats`` (bench/netplay.py)."""

    outcome: Outcome = attrs.field(metadata=_written_as("winner", Outcome.plain))
    digest: str
    end: str | None = None
    stats: GameStats | None = attrs.field(
        default=None, metadata={"optional": True, **_written_as("stats", _stats_plain)}
    )


# -- clocks and presence ---------------------------------------------------------------------
@_event("clock")
@attrs.frozen
class ClockReadings(NodeEvent):
    """What counts down now, per owed seat (at most once a second)."""

    seats: tuple[ClockReading, ...] = attrs.field(
        converter=_readings, metadata=_written_as("seats", _readings_plain)
    )


@_event("offline")
@attrs.frozen
class SeatOffline(NodeEvent):
    seat: int


@_event("online")
@attrs.frozen
class SeatOnline(NodeEvent):
    seat: int


@_event("waiting")
@attrs.frozen
class SeatWaiting(NodeEvent):
    """The table has waited ``seconds`` on ``seat``."""

    seat: int
    seconds: int


@_event("staying")
@attrs.frozen
class Staying(NodeEvent):
    """The game is over for us, but ``seats`` have not yet said they hold its end: we stay,
    answering their catch-up, until they have or ``seconds`` have passed, so that none is
    left without the last moves that only we may hold.  Leaving now is allowed."""

    seats: list[int]
    seconds: int


@_event("abandoned")
@attrs.frozen
class Abandoned(NodeEvent):
    seat: int


@_event("vanishing")
@attrs.frozen
class Vanishing(NodeEvent):
    """Seat ``seat`` stayed offline past the abandon limit at a table whose rule is
    ``go-on``: we vote that it vanished (docs/protocol.md §11.11) instead of ending the game;
    a ``departed`` (``vanished``) follows once every other seat agrees, or the game ends."""

    seat: int


@_event("time_claim")
@attrs.frozen
class TimeClaim(NodeEvent):
    """Seat ``by`` says ``seat`` ran out of time (how: ``kind``); our own clock disagrees."""

    by: int
    seat: int
    kind: TimeFlag = attrs.field(converter=_time_flag)
    reason: str
    left: float | None = None


# -- the join code, the relay, the client's own ------------------------------------------------
@_event("wrong_code")
@attrs.frozen
class WrongJoinCode(NodeEvent):
    failures: int
    limit: int


@_event("code_retired")
@attrs.frozen
class JoinCodeRetired(NodeEvent):
    failures: int


@_event("code_used")
@attrs.frozen
class JoinCodeUsed(NodeEvent):
    pass


@_event("relay_code_gone")
@attrs.frozen
class RelayCodeGone(NodeEvent):
    """The relay gives (or keeps) no nameplate for our code; ``reason`` says why."""

    reason: str


@_event("relay_open")
@attrs.frozen
class RelayOpen(NodeEvent):
    port: int
    tables: int
    dropped: int = 0
    key: str = ""  # the relay's key (base64url): hosts name it with --via-key, invites carry it


@_event("table_folder")
@attrs.frozen
class FolderKnown(NodeEvent):
    """Where the game is kept on disk (said by the client's network side to its screen)."""

    path: str
