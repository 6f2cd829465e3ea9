"""The host's lobby: who sits where, what each seat brings, and whether the table can start.

Sans-IO: the node hands it joiners that proved the invite and sends what it says.
The host takes seat 0; joiners take the next seats in arrival order.  A joiner is
refused (:class:`SeatRefused`, with the reason) if what it brings is unreadable or
if, filling the last seat, it would make a table the game cannot start (e.g. two
Sovereign decks with one Leader); its seat stays free for someone else.
"""

from __future__ import annotations

from typing import Any

import fairtable.protocol as P
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.errors import CardDataError, EngineError
from fairtable.engine.games import rules as game_rules
from fairtable.engine.games import table_options

from ._lobby import START_SPEC_MAX

__all__ = ["SeatRefused", "Seating"]

BRINGS = P.Bounds(depth=12)
_WEEK_MS = 7 * 24 * 3600 * 1000
_LONGEST_LIMITS = P.TimeLimits(_WEEK_MS, _WEEK_MS, _WEEK_MS)
"""How a joiner's seat option is read (a Sovereign deck nests three levels)."""


class SeatRefused(Exception):
    """A joiner that cannot have a seat; the message says why."""


class Seating:
    """The seats taken so far (the host's first), with what each brought."""

    def __init__(self, game: str, seats: int, host_key: bytes, host_brings: Any) -> None:
        self.game, self.seats = game, seats
        self.taken: list[tuple[bytes, bytes]] = []  # (key, address) in seat order
        self.brought: dict[bytes, Any] = {}
        self.named: dict[bytes, bytes] = {}  # key -> its signed name (checked by the caller)
        self._host = (host_key, host_brings)

    @property
    def full(self) -> bool:
        return len(self.taken) == self.seats

    def admit(self, key: bytes, brings: bytes, address: bytes, name: bytes = b"") -> bool:
        """Seat ``key`` (reachable at ``address``, or ``b""``; ``name``: its signed name, which
        the caller checked); False if it is seated already or the table is full,
        :class:`SeatRefused` if it cannot sit at all."""
        if not self.taken:
            self.taken.append((self._host[0], b""))
            self.brought[self._host[0]] = self._host[1]
        if key in self.brought or self.full:
            return False
        try:
            option = P.read_json(brings, "what a joiner brings", BRINGS) if brings else None
        except P.UntrustedInput as exc:
            raise SeatRefused(f"a join bringing something unreadable ({exc.why})") from None
        self.taken.append((key, address))
        self.brought[key] = option
        self.named[key] = name
        problem = self._too_long()
        if problem is None and self.full:
            problem = self._cannot_start()
        if problem is not None:
            self.taken.pop()
            del self.brought[key]
            del self.named[key]
            raise SeatRefused(f"the table cannot start: {problem}")
        return True

    def spec(
        self,
        round_limit: int | None,
        nonce: bytes,
        limits: P.TimeLimits | None = None,
        leavers: P.Leavers = P.Leavers.END,
    ) -> P.TableSpec:
        """The table's spec once every seat is taken (``None``: the game's own round limit;
        ``limits``: the table's time limits, and ``leavers`` its rule for a seat that
        vanishes, each kept under its reserved option)."""
        limit = game_rules(self.game).default_round_limit if round_limit is None else round_limit
        return P.TableSpec(
            self.game,
            tuple(k for k, _ in self.taken),
            limit,
            nonce,
            self._options(limits, leavers),
        )

    @property
    def addresses(self) -> tuple[bytes, ...]:
        return tuple(a for _, a in self.taken)

    def names(self, host_name: bytes = b"") -> tuple[bytes, ...]:
        """Every seat's signed name in seat order (the host's is ``host_name``)."""
        return tuple(
            host_name if k == self._host[0] else self.named.get(k, b"") for k, _ in self.taken
        )

    def _options(
        self, limits: P.TimeLimits | None = None, leavers: P.Leavers = P.Leavers.END
    ) -> bytes:
        """The table options from what the seats brought (and the time limits and the
        leavers rule), canonical JSON (or empty)."""
        options = table_options(game_rules(self.game), [self.brought.get(k) for k, _ in self.taken])
        if limits is not None and limits != P.TimeLimits():  # the defaults go without saying
            options = {**options, P.TIME_LIMITS_KEY: limits.option()}
        if leavers is not P.Leavers.END:  # so does the default rule (a table id unchanged)
            options = {**options, P.LEAVERS_KEY: leavers.value}
        return canonical_bytes(options) if options else b""

    def _too_long(self) -> str | None:
        """Why what the seats brought so far cannot be signed into a start, or None (measured
        with the longest time limits and round limit a start may carry)."""
        try:
            size = len(
                P.encode(
                    P.TableSpec(
                        self.game,
                        tuple(k for k, _ in self.taken),
                        10_000,
                        bytes(32),
                        self._options(_LONGEST_LIMITS, P.Leavers.GO_ON),
                    )
                )
            )
        except P.FieldError:  # the options alone are over their cap
            size = P.MAX_FRAME
        if size > START_SPEC_MAX:
            return (
                f"what the seats bring makes a table of {size} bytes, over the "
                f"{START_SPEC_MAX}-byte limit of a start"
            )
        return None

    def _cannot_start(self) -> str | None:
        """Why the full table makes no game, or None if it does."""
        spec = self.spec(0, bytes(32))
        try:
            game_rules(self.game).new_game(self.seats, 0, known=[], options=spec.game_options())
        except (EngineError, CardDataError, P.DecodeError) as exc:
            return str(exc)
        return None
