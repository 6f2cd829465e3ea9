"""The relay-storage invariant: what a relay keeps on disk names no card in the clear.

A relay stores every entry it passes on.  No part of one may carry a card's identity,
except the public answers the rules show face up (a Reign overt card or discard; a Sodalis
move may name a card it plays in the open); Sovereign names none at all.  Checked on the
relay's log as read back from disk, after the run.
"""

from __future__ import annotations

import json

import fairtable.protocol as P
import fairtable.protocol.wire as PW
from fairtable.netplay import RelayNode
from fairtable.netplay.storage._storage import parse_records
from tests.leaks import reign_face_up, strings_in

__all__ = ["relay_leaks"]


def _cards(game: str) -> set[str]:
    if game == "reign":
        from fairtable.engine.reign import standard_catalog

        return set(standard_catalog().defs)
    if game == "sovereign":
        from fairtable.engine.sovereign import standard_catalog as sovereign

        return set(sovereign().defs)
    # Sodalis: its arcana are the hidden cards (champions are chosen in the open)
    from fairtable.engine.sodalis.catalog import standard_catalog as sodalis

    return set(sodalis().arcana)


def relay_leaks(relay: RelayNode, game: str) -> list[str]:
    """Every card identity the relay's stored records carry where the rules show none."""
    cards, found = _cards(game), []
    for table in relay.tables.values():
        if table.log is None:
            continue
        records, _end = parse_records(table.log.path.read_bytes())  # as on disk
        for data in records:
            try:
                msg = P.decode(data)
            except P.DecodeError:
                found.append("the relay stored an undecodable record")
                continue
            if not isinstance(msg, P.Entry):
                if strings_in(json.loads(data)) & cards:
                    found.append(f"the relay stored a card name in a {type(msg).__name__}")
                continue
            batch = msg.message()
            for raw in getattr(batch, "parts", ()):
                part = P.decode(raw)
                named = strings_in(json.loads(raw)) & cards
                if isinstance(part, PW.Move) and game != "sovereign":
                    if game == "reign":
                        named -= reign_face_up(json.loads(part.answer))
                    else:
                        named = set()  # Sodalis plays its cards face up
                if named:
                    found.append(f"the relay stored {sorted(named)} in a {type(part).__name__}")
    return found
