"""Why a dial failed, in the words a user reads: "connection refused", "timed out",
"no route", "name not known" -- or, for a refusal no retry fixes, why the table will
never take us.

Sans-IO: :func:`why_unreachable` reads the :class:`~netplay.LinkClosed` that
:func:`~netplay.connect_with_backoff` reports (and the operating-system error
behind it); :func:`unreachable_event` makes the node's ``unreachable`` event
from it.  Nothing here says more than the address dialled and the failure.
"""

from __future__ import annotations

import errno
import socket

from ..events import Unreachable
from ._wire import LinkClosed, LinkReason

__all__ = ["NO_SEAT_LEFT", "refusal_words", "unreachable_event", "why_unreachable"]

_BY_ERRNO = {
    errno.ECONNREFUSED: "connection refused",
    errno.ETIMEDOUT: "timed out",
    errno.EHOSTUNREACH: "no route to host",
    errno.ENETUNREACH: "no route to the network",
    errno.ECONNRESET: "connection reset",
    errno.EADDRNOTAVAIL: "address not available",
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
    """A few words on why a dial failed (the link's reason when nothing more is known)."""
    if exc.why is LinkReason.TIMEOUT:
        return "timed out"
    for cause in _causes(exc):
        if isinstance(cause, socket.gaierror):
            return "name not known"
        if isinstance(cause, OSError) and cause.errno in _BY_ERRNO:
            return _BY_ERRNO[cause.errno]
    if exc.why is LinkReason.UNREACHABLE:
        return "cannot connect"
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
