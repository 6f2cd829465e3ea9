"""The table: what the peers of one table agree on, sans-IO.

This area owns the rules every peer of a table checks the same way, with no I/O:

* ``_invite``   -- invites, join proofs and relay tokens;
* ``_names``    -- players' signed names and what a name may hold;
* ``_lobby``    -- forming a table: join requests, the lobby's count, the host's signed start;
* ``_seating``  -- the host's lobby: who sits where, whether the table can start;
* ``_clock``    -- a table's clocks: banks, presence beats, offline countdowns, time notices;
* ``_starved``  -- starvation claims, and the time-out that never names a starved seat;
* ``_farewell`` -- leaving a finished table: signed farewells, who we still wait for;
* ``_serving``  -- how much a node or a relay sends in answer to catch-up requests.

The names below are the area's public part; other areas import only these.
"""

from ._clock import (
    CameBack,
    ClockReading,
    Flagged,
    LongWait,
    Presence,
    TableClock,
    TimeFlag,
    TimeNotice,
    WentOffline,
)
from ._farewell import Farewell, Farewells
from ._invite import (
    RELAY_SECRET,
    Invite,
    InviteError,
    LobbyId,
    check_game,
    check_host,
    check_port,
    check_seats,
    join_proof,
    relay_scope,
    relay_token,
    verify_join_proof,
)
from ._lobby import (
    LINKS_MAX,
    JoinRequest,
    Links,
    LobbyStatus,
    Subscribe,
    TableStart,
    sign_start,
    start_names,
    verify_start,
)
from ._names import NAME_MAX, BadName, name_problem, read_signed_name, sign_name
from ._seating import Seating, SeatRefused
from ._serving import OVER_BUDGET, PassOn, ServeBudget
from ._starved import CLAIM_AFTER, RESEND_MAX, Starvation, Starved, starved_reason

__all__ = [
    "BadName",
    "CLAIM_AFTER",
    "CameBack",
    "ClockReading",
    "Farewell",
    "Farewells",
    "Flagged",
    "Invite",
    "InviteError",
    "LobbyId",
    "JoinRequest",
    "LINKS_MAX",
    "Links",
    "LobbyStatus",
    "LongWait",
    "NAME_MAX",
    "OVER_BUDGET",
    "PassOn",
    "Presence",
    "RELAY_SECRET",
    "RESEND_MAX",
    "SeatRefused",
    "Seating",
    "ServeBudget",
    "Starvation",
    "Starved",
    "Subscribe",
    "TableClock",
    "TimeFlag",
    "TableStart",
    "TimeNotice",
    "WentOffline",
    "check_game",
    "check_host",
    "check_port",
    "check_seats",
    "join_proof",
    "name_problem",
    "read_signed_name",
    "relay_scope",
    "relay_token",
    "sign_name",
    "sign_start",
    "start_names",
    "starved_reason",
    "verify_join_proof",
    "verify_start",
]
