"""``info``: the full text of any card or champion a seat can see, from the engine's card data
(hand, table, forge, spread, menu options), in all three games -- and never a card of
another seat's that the rules hide from it (an ``info`` on anything cannot name it)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fairtable.client.card_info import info_answer
from fairtable.client.games import bots_for
from fairtable.client.help_parts import on_screen
from fairtable.client.reign.model import ClientModel
from fairtable.client.sodalis import info as sodalis_info
from fairtable.client.sodalis import model as sodalis_model
from fairtable.client.sovereign import model as sovereign_model
from fairtable.engine.reign import Bid, standard_catalog
from fairtable.engine.requests import Decision, PeekAnswer
from fairtable.engine.sodalis import SodalisConfig, new_game
from fairtable.engine.sodalis.answers import ChooseChampion, Reversals
from fairtable.netplay import events as ev
from tests.client import games
from tests.client.test_sovereign_model import play as play_sovereign
from tests.engine.driver import Table

DEFS = standard_catalog().defs


def reign_model(seed: int, kind: str, armies: bool = False) -> tuple[ClientModel, Table, Decision]:
    """A Reign model asked the first ``kind`` decision of a seeded four-seat game (with a
    face-up army on the table, if ``armies``)."""
    table = Table(4, seed=seed, bots=["random"] * 4)
    while not table.truth.over:
        request = table.truth.pending()[0]
        shown = any(table.truth.state.public()["armies"].values())
        if isinstance(request, Decision) and kind in ("", request.kind) and shown >= armies:
            model = ClientModel()
            model.apply_event(ev.Seated(seat=request.seat, players=4))
            model.apply_event(
                ev.DecisionAsked(decision=request, view=table.truth.view(request.seat))
            )
            return model, table, request
        table.step()
    raise AssertionError(f"no {kind} decision")


def test_info_n_shows_the_hand_cards_whole_text_from_the_card_data() -> None:
    model, _, _ = reign_model(3, "bid")
    hand = model.hand()
    for n, card in enumerate(hand, start=1):
        model.command(f"info {n}")
        d = DEFS[card]
        assert model.info.startswith(f"{d.name} (hand {n}):")
        assert (d.text or "No special ability") in model.info
        assert d.flavour in model.info
    model.command(f"info {len(hand) + 1}")
    assert f"There is no card {len(hand) + 1} in your hand: 1 to {len(hand)}" in model.info
    model.command("1")  # any other line hides the card text
    assert model.info == ""


def test_info_of_a_menu_option_names_its_cards_and_f2_takes_the_highlighted_one() -> None:
    model, _, d = reign_model(3, "bid")
    menu = model.menu()
    bids = [i for i, (_, a) in enumerate(menu, start=1) if isinstance(a, Bid) and a.cards]
    assert bids
    n = bids[0]
    model.command(f"info #{n}")
    for card in menu[n - 1][1].cards:
        assert DEFS[card].name in model.info
    text = model.info
    model.info = ""
    model.move_highlight(n - 1)  # Down, n - 1 times
    model.info_highlighted()
    assert model.info == text
    model.command("info #1")  # pass: bid nothing
    assert model.info.startswith("Option #1 names no card")


def test_info_by_name_finds_a_card_on_the_table_and_a_house() -> None:
    model, table, d = reign_model(5, "", armies=True)
    view = table.truth.view(d.seat)
    army = next(cards for cards in view.public["armies"].values() if cards)
    model.command(f"info {DEFS[army[0]].name.lower()}")
    assert model.info.startswith(DEFS[army[0]].name) and "face up in" in model.info
    house = standard_catalog().house(view.public["houses"][0])
    model.command(f"info {house.name}")
    assert house.support in model.info and house.text in model.info


def _reign_hidden(table: Table, seat: int) -> set[str]:
    s = table.truth.state
    hidden = set()
    for other, secret in s.secrets.items():
        if other != seat:
            hidden |= set(secret.hand) | set(secret.facedown.values())
    for pile in table.referee.piles.values():
        hidden |= set(pile)
    return hidden


def _every_info(model: Any, names: list[str]) -> str:
    """Every answer ``info`` gives now: the usage, each numbered card, each option, each
    name of the game."""
    queries = [
        "",
        *(str(n) for n in range(1, len(model.numbered_cards()) + 2)),
        *(f"#{n}" for n in range(1, len(model.menu()) + 1)),
        *names,
    ]
    return "\n".join(on_screen(info_answer(model, q, model.numbered_what)) for q in queries)


def test_hiding_reign_info_on_anything_never_names_another_seats_hidden_card() -> None:
    table = Table(4, seed=5, bots=["random"] * 4)
    names = sorted({d.name for d in DEFS.values()})
    checked = 0
    for step in range(400):
        if table.truth.over:
            break
        request = table.truth.pending()[0]
        if isinstance(request, Decision) and step % 3 == 0:
            model = ClientModel()
            model.apply_event(ev.Seated(seat=request.seat, players=4))
            view = table.truth.view(request.seat)
            model.apply_event(ev.DecisionAsked(decision=request, view=view))
            visible = (
                set(view.hand)
                | {c for _, c in view.facedown}
                | {
                    c
                    for key in ("armies", "bid_cards", "discards")
                    for cards in view.public[key].values()
                    for c in cards
                }
            )
            allowed = {DEFS[c].name for c in visible}
            secret = {DEFS[c].name for c in _reign_hidden(table, request.seat)} - allowed
            text = _every_info(model, names)
            for name in sorted(allowed, key=len, reverse=True):
                text = text.replace(name, "")
            assert not [n for n in secret if n in text]
            checked += bool(secret)
        table.step()
    assert checked > 20


def test_hiding_sovereign_info_never_names_a_card_the_seat_did_not_see() -> None:
    from tests.client.test_sovereign_model import DEFS as SOV
    from tests.client.test_sovereign_model import leaks

    checks = [0]
    shown: dict[int, set[str]] = {0: set(), 1: set()}  # what a breach ever showed a seat
    public: set[str] = set()

    def spy(game: Any, request: Any, answer: Any) -> None:
        if isinstance(answer, PeekAnswer):
            shown[answer.seat].update(answer.cards)
        now = str(game.state.public())
        public.update(c for c in SOV if c in now)
        if len(game.state.events) % 3:
            return
        for seat, model in models.items():
            own = set(game.state.catalog.faction(game.state.boards[seat].faction).deck)
            allowed = own | public | shown[seat]
            secret = {
                c for o in models if o != seat for c in game.state.secrets[o].cards.values()
            } - allowed
            probes = sorted({SOV[c].name for c in secret})  # the names a leak would show
            model.log.append(_every_info(model, probes))
            assert not leaks(model, allowed, secret), seat
            model.log.pop()
            checks[0] += bool(secret)

    models = {s: sovereign_model.ClientModel() for s in range(2)}
    play_sovereign(["heuristic", "random"], 4, models=models, on_step=spy, round_limit=6)
    assert checks[0] > 10


def test_hiding_sodalis_info_is_the_same_whatever_another_seat_flipped() -> None:
    """Seat 1's every ``info`` answer while seat 0's reversals are still hidden is the same
    whether seat 0 flipped all its arcana or none."""
    answers = []
    for flip_all in (True, False):
        game = new_game(SodalisConfig(4))
        models = {s: sodalis_model.ClientModel() for s in range(4)}
        for seat, model in models.items():
            model.apply_event(ev.Seated(seat=seat, players=4))
        games.play(
            game,
            7,
            [bots_for("sodalis")["random"]] * 4,
            until=lambda _, r: isinstance(r, Decision) and r.kind == "reversals",
            after=lambda g, _r, _a, events, m=models: games.feed_views(m, g, events),
        )
        mine = [d for d in game.pending() if d.seat == 0][0]
        events = game.apply(Reversals(0, tuple(mine.info.arcana) if flip_all else ()))
        d = [r for r in game.pending() if r.seat == 1][0]
        model = models[1]
        model.apply_event(ev.ViewChanged(view=game.view(1), events=events))
        model.apply_event(ev.DecisionAsked(decision=d, view=game.view(1)))
        names = sorted(
            {f.name for f in game.state.catalog.faces.values()}
            | {c.name for c in game.state.catalog.champions}
        )
        answers.append(_every_info(model, names))
    assert answers[0] == answers[1]
    assert "inertia" in answers[0]  # the champions chosen are there to see


def test_a_sodalis_option_names_its_champion_and_each_arcana_it_flips_with_the_reversal() -> None:
    view = new_game(SodalisConfig(4)).view(0)
    cat = view.catalog
    champion = cat.champions[0]
    asked = SimpleNamespace(view=view)
    assert [s.name for s in sodalis_info.option_cards(asked, ChooseChampion(0, champion.id))] == [
        champion.name
    ]
    flips = sorted(card for card in cat.faces if card + "~r" in cat.faces)[:2]
    seen = sodalis_info.option_cards(asked, Reversals(0, tuple(flips)))
    assert [(s.name, s.where) for s in seen] == [
        pair
        for card in flips
        for pair in (
            (cat.face(card).name, "in this option"),
            (cat.face(card + "~r").name, "its reversal"),
        )
    ]
