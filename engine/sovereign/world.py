"""Worlds one seat cannot tell apart in Sovereign: the hidden cards sampled from its view.

A search bot plays from its own view only; to look ahead it needs whole games.
:func:`sample_world` places every card whose place the seat does not know -- the other
seats' hand and forge cards it did not see in a breach, and every deck's order, its own
included (nobody knows a deck's order) -- and returns an omniscient game and a referee
holding the decks, ready to be played on.  It reads the view and nothing else (``public``
and ``play`` are public; ``cards`` and ``seen`` are the seat's own knowledge), so it
cannot use another seat's secret.

**Which worlds, how often.** A seat's hidden cards (``play.hidden``: its hand, forge and
deck, the deck list less every card placed in public) are the same in every world; what
differs is which of them lies under each hand handle, each forge handle and each deck
position.  The viewing seat knows its own hand and forge and whatever it saw of others'
(``seen``); the rest of another seat's hidden cards fill its unseen forge handles, then its
unseen hand handles and its deck.  The one rule a face-down card must keep is that a
reflex never enters the forge (docs/rules/sovereign.md, "Forge Phase").  Every world
consistent with that is equally likely: the forge handles take an ordered draw of
distinct non-reflex cards, uniform; the remaining cards a uniform permutation over the
hand handles and the deck (top first).  Counting them: with ``n`` cards left of which
``r`` are reflexes and ``f`` unseen forge handles, ``(n - r)! / (n - r - f)!`` ways for
the forge, times ``(n - f)!`` for the rest, the same for each forge draw -- so drawing the
forge first, then the rest, is exact.  What a seat may remember beyond its view (the cards
of a hand it saw before the hand was re-handled, what it guesses from how others played)
is not used: the view is all it knows.  Other seats' simultaneous answers already given
(a mulligan, losses) are not in the view: in the world those seats are asked again, and
what other seats saw in their breaches is not known either (their ``seen`` is empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairtable.engine.common_state import copied
from fairtable.engine.referee import Referee
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign.cards import Catalog, standard_catalog
from fairtable.engine.sovereign.decks import Deck, parse_deck
from fairtable.engine.sovereign.game import SovereignGame
from fairtable.engine.sovereign.kinds import CardType, TurnPhase
from fairtable.engine.sovereign.state import (
    Board,
    Facility,
    Secrets,
    Slot,
    SovereignConfig,
    SovereignState,
    Unit,
)
from fairtable.engine.sovereign.view import SovereignView

__all__ = ["WorldError", "sample_world", "unseen_cards"]


class WorldError(ValueError):
    """The view admits no world (it was not made by this engine)."""


def _config(pub: dict[str, Any], catalog: Catalog) -> SovereignConfig:
    decks: tuple[Deck | None, ...] = ()
    if "decks" in pub:
        decks = tuple(
            None if d is None else parse_deck(d, catalog, f"seat {s}'s deck")
            for s, d in enumerate(pub["decks"])
        )
    return SovereignConfig(
        pub["players"],
        factions=tuple(b["faction"] for b in pub["boards"]),
        echo_target=pub["echo_target"],
        round_limit=pub["round_limit"],
        decks=decks,
    )


def _board(bp: dict[str, Any]) -> Board:
    b = Board(faction=bp["faction"], leader=bp["leader"], citadel_card=bp["citadel_card"])
    b.citadel, b.leader_workers = list(bp["citadel"]), list(bp["leader_workers"])
    b.lanes = [list(x) for x in bp["lanes"]]
    b.facilities, b.loose = list(bp["facilities"]), list(bp["loose"])
    b.reflexes = [[r, list(c), list(t)] for r, c, t in bp["reflexes"]]
    b.forge = [Slot(*x) for x in bp["forge"]]
    b.hand, b.deck = list(bp["hand"]), bp["deck"]
    b.scrap, b.scored = list(bp["scrap"]), list(bp["scored"])
    b.mulligans = list(bp["mulligans"])
    return b


def _base_state(view: SovereignView, catalog: Catalog) -> SovereignState:
    """The omniscient state with the view's public part and play; no secrets yet.  Nothing
    mutable is shared with the view (a world is played on; the view is used again)."""
    pub, play = view.public, view.play
    assert play is not None
    players = pub["players"]
    state = SovereignState(
        config=_config(pub, catalog),
        catalog=catalog,
        known=frozenset(range(players)),
        secrets={s: Secrets() for s in range(players)},
    )
    state.boards = [_board(bp) for bp in pub["boards"]]
    state.units = {
        r: Unit(u["owner"], u["card"], list(u["health"]), list(u["augments"]), u["new"])
        for r, u in pub["units"].items()
    }
    state.facilities = {
        r: Facility(f["owner"], f["card"], list(f["workers"]), list(f["augments"]))
        for r, f in pub["facilities"].items()
    }
    state.hidden = [list(h) for h in play.hidden]
    state.creche_out, state.first_player = pub["creche_out"], pub["first_player"]
    state.active, state.turn, state.round = pub["active"], pub["turn"], pub["round"]
    state.phase, state.moved = TurnPhase(pub["phase"]), pub["moved"]
    state.window = copied(pub["window"])
    state.battle = copied(pub["battle"])
    state.temps = [list(t) for t in pub["temps"]]
    state.revealed = [list(x) for x in pub["revealed"]]
    state.next_handle = play.next_handle
    state.tasks = list(play.tasks)
    state.pending = list(play.pending)
    state.winner, state.over = pub["winner"], pub["over"]
    state.decisions, state.serial = play.decisions, play.serial
    state.departed = tuple(pub.get("departed", ()))
    for s, aside in pub.get("set_aside", {}).items():
        state.aside_count[int(s)] = aside["cards"]
        if aside["handles"]:
            state.aside_handles[int(s)] = tuple(aside["handles"])
    return state


def unseen_cards(view: SovereignView, seat: int) -> list[str]:
    """The hidden cards of ``seat`` whose place the view does not know, sorted."""
    assert view.play is not None
    board = view.public["boards"][seat]
    handles = set(board["hand"]) | {x[0] for x in board["forge"]}
    known = dict(view.cards) if seat == view.seat else dict(view.seen)
    placed = [c for h, c in known.items() if h in handles]
    left = list(view.play.hidden[seat])
    for card in placed:
        if card not in left:
            raise WorldError(f"{card} is not among seat {seat}'s hidden cards")
        left.remove(card)
    return sorted(left)


def _pick(stream: ChanceStream, items: Sequence[str], k: int) -> list[str]:
    """``k`` of ``items`` in a uniformly random order (a uniform ordered draw)."""
    order = stream.permutation(len(items))
    return [items[i] for i in order[:k]]


def sample_world(
    view: SovereignView, stream: ChanceStream, catalog: Catalog | None = None
) -> tuple[SovereignGame, Referee]:
    """One world consistent with ``view``, drawn uniformly (see the module docstring), as an
    omniscient game and the referee that deals on from its decks."""
    if view.seat is None or view.play is None:
        raise WorldError("a world is sampled from a seat's view")
    catalog = catalog or standard_catalog()
    defs = catalog.defs
    state = _base_state(view, catalog)
    me = view.seat
    state.secrets[me] = Secrets(dict(view.cards), dict(view.seen))
    piles: dict[str, list[str]] = {}
    for seat, b in enumerate(state.boards):
        known = dict(view.cards) if seat == me else dict(view.seen)
        cards = state.secrets[seat].cards
        for h in b.hand + [x.handle for x in b.forge]:
            if h in known:
                cards[h] = known[h]
        left = unseen_cards(view, seat)
        forge = [x.handle for x in b.forge if x.handle not in known]
        hand = [h for h in b.hand if h not in known]
        aside = state.aside_count.get(seat, 0)  # set aside by a seat that left
        if len(left) != len(forge) + len(hand) + aside + b.deck:
            raise WorldError(f"seat {seat}'s hidden cards do not add up in this view")
        can_forge = [c for c in left if defs[c].type is not CardType.REFLEX]
        if len(can_forge) < len(forge):
            raise WorldError(f"seat {seat}'s forge cannot hold its cards")
        in_forge = _pick(stream, can_forge, len(forge))
        cards.update(zip(forge, in_forge, strict=True))
        taken = set(in_forge)
        rest = _pick(stream, [c for c in left if c not in taken], len(left) - len(forge))
        cards.update(zip(hand, rest, strict=False))
        state.secrets[seat].aside = sorted(rest[len(hand) : len(hand) + aside])
        piles[f"deck:{seat}"] = rest[len(hand) + aside :]
    referee = Referee(stream.take(32))
    referee.piles = piles
    return SovereignGame(state), referee
