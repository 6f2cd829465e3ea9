"""Scaffolding shared by the client tests of the bot-played games (Sodalis and Sovereign): a
seeded game among bots driven step by step with hooks, a seat's console model handed one
decision, and the keyboard and bot checks that every such game's tests make the same way
(menu ``#1`` and the shortcuts each send one accepted answer, ``?`` explains each decision
kind, refused words send nothing, a bot decides the same from its seat's own view; on the
screen, ``#1`` typed reaches the network side, F1 shows help and refused input sends nothing,
the options that fit and the newest log lines)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from fairtable.client.screen_model import HELP_SHOWN
from fairtable.engine.events import Event
from fairtable.engine.referee import Referee
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import events as ev
from tests.client.screen import run_keys

Game = Any  # a SodalisGame or a SovereignGame: both keep the engine contract
Model = Any  # that game's console ClientModel
ModelFor = Callable[[Game, Decision], tuple[Model, list[Any]]]


def play(
    game: Game,
    seed: int,
    bots: Sequence[Callable[[ChanceStream], Any]],
    *,
    until: Callable[[Game, Any], bool] | None = None,
    before: Callable[[Game, Any], None] | None = None,
    on_decision: Callable[[Game, Decision], None] | None = None,
    check: Callable[[Game, Any, Decision, Any], None] | None = None,
    after: Callable[[Game, Any, Any, list[Any]], None] | None = None,
) -> list[Any]:
    """Play ``game`` among ``bots`` (one bot class a seat) with a referee, all seeded from
    ``seed``, until it is over or ``until(game, request)`` holds for the next request; returns
    the bots.  At each step: ``before(game, request)``; for a decision ``on_decision(game, d)``,
    then the bot decides from its seat's view and ``check(game, view, d, answer)``; the answer
    is applied and ``after(game, request, answer, events)``."""
    root = ChanceStream.from_int(seed)
    referee = Referee(root.child("referee").take(32))
    players = [bot(root.child(f"bot/{s}")) for s, bot in enumerate(bots)]
    while not game.over:
        request = game.pending()[0]
        if until is not None and until(game, request):
            break
        if before is not None:
            before(game, request)
        if isinstance(request, Decision):
            if on_decision is not None:
                on_decision(game, request)
            view = game.view(request.seat)
            answer = players[request.seat].decide(view, request)
            if check is not None:
                check(game, view, request, answer)
        else:
            answer = referee.answer(game, request)
        events = game.apply(answer)
        if after is not None:
            after(game, request, answer, events)
    return players


def stored(events: Iterable[Event]) -> tuple[tuple[Any, ...], ...]:
    """Event records as the state stores them, and as a node tells them to a screen."""
    return tuple(e.as_tuple() for e in events)


def feed_views(models: Mapping[int, Model], game: Game, events: Iterable[Event]) -> None:
    """Give each seat's model its new view with the public ``events`` (the records ``apply``
    returns), as a node would."""
    for seat, model in models.items():
        model.apply_event(ev.ViewChanged(view=game.view(seat), events=tuple(events)))


def model_for(
    model_class: Callable[..., Model], game: Game, d: Decision, *, view: bool
) -> tuple[Model, list[Any]]:
    """A ``model_class`` model seated at ``d``'s seat (given its view first, if ``view``) and
    asked ``d``; and the list of the answers it sends."""
    sent: list[Any] = []
    model = model_class(sent.append)
    model.apply_event(ev.Seated(seat=d.seat, players=game.state.players))
    if view:
        model.apply_event(ev.ViewChanged(view=game.view(d.seat), events=()))
    model.apply_event(ev.DecisionAsked(decision=d, view=game.view(d.seat)))
    return model, sent


def accepted(game: Game, answer: Any) -> bool:
    game.copy().apply(answer)  # raises if the engine refuses it
    return True


def check_by_menu_and_shortcut(
    game: Game,
    d: Decision,
    model_for: ModelFor,
    typed: Callable[[Model, Game, Decision], list[str]],
    check_menu: Callable[[Model, Game, Decision], None],
) -> None:
    """``check_menu`` on a fresh model's menu; menu ``#1`` sends one answer the engine
    accepts; so does typing the lines ``typed`` gives (the shortcuts) into a fresh model."""
    model, sent = model_for(game, d)
    check_menu(model, game, d)
    model.command("#1")  # the first option is always a whole legal answer
    assert len(sent) == 1 and accepted(game, sent[0]), model.message
    model, sent = model_for(game, d)
    for line in typed(model, game, d):
        model.command(line)
    assert len(sent) == 1, f"{d.kind}: {model.message}"
    assert accepted(game, sent[0])


def help_checker(
    model_for: ModelFor, help_texts: Mapping[str, str], seen: set[str]
) -> Callable[[Game, Decision], None]:
    """An ``on_decision`` hook: at the first decision of each kind, ``?`` shows the help with
    that kind's text and sends nothing; the kinds checked are added to ``seen``."""

    def check(game: Game, d: Decision) -> None:
        if d.kind in seen:
            return
        model, sent = model_for(game, d)
        model.command("?")
        assert model.show_help and help_texts[d.kind] in model.help_text() and not sent
        assert model.message_parts == HELP_SHOWN  # the help is in its pane, not cut in this line
        seen.add(d.kind)

    return check


def check_refused(model: Model, sent: list[Any], lines: Iterable[str]) -> None:
    """Each of ``lines`` is refused with a message: nothing sent, the decision still open."""
    for line in lines:
        model.command(line)
        assert sent == [] and model.message and model.decision is not None


def check_decides_from_the_view_alone(
    bots: Mapping[str, Callable[[ChanceStream], Any]], mirror: Game, view: Any, d: Decision
) -> None:
    """Each bot kind, seeded alike, decides ``d`` the same from ``mirror`` (an engine instance
    knowing only ``d``'s seat) as from the full ``view``, and leaves the mirror's view as it
    was."""
    own = mirror.view(d.seat)  # from an instance that knows only this seat
    before = copy.deepcopy(own.to_dict())
    for kind in ("random", "heuristic"):
        assert bots[kind](ChanceStream.from_int(9)).decide(own, d) == bots[kind](
            ChanceStream.from_int(9)
        ).decide(view, d)
    assert own.to_dict() == before


# -- the screen (pipe input, no terminal) ----------------------------------------------------
def check_menu_choice_reaches_the_network_side(model: Any, sent: list[Any], game: Any) -> None:
    """``#1`` typed, then ``q``: one answer is sent, one the engine accepts."""
    run_keys(model, "#1\rq\r")
    assert len(sent) == 1
    game.copy().apply(sent[0])  # a legal answer


def check_f1_shows_help_and_illegal_input_is_refused(
    model: Any, sent: list[Any], help_words: str
) -> None:
    """Garbage after F1 is refused with a reason and sends nothing; F1 shows the help (with
    ``help_words``)."""
    run_keys(model, "\x1bOP" + "banana\rq\r")
    assert sent == [] and "Type a number" in model.message
    model.show_help = False
    run_keys(model, "\x1bOPq\r")
    assert model.show_help and help_words in model.help_text()
    assert model.message_parts == HELP_SHOWN


def fill_log(model: Any) -> None:
    """Twelve log lines, ``log line 0`` to ``log line 11``: more than the log pane holds,
    all from before our last answer (the log takes no rows from the menu for them)."""
    for i in range(12):
        model.log.append(f"log line {i}")
    model.log_mark = len(model.log)


def check_eight_options_and_the_newest_log_line(
    screen: str, menu: list[Any], shown: int = 6
) -> None:
    """On a screen drawn at 80x24 after :func:`fill_log`: options #1 to #``shown`` are
    listed (six; four where a long hand takes two of the menu's rows), the rest counted
    ("+N more below"), and the log keeps three rows: its two newest lines and the count of
    the earlier ones (the menu gives way to the log: issue 31)."""
    assert all(f"#{i} " in screen for i in range(1, shown + 1))
    assert f"+{len(menu) - shown} more below" in screen
    assert all(f"log line {n}" in screen for n in (10, 11))  # the newest lines show
    assert " earlier: PgUp)" in screen
