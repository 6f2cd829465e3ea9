"""The console model: every decision can be made from the keyboard, refused input changes
nothing, and nothing of another seat's hidden cards ever reaches the model."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fairtable.client import ending
from fairtable.client.reign.model import ClientModel
from fairtable.engine.outcome import Outcome
from fairtable.engine.reign import Overt, standard_catalog
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.engine.driver import Table
from tests.leaks import strings_in

DEFS = standard_catalog().defs
KINDS = {
    "bid",
    "overt",
    "covert",
    "keep_support",
    "tie_break",
    "regent_discard",
    "spoils",
    "draw",
    "discard",
}


def model_for(table: Table, d: Decision) -> tuple[ClientModel, list[Any]]:
    sent: list[Any] = []
    model = ClientModel(sent.append)
    model.apply_event(ev.Seated(seat=d.seat, players=table.truth.state.players))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    return model, sent


def accepted(table: Table, answer: Any) -> bool:
    trial = table.truth.copy()
    trial.apply(answer)
    return True


def typed_answer(model: ClientModel, d: Decision) -> list[str]:
    """What a person would type to build a non-trivial answer by hand."""
    hand = model.hand()
    if d.kind == "bid":
        houses: dict[str, list[int]] = {}
        for i, card in enumerate(hand, start=1):
            if DEFS[card].kind == "military" and DEFS[card].house not in d.info.forbidden:
                houses.setdefault(DEFS[card].house or "", []).append(i)
        if not houses:
            return ["pass"]
        return [str(i) for i in next(iter(houses.values()))] + ["done"]
    if d.kind == "covert":
        targets = d.info.targets
        playable = [
            i
            for i, c in enumerate(hand, start=1)
            if not (DEFS[c].kind == "event" and DEFS[c].phase == "influence")
        ]
        home = d.seat if d.seat in targets else targets[0]
        return [f"{playable[0]}>{home}", "done"] if playable else ["pass"]
    if d.kind == "discard":
        return [str(i) for i in range(1, d.info.count + 1)] + ["done"]
    if d.kind == "spoils":
        must = d.info.must_give
        given = [f"{i}>{seat}" for i, seat in enumerate(must, start=1) if i <= len(hand)]
        return given + ["done"] if given else ["done", "done"]  # nothing given: it asks first
    return ["1"]


def test_keyboard_every_decision_kind_can_be_made_by_menu_and_by_hand() -> None:
    seen: set[str] = set()
    for seed in range(40):
        table = Table(4, seed=seed, bots=["random"] * 4)
        while not table.truth.over:
            request = table.truth.pending()[0]
            if isinstance(request, Decision):
                model, sent = model_for(table, request)
                model.command("#1")  # the first option is always a whole legal answer
                assert len(sent) == 1 and accepted(table, sent[0])
                model, sent = model_for(table, request)
                for line in typed_answer(model, request):
                    model.command(line)
                assert sent, f"{request.kind}: {model.message}"
                assert accepted(table, sent[-1])
                seen.add(request.kind)
            table.step()
        if seen == KINDS:
            break
    assert seen == KINDS


@pytest.mark.parametrize(
    "line",
    ["99", "#99", "x", "0", "3>", "3>x", "-1", "#0", "\u00b2", "#\u00b2", "\u00b2>1", "1>\u00b2"],
)
def test_keyboard_refused_input_gets_a_reason_and_sends_nothing(line: str) -> None:
    table = Table(4, seed=2, bots=["random"] * 4)
    while not (
        isinstance(table.truth.pending()[0], Decision)
        and table.truth.pending()[0].kind in ("bid", "draw", "covert")
    ):
        table.step()
    model, sent = model_for(table, table.truth.pending()[0])
    before = (model.picked(), model.decision)
    model.command(line)
    assert sent == []
    assert model.message and (model.picked(), model.decision) == before


def test_keyboard_help_explains_the_current_decision() -> None:
    table = Table(3, seed=1, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    model, sent = model_for(table, table.truth.pending()[0])
    model.command("?")
    assert model.show_help and "Bid for a support card" in model.help_text() and not sent
    assert model.message == "Help above; F1 or Esc hides it."


def test_hiding_the_model_never_holds_another_seats_hidden_card() -> None:
    table = Table(4, seed=5, bots=["random"] * 4)
    sent: list[Any] = []
    model = ClientModel(sent.append)
    model.apply_event(ev.Seated(seat=0, players=4))
    while not table.truth.over:
        before = len(table.truth.state.events)
        table.step()
        model.apply_event(
            ev.ViewChanged(
                view=table.truth.view(0),
                events=tuple(table.truth.state.events[before:]),
            )
        )
        hidden = set()
        for seat, secret in table.truth.state.secrets.items():
            if seat != 0:
                hidden |= set(secret.hand) | set(secret.facedown.values())
        for pile in table.referee.piles.values():
            hidden |= set(pile)
        shown = strings_in(json.loads(json.dumps(model.view.to_dict()))) | set(  # type: ignore[union-attr]
            " ".join(model.log).split()
        )
        assert not (hidden & shown)
        assert all(not any(card in line for card in hidden) for line in model.log)


def test_status_line_names_whom_the_table_waits_for_and_for_how_long() -> None:
    table = Table(3, seed=4, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=3))
    model.apply_event(ev.ViewChanged(view=table.truth.view(0), events=()))
    model.apply_event(ev.WaitingFor(seats=[2]))
    assert "waiting for seat 2" in model.status
    model.apply_event(ev.SeatWaiting(seat=2, seconds=12))
    assert "seat 2 (12 s)" in model.status
    model.apply_event(ev.Verdict(seat=2, kind="timeout", reason="silent"))
    assert "seat 2 is blamed for timeout" in model.status


def test_a_host_that_cannot_be_reached_is_named_in_the_status_line_with_the_attempt() -> None:
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Joining(invite="fairtable://x"))
    model.apply_event(
        ev.Unreachable(
            address="192.168.1.20:4711", why="connection refused", attempt=2, retry_in=0.4
        )
    )
    assert model.status == (
        "cannot reach 192.168.1.20:4711: connection refused; retrying... (attempt 2)"
    )
    model.apply_event(ev.LobbyUpdate(seated=2, seats=3))
    assert model.status == "2 of 3 seats taken"


def test_a_joiner_the_table_will_not_seat_is_told_in_the_status_line() -> None:
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Joining(invite="fairtable://x"))
    model.apply_event(
        ev.Refused(reason="the game at this table has already started and every seat is taken")
    )
    assert model.over == (
        "No seat at this table: the game at this table has already started and every seat is taken"
    )
    assert model.status == ending.status(model.over) and model.status.endswith("q to leave")
    host = ClientModel(lambda answer: None)
    host.apply_event(ev.TableOpen(invite="fairtable://x"))
    host.apply_event(ev.Refused(reason="a join without the invite"))
    assert host.status == "Waiting for players to join"  # someone else was refused
    assert list(host.log)[-1] == "Refused: a join without the invite"


def test_keyboard_order_of_influence_events_is_offered_as_a_menu() -> None:
    # Influence Phase > Event Cards and Special Abilities: the first player orders them
    from fairtable.engine.reign import OrderEvents
    from tests.engine.reign_helpers import bid_round, decision, table

    sabotage, herald = "political-sabotage.1", "bought-herald.1"
    hands = {0: ["violet-gloam-thrall.1", sabotage], 1: ["violet-gloam-thrall.2", herald]}
    game, ref = table(first=1, hands=hands)
    bid_round(game, ref, hands)
    d = decision(game, ref)
    assert d.kind == "order_events"
    sent: list[Any] = []
    model = ClientModel(sent.append)
    model.apply_event(ev.Seated(seat=1, players=4))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(1)))
    labels = [label for label, _ in model.menu()]
    assert sorted(labels) == [
        "Bought Herald, then Political Sabotage",
        "Political Sabotage, then Bought Herald",
    ]
    model.command("?")
    assert "order" in model.help_text()
    model.command("#" + str(labels.index("Bought Herald, then Political Sabotage") + 1))
    assert sent == [OrderEvents(1, (herald, sabotage))]
    game.apply(sent[0])


@pytest.mark.parametrize(
    ("event", "me", "words"),
    [
        (("overt", 0, 0, "political-sabotage.1"), 0, "face up in your own army"),
        (("overt", 1, 0, "political-sabotage.1"), 0, "face up in your army"),
        (
            ("overt", 2, 2, "political-sabotage.1"),
            0,
            "seat 2 placed Political Sabotage [influence] face up in its own army",
        ),
        (("covert", 1, [0, 1]), 0, "(into your army, its own army)"),
        (("army_revealed", 0, ["political-sabotage.1"]), 0, "Your army revealed: "),
        (("spoils", 1, []), 0, "seat 1 hands out no spoils"),
        (
            ("spoils", 1, [[0, 2], [2, 1]]),
            0,
            "seat 1 hands out spoils: 2 cards to you, 1 card to seat 2",
        ),
        # the verb agrees with "you" (issue 31, N13)
        (("regent", 0), 0, "you take the Onyx Crown and are Regent"),
        (("regent", 1), 0, "seat 1 takes the Onyx Crown and is Regent"),
        (("spoils", 0, []), 0, "you hand out no spoils"),
        (("spoils", 0, [[1, 2]]), 0, "you hand out spoils: 2 cards to seat 1"),
        (("winner", 0), 0, "you rule Kazath!"),
        (("winner", 2), 0, "seat 2 rules Kazath!"),
    ],
)
def test_log_wording_names_your_army_and_says_when_there_are_no_spoils(
    event: tuple[Any, ...], me: int, words: str
) -> None:
    from fairtable.client.reign.words import describe_public_event
    from fairtable.engine.reign.events import PARSER

    line = describe_public_event(PARSER.parse(event), me)
    assert line is not None and words in line and "you's" not in line


def test_keyboard_a_tie_or_a_strike_for_your_own_seat_says_you() -> None:
    """Combat Phase > Regent's Special Rules: the Regent's tie options name the Regent
    itself as "you", not by its seat number (a tie break and a strike's target)."""
    from fairtable.engine.reign import CombatTie, TieBreak
    from fairtable.engine.reign.decisions import CombatTieInfo

    model = ClientModel()
    model.apply_event(ev.Seated(seat=2, players=4))
    assert model._label(TieBreak(2, 2)) == "you win"
    assert model._label(TieBreak(2, 1)) == "seat 1 wins"
    tie = CombatTieInfo(
        key="0:c:0",
        army=0,
        card="c",
        op="strike",
        options=("1", "2"),
        armies=(),
        orders=(),
        picks=(),
        regent=2,
    )
    model.decision = Decision(2, tie)
    assert model._label(CombatTie(2, "2")) == "the strike hits your army"
    assert model._label(CombatTie(2, "1")) == "the strike hits seat 1's army"


def test_keyboard_overt_into_your_own_army_says_your_and_nothing_is_sent_after_the_end() -> None:
    table = Table(4, seed=3, bots=["random"] * 4)
    while True:  # an overt backing where the seat's own army is a choice
        r = table.truth.pending()[0]
        if isinstance(r, Decision) and r.kind == "overt":
            model, sent = model_for(table, r)
            if any(getattr(a, "target", None) == r.seat for _, a in model.menu()):
                break
        table.step()
    labels = [label for label, _ in model.menu()]
    assert any("into your own army" in label for label in labels)
    assert not any(f"seat {r.seat}'s army" in label for label in labels)
    model.apply_event(ev.GameOver(Outcome.nobody(), digest=""))
    model.command("#1")
    assert sent == [] and "Sent" not in model.message
    model.answered()
    assert model.message_parts == ending.LEAVE


def test_keyboard_pass_sends_the_pass_where_the_decision_has_one_and_nothing_elsewhere() -> None:
    """Overt backing may be passed (Plotting Phase > Overt backing): 'pass' sends it; a
    decision with no pass (the draw) refuses the word with a reason and sends nothing."""
    table = Table(4, seed=3, bots=["random"] * 4)
    asked: dict[str, Decision] = {}
    while not {"overt", "draw"} <= asked.keys():
        r = table.truth.pending()[0]
        if isinstance(r, Decision) and r.kind in ("overt", "draw"):
            asked.setdefault(r.kind, r)
        table.step()
    model, sent = model_for(table, asked["overt"])
    model.command("pass")
    assert sent == [Overt(asked["overt"].seat, None)]
    model, sent = model_for(table, asked["draw"])
    model.command("pass")
    assert sent == [] and model.message.startswith("Type a number")


def test_keyboard_a_bad_pick_is_refused_at_once_with_the_rule() -> None:
    """A bid mixing houses, a card for a seat that does not exist: refused as typed (Influence
    Phase > Bidding), nothing picked, nothing sent."""
    for seed in range(40):
        table = Table(4, seed=seed, bots=["random"] * 4)
        while not isinstance(table.truth.pending()[0], Decision):
            table.step()
        model, sent = model_for(table, table.truth.pending()[0])
        hand = model.hand()
        houses = {DEFS[c].house for c in hand if DEFS[c].kind == "military"} - set(
            model.decision.info.forbidden
        )  # type: ignore[union-attr]
        if len(houses) >= 2:
            break
    first, other = sorted(houses)[:2]
    a = next(i for i, c in enumerate(hand, 1) if DEFS[c].house == first)
    b = next(i for i, c in enumerate(hand, 1) if DEFS[c].house == other)
    model.command(str(a))
    assert model.picked() == [(hand[a - 1], None)]
    model.command(str(b))
    assert model.message.startswith("Not allowed: a bid is for one house")
    assert "(Influence Phase > Bidding)" in model.message
    assert model.picked() == [(hand[a - 1], None)] and sent == []
    table = Table(4, seed=3, bots=["random"] * 4)
    while not (isinstance(r := table.truth.pending()[0], Decision) and r.kind == "covert"):
        table.step()
    model, sent = model_for(table, r)
    model.command("1>9")
    assert model.message == "Not allowed: there is no seat 9 at this table (seats 0 to 3)"
    assert model.picked() == [] and sent == []


def test_keyboard_combat_choices_are_offered_as_menus() -> None:
    # Combat Phase > The Reveal / Regent's Special Rules: order_army and combat_tie menus
    from fairtable.engine.reign import CombatTie
    from tests.engine.reign_helpers import decision, plot, table

    spear, marine = "crimson-ash-spearman.1", "azure-tidecaller-marine.1"
    guard = "azure-harbour-guard.1"
    support = {"crimson": 0, "azure": 1, "ivory": None, "violet": None}
    game, ref = table(
        first=3,
        regent=3,
        phase="plotting",
        support=support,
        hands={0: [spear, marine], 1: [guard], 2: ["turncoat-captain.1"]},
    )
    plot(
        game,
        ref,
        covert={
            0: ((0, 0), (spear, marine)),
            1: ((1,), (guard,)),
            2: ((0,), ("turncoat-captain.1",)),
        },
    )
    d = decision(game, ref)
    sent: list[Any] = []
    model = ClientModel(sent.append)
    model.apply_event(ev.Seated(seat=3, players=4))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(3)))
    labels = [label for label, _ in model.menu()]
    assert len(labels) == 2 and all(label.endswith(" deserts") for label in labels)
    assert any("Ash Spearman" in label for label in labels)
    model.command("?")
    assert "tie" in model.help_text()
    model.command("#1")
    assert sent == [CombatTie(3, marine)]


def test_keyboard_a_second_line_before_the_answer_is_taken_sends_nothing_more() -> None:
    """One answer a decision: a line typed while the first answer is on its way (the node
    has not said it took it) is not sent, or the node would refuse it as not asked; once
    the node refuses an answer, the decision is open again."""
    table = Table(4, seed=2, bots=["random"] * 4)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    model, sent = model_for(table, table.truth.pending()[0])
    model.command("#1")
    model.command("#1")
    model.command("")
    assert len(sent) == 1 and accepted(table, sent[0])
    assert "Not allowed" not in model.message and "already" in model.message
    model.apply_event(ev.AnswerRefused("not asked"))
    model.command("#1")
    assert len(sent) == 2
