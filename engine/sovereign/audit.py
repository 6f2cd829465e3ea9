"""What the end-of-game audit checks of the cards nobody ever revealed.

At the end every deck key is opened, so the protocol can read every card still face
down under a handle and hands them here (``RULES.audit_cards``).  Two things the rules
forbid could only be hidden until then:

- a card in a forge that could never be forged -- a reflex ("Reflexes ... are never placed
  in the forge", the readings §1.4): the seat that placed it is blamed;
- an Echo an attacker saw in a breach and did not score ("the attacker ... scores every
  Echo", Breaching): in a forge breach a card stays where it is when nothing is scored, so
  an Echo still in that forge at the end, among the cards that breach showed, names the
  attacker; in a hand breach (the hand was re-handled since) every Echo among the cards it
  showed must have been scored by the attacker right after it.  (The breach that ended the
  game may stop scoring at the target: it is not judged; nor is a breach whose victim left
  the game before it scored -- the game set its cards aside -- or whose attacker did: a seat
  that left scores no more, docs/rules/sovereign.md §1.17; issue 33.)
"""

from __future__ import annotations

from typing import Any

from fairtable.engine.events import Departed
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.kinds import CardType
from fairtable.engine.sovereign.state import SovereignState


def audit_cards(game: Any, cards: dict[int, str]) -> tuple[int, str] | None:
    """``(seat, reason)`` for the first seat whose hidden cards broke the rules, else None."""
    state: SovereignState = game.state
    defs = state.catalog.defs
    for seat, board in enumerate(state.boards):
        for slot in board.forge:
            card = cards.get(slot.handle)
            if card is not None and card in defs and defs[card].type is CardType.REFLEX:
                return seat, f"seat {seat} kept the reflex {defs[card].name} in its forge"
    events = state.events
    peeks = [i for i, e in enumerate(events) if isinstance(e, E.Peek)]
    last = events[peeks[-1]] if peeks else None
    if state.winner is not None and isinstance(last, E.Peek) and last.seat == state.winner:
        peeks = peeks[:-1]  # the winning breach may stop scoring at the target
    for i in peeks:
        peek = events[i]
        assert isinstance(peek, E.Peek)
        attacker, victim = peek.seat, peek.victim
        in_forge = {s.handle for s in state.boards[victim].forge}
        nxt = next(
            (j for j in range(i + 1, len(events)) if isinstance(events[j], E.Peek | E.Turn)),
            len(events),
        )
        if any(
            isinstance(e, Departed) and e.seat in (victim, attacker) for e in events[i + 1 : nxt]
        ):
            continue  # the victim (its cards set aside) or the attacker left before scoring
        scored = {
            e.ref for e in events[i + 1 : nxt] if isinstance(e, E.Scored) and e.seat == attacker
        }
        for handle in peek.handles:
            card = cards.get(handle)
            if card not in defs or defs[card].type is not CardType.ECHO:
                continue
            if handle in in_forge or f"{victim}:{card}" not in scored:
                return attacker, (
                    f"seat {attacker} saw the Echo {defs[card].name} in seat "
                    f"{victim}'s cards and did not score it"
                )
    return None
