"""fairtable's sans-IO protocol layer: messages, codec, crypto and the table session.

Nothing in this package touches a socket, a clock or global randomness it
does not ask the OS for (keys, nonces).  The public API is re-exported here;
the private modules each own one concern:

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
  ``_events`` -- its verdicts and events; ``_held`` -- its unread-byte budgets;
* ``_exchanges`` -- each engine request as messages between the seats, dispatched by request
  class to one exchange object each: ``_decisions``, ``_chance``, ``_piles``, ``_held_cards``,
  ``_reveals``, ``_audit``; they reach the session through ``_port`` only and share the card
  records of ``_cards``; ``_answers`` -- engine answers on the wire;
* ``_harness``, ``_cheats``, ``_log`` -- in-memory tables, cheating peers, saved logs and the audit.

The specification is ``docs/protocol.md``.
"""

from ._cheats import CHEATS, cheating_session
from ._codec import (
    CONVERTER,
    MAX_FRAME,
    MAX_INT,
    MAX_ITEMS,
    MAX_LABEL,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    canonical_json,
    decode,
    decode_as,
    encode,
    message,
)
from ._commit import commitment_digest, make_commitment, verify_reveal
from ._deck import (
    CardCodebook,
    Ciphertext,
    DeckKey,
    ShuffleSecret,
    decryption_shares,
    hand_over,
    initial_deck,
    joint_key,
    open_held,
    parse_cards,
    remix,
    rerandomise,
    reveal_card,
    shuffle,
    shuffle_step,
    strip_shares,
    verify_hand_over,
    verify_key_share,
    verify_shares,
    verify_shuffle_opening,
    verify_shuffle_step,
)
from ._dleq import ProofContext
from ._errors import (
    BadCommitment,
    BadProof,
    BadSealedPayload,
    BadShuffle,
    BadSignature,
    BrokenChain,
    DecodeError,
    EquivocationError,
    FieldError,
    FrameTooLarge,
    InvalidEvidence,
    InvalidPoint,
    LocalProtocolError,
    Misaddressed,
    ProtocolError,
    RemoteProtocolError,
    UnknownCard,
    UnsupportedVersion,
    WithheldReveal,
)
from ._events import (
    CardsSeen,
    DecisionNeeded,
    GameFinished,
    GameResigned,
    StepApplied,
    Verdict,
    VerdictReached,
)
from ._feed import (
    ENTRY_DOMAIN,
    ZERO_HASH,
    Entry,
    EntryHeader,
    EquivocationProof,
    Feed,
    FeedLog,
    SignedHeader,
    sign_entry,
)
from ._harness import TableRun, make_table, run_table
from ._identity import Identity, PublicIdentity, fingerprint
from ._log import AuditResult, LogError, audit_log, read_log, write_log
from ._messages import (
    JOINT,
    MAX_CARDS,
    MAX_SEATS,
    MAX_SHUFFLE_PROOF,
    CardRef,
    Commit,
    DecryptShares,
    DigestCheck,
    FeedRequest,
    HandOver,
    HandOverItem,
    KeyShare,
    PoolPlace,
    Reveal,
    Sealed,
    Share,
    ShuffleOpening,
    ShuffleStep,
)
from ._randomness import JointRandomness, chance_purpose, joint_seed
from ._replay import Ending, Replay, ReplayError, ReplayStep, replay_log
from ._sealed import seal, unseal
from ._session import TableSession
from ._session_messages import AuditOpening, Batch, Move, Opening, Resign
from ._table import TIME_LIMITS_KEY, TableSpec, TimeLimits
from ._untrusted import BOUNDS, Bounds, UntrustedInput, check_bounds, read_json

__all__ = [
    "BOUNDS",
    "CHEATS",
    "AuditOpening",
    "AuditResult",
    "Batch",
    "CardsSeen",
    "DecisionNeeded",
    "GameFinished",
    "GameResigned",
    "LogError",
    "Move",
    "Opening",
    "Resign",
    "StepApplied",
    "TableRun",
    "TableSession",
    "TableSpec",
    "TIME_LIMITS_KEY",
    "TimeLimits",
    "Verdict",
    "VerdictReached",
    "audit_log",
    "cheating_session",
    "make_table",
    "read_log",
    "run_table",
    "write_log",
    "Ending",
    "Replay",
    "ReplayError",
    "ReplayStep",
    "replay_log",
    "CONVERTER",
    "ENTRY_DOMAIN",
    "JOINT",
    "MAX_CARDS",
    "MAX_SHUFFLE_PROOF",
    "MAX_FRAME",
    "MAX_INT",
    "MAX_ITEMS",
    "MAX_LABEL",
    "MAX_SEATS",
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "ZERO_HASH",
    "BadCommitment",
    "BadProof",
    "BadSealedPayload",
    "BadShuffle",
    "BadSignature",
    "BrokenChain",
    "CardCodebook",
    "CardRef",
    "Ciphertext",
    "Commit",
    "DecodeError",
    "DeckKey",
    "DecryptShares",
    "DigestCheck",
    "Entry",
    "EntryHeader",
    "EquivocationError",
    "EquivocationProof",
    "Feed",
    "FeedLog",
    "FeedRequest",
    "FieldError",
    "FrameTooLarge",
    "HandOver",
    "HandOverItem",
    "Identity",
    "InvalidEvidence",
    "InvalidPoint",
    "JointRandomness",
    "KeyShare",
    "PoolPlace",
    "LocalProtocolError",
    "Misaddressed",
    "ProofContext",
    "ProtocolError",
    "PublicIdentity",
    "RemoteProtocolError",
    "Reveal",
    "Sealed",
    "Share",
    "ShuffleOpening",
    "ShuffleSecret",
    "ShuffleStep",
    "SignedHeader",
    "UnknownCard",
    "UnsupportedVersion",
    "WithheldReveal",
    "canonical_json",
    "chance_purpose",
    "commitment_digest",
    "decode",
    "decode_as",
    "decryption_shares",
    "encode",
    "fingerprint",
    "hand_over",
    "initial_deck",
    "joint_key",
    "joint_seed",
    "make_commitment",
    "message",
    "open_held",
    "parse_cards",
    "remix",
    "reveal_card",
    "rerandomise",
    "seal",
    "shuffle",
    "shuffle_step",
    "sign_entry",
    "strip_shares",
    "unseal",
    "verify_hand_over",
    "verify_key_share",
    "verify_reveal",
    "verify_shares",
    "verify_shuffle_opening",
    "verify_shuffle_step",
    "Bounds",
    "UntrustedInput",
    "check_bounds",
    "read_json",
]
