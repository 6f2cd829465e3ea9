"""fairtable's sans-IO protocol layer: messages, codec, crypto and the table session.

Nothing in this package touches a socket, a clock or global randomness it
does not ask the OS for (keys, nonces).  This module is the public face: what the layers
above (netplay, client) use, and nothing else.  Three public submodules hold the rest:
``protocol.wire`` (the codec, field converters and every message type),
``protocol.crypto`` (the primitives and their errors) and ``protocol.testing`` (in-memory
tables and cheating peers).  No module outside this package imports a private one.
The private modules each own one concern:

* ``_errors``      -- typed errors: LocalProtocolError (you erred) vs RemoteProtocolError
  (a peer erred, naming the seat to blame);
* ``_codec``       -- canonical JSON encoding, the message registry, size limits;
* ``_untrusted``   -- the one bounded JSON reader for every input from outside (depth, size,
  string, integer and item limits; one typed error naming the source);
* ``_messages``    -- the generic message types;
* ``_identity``    -- Ed25519 identities, fingerprints, derived X25519 sealing keys;
* ``_feed``        -- signed, hash-chained per-seat feeds and equivocation proofs;
* ``_commit``      -- domain-separated hash commitments;
* ``_randomness``  -- commit-reveal joint randomness feeding ``engine.rng.ChanceStream``;
* ``_group``       -- the ristretto255 prime-order group (validation, ops; via rbcl);
* ``_dleq``        -- Schnorr, Chaum-Pedersen and re-encryption proofs (Fiat-Shamir);
* ``_deck``        -- mental-poker decks: shuffle, draw, reveal, re-mix, hand-over, audit;
* ``_sealed``      -- payloads only one seat can read;
* ``_table``, ``_session``, ``_session_messages`` -- the table, the session machine, its parts;
  ``_events`` -- its verdicts and events; ``_verdict_kinds`` -- the kinds of verdict and which
  blame a seat; ``_part_keys`` -- the typed key each part is filed under;
  ``_held`` -- its unread-byte budgets;
* ``_exchanges`` -- each engine request as messages between the seats, dispatched by request
  class to one exchange object each: ``_decisions``, ``_chance``, ``_piles``, ``_held_cards``,
  ``_reveals``, ``_audit``; they reach the session through ``_port`` only and share the card
  records of ``_cards``; ``_answers`` -- engine answers on the wire;
* ``_harness``, ``_cheats``, ``_log`` -- in-memory tables, cheating peers, saved logs and the audit;
  ``_clock_end`` -- how a clock ended a game, and the signed time notice the audit takes it from.

The specification is ``docs/protocol.md``.
"""

from ._clock_end import CLOCK_KINDS, ClockEnd, ClockNotice, time_notice_bytes
from ._codec import MAX_FRAME, PROTOCOL_VERSION, decode, decode_as, encode, message
from ._errors import (
    BadSignature,
    DecodeError,
    FieldError,
    FrameTooLarge,
    InvalidPoint,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
    UnsupportedVersion,
)
from ._events import (
    CardsSeen,
    DecisionNeeded,
    GameFinished,
    GameResigned,
    SeatLeft,
    SeenWhy,
    StepApplied,
    Verdict,
    VerdictReached,
)
from ._feed import Entry, EquivocationProof
from ._identity import Identity, PublicIdentity, fingerprint
from ._log import LogError, audit_log, read_log, write_log
from ._messages import MAX_SEATS, FeedRequest
from ._replay import Ending, EndingKind, Replay, ReplayError, ReplayStep, replay_log
from ._session import TableSession
from ._table import LEAVERS_KEY, TIME_LIMITS_KEY, Leavers, TableId, TableSpec, TimeLimits
from ._untrusted import Bounds, UntrustedInput, read_json
from ._verdict_kinds import VerdictKind

__all__ = [
    # errors: you erred, a peer erred (naming the seat), and the kinds netplay tells apart
    "ProtocolError",
    "LocalProtocolError",
    "RemoteProtocolError",
    "BadSignature",
    "DecodeError",
    "FieldError",
    "FrameTooLarge",
    "InvalidPoint",
    "UnsupportedVersion",
    "UntrustedInput",
    # who plays
    "Identity",
    "PublicIdentity",
    "fingerprint",
    # the table and its session
    "MAX_SEATS",
    "TIME_LIMITS_KEY",
    "LEAVERS_KEY",
    "Leavers",
    "TableId",
    "TableSpec",
    "TimeLimits",
    "TableSession",
    "Entry",
    "EquivocationProof",
    "FeedRequest",
    # what the session tells its caller
    "CardsSeen",
    "DecisionNeeded",
    "GameFinished",
    "GameResigned",
    "SeatLeft",
    "SeenWhy",
    "StepApplied",
    "Verdict",
    "VerdictKind",
    "VerdictReached",
    # saved logs, their audit and replay
    "CLOCK_KINDS",
    "ClockEnd",
    "ClockNotice",
    "time_notice_bytes",
    "LogError",
    "audit_log",
    "read_log",
    "write_log",
    "Ending",
    "EndingKind",
    "Replay",
    "ReplayError",
    "ReplayStep",
    "replay_log",
    # the codec as the layers above use it (the rest is protocol.wire)
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "Bounds",
    "decode",
    "decode_as",
    "encode",
    "message",
    "read_json",
]
