"""A Sovereign priority window where only ``pass`` is legal, or a forge finish with one legal
answer, is answered for the player (not asked again and again), after the pause the player's
own answers to that kind take, so the clock does not tell the others that the player had no
choice; any other decision waits for the player."""

from __future__ import annotations

import itertools
import random

from fairtable.client.auto_pass import DEFAULT_PAUSE, LIMITS, AutoPass
from fairtable.client.plain import PlainSession
from fairtable.client.sovereign.model import ClientModel, label
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignGame
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign.choices import legal_answers
from fairtable.netplay import events as ev
from tests.client.test_sovereign_model import model_for, play


def windows() -> tuple[list[tuple[SovereignGame, Decision]], list[tuple[SovereignGame, Decision]]]:
    """Window decisions of a seeded game: those with only a pass, and those with a choice."""
    only, choice = [], []

    def seen(game: SovereignGame, d: Decision) -> None:
        if d.kind == "window" and (len(only) < 3 or len(choice) < 3):
            model, _ = model_for(game, d)
            (only if model.only_answer() is not None else choice).append((game.copy(), d))

    play(["heuristic", "heuristic"], 3, on_decision=seen)
    return only, choice


def test_auto_pass_a_pass_only_window_is_answered_after_a_pause_and_only_once() -> None:
    only, choice = windows()
    assert only and choice
    game, d = only[0]
    model, sent = model_for(game, d)
    auto = AutoPass(model, random.Random(1))
    assert not auto.tick(100.0) and not auto.tick(100.0 + LIMITS[0] / 2) and sent == []
    assert auto.tick(100.0 + LIMITS[1])
    assert sent == [A.Pass(d.seat)] and "Passed for you" in model.message
    assert not auto.tick(100.0 + 2 * LIMITS[1]) and len(sent) == 1  # once
    game.copy().apply(sent[0])  # a legal answer


def test_auto_pass_a_window_with_a_choice_and_other_decisions_wait_for_the_player() -> None:
    _, choice = windows()
    game, d = choice[0]
    model, sent = model_for(game, d)
    auto = AutoPass(model, random.Random(1))
    for t in range(0, 600, 10):
        assert not auto.tick(float(t))
    assert sent == [] and model.only_answer() is None


def test_auto_pass_the_pause_follows_the_players_own_window_answers() -> None:
    _, choice = windows()
    auto_model = ClientModel()
    auto = AutoPass(auto_model, random.Random(2))
    assert abs(auto.pause("window") - DEFAULT_PAUSE) <= DEFAULT_PAUSE * 0.2 + 1e-9
    t = 0.0
    for game, d in choice * 2:  # answered by hand, 4.5 s after each was asked
        model, _ = model_for(game, d)
        auto.model = model
        auto.tick(t)
        model.decision = None
        t += 4.5
        auto.tick(t)
    hand = auto.by_hand["window"]
    assert list(hand) and all(abs(x - 4.5) < 1e-9 for x in hand)
    assert all(4.5 * 0.8 - 1e-9 <= auto.pause("window") <= 4.5 * 1.2 + 1e-9 for _ in range(20))


def test_auto_pass_one_answer_a_decision_whoever_answers_first() -> None:
    only, _ = windows()
    game, d = only[0]
    model, sent = model_for(game, d)  # the player passes first: nothing more is sent
    auto = AutoPass(model, random.Random(1))
    auto.tick(0.0)
    model.command("pass")
    assert not auto.tick(LIMITS[1] + 1) and len(sent) == 1
    model, sent = model_for(game, d)  # passed for the player: a late '#1' sends nothing
    auto = AutoPass(model, random.Random(1))
    auto.tick(0.0)
    assert auto.tick(LIMITS[1] + 1)
    model.command("#1")
    assert len(sent) == 1 and "Passed for you already" in model.message


def test_one_guard_holds_every_way_an_answer_leaves_while_ours_is_on_its_way() -> None:
    """A line typed again, a line plain mode would send at once, and an answer passed for the
    player all ask the model's one guard: while our answer is on its way (the node has not
    said it took it) none is sent; once the node refuses it, the decision is open again."""
    only, _ = windows()
    game, d = only[0]
    model, sent = model_for(game, d)
    plain = PlainSession(model, lambda line: None)
    auto = AutoPass(model, random.Random(1))
    auto.tick(0.0)
    assert model.open_to_answer() and not plain.waits("pass")
    model.command("pass")
    assert model.answer_on_its_way() and not model.open_to_answer()
    model.command("pass")
    assert "Sent already" in model.message
    assert plain.waits("pass")  # kept for the next decision, not sent
    assert not auto.tick(LIMITS[1] + 1)
    assert len(sent) == 1
    model.apply_event(ev.AnswerRefused("not asked"))
    assert model.open_to_answer() and not plain.waits("pass")
    assert auto.tick(LIMITS[1] + 2) and len(sent) == 2


def test_an_answer_the_network_side_cannot_take_leaves_the_decision_open() -> None:
    """A full queue to the network side (both front ends say so through answer_not_sent):
    nothing is on its way, so neither the guard nor 'passed for you' holds the next answer."""
    only, _ = windows()
    game, d = only[0]
    model, sent = model_for(game, d)
    full = model.submit
    model.submit = lambda answer: model.answer_not_sent()
    assert not model.auto_answer(A.Pass(d.seat)) and model.open_to_answer()
    assert "try again" in model.message
    model.submit = full
    model.command("pass")
    assert len(sent) == 1 and model.answer_on_its_way()


def test_plain_answers_typed_ahead_wait_out_the_windows_that_pass_themselves() -> None:
    """Prepared input stays in step: a window passed for the player uses no answer typed
    ahead; the next decision that really asks the player does."""
    only, choice = windows()
    (game, d), (later, d2) = next((o, c) for o in only for c in choice if o[1].seat == c[1].seat)
    sent: list[object] = []
    said: list[str] = []
    model = ClientModel(sent.append)
    plain = PlainSession(model, said.append)
    plain.line("#1")  # typed ahead, before the game starts
    model.apply_event(ev.Seated(seat=d.seat, players=game.state.players))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
    plain.update()
    assert list(plain.held) == ["#1"] and sent == []  # the window does not take it
    auto = AutoPass(model, random.Random(1))
    auto.tick(0.0)
    assert auto.tick(LIMITS[1] + 1)
    plain.update()
    assert sent == [A.Pass(d.seat)] and list(plain.held) == ["#1"]
    model.take(ev.Answered())
    model.apply_event(ev.DecisionAsked(decision=d2, view=later.view(d2.seat)))
    plain.update()
    assert sent[1] == model.menu()[0][1] and not plain.held and "> #1" in said


def test_plain_says_nothing_of_a_window_that_passes_itself() -> None:
    """Issue 31: plain mode announced every window that passes itself with its options and
    then 'Passed for you' (noise for a screen reader, about 40 times in 7 Sovereign turns);
    it announces only what the player must decide."""
    only, choice = windows()
    (game, d), (later, d2) = next((o, c) for o in only for c in choice if o[1].seat == c[1].seat)
    sent: list[object] = []
    said: list[str] = []
    model = ClientModel(sent.append)
    plain = PlainSession(model, said.append)
    model.apply_event(ev.Seated(seat=d.seat, players=game.state.players))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
    plain.update()
    auto = AutoPass(model, random.Random(1))
    auto.tick(0.0)
    assert auto.tick(LIMITS[1] + 1)
    plain.update()
    model.take(ev.Answered())
    plain.update()
    assert sent == [A.Pass(d.seat)]
    assert not any(line.startswith(("Decide", "#1", "Passed for you")) for line in said), said
    model.apply_event(ev.DecisionAsked(decision=d2, view=later.view(d2.seat)))
    plain.update()
    assert any(line.startswith("Decide (window)") for line in said)  # a real choice: said
    assert "#1 pass (suggested)" in said


def finishes() -> tuple[tuple[SovereignGame, Decision], tuple[SovereignGame, Decision]]:
    """A forge phase's finish with one legal answer (an augment with no host), and one with
    more (issue 31, N20), from seeded games."""
    one: list[tuple[SovereignGame, Decision]] = []
    more: list[tuple[SovereignGame, Decision]] = []

    def seen(game: SovereignGame, d: Decision) -> None:
        if d.kind == "finish_forge":
            answers = set(itertools.islice(legal_answers(game.view(d.seat), d), 50))
            (one if len(answers) == 1 else more).append((game.copy(), d))

    for seed in range(1, 8):
        play(["random", "random"], seed, on_decision=seen)
        if one and more:
            return one[0], more[0]
    raise AssertionError("no finish with one legal answer came")


def test_auto_pass_a_finish_with_one_legal_answer_is_made_for_the_player() -> None:
    """Issue 31, N20: the end of a forge phase with one legal answer (a loose augment with one
    host, or none: scrapped) is not asked: it is answered for the player after the same pause
    as a window, and the message line says what was done."""
    (game, d), _ = finishes()
    (only,) = set(legal_answers(game.view(d.seat), d))
    model, sent = model_for(game, d)
    assert model.only_answer() == only
    assert "finishing the forge for you shortly" in model.decision_line()
    auto = AutoPass(model, random.Random(1))
    assert not auto.tick(100.0) and not auto.tick(100.0 + LIMITS[0] / 2) and sent == []
    assert auto.tick(100.0 + LIMITS[1])
    assert sent == [only] and not auto.tick(100.0 + 2 * LIMITS[1])
    said = f"Finished the forge for you: {label(game.view(d.seat), d, only)}."
    assert model.message == said and model.log[-1] == said  # the next question hides the message
    game.copy().apply(sent[0])  # a legal answer


def test_auto_pass_a_finish_with_a_choice_waits_for_the_player() -> None:
    """A finish where the typed parts ('health N T D', 'lane', 'attach') make more than one
    answer legal is the player's to make, whatever the menu lists."""
    _, (game, d) = finishes()
    model, sent = model_for(game, d)
    assert model.only_answer() is None
    auto = AutoPass(model, random.Random(1))
    for t in range(0, 600, 10):
        assert not auto.tick(float(t))
    assert sent == []


def test_auto_pass_the_pause_follows_the_players_answers_to_the_same_kind() -> None:
    """Finishes answered by hand (slow: parts typed) do not slow the windows passed for the
    player, nor do quick windows hurry a finish: each kind keeps the player's own pace."""
    _, choice = windows()
    _, (game, d) = finishes()
    auto = AutoPass(ClientModel(), random.Random(2))
    t = 0.0
    for (g, dd), took in [*((c, 3.0) for c in choice), *[((game, d), 30.0)] * 3]:
        model, _ = model_for(g, dd)
        auto.model = model
        auto.tick(t)
        model.decision = None
        t += took
        auto.tick(t)
    assert all(3.0 * 0.8 - 1e-9 <= auto.pause("window") <= 3.0 * 1.2 + 1e-9 for _ in range(20))
    assert all(auto.pause("finish_forge") == LIMITS[1] for _ in range(20))


def forge_turns() -> tuple[tuple[SovereignGame, Decision], tuple[SovereignGame, Decision]]:
    """A forge turn where ending the forge actions is the only legal answer (nothing in hand
    can be played or forged), and one with more, from seeded games."""
    one: list[tuple[SovereignGame, Decision]] = []
    more: list[tuple[SovereignGame, Decision]] = []

    def seen(game: SovereignGame, d: Decision) -> None:
        if d.kind == "forge" and not (one and more):
            answers = set(itertools.islice(legal_answers(game.view(d.seat), d), 2))
            (one if len(answers) == 1 else more).append((game.copy(), d))

    for seed in range(1, 12):
        play(["random", "random"], seed, on_decision=seen)
        if one and more:
            return one[0], more[0]
    raise AssertionError("no forge turn with one legal answer came")


def test_auto_pass_a_forge_turn_with_nothing_to_do_is_ended_for_the_player() -> None:
    """A forge turn where the rules leave only 'end your forge actions' is not asked: it is
    answered for the player after the same pause, saying so; a forge turn with a choice waits."""
    (game, d), (game2, d2) = forge_turns()
    model, sent = model_for(game, d)
    assert model.only_answer() == A.Pass(d.seat)
    assert "ending your forge actions for you shortly" in model.decision_line()
    auto = AutoPass(model, random.Random(1))
    assert not auto.tick(100.0) and sent == []
    assert auto.tick(100.0 + LIMITS[1]) and sent == [A.Pass(d.seat)]
    said = "Ended your forge actions for you: nothing else can be done in the forge now."
    assert model.message == said and model.log[-1] == said
    chooser, sent2 = model_for(game2, d2)
    assert chooser.only_answer() is None
    auto2 = AutoPass(chooser, random.Random(1))
    assert not any(auto2.tick(float(t)) for t in range(0, 600, 10)) and sent2 == []
