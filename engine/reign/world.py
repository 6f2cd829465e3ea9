"""Worlds one seat cannot tell apart: the hidden cards sampled from that seat's view.

A search bot plays from its own view only; to look ahead it needs whole games.
:func:`sample_world` deals every card whose place the seat cannot see -- the other
seats' hands, the cards they put face down (bids, covert backing), the order of the
piles -- and returns an omniscient game and a referee holding the piles, ready to be
played on.  It reads the view and nothing else (``view.play`` is public: where play
stands), so it cannot use another seat's secret.

**Which worlds, how often.** Every world consistent with the view is equally likely:
the unseen cards are exactly the view's hidden cards less the seat's own; each pile
holds its count of cards of its kind (military or event); a face-down bid holds
military cards of one house it may bid for (at least one) and influence events only;
a face-down army card is no influence event; each hand holds its count.  The sampler
is exact, not by rejection: it draws each bid's make-up (house, number of soldiers)
with probability proportional to the number of worlds that complete it (a product of
binomials and falling factorials over the card counts that are left), then every
placement uniformly.  What the seat may remember beyond its view (cards it gave
as spoils) is not used: the view is all it knows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from fairtable.engine.referee import Referee
from fairtable.engine.reign import flow
from fairtable.engine.reign.cards import CardPhase, Catalog, standard_catalog
from fairtable.engine.reign.game import ReignGame
from fairtable.engine.reign.state import ReignConfig, ReignState, RoundPhase, Secrets
from fairtable.engine.reign.steps import Step
from fairtable.engine.reign.view import ReignView
from fairtable.engine.rng import ChanceStream

__all__ = ["sample_world", "WorldError"]


class WorldError(ValueError):
    """The view admits no world (it was not made by this engine)."""


def _falling(n: int, k: int) -> int:
    return math.perm(n, k) if 0 <= k <= n else 0


def _pick(stream: ChanceStream, items: Sequence[str], k: int) -> list[str]:
    """``k`` of ``items`` in a uniformly random order (a uniform ordered draw)."""
    order = stream.permutation(len(items))
    return [items[i] for i in order[:k]]


def _weighted(stream: ChanceStream, weights: Sequence[int]) -> int:
    total = sum(weights)
    if total <= 0:
        raise WorldError("no world agrees with this view")
    x = stream.below(total)
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise AssertionError("unreachable")


def _base_state(view: ReignView, catalog: Catalog) -> ReignState:
    """The omniscient state with the view's public part and play, hands still empty."""
    pub, play = view.public, view.play
    assert play is not None
    players = pub["players"]
    state = ReignState(
        config=ReignConfig(players, pub["round_limit"]),
        catalog=catalog,
        known=frozenset(range(players)),
        secrets={s: Secrets() for s in range(players)},
    )
    state.round, state.phase = pub["round"], RoundPhase(pub["phase"])
    state.houses = tuple(pub["houses"])
    state.first_player, state.regent = pub["first_player"], pub["regent"]
    state.legitimacy = list(pub["legitimacy"])
    state.support = dict(pub["support"])
    state.piles = dict(pub["piles"])
    state.discards = {k: list(v) for k, v in pub["discards"].items()}
    state.hand_count = list(pub["hand_count"])
    state.hidden = play.hidden
    state.next_handle = play.next_handle
    state.bids = {int(s): list(h) for s, h in pub["bids"].items()}
    state.bid_cards = {int(s): list(c) for s, c in pub["bid_cards"].items()}
    state.influence_winner = dict(play.influence_winner)
    state.gains = play.gains
    state.armies = {int(s): list(c) for s, c in pub["armies"].items()}
    state.army_down = {int(s): [list(x) for x in d] for s, d in pub["army_down"].items()}
    state.backing = {int(s): t for s, t in pub["backing"].items()}
    state.betrayal_in_regent_army = play.betrayal_in_regent_army
    state.kingmaker = play.kingmaker
    state.combat_totals = [list(x) for x in pub["combat_totals"]]
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


def _bid_number(state: ReignState) -> int:
    for task in state.tasks:
        if task[0] in (Step.REVEAL_BIDS, Step.BID):
            return int(task[-1])
    return 1


def sample_world(
    view: ReignView, stream: ChanceStream, catalog: Catalog | None = None
) -> tuple[ReignGame, Referee]:
    """One world consistent with ``view``, drawn uniformly (see the module docstring), as an
    omniscient game and the referee that deals on from its piles."""
    if view.seat is None or view.play is None:
        raise WorldError("a world is sampled from a seat's view")
    catalog = catalog or standard_catalog()
    defs = catalog.defs
    me = view.seat
    state = _base_state(view, catalog)
    state.secrets[me].hand = sorted(view.hand)
    state.secrets[me].facedown = dict(view.facedown)
    own = set(view.hand) | {c for _, c in view.facedown}
    unseen = sorted(state.hidden - own)
    military = [c for c in unseen if defs[c].military]
    influence = [c for c in unseen if defs[c].influence]
    plotting = [c for c in unseen if defs[c].phase is CardPhase.PLOTTING]
    by_house: dict[str, list[str]] = {h: [] for h in sorted(catalog.military)}
    for c in military:
        by_house[defs[c].house or ""].append(c)
    houses = tuple(sorted(by_house))

    bids = [(s, hs) for s, hs in sorted(state.bids.items()) if s != me]
    downs = [
        (entry[1], entry[0])
        for _, entries in sorted(state.army_down.items())
        for entry in entries
        if entry[1] != me
    ]  # (placer, handle)
    hands = {s: state.hand_count[s] for s in range(state.players) if s != me}
    asides = dict(sorted(state.aside_count.items()))
    pile_m, pile_e = state.piles["military"], state.piles["event"]
    slots = sum(len(h) for _, h in bids) + len(downs) + sum(hands.values()) + pile_m + pile_e
    slots += sum(asides.values())
    if slots != len(unseen) or len(view.hand) != state.hand_count[me]:
        raise WorldError("the view's counts do not add up to its hidden cards")
    forbidden = set(flow.forbidden_houses(state, _bid_number(state)))
    allowed = tuple(i for i, h in enumerate(houses) if h not in forbidden)
    n_down = len(downs)

    def rest(m: int, i: int, p: int) -> int:
        """Worlds for the piles, face-down army cards and hands given the military,
        influence and plotting cards left (the hands' arrangement is a constant)."""
        left_m = m - pile_m
        if left_m < 0:
            return 0
        total = 0
        for j in range(0, min(i, pile_e) + 1):  # j influence events in the event pile
            if pile_e - j > p:
                continue
            total += (
                math.comb(i, j)
                * math.comb(p, pile_e - j)
                * _falling(left_m + p - (pile_e - j), n_down)
            )
        return _falling(m, pile_m) * total

    sizes = tuple(len(h) for _, h in bids)

    @functools.cache
    def worlds(b: int, counts: tuple[int, ...], i: int) -> int:
        """Worlds completing bids ``b``.. with ``counts`` soldiers per house and ``i``
        influence events left."""
        if b == len(bids):
            return rest(sum(counts), i, len(plotting))
        return sum(weight for _, _, weight in options(b, counts, i))

    def options(b: int, counts: tuple[int, ...], i: int) -> list[tuple[int, int, int]]:
        k = sizes[b]
        out = []
        for h in allowed:
            for x in range(1, min(k, counts[h]) + 1):
                if k - x > i:
                    continue
                left = counts[:h] + (counts[h] - x,) + counts[h + 1 :]
                w = math.comb(counts[h], x) * math.comb(i, k - x) * worlds(b + 1, left, i - (k - x))
                if w:
                    out.append((h, x, w))
        return out

    counts = tuple(len(by_house[h]) for h in houses)
    pools = {h: list(by_house[h]) for h in houses}
    events_in = list(influence)
    i_left = len(events_in)
    if worlds(0, counts, i_left) == 0:
        raise WorldError("no world agrees with this view")
    for b, (seat, handles) in enumerate(bids):
        choice = options(b, counts, i_left)
        h, x, _ = choice[_weighted(stream, [w for _, _, w in choice])]
        house = houses[h]
        soldiers = _pick(stream, pools[house], x)
        extra = _pick(stream, events_in, sizes[b] - x)
        pools[house] = [c for c in pools[house] if c not in soldiers]
        events_in = [c for c in events_in if c not in extra]
        cards = soldiers + extra
        order = stream.permutation(len(cards))
        state.secrets[seat].facedown.update((hd, cards[order[n]]) for n, hd in enumerate(handles))
        counts = counts[:h] + (counts[h] - x,) + counts[h + 1 :]
        i_left -= sizes[b] - x

    mil_left = sorted(c for h in houses for c in pools[h])
    plot_left = list(plotting)
    m_n, i_n, p_n = len(mil_left), len(events_in), len(plot_left)
    left_m = m_n - pile_m
    js = list(range(0, min(i_n, pile_e) + 1))
    weights = [
        math.comb(i_n, j)
        * math.comb(p_n, pile_e - j)
        * _falling(left_m + p_n - (pile_e - j), n_down)
        if pile_e - j <= p_n
        else 0
        for j in js
    ]
    j = js[_weighted(stream, weights)]
    pile_military = _pick(stream, mil_left, pile_m)
    in_pile = set(pile_military)
    mil_left = [c for c in mil_left if c not in in_pile]
    event_cards = _pick(stream, events_in, j) + _pick(stream, plot_left, pile_e - j)
    event_pile = [event_cards[n] for n in stream.permutation(len(event_cards))]
    taken = set(event_pile)
    events_left = [c for c in events_in if c not in taken]
    plot_left = [c for c in plot_left if c not in taken]
    down_cards = _pick(stream, sorted(mil_left + plot_left), n_down)
    for (placer, handle), card in zip(downs, down_cards, strict=True):
        state.secrets[placer].facedown[handle] = card
    placed = set(down_cards)
    rest_cards = sorted([c for c in mil_left + plot_left if c not in placed] + events_left)
    order = stream.permutation(len(rest_cards))
    at = 0
    for seat, size in sorted(hands.items()):
        state.secrets[seat].hand = sorted(rest_cards[n] for n in order[at : at + size])
        at += size
    for seat, size in asides.items():  # set aside by a seat that left: never opened
        state.secrets[seat].aside = sorted(rest_cards[n] for n in order[at : at + size])
        at += size
    referee = Referee(stream.take(32))
    referee.piles = {"military": pile_military, "event": event_pile}
    return ReignGame(state), referee
