"""Why a dial failed, in the words a user reads -- a :class:`ReachFailure`: "connection
refused" (the machine answered: nothing listens on that port) told apart from "timed out",
"no route to host", "name not known" (no way to the machine) -- or, for a refusal no retry
fixes, why the table will never take us.

Sans-IO: :func:`why_unreachable` reads the :class:`~netplay.LinkClosed` that
:func:`~netplay.connect_with_backoff` reports (and the operating-system error
behind it); :func:`unreachable_event` makes the node's ``unreachable`` event
from it (a seat's dial and a spectator's alike).  Nothing here says more than the address
dialled and the failure.
"""

from __future__ import annotations

import errno
import socket
from enum import StrEnum

from ..events import Unreachable
from ._wire import LinkClosed, LinkReason

__all__ = [
    "NO_SEAT_LEFT",
    "ReachFailure",
    "refusal_words",
    "unreachable_event",
    "why_unreachable",
]


class ReachFailure(StrEnum):
    """Why a dial never reached the peer at all (a member equals its words, which the
    ``unreachable`` event's ``why`` carries)."""

    REFUSED = "connection refused"  # the machine is there, nothing listens on the port
    TIMED_OUT = "timed out"  # nothing answered in time
    NO_ROUTE = "no route to host"
    NO_NETWORK = "no route to the network"
    RESET = "connection reset"
    NO_ADDRESS = "address not available"
    NAME_UNKNOWN = "name not known"
    UNREACHABLE = "cannot connect"  # the dial failed, the system said no more


_BY_ERRNO = {
    errno.ECONNREFUSED: ReachFailure.REFUSED,
    errno.ETIMEDOUT: ReachFailure.TIMED_OUT,
    errno.EHOSTUNREACH: ReachFailure.NO_ROUTE,
    errno.ENETUNREACH: ReachFailure.NO_NETWORK,
    errno.ECONNRESET: ReachFailure.RESET,
    errno.EADDRNOTAVAIL: ReachFailure.NO_ADDRESS,
}


def _causes(exc: BaseException | None) -> list[BaseException]:
    """``exc`` and what led to it (causes, contexts, the members of exception groups)."""
    found: list[BaseException] = []
    seen: set[int] = set()
    todo = [exc]
    while todo:
        item = todo.pop(0)
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, BaseExceptionGroup):
            todo.extend(item.exceptions)
        todo += [item.__cause__, item.__context__]
    return found


def why_unreachable(exc: LinkClosed) -> str:
    """A few words on why a dial failed: a :class:`ReachFailure` when the peer was never
    reached, else what the link said (the link's reason when nothing more is known)."""
    if exc.why is LinkReason.TIMEOUT:
        return ReachFailure.TIMED_OUT
    for cause in _causes(exc):
        if isinstance(cause, socket.gaierror):
            return ReachFailure.NAME_UNKNOWN
        if isinstance(cause, OSError) and cause.errno in _BY_ERRNO:
            return _BY_ERRNO[cause.errno]
    if exc.why is LinkReason.UNREACHABLE:
        return ReachFailure.UNREACHABLE
    if exc.by_peer:
        return f"the link was refused ({exc.reason})"
    return f"the link failed ({exc.reason})"


def unreachable_event(
    address: tuple[str, int], exc: LinkClosed, attempt: int, retry_in: float
) -> Unreachable:
    """The node's ``unreachable`` event: dialling ``address`` failed for the
    ``attempt``-th time in a row; the next try is in ``retry_in`` seconds."""
    host, port = address
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return Unreachable(shown, why_unreachable(exc), attempt, round(retry_in, 1))


NO_SEAT_LEFT = LinkReason.NOT_AUTHORISED
"""The reason a table whose game has started refuses a key that holds none of its seats."""

_REFUSALS: dict[str, str] = {
    LinkReason.INVITE: "the host does not know this invite (a wrong or an old one)",
    # said only to a peer that proved the invite's secret, whatever the game's state
    NO_SEAT_LEFT: "the game at this table has already started and every seat is taken",
    LinkReason.VERSION: "the host runs another version of the protocol",
    LinkReason.KEY: "the host is not the one the invite names",
}


def refusal_words(reason: str) -> str:
    """Why the table will never take us, for a link refusal no retry can fix."""
    return _REFUSALS.get(reason, f"the host refused the link ({reason})")
