"""Sovereign positions from one line of text, for tests and bug reports.

    sovereign players=2 factions=myrmidon,windwalker active=1 phase=battle turn=5
              citadel=2.1,0.3 lanes1=ww-sentinels:0.3,ww-webweave-spies/ww-gale-riders
              lanes0=md-hunter-seeker:0.1,md-nautilus:0.1+md-aegis-shell fac0=md-titan-cannon
              hand1=ww-desperate-sacrifice forge0=md-echo-x:2@4 scrap0=md-bulwark

(one line; wrapped here).  Per-seat values are comma-separated in seat order (``citadel``,
``leader``: ``talents.drones`` each).  ``lanesN``: seat N's lanes, Leader lane first,
``/`` between them, each unit front to back as ``card[:talents.drones][+augment...]``
(default health: the printed maximum; an augment of another seat is ``+<owner>:<card>``).
``facN``: facilities as ``card[:talents.drones][+augment...]`` (the workers).  ``handN``,
``scrapN``: card ids.  ``forgeN``: ``card:progress[@entry turn]`` in forge order.
``scoredN``: Echoes seat N scored, ``[<owner>:]card`` (default owner N).  ``reflexesN``:
reflexes in play, ``card:talents.drones``.  ``deckN``: the top of the deck, top first;
every card listed nowhere follows in id order.  ``phase``: ``growth`` (the turn starts),
``forge``, ``battle``, ``move`` or ``between`` -- the active seat's turn resumes at that
phase (its beginning window first).  ``turn``/``round``: counters (default 1).  Every seat
is known (an omniscient instance); the creche count is derived.
"""

from __future__ import annotations

from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.position_line import PositionLine
from fairtable.engine.referee import Referee
from fairtable.engine.sovereign import effects, flow
from fairtable.engine.sovereign.cards import Catalog, standard_catalog
from fairtable.engine.sovereign.game import SovereignGame
from fairtable.engine.sovereign.kinds import CardType, Step, TurnPhase
from fairtable.engine.sovereign.state import (
    LANE_SIZE,
    Board,
    Facility,
    Secrets,
    Slot,
    SovereignConfig,
    SovereignState,
    Unit,
)
from fairtable.engine.words import word_of

PHASES = (TurnPhase.GROWTH, TurnPhase.FORGE, TurnPhase.BATTLE, TurnPhase.MOVE, TurnPhase.BETWEEN)


def _list(text: str) -> list[str]:
    return [x for x in text.split(",") if x]


def _pair(text: str) -> list[int]:
    t, sep, d = text.partition(".")
    if not sep or not t.isdigit() or not d.isdigit():
        raise MalformedAnswer(f"citizens are talents.drones, not {text!r}")
    return [int(t), int(d)]


class _Builder:
    def __init__(self, state: SovereignState) -> None:
        self.state = state
        self.used: set[str] = set()

    def take(self, seat: int, card: str, kinds: tuple[CardType, ...] = ()) -> str:
        """Claim ``card`` of seat ``seat``'s deck (each card is placed once)."""
        s = self.state
        deck = s.catalog.faction(s.boards[seat].faction).deck
        if card not in deck:
            raise MalformedAnswer(f"{card!r} is not in seat {seat}'s deck")
        if kinds and s.catalog.defs[card].type not in kinds:
            raise MalformedAnswer(f"{card!r} is not a {' or '.join(kinds)}")
        ref = f"{seat}:{card}"
        if ref in self.used:
            raise MalformedAnswer(f"{ref} is placed twice")
        self.used.add(ref)
        return ref

    def augments(self, seat: int, parts: list[str], attach: CardType) -> list[str]:
        out = []
        for part in parts:
            owner, sep, card = part.partition(":")
            aug = (
                self.take(int(owner), card, (CardType.AUGMENT,))
                if sep
                else self.take(seat, part, (CardType.AUGMENT,))
            )
            if self.state.defn(aug).attach is not attach:
                raise MalformedAnswer(f"{aug} does not attach to a {attach}")
            out.append(aug)
        return out

    def lanes(self, seat: int, text: str) -> None:
        s = self.state
        lanes = text.split("/")
        if len(lanes) > 2:
            raise MalformedAnswer("a seat has two lanes")
        for lane, entries in enumerate(lanes):
            for entry in _list(entries):
                head, *augs = entry.split("+")
                card, _, health = head.partition(":")
                ref = self.take(seat, card, (CardType.UNIT,))
                d = s.catalog.defs[card]
                tokens = _pair(health) if health else [d.talents, d.drones]
                s.units[ref] = Unit(seat, card, tokens, self.augments(seat, augs, CardType.UNIT))
                s.boards[seat].lanes[lane].append(ref)
            if len(s.boards[seat].lanes[lane]) > LANE_SIZE:
                raise MalformedAnswer("only three units may occupy a lane")

    def facilities(self, seat: int, text: str) -> None:
        s = self.state
        for entry in _list(text):
            head, *augs = entry.split("+")
            card, _, workers = head.partition(":")
            ref = self.take(seat, card, (CardType.FACILITY,))
            s.facilities[ref] = Facility(
                seat,
                card,
                _pair(workers) if workers else [0, 0],
                self.augments(seat, augs, CardType.FACILITY),
            )
            s.boards[seat].facilities.append(ref)


def position(
    line: str, seed: int = 0, catalog: Catalog | None = None
) -> tuple[SovereignGame, Referee]:
    """Build a game in play and its referee from one line of text."""
    f = PositionLine.parse(line, "sovereign", "Sovereign")
    catalog = catalog or standard_catalog()
    players = f.number("players", 2)
    config = SovereignConfig(
        players,
        tuple(f.items("factions")),
        f.number("target", 0) if f.has("target") else None,
        f.number("round_limit", 60),
    )
    config.check(catalog)
    state = SovereignState(
        config=config,
        catalog=catalog,
        known=frozenset(range(players)),
        secrets={s: Secrets() for s in range(players)},
    )
    for fid in config.seat_factions(catalog):
        fac = catalog.faction(fid)
        state.boards.append(Board(faction=fid, leader=fac.leader, citadel_card=fac.citadel))
    build = _Builder(state)
    for key, pos in (("citadel", "citadel"), ("leader", "leader_workers")):
        for seat, text in enumerate(f.items(key)):
            setattr(state.boards[seat], pos, _pair(text))
    referee = Referee(seed)
    for seat, b in enumerate(state.boards):
        build.lanes(seat, f.text(f"lanes{seat}"))
        build.facilities(seat, f.text(f"fac{seat}"))
        for card in f.items(f"scrap{seat}"):
            b.scrap.append(build.take(seat, card).split(":", 1)[1])
        for entry in f.items(f"reflexes{seat}"):
            card, _, paid = entry.partition(":")
            b.reflexes.append(
                [build.take(seat, card, (CardType.REFLEX,)), _pair(paid or "0.0"), []]
            )
        for entry in f.items(f"scored{seat}"):
            owner, sep, card = entry.partition(":")
            b.scored.append(
                build.take(PositionLine.whole(f"scored{seat}", owner), card, (CardType.ECHO,))
                if sep
                else build.take(seat, entry, (CardType.ECHO,))
            )
    for seat, b in enumerate(state.boards):
        secret = state.secrets[seat].cards
        for card in f.items(f"hand{seat}"):
            build.take(seat, card)
            h = state.new_handle()
            b.hand.append(h)
            secret[h] = card
        for entry in f.items(f"forge{seat}"):
            card, _, rest = entry.partition(":")
            progress, _, entered = rest.partition("@")
            build.take(seat, card)
            h = state.new_handle()
            key = f"forge{seat}"
            number = PositionLine.whole
            b.forge.append(Slot(h, number(key, progress or "1"), number(key, entered or "0")))
            secret[h] = card
        deck = [c for c in f.items(f"deck{seat}") if build.take(seat, c)]
        deck += [c for c in catalog.faction(b.faction).deck if f"{seat}:{c}" not in build.used]
        b.deck = len(deck)
        referee.piles[f"deck:{seat}"] = deck
        state.hidden.append(sorted(deck + list(secret.values())))
    state.creche_out = effects.citizens_total(state)
    active = f.number("active", 0)
    if not 0 <= active < players:
        raise MalformedAnswer("the active seat is a seat of this table")
    state.active = active
    state.first_player = f.number("first", 0)
    state.turn, state.round = f.number("turn", 1), f.number("round", 1)
    phase = word_of(TurnPhase, f.text("phase", TurnPhase.FORGE))
    if phase not in PHASES:
        raise MalformedAnswer(f"phase is one of {', '.join(PHASES)}")
    if phase is TurnPhase.GROWTH:
        state.turn -= 1
        state.tasks = [(Step.TURN, active)]
        if active == state.first_player:
            state.round -= 1
    else:
        tasks = flow.turn_tasks(state, active)
        state.tasks = tasks[tasks.index((Step.PHASE, phase)) :]
    flow.advance(state)
    return SovereignGame(state), referee
