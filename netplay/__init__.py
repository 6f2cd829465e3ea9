"""fairtable's network layer (trio): links, tables, relays, discovery, logs on disk.

* ``_frames``    -- length-prefixed frames, the cap checked before reading;
* ``_wire``      -- link-level messages (hello, auth, ping, pong, bye);
* ``_link``      -- authenticated links: handshake with a deadline, heartbeats, back-off;
* ``_invite``    -- invites, join proofs and relay tokens;
* ``_discovery`` -- LAN discovery of open tables by UDP broadcast (a hint only);
* ``_lanaddress`` -- the LAN address a host advertises, and where it broadcasts;
* ``_joincode``   -- short join codes and their SPAKE2 exchange (sans-IO); ``_codewords`` its words;
* ``_codelink``   -- the code exchange over TCP: the host's code listener, ``invite_by_code``;
* ``_lobby``     -- forming a table: join requests and the host's signed start;
* ``_storage``   -- identity, per-table secrets and append-only logs on disk;
* ``_clock``     -- a table's clocks, sans-IO: banks, presence beats, offline countdowns;
* ``_lifecycle`` -- which saved table a host goes on with; the public summary kept for resume;
* ``_events``    -- what a node tells the client: typed events, and their one JSON form;
* ``_node_parts`` -- a node's settings and one link's state, shared by the node's parts;
* ``_mesh``      -- a node's links and flooding over them (dialling, readers, writers);
* ``_admission`` -- lobby admission: join requests, seating, the signed start, early entries;
* ``_node_folder`` -- a node's table folder: resuming a hosted table, ``table.json``, the log;
* ``_pump``      -- pumping the sans-IO session: our entries out, decisions, client events;
* ``_liveness``  -- presence beats, the table's clocks over links, catching up when stalled;
* ``_node``      -- a peer at one table: composes those parts and routes messages to them;
* ``_seatclaim`` -- which folder of a data directory a joining seat plays from, locked;
* ``_relay``     -- a seatless peer that forwards, stores and serves a table's messages.
"""

from . import _events as events
from ._accept import serve_links
from ._discovery import (
    BROADCAST,
    DISCOVERY_PORT,
    Announcement,
    BadAnnouncement,
    DiscoveryListener,
    announce,
    listen,
    open_listener,
)
from ._events import (
    EVENT_CLASSES,
    Abandoned,
    Answered,
    AnswerRefused,
    CardsShown,
    ClockReadings,
    DecisionAsked,
    Emit,
    FolderKnown,
    GameOver,
    JoinCodeRetired,
    JoinCodeUsed,
    Joining,
    LinkRefused,
    LobbyUpdate,
    NodeEvent,
    NoLanAddress,
    PlayerNames,
    Refused,
    RelayOpen,
    Resigned,
    Resuming,
    Seated,
    SeatOffline,
    SeatOnline,
    SeatWaiting,
    Staying,
    TableOpen,
    TimeClaim,
    Unreachable,
    Verdict,
    ViewChanged,
    WaitingFor,
    WrongJoinCode,
    event_json,
    event_line,
)
from ._frames import FrameReader, encode_frame
from ._invite import (
    Invite,
    InviteError,
    join_proof,
    relay_scope,
    relay_token,
    verify_join_proof,
)
from ._link import (
    FATAL_REASONS,
    Link,
    LinkClosed,
    LinkConfig,
    PeerInfo,
    connect,
    connect_with_backoff,
    open_link,
)
from ._lobby import JoinRequest, Links, LobbyStatus, Subscribe, TableStart, start_names
from ._names import NAME_MAX, BadName, name_problem, sign_name
from ._node import ResignRequest, TableNode
from ._node_parts import NodeConfig
from ._relay import RelayNode
from ._relay_quota import RELAY_REFUSALS, RelayLimits
from ._saved import SavedTable, saved_table
from ._seatclaim import SeatClaim, claim_seat
from ._storage import DEFAULT_DATA_DIR, LogFile, StorageError, TableFolder, load_identity_seed
from ._watch import WatchRefused, watch_table

__all__ = [
    "NAME_MAX",
    "BadName",
    "WatchRefused",
    "watch_table",
    "EVENT_CLASSES",
    "Abandoned",
    "Answered",
    "AnswerRefused",
    "CardsShown",
    "ClockReadings",
    "DecisionAsked",
    "Emit",
    "FolderKnown",
    "GameOver",
    "Joining",
    "JoinCodeRetired",
    "JoinCodeUsed",
    "LinkRefused",
    "LobbyUpdate",
    "NoLanAddress",
    "NodeEvent",
    "Refused",
    "RelayOpen",
    "PlayerNames",
    "Resigned",
    "Resuming",
    "SeatOffline",
    "SeatOnline",
    "SeatWaiting",
    "Staying",
    "Seated",
    "TableOpen",
    "TimeClaim",
    "Unreachable",
    "Verdict",
    "ViewChanged",
    "WaitingFor",
    "WrongJoinCode",
    "event_json",
    "event_line",
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
    "JoinRequest",
    "Link",
    "LinkClosed",
    "Links",
    "LobbyStatus",
    "LogFile",
    "NodeConfig",
    "PeerInfo",
    "RELAY_REFUSALS",
    "RelayLimits",
    "RelayNode",
    "ResignRequest",
    "SavedTable",
    "SeatClaim",
    "StorageError",
    "Subscribe",
    "TableFolder",
    "TableNode",
    "TableStart",
    "claim_seat",
    "connect",
    "connect_with_backoff",
    "join_proof",
    "load_identity_seed",
    "name_problem",
    "relay_scope",
    "relay_token",
    "saved_table",
    "sign_name",
    "start_names",
    "serve_links",
]
