"""The Sovereign console model: every decision kind can be made from the keyboard (by menu and
by shortcut), refused input changes nothing, the log tells combat round by round and what this
seat saw in a breach, the status line names whom the table waits for, and no pane, log line,
menu or message of a seat ever shows a card of another seat's hand or face-down forge that the
rules did not show it."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest

from fairtable.client.games import bots_for
from fairtable.client.sovereign.finish import Part, typed_answer
from fairtable.client.sovereign.model import HELP, MENU_LIMIT, ClientModel, label
from fairtable.client.sovereign.panes import (
    DEFS,
    citizens,
    side_lines,
    state_for,
    table_lines,
)
from fairtable.engine.requests import Deal, DealAnswer, Decision, PeekAnswer, RehandleAnswer
from fairtable.engine.sovereign import SovereignConfig, SovereignGame, new_game
from fairtable.engine.sovereign.choices import legal_answers
from fairtable.netplay import events as ev
from tests.client import games

BOTS = bots_for("sovereign")

KINDS = {
    "mulligan",
    "upkeep_return",
    "forge",
    "window",
    "move",
    "attack",
    "finish_forge",
    "breach_pick",
    "findings",
    "losses",
    "order_triggers",
    "add_health",
    "optional_effect",
}


def cards_seen(game: SovereignGame, request: Any, answer: Any) -> dict[int, ev.CardsShown]:
    """The ``cards_seen`` events a node would emit for this step, by seat."""
    if isinstance(answer, DealAnswer) and isinstance(request, Deal):
        why = "re-handled" if request.source.startswith("hand:") else "dealt"
        return {answer.seat: ev.CardsShown(list(answer.cards), why)}
    if isinstance(answer, RehandleAnswer):
        return {answer.seat: ev.CardsShown(list(answer.cards), "re-handled")}
    if isinstance(answer, PeekAnswer):
        return {answer.seat: ev.CardsShown(list(answer.cards), "peeked")}
    return {}


def play(
    kinds: list[str],
    seed: int,
    factions: tuple[str, ...] = (),
    on_decision: Callable[[SovereignGame, Decision], None] | None = None,
    models: dict[int, ClientModel] | None = None,
    on_step: Callable[[SovereignGame, Any, Any], None] | None = None,
    round_limit: int = 60,
) -> SovereignGame:
    """One whole game among bots with a seeded referee; ``models`` are fed what a node would
    feed them (views with events, decisions, cards seen)."""
    game = new_game(SovereignConfig(len(kinds), factions=factions, round_limit=round_limit))
    models = models or {}
    for seat, model in models.items():
        model.apply_event(ev.Seated(seat=seat, players=len(kinds)))
    asked: set[int] = set()

    def ask(game: SovereignGame, request: Any) -> None:
        for d in game.pending():
            if isinstance(d, Decision) and d.seat in models and d.seat not in asked:
                models[d.seat].apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
                asked.add(d.seat)

    def answered(game: SovereignGame, view: Any, d: Decision, answer: Any) -> None:
        if d.seat in models:
            models[d.seat].answered()
            asked.discard(d.seat)

    def tell(game: SovereignGame, request: Any, answer: Any, events: list[Any]) -> None:
        for seat, event in cards_seen(game, request, answer).items():
            if seat in models:
                models[seat].apply_event(event)
        games.feed_views(models, game, events)
        if on_step is not None:
            on_step(game, request, answer)

    games.play(
        game,
        seed,
        [BOTS[k] for k in kinds],
        before=ask,
        on_decision=on_decision,
        check=answered,
        after=tell,
    )
    for model in models.values():
        assert game.outcome is not None
        model.apply_event(ev.GameOver(game.outcome, digest=""))
    return game


def model_for(game: SovereignGame, d: Decision) -> tuple[ClientModel, list[Any]]:
    """A model seated at ``d``'s seat, given its view and asked ``d``; what it sends."""
    return games.model_for(ClientModel, game, d, view=True)


def typed(model: ClientModel, game: SovereignGame, d: Decision) -> list[str]:
    """What a person would type with the shortcuts."""
    if d.kind in ("window", "move", "attack", "upkeep_return"):
        return ["pass"]
    if d.kind == "mulligan":
        return ["keep"]
    if d.kind == "forge":
        b = game.state.boards[d.seat]
        if b.hand and b.citadel[0]:
            hand = game.view(d.seat).hand
            units = [i for i, (_, c) in enumerate(hand, 1) if DEFS[c].type != "reflex"]
            if units:
                return [f"play {units[0]}"]
        if b.forge and b.citadel[0]:
            return ["acc 1"]
        return ["end"]
    return ["2" if len(model.menu()) > 1 else "#1"]


def configs() -> Any:
    """Seeds, bots and factions of the games the keyboard tests walk through."""
    from fairtable.engine.sovereign import standard_catalog

    ids = standard_catalog().faction_ids
    for seed in range(80):
        kinds = ["random", "random"] if seed % 2 else ["heuristic", "random"]
        yield seed, kinds, (ids[seed % 6], ids[(seed // 6) % 6])


def menu_offers_every_legal_answer(model: ClientModel, game: SovereignGame, d: Decision) -> None:
    """Menu #1 is the suggestion; the rest are legal answers, each label once; every legal
    answer is offered (where there are fewer than 300)."""
    menu = [a for _, a in model.menu()]
    labels = [text.removesuffix(" (suggested)") for text, _ in model.menu()]
    assert len(labels) == len(set(labels)), d.kind
    assert model.menu()[0][0].endswith("(suggested)")
    legal = list(legal_answers(game.view(d.seat), d))
    assert set(menu[1:]) <= set(legal)
    if len(legal) < 300:  # every legal answer is offered, each once
        assert set(labels) == {label(game.view(d.seat), d, a) for a in legal}, d.kind


def check_by_menu_and_shortcut(game: SovereignGame, d: Decision) -> None:
    """Menu #1 is the suggestion and a whole legal answer; every legal answer is offered
    once; the shortcuts make an accepted answer too."""
    games.check_by_menu_and_shortcut(game, d, model_for, typed, menu_offers_every_legal_answer)


def test_keyboard_every_decision_kind_can_be_made_by_menu_and_by_shortcut() -> None:
    seen: dict[str, int] = {}

    def check(game: SovereignGame, d: Decision) -> None:
        if seen.get(d.kind, 0) >= 3:
            return
        check_by_menu_and_shortcut(game, d)
        seen[d.kind] = seen.get(d.kind, 0) + 1

    for seed, kinds, factions in configs():
        play(kinds, seed, factions, on_decision=check)
        if set(seen) == KINDS:
            break
    assert set(seen) == KINDS


def test_keyboard_restore_health_is_an_add_health_decision_in_words() -> None:
    """Restoring a two-type unit asks its controller an ``add_health`` decision (the same
    kind, ``op`` restore_health): by menu and by shortcut, labelled as a restore."""
    from fairtable.engine.sovereign.position import position
    from tests.engine.sovereign.helpers import play as play_reflex
    from tests.engine.sovereign.helpers import until

    game, ref = position(
        "sovereign factions=utopian,windwalker active=0 phase=forge "
        "citadel=3.2,0.0 lanes1=ww-stormcaller-matriarch:1.1 "
        "hand0=ur-hands-joined"
    )
    until(game, ref, "forge", seat=0)
    d = play_reflex(game, ref, 0, "ur-hands-joined", 2, 0, ("1:ww-stormcaller-matriarch",))[0]
    assert d.kind == "add_health" and d.seat == 1 and d.info.op == "restore_health"
    check_by_menu_and_shortcut(game, d)
    model, _ = model_for(game, d)
    assert {text.removesuffix(" (suggested)") for text, _ in model.menu()} == {
        f"{DEFS['ww-stormcaller-matriarch'].name} restores {w} from seat 0's Citadel"
        for w in ("1t", "1d")
    }


def first_forge(seed: int = 3) -> tuple[SovereignGame, Decision]:
    """A forge decision with cards in hand, in the forge and idle talents."""
    found: list[tuple[SovereignGame, Decision]] = []

    def grab(game: SovereignGame, d: Decision) -> None:
        b = game.state.boards[d.seat]
        if d.kind == "forge" and len(b.forge) >= 2 and b.citadel[0] >= 2 and not found:
            found.append((game.copy(), d))

    play(["heuristic", "heuristic"], seed, on_decision=grab, round_limit=6)
    return found[0]


@pytest.mark.parametrize(
    "line",
    [
        "99",
        "#99",
        "0",
        "#0",
        "x",
        "play",
        "play 99",
        "play x",
        "acc",
        "acc 9",
        "acc 1 x",
        "acc 1 99",
        "reveal",
        "reveal 9",
        "reveal 1 z",
        "keep",
        "shown",
        "-1",
        "1 2",
    ],
)
def test_keyboard_refused_input_gets_a_reason_and_changes_nothing(line: str) -> None:
    game, d = first_forge()
    model, sent = model_for(game, d)
    before = (model.decision, list(model.menu()), list(model.log), model.view, model.status)
    model.command(line)
    assert sent == [] and model.message and "\n" not in model.message
    assert (model.decision, list(model.menu()), list(model.log), model.view, model.status) == before


def test_keyboard_reveal_of_an_unfinished_card_is_refused_with_the_rule() -> None:
    game, d = first_forge()
    model, sent = model_for(game, d)
    view = game.view(d.seat)
    forge = game.state.boards[d.seat].forge
    unfinished = [i for i, s in enumerate(forge, 1) if s.progress < DEFS[view.card(s.handle)].cost]
    assert unfinished
    model.command(f"reveal {unfinished[0]}")
    assert sent == [] and model.message.startswith("Not allowed: its forge cost is")
    model.command("acc 1 2")
    assert len(sent) == 1 and sent[0].amount == 2 and games.accepted(game, sent[0])


def test_keyboard_other_decisions_refuse_forge_words() -> None:
    found: list[tuple[SovereignGame, Decision]] = []
    play(
        ["heuristic", "heuristic"],
        1,
        round_limit=2,
        on_decision=lambda g, q: found.append((g.copy(), q)) if q.kind == "window" else None,
    )
    games.check_refused(*model_for(*found[0]), ("play 1", "acc 1", "reveal 1", "keep", "free"))


def test_keyboard_help_explains_each_decision_kind() -> None:
    seen: set[str] = set()
    check = games.help_checker(model_for, HELP, seen)
    for seed, kinds, factions in configs():
        play(kinds, seed, factions, on_decision=check)
        if seen == KINDS:
            break
    assert seen == KINDS


# -- hidden information ---------------------------------------------------------------------
def _ids_in(value: Any) -> set[str]:
    """Card ids named anywhere in a public value or event (refs included)."""
    if isinstance(value, str):
        card = value.split(">")[0].split(":", 1)[-1]
        return {card} if card in DEFS else set()
    if isinstance(value, dict):
        return {c for k, v in value.items() for c in _ids_in(k) | _ids_in(v)}
    if isinstance(value, list | tuple):
        return {c for v in value for c in _ids_in(v)}
    return set()


def _forms(card: str) -> list[str]:
    """How a pane may write a card: its id, its name, its shortened names."""
    text = DEFS[card].name
    return [card, text] + [text[: w - 1] + "." for w in (8, 10, 12, 14, 16, 19) if len(text) > w]


def seat_text(model: ClientModel) -> str:
    """Everything this seat's screen shows or could show now."""
    parts = [
        *model.log,
        model.status,
        model.message,
        model.help_text(),
        *(label for label, _ in model.menu()),
        *(t for _, t in table_lines(model, 41) + side_lines(model, 38)),
    ]
    return "\n".join(parts)


def leaks(model: ClientModel, allowed: set[str], secret: set[str]) -> list[str]:
    """The forms of ``secret`` cards this seat's screen shows (the ``allowed`` cards'
    names removed first: a longer allowed name may contain a secret one)."""
    text = seat_text(model)
    for card in sorted(allowed, key=lambda c: -len(DEFS[c].name)):
        for form in _forms(card):
            text = text.replace(form, "")
    return [form for card in sorted(secret) for form in _forms(card) if form in text]


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 4), (4, 9)])
def test_hiding_no_seat_ever_sees_a_hidden_card_the_rules_did_not_show_it(
    players: int, seed: int
) -> None:
    models = {s: ClientModel() for s in range(players)}
    shown: dict[int, set[str]] = {s: set() for s in range(players)}  # shown to that seat
    public: set[str] = set()
    hidden: dict[int, set[str]] = {s: set() for s in range(players)}  # ever face down
    checks = [0]
    peeks = [0]
    last: dict[int, tuple[set[str], set[str]]] = {}
    logged = [0]  # the log's entries already read

    def step(game: SovereignGame, request: Any, answer: Any) -> None:
        s = game.state
        public.update(_ids_in(s.public()))
        public.update(_ids_in([list(e) for e in s.stored_events(logged[0])]))
        logged[0] = len(s.events)
        for seat in range(players):
            hidden[seat].update(s.secrets[seat].cards.values())
        if isinstance(answer, PeekAnswer):
            shown[answer.seat].update(answer.cards)
            peeks[0] += 1
        for seat, model in models.items():
            own = set(s.catalog.faction(s.boards[seat].faction).deck)
            allowed = own | shown[seat] | public
            secret = set().union(*(hidden[o] for o in range(players) if o != seat)) - allowed
            assert not leaks(model, allowed, secret), seat
            checks[0] += bool(secret)
            last[seat] = (allowed, secret)

    game = play((["heuristic", "random"] * 3)[:players], seed, models=models, on_step=step)
    assert game.over and checks[0] > 200 and peeks[0] >= 1
    attackers = {e[1] for e in game.state.stored_events() if e[0] == "peek"}
    rehandled = {e[1] for e in game.state.stored_events() if e[0] == "rehandle"}
    for seat, model in models.items():
        saw = any(line.startswith("You see the cards") for line in model.log)
        assert saw == (seat in attackers)
        told = any(line.startswith("Your hand is re-handled") for line in model.log)
        assert told == (seat in rehandled)
    names = {DEFS[c].name for c in shown[next(iter(attackers))]}
    assert any(n in " ".join(models[next(iter(attackers))].log) for n in names)
    allowed, secret = last[0]  # the check does catch a leak
    models[0].log.append("psst: " + DEFS[sorted(secret)[0]].name)
    assert leaks(models[0], allowed, secret)


def test_hiding_the_forge_shows_progress_to_others_and_names_to_its_owner() -> None:
    game, d = first_forge()
    me, other = d.seat, 1 - d.seat
    view = game.view(me)
    mine, _ = model_for(game, d)
    theirs = ClientModel()
    theirs.apply_event(ev.Seated(seat=other, players=2))
    theirs.apply_event(ev.ViewChanged(view=game.view(other), events=()))
    own_text = "".join(t for _, t in side_lines(mine, 38))
    their_text = "".join(t for _, t in table_lines(theirs, 41) + side_lines(theirs, 38))
    for slot in game.state.boards[me].forge:
        card = view.card(slot.handle)
        assert DEFS[card].name[:12] in own_text
        assert DEFS[card].name[:12] not in their_text
    progress = " ".join(str(s.progress) for s in game.state.boards[me].forge)
    assert f"; forge {progress}\n" in their_text


# -- typing a finish_forge answer part by part ------------------------------------------------
@functools.cache
def capped_finish() -> tuple[SovereignGame, Decision]:
    """A finish_forge decision with more legal answers than the menu lists."""
    found: list[tuple[SovereignGame, Decision]] = []

    def grab(game: SovereignGame, d: Decision) -> None:
        if (
            d.kind == "finish_forge"
            and not found
            and sum(
                1 for _ in itertools.islice(legal_answers(game.view(d.seat), d), MENU_LIMIT + 1)
            )
            > MENU_LIMIT
        ):
            found.append((game.copy(), d))

    for seed, kinds, factions in configs():
        play(kinds, seed, factions, on_decision=grab)
        if found:
            return found[0]
    raise AssertionError("no capped finish_forge decision came")


def test_keyboard_finish_forge_beyond_the_menu_can_be_typed() -> None:
    from fairtable.engine.sovereign.flow import host_options

    game, d = capped_finish()
    model, sent = model_for(game, d)
    menu = {a for _, a in model.menu()}
    assert len(model.menu()) == MENU_LIMIT + 1  # the suggestion and the capped list
    new, loose = list(d.info.new_units), list(d.info.loose)
    target = next(a for a in legal_answers(game.view(d.seat), d) if a not in menu and a.lanes)
    for ref, t, dr in target.health:
        model.command(f"health {new.index(ref) + 1} {t} {dr}")
    for ref, lane in target.lanes:
        model.command(f"lane {new.index(ref) + 1} {'lc'[lane]}")
    for aug, host in target.attach:
        hosts = host_options(game.state, aug)
        model.command(f"attach {loose.index(aug) + 1} {hosts.index(host) + 1 if host else 0}")
    assert sent == [] and "done" in model.message
    model.command("done")
    assert sent == [target] and games.accepted(game, target)


@pytest.mark.parametrize(
    "line",
    [
        "health",
        "health 9 1 1",
        "health 1 x 1",
        "health 1 1",
        "lane 1",
        "lane 1 z",
        "lane 0 l",
        "attach",
        "attach 9 1",
        "attach 1 99",
        "attach x y",
    ],
)
def test_keyboard_finish_forge_bad_parts_are_refused_with_one_line(line: str) -> None:
    game, d = capped_finish()
    model, sent = model_for(game, d)
    model.command("health 1 0 0")
    draft = repr(model._draft)
    model.command(line)
    assert sent == [] and model.message and "\n" not in model.message
    assert repr(model._draft) == draft
    model.command("health 1 99 99")  # out of the printed maximum: refused when sent
    model.command("done")
    assert sent == [] and model.message.startswith("Not allowed: first health")
    assert model.decision is d
    model, sent = model_for(*first_forge())
    for line in ("health 1 1 1", "lane 1 l", "attach 1 1", "done", "clear"):
        model.command(line)
        assert sent == [] and "\n" not in model.message


def test_keyboard_finish_forge_words_are_the_typed_parts_each_a_shortcut() -> None:
    game, d = capped_finish()
    model, _ = model_for(game, d)
    shortcuts = model.shortcuts()
    assert all(shortcuts[part] == shortcuts["health"] for part in Part)
    assert [w for w in model.completions() if w in set(Part)] == list(Part)
    assert Part.LANE == "lane" and f"{Part.DONE}" == "done"
    message = typed_answer(model._draft, d, state_for(model.view), None, "lanes", ["1", "l"])
    assert message == "'lanes' is none of health, lane, attach, clear, done."


def test_log_a_breach_says_why_its_value_and_the_defender_learns_which_cards_were_seen() -> None:
    """§1.8: the breach value is one per surviving attacker with attack 1+ while a defender
    stands, else the attacks added up (plus bonuses); the log says which, with each attacker's
    attack, and the numbers give the value.  The defender is told which of its own cards the
    attacker looked at; the other seats only how many."""
    import re

    explained = 0
    named = 0
    for seed in (4, 9, 11):
        models = {s: ClientModel() for s in range(3)}
        play(["heuristic", "random", "heuristic"], seed, models=models)
        for model in models.values():
            for line in model.log:
                found = re.search(r"breach value (\d+) \((.*)\)$", line)
                if found:
                    value, why = int(found[1]), found[2]
                    bonus = int(b[1]) if (b := re.search(r"bonus \+(\d+)", why)) else 0
                    listed = why.split(": ", 1)[1].split("; bonus")[0]
                    attacks = [int(x.rsplit(" ", 1)[1]) for x in listed.split(", ")]
                    if "no defender stands" in why:
                        assert sum(attacks) + bonus == value, line
                    else:
                        assert sum(1 for x in attacks if x >= 1) + bonus == value, line
                    explained += 1
                if re.match(r"(seat \d) looks at \d+ of your cards: ", line):
                    named += 1
                assert not re.match(r"(seat \d|you) looks? at \d+ of seat \d's cards:", line)
    assert explained > 3 and named > 0


def test_seat_lines_say_hand_and_deck_in_words_and_f1_explains_them() -> None:
    """Issue 31: ``cit 2d h8 d42`` used ``d`` for drones and for the deck, and explained
    neither ``h`` nor ``d``: the hand and deck are words, ``d`` is only a drone, and F1 says
    what a seat's line means; the summary rows still fit the 80-column table pane."""
    game, d = first_forge()
    model, _ = model_for(game, d)
    text = "".join(t for _, t in table_lines(model, 41))
    board = game.state.boards[d.seat]
    assert re.search(rf"^>you +\w+ E0/\d+ hand {len(board.hand)}$", text, re.M), text
    assert f" you: cit {citizens(board.citadel)} deck {board.deck};" in text
    assert not re.search(r"\bh\d+ d\d+\b", text)
    rows = [row for row in text.splitlines() if re.search(r" E\d+/\d+ hand \d+$", row)]
    assert len(rows) == game.state.players and all(len(row) <= 40 for row in rows)
    helped = model.help_text()
    assert "cit its citizens idle in the citadel" in helped
    assert "hand N: cards held" in helped and "deck N: cards left to draw" in helped


def test_a_forge_finish_names_what_it_does_health_only_for_health() -> None:
    """Issue 31, N20: a forge's finish that only scraps an augment with no host is not
    labelled "health:"; a finish that gives health still says so."""
    from types import SimpleNamespace

    from fairtable.client.sovereign.labels import label
    from fairtable.engine.sovereign import answers as A

    view: Any = SimpleNamespace(seat=0)
    scrap = A.FinishForge(seat=0, attach=(("1:ms-self-repair-lattice", ""),))
    assert label(view, None, scrap) == "Self-Repair Lattice scrapped (it has no unit to go on)"
    mast = A.FinishForge(seat=0, attach=(("1:ms-sensor-mast", ""),))  # goes on a facility
    assert label(view, None, mast) == "Sensor Mast scrapped (it has no facility to go on)"
    health = A.FinishForge(seat=0, health=(("1:ms-self-repair-lattice", 1, 0),))
    assert label(view, None, health).startswith("health: Self-Repair Lattice ")


def test_forge_a_loose_augment_says_it_is_scrapped_without_a_host() -> None:
    """The third new-user run: "forge the augment Reactive Plating (forge 2), attach it later"
    with no unit to go on was scrapped at the forge's end; the option says so beforehand."""
    from fairtable.client.sovereign.labels import LOOSE
    from fairtable.engine.sovereign import answers as A
    from fairtable.engine.sovereign.placement import Placement

    said: list[str] = []

    def seen(game: SovereignGame, d: Decision) -> None:
        if d.kind == "forge" and not said:
            view = game.view(d.seat)
            for a in legal_answers(view, d):
                place = Placement.parse(a.place) if isinstance(a, A.ForgeCard) else None
                if place is not None and place.loose:
                    said.append(label(view, d, a))
                    return

    for seed in range(1, 12):
        play(["random", "random"], seed, on_decision=seen)
        if said:
            break
    assert said and said[0].endswith(LOOSE), said
    assert "scrapped if nothing can host it" in said[0]
