"""What every game's state holds the same way: :class:`CommonState`.

A game's state class subclasses it (an attrs class; its own fields come after these,
which are keyword-only) and adds its zones.  This base owns

- where play stands: the task queue (``tasks``, run by :mod:`engine.tasks`), the
  ``pending`` requests, the simultaneous answers ``buffered`` until every asked seat has
  answered, and the public ``events`` logged so far (typed :class:`~engine.events.Event`
  records, stored as their tuples: :meth:`log`);
- the counters: ``decisions`` answered, ``serial`` (the step number: how many groups of
  requests have been asked; every protocol part names it) and ``next_handle`` (the handle
  the next card named by handle gets);
- ``known``, the seats whose secrets this instance holds;
- ``departed``, the seats that left the game for good (sorted; issue 33): it enters the
  public state only once a seat has left (:meth:`with_departures`), so a game without
  departures keeps every digest it ever had;
- the digest: ``digest_data()`` (the game's :meth:`public` state plus where play stands)
  hashed under the game's ``DIGEST_DOMAIN``;
- which fields are frozen data shared between copies (``SHARED``: card catalogs, arenas),
  so :meth:`engine.contract.ContractGame.copy` copies the rest only;
- :func:`copied`, the deep copy of plain data a public state hands out and a state rebuilt
  from a view takes back.

``over`` (how the game ended; falsy while it goes on) is declared here and given by each
game: Reign and Sovereign write ``""`` while it goes on, Sodalis ``None``, and the digest
keeps each game's form.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable
from typing import Any, ClassVar

import attrs

from fairtable.engine.canonical import digest_of
from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.events import Event
from fairtable.engine.requests import Decision, Request
from fairtable.engine.tasks import Task

__all__ = ["CommonState", "copied", "known_seats", "request_data"]


@attrs.define(kw_only=True)
class CommonState(abc.ABC):
    """The part of a game state every game has; see the module docstring."""

    DIGEST_DOMAIN: ClassVar[str]
    """The digest's domain tag, e.g. ``"fairtable/reign/state/v1"`` (a new tag is a
    deliberate version bump: every digest changes)."""
    SHARED: ClassVar[tuple[str, ...]] = ()
    """Fields holding frozen data that copies of the state share instead of copying."""

    known: frozenset[int]
    tasks: list[Task] = attrs.Factory(list)
    pending: list[Request] = attrs.Factory(list)
    buffered: dict[int, Any] = attrs.Factory(dict)  # simultaneous answers not yet applied
    over: str | None = None
    decisions: int = 0
    serial: int = 0  # how many groups of requests have been asked so far (the step number)
    next_handle: int = 1
    events: list[Event] = attrs.Factory(list)  # public log of what happened, as records
    departed: tuple[int, ...] = ()  # seats that left the game for good, sorted

    def living(self, seats: Iterable[int]) -> list[int]:
        """``seats`` less the departed ones, in the given order."""
        return [s for s in seats if s not in self.departed]

    def with_departures(self, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
        """``data`` (a game's public state) with ``departed`` and the game's ``extra``
        departure fields added -- only once a seat has left, so the public state and the
        digest of a game without departures are what they always were."""
        if self.departed:
            data["departed"] = list(self.departed)
            data.update(extra)
        return data

    def knows(self, seat: int) -> bool:
        """Whether this instance holds seat ``seat``'s secrets."""
        return seat in self.known

    def view_decisions(self, seat: int | None) -> tuple[Decision, ...]:
        """The decisions a view of ``seat`` asks it: its pending ones, none once its
        simultaneous answer is buffered, none for a spectator (``None``).  A seat whose
        secrets this instance does not hold has no view: :class:`KeyError`."""
        if seat is None:
            return ()
        if seat not in self.known:
            raise KeyError(f"this engine instance does not hold seat {seat}'s secrets")
        if seat in self.buffered:
            return ()
        return tuple(r for r in self.pending if isinstance(r, Decision) and r.seat == seat)

    def log(self, event: Event) -> None:
        """Record ``event`` in the public log."""
        self.events.append(event)

    def stored_events(self, since: int = 0) -> list[tuple[Any, ...]]:
        """The public log from entry ``since`` on, in its stored form: each record's tuple
        ``(KIND, *fields)`` (:meth:`~engine.events.Event.as_tuple`), made now."""
        return [e.as_tuple() for e in self.events[since:]]

    def new_handle(self) -> int:
        """Give the next handle."""
        handle = self.next_handle
        self.next_handle += 1
        return handle

    # -- the public state and its digest -----------------------------------------------------
    @abc.abstractmethod
    def public(self) -> dict[str, Any]:
        """Everything every peer may know about the table, as canonical JSON-shaped data."""

    def digest_data(self) -> dict[str, Any]:
        """The public state plus where play stands (next handle, tasks, pending requests):
        what the digest covers."""
        data = self.public()
        data["next_handle"] = self.next_handle
        data["tasks"] = [list(t) for t in self.tasks]
        data["pending"] = [request_data(r) for r in self.pending]
        return data

    def digest(self) -> str:
        """Hex SHA-256 of :meth:`digest_data` under the game's domain tag."""
        return digest_of(self.DIGEST_DOMAIN, self.digest_data())


def request_data(r: Request) -> dict[str, Any]:
    """A pending request as the digest covers it: its fields and its class name."""
    data = r.plain() if isinstance(r, Decision) else attrs.asdict(r, recurse=True)
    data["request"] = type(r).__name__
    return data


def known_seats(players: int, known: Iterable[int] | None) -> frozenset[int]:
    """The seats whose secrets a new instance holds, checked: ``None`` is every seat (the
    local referee's omniscient instance), ``()`` none (a spectator)."""
    seats = range(players) if known is None else known
    try:
        known_set = frozenset(seats)
    except TypeError:
        raise MalformedAnswer("known seats are a collection of seat numbers") from None
    if any(type(s) is not int or not 0 <= s < players for s in known_set):
        raise MalformedAnswer("known seats must be seats of this table")
    return known_set


def copied(value: Any) -> Any:
    """A deep copy of plain data (dicts and lists copied, tuples and scalars kept): a public
    state shares no mutable part with the state, so whoever rebuilds a state from a view (a
    bot's rule checks, a sampled world) cannot change the game through it, nor the view."""
    if isinstance(value, dict):
        return {k: copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copied(v) for v in value]
    return value
