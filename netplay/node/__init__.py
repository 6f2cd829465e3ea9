"""The node: a peer at one table, over real links; and a spectator following one.

This area composes the others into a running peer:

* ``_node``        -- :class:`TableNode`: the parts composed, messages routed to them;
* ``_node_links``  -- which links a node keeps up: serving, dialling the host or relay and seats;
* ``_departure``   -- leaving: the farewell a finished seat says, and when it may go;
* ``_node_parts``  -- a node's settings in typed parts, and one link's state, shared by its parts;
* ``_mesh``        -- a node's links and flooding over them (dialling, readers, writers);
* ``_admission``   -- lobby admission: join requests, seating, the signed start, early entries;
* ``_node_folder`` -- a node's table folder: resuming a hosted table, ``table.json``, the log;
* ``_pump``        -- pumping the sans-IO session: our entries out, decisions, client events;
* ``_liveness``    -- presence beats, the table's clocks over links, catching up when stalled;
* ``_watch``       -- a spectator's side of ``fairtable watch``: following a table seatless;
* ``_follow``      -- after our seat left a game that plays on: the rest, as a spectator.

The names below are the area's public part; other areas import only these.
"""

from ._node import PortBusy, TableNode
from ._node_parts import NodeConfig, Pacing, Reach, SeatClock, TableChoice, TableTerms
from ._pump import Decider, ResignRequest, Thinker
from ._watch import WatchRefused, watch_table

__all__ = [
    "NodeConfig",
    "Pacing",
    "PortBusy",
    "Reach",
    "SeatClock",
    "TableChoice",
    "TableTerms",
    "ResignRequest",
    "TableNode",
    "Decider",
    "Thinker",
    "WatchRefused",
    "watch_table",
]
