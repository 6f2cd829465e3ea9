"""fairtable's network layer (trio): links, tables, the LAN, relays, logs on disk.

Its modules sit in folders, one per area; each folder's ``__init__`` names the area's
public part, and this module is the face the client uses (it imports nothing else of
netplay):

* ``links``   -- one authenticated connection: frames, link messages, TLS, dialling and
  accepting, why a dial failed, spectators' links;
* ``table``   -- what a table's peers agree on, sans-IO: invites, names, the lobby and its
  signed start, seating, clocks, starvation, farewells, how much catch-up to serve;
* ``lan``     -- finding a table on the LAN: announcements, the advertised address, join
  codes and their exchange;
* ``storage`` -- the data directory: identity, table folders and logs, ``table.json`` as one
  typed record (:class:`TableInfo`), which seat folder a joiner plays from, reading a saved
  table back;
* ``relay``   -- a seatless peer that forwards, stores and serves a table's messages;
* ``node``    -- a peer at one table (:class:`TableNode` and its parts), and a spectator;
* ``events``  -- what a node tells the client: typed events, and their one JSON form.
"""

from . import events
from .events import *  # noqa: F403 -- the events module names its public part once
from .lan import (
    BROADCAST,
    DISCOVERY_PORT,
    Announcement,
    BadAnnouncement,
    CodeExchangeError,
    CodeNotFound,
    CodeRefused,
    DiscoveryListener,
    JoinCode,
    JoinCodeError,
    announce,
    invite_at_relay,
    invite_by_code,
    listen,
    looks_like_code,
    open_listener,
)
from .links import (
    FATAL_REASONS,
    FrameReader,
    Link,
    LinkClosed,
    LinkConfig,
    PeerInfo,
    connect,
    connect_with_backoff,
    encode_frame,
    open_link,
    serve_links,
)
from .node import (
    NodeConfig,
    Pacing,
    Reach,
    ResignRequest,
    SeatClock,
    TableChoice,
    TableNode,
    TableTerms,
    Thinker,
    WatchRefused,
    watch_table,
)
from .relay import RELAY_REFUSALS, RELAY_VERSION, MailboxLimits, RelayLimits, RelayNode
from .storage import (
    DEFAULT_DATA_DIR,
    GameOpenElsewhere,
    LogFile,
    SavedTable,
    SeatClaim,
    StorageError,
    TableFolder,
    TableInfo,
    TableInfoError,
    TableKind,
    claim_seat,
    game_open_elsewhere,
    hold_game,
    keep_bots,
    load_identity_seed,
    saved_table,
    set_aside,
)
from .table import (
    NAME_MAX,
    BadName,
    Invite,
    InviteError,
    JoinRequest,
    Links,
    LobbyId,
    LobbyStatus,
    Subscribe,
    TableStart,
    join_proof,
    name_problem,
    relay_scope,
    relay_token,
    sign_name,
    start_names,
    verify_join_proof,
)

__all__ = [
    "MailboxLimits",
    "RELAY_VERSION",
    "invite_at_relay",
    "CodeExchangeError",
    "CodeNotFound",
    "CodeRefused",
    "JoinCode",
    "JoinCodeError",
    "invite_by_code",
    "looks_like_code",
    "NAME_MAX",
    "BadName",
    "WatchRefused",
    "watch_table",
    "events",
    "BROADCAST",
    "DISCOVERY_PORT",
    "FATAL_REASONS",
    "Announcement",
    "BadAnnouncement",
    "DiscoveryListener",
    "FrameReader",
    "LinkConfig",
    "announce",
    "encode_frame",
    "listen",
    "open_link",
    "open_listener",
    "verify_join_proof",
    "DEFAULT_DATA_DIR",
    "Invite",
    "InviteError",
    "LobbyId",
    "JoinRequest",
    "Link",
    "LinkClosed",
    "Links",
    "LobbyStatus",
    "LogFile",
    "NodeConfig",
    "Pacing",
    "Reach",
    "SeatClock",
    "TableChoice",
    "TableTerms",
    "PeerInfo",
    "RELAY_REFUSALS",
    "RelayLimits",
    "RelayNode",
    "ResignRequest",
    "SavedTable",
    "GameOpenElsewhere",
    "SeatClaim",
    "StorageError",
    "Subscribe",
    "TableFolder",
    "TableInfo",
    "TableInfoError",
    "TableKind",
    "TableNode",
    "TableStart",
    "Thinker",
    "claim_seat",
    "game_open_elsewhere",
    "hold_game",
    "connect",
    "connect_with_backoff",
    "join_proof",
    "keep_bots",
    "load_identity_seed",
    "set_aside",
    "name_problem",
    "relay_scope",
    "relay_token",
    "saved_table",
    "sign_name",
    "start_names",
    "serve_links",
]
__all__ += events.__all__  # every event, as events names them
