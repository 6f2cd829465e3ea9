"""Reign positions from one line of text, for tests and bug reports.

    reign players=4 round=2 first=1 regent=1 legit=0,3,2,0 phase=influence
          support=crimson:1,azure:-,ivory:2,violet:-
          hand0=crimson-pike.1,azure-oar hand1=... military=top,...,bottom
          events=... military_discard=... event_discard=...

(one line; wrapped here).  ``support`` names the houses in play and who holds
each (``-``: the centre).  Piles are listed top first; the returned referee
deals from them in that order.  ``phase`` is where play resumes: ``influence``
(bidding starts), ``plotting`` (overt backing starts) or ``draw`` (the draw
step of the Regent phase).  Every seat is known (an omniscient instance).
"""

from __future__ import annotations

from engine.errors import MalformedAnswer
from engine.referee import Referee
from engine.reign import flow
from engine.reign.cards import standard_catalog
from engine.reign.game import ReignGame
from engine.reign.state import ReignConfig, ReignState, Secrets

_STARTS = {"influence": ("round_start",), "plotting": ("plotting",), "draw": ("draw_round",)}


def _cards(text: str) -> list[str]:
    return [c for c in text.split(",") if c]


def position(line: str, seed: int = 0) -> tuple[ReignGame, Referee]:
    """Build a game and its referee from one line of text."""
    words = line.split()
    if not words or words[0] != "reign":
        raise MalformedAnswer("a Reign position starts with 'reign'")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise MalformedAnswer(f"expected key=value, got {word!r}")
        fields[key] = value
    catalog = standard_catalog()
    players = int(fields.get("players", "3"))
    config = ReignConfig(players, int(fields.get("round_limit", "60")))
    config.check()
    state = ReignState(
        config=config,
        catalog=catalog,
        known=frozenset(range(players)),
        secrets={s: Secrets() for s in range(players)},
    )
    state.legitimacy = [int(x) for x in fields.get("legit", ",".join("0" * players)).split(",")]
    state.hand_count = [0] * players
    support: dict[str, int | None] = {}
    for item in _cards(fields.get("support", "")):
        house, _, holder = item.partition(":")
        if house not in catalog.house_ids:
            raise MalformedAnswer(f"unknown house {house!r}")
        support[house] = None if holder in ("", "-") else int(holder)
    state.houses = tuple(sorted(support))
    state.support = {h: support[h] for h in state.houses}
    regent = fields.get("regent", "-")
    state.regent = None if regent == "-" else int(regent)
    state.first_player = int(fields.get("first", str(state.regent or 0)))
    state.round = int(fields.get("round", "1")) - (1 if fields.get("phase") == "influence" else 0)
    referee = Referee(seed)
    for pile, key in (("military", "military"), ("event", "events")):
        cards = _cards(fields.get(key, ""))
        referee.piles[pile] = list(cards)
        state.piles[pile] = len(cards)
        state.hidden = state.hidden.union(cards)
    state.discards = {
        "military": _cards(fields.get("military_discard", "")),
        "event": _cards(fields.get("event_discard", "")),
    }
    everything: list[str] = []
    for seat in range(players):
        hand = sorted(_cards(fields.get(f"hand{seat}", "")))
        state.secrets[seat].hand = hand
        state.hand_count[seat] = len(hand)
        state.hidden = state.hidden.union(hand)
        everything += hand
    everything += referee.piles["military"] + referee.piles["event"]
    everything += state.discards["military"] + state.discards["event"]
    unknown = [c for c in everything if c not in catalog.defs]
    if unknown:
        raise MalformedAnswer(f"unknown card {unknown[0]!r}")
    if len(set(everything)) != len(everything):
        raise MalformedAnswer("a card is in two places")
    phase = fields.get("phase", "influence")
    if phase not in _STARTS:
        raise MalformedAnswer(f"phase is one of {', '.join(_STARTS)}")
    if phase != "influence":
        state.phase = phase if phase != "draw" else "regent"
    state.tasks = [_STARTS[phase]]
    flow.advance(state)
    return ReignGame(state), referee
