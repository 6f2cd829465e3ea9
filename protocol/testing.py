"""Tools for testing the protocol and the layers above it, public.

This module owns nothing itself; it is the one public door to what tests, simulations and
benchmarks drive the protocol with: in-memory tables run to the end (:func:`make_table`,
:func:`run_table`, the seeded :func:`peer_secrets` they use), sessions that cheat in a
named way (:data:`CHEATS`, :func:`cheating_session`), the exchange state diagram the
specification prints, and the session's internal budget units that tests check alone.
Nothing here is needed to play a table with others; ``fairtable simulate`` uses the tables
and the cheats, and ``fairtable play --seed`` (a table for tests, in one process) the tables.
"""

from ._cheats import CHEATS, cheating_session
from ._exchanges import state_diagram
from ._harness import TableRun, make_table, peer_secrets, run_table
from ._held import GAP_BUDGET, SEAT_BUDGET, GapBudget, PartStore

__all__ = [
    "CHEATS",
    "GAP_BUDGET",
    "SEAT_BUDGET",
    "GapBudget",
    "PartStore",
    "TableRun",
    "cheating_session",
    "make_table",
    "peer_secrets",
    "run_table",
    "state_diagram",
]
