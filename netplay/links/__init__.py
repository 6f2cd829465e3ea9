"""Links: one authenticated connection between two peers, and what rides on it.

This area owns how a TCP stream becomes a trusted link and how it ends:

* ``_frames``   -- length-prefixed frames, the cap checked before reading (sans-IO);
* ``_wire``     -- link-level messages (hello, auth, ping, pong, bye) and the handshake;
* ``_tls``      -- TLS 1.3 under every link, pinned to Ed25519 identity keys;
* ``_link``     -- opening a link: the handshake with a deadline, heartbeats, back-off;
* ``_accept``   -- accepting links: caps on handshakes in progress, refusals with reasons;
* ``_reach``    -- why a dial failed, in the words a user reads;
* ``_watchers`` -- spectators' links to a node or a relay: bounded outboxes, catch-up then live.

What a link carries is the table's business (:mod:`netplay.table`, :mod:`netplay.node`).
The names below are the area's public part; other areas import only these.
"""

from ._accept import serve_links
from ._frames import FrameReader, encode_frame
from ._link import (
    FATAL_REASONS,
    Link,
    LinkConfig,
    connect,
    connect_with_backoff,
    open_link,
    tls_key_at,
)
from ._reach import NO_SEAT_LEFT, ReachFailure, refusal_words, unreachable_event
from ._watchers import Watchers
from ._wire import LinkClosed, LinkReason, LinkRole, PeerInfo

__all__ = [
    "FATAL_REASONS",
    "FrameReader",
    "Link",
    "LinkClosed",
    "LinkConfig",
    "LinkReason",
    "LinkRole",
    "PeerInfo",
    "ReachFailure",
    "Watchers",
    "connect",
    "connect_with_backoff",
    "encode_frame",
    "open_link",
    "NO_SEAT_LEFT",
    "refusal_words",
    "serve_links",
    "tls_key_at",
    "unreachable_event",
]
