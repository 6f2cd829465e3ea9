"""Bots as people meet them (client.bot_seats): named strengths in ``play --bots``, ``host
--bot`` and ``join --bot``; bot seats named with their strength; a search bot thinking off
the event loop, cancellable, its thinking on the screen; one legal answer at once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.client.bot_seats import (
    SearchDecider,
    bot_name,
    bot_specs,
    decider,
    saved_bot_specs,
    strength_words,
)
from fairtable.client.bots import RandomBot
from fairtable.client.errors import UsageError
from fairtable.client.games import bot_maker
from fairtable.client.netcli import _decider
from fairtable.client.reign.model import ClientModel
from fairtable.client.search import STRENGTHS, SearchBot
from fairtable.client.seats import bot_node
from fairtable.engine.games import rules
from fairtable.engine.reign import Bid
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import NodeConfig, TableChoice, TableInfo, TableKind, TableNode, Thinker
from fairtable.netplay import events as ev
from fairtable.netplay.node._pump import SessionPump
from tests.engine.reign_helpers import decision, default_answer, table


def test_the_named_strengths_are_search_bots_at_their_budgets() -> None:
    stream = ChanceStream.from_int(0)
    for strength, seconds in STRENGTHS.items():
        for game in ("reign", "sodalis", "sovereign"):
            bot = bot_maker(game, strength)(stream)
            assert isinstance(bot, SearchBot) and bot.seconds == seconds
    assert list(STRENGTHS) == ["easy", "normal", "hard"]
    assert STRENGTHS["easy"] < STRENGTHS["normal"] < STRENGTHS["hard"]


def test_play_bots_takes_a_count_or_one_strength_per_bot() -> None:
    assert bot_specs("2", "reign") == ("heuristic", "heuristic")
    assert bot_specs("easy,hard", "reign") == ("easy", "hard")
    assert bot_specs("normal, random, search:0.5", "sovereign") == (
        "normal",
        "random",
        "search:0.5",
    )
    for bad in ("easy,genius", "hard,", "search:quick"):
        with pytest.raises(ValueError):
            bot_specs(bad, "reign")


def test_bot_seats_are_named_with_their_strength() -> None:
    assert bot_name(0, "hard") == "Ada (hard)"
    assert bot_name(1, "easy") == "Blaise (easy)"
    assert bot_name(2, "heuristic") == "Cyra (heuristic)"
    assert strength_words("search") == "normal"
    assert strength_words("search:hard") == "hard"
    assert strength_words("search:0.5") == "search 0.5 s"
    assert bot_name(7, "normal") == "Ada 2 (normal)"  # more bots than names: numbered
    from fairtable.netplay import name_problem

    for i, spec in enumerate(("easy", "normal", "hard", "random", "search:600")):
        assert name_problem(bot_name(i, spec)) is None  # a name the table takes


def test_a_kept_table_reopens_with_the_bots_it_was_played_with() -> None:
    kept = TableInfo(bots=2, bot_specs=("hard", "easy"))
    assert saved_bot_specs(kept, "reign") == ("hard", "easy")
    assert saved_bot_specs(TableInfo(bots=2), "reign") == ("heuristic", "heuristic")  # kept before
    assert saved_bot_specs(TableInfo(bots=1, bot_specs=("genius",)), "reign") == ("heuristic",)


def test_host_and_join_bot_take_a_strength_and_think_off_the_event_loop() -> None:
    seed = bytes(32)
    hard = _decider("hard", seed, "sovereign")
    assert isinstance(hard, SearchDecider) and isinstance(hard, Thinker)
    assert hard.bot.seconds == STRENGTHS["hard"]
    plain = _decider("heuristic", seed, "reign")
    assert plain is not None and not isinstance(plain, Thinker)  # answers in the loop, as ever
    with pytest.raises(UsageError, match="unknown bot"):
        _decider("genius", seed, "reign")


class _Slow:
    """A Thinker that thinks until it is told to stop."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.stopped = threading.Event()
        self.thread = 0

    def __call__(self, event: Any) -> Any:
        self.thread = threading.get_ident()
        self.entered.set()
        self.stopped.wait(30)
        return "too late"

    def cancel(self) -> None:
        self.stopped.set()


def test_a_thinking_bot_never_blocks_the_event_loop_and_stops_when_cancelled() -> None:
    slow = _Slow()
    assert isinstance(slow, Thinker)
    ticks = 0

    async def main() -> None:
        nonlocal ticks
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(SessionPump._think, slow, None)
                await trio.to_thread.run_sync(slow.entered.wait)
                for _ in range(200):  # the loop runs on while the bot thinks
                    await trio.sleep(0)
                    ticks += 1
                assert not slow.stopped.is_set()
                nursery.cancel_scope.cancel()  # the table stops: the bot is told to stop

    trio.run(main)
    assert ticks == 200 and slow.stopped.is_set()
    assert slow.thread != threading.get_ident()  # it thought in a worker thread


def _regent_with_one_card() -> tuple[Any, Decision]:
    support = {"crimson": None, "azure": 0, "ivory": None, "violet": None}
    game, ref = table(
        players=4,
        first=1,
        regent=0,
        legit=[3, 0, 0, 0],
        support=support,
        hands={0: ["azure-harbour-guard.2"], 1: ["crimson-ash-spearman.1"]},
    )
    for _ in range(20):
        d = decision(game, ref)
        if d.kind == "regent_discard":
            return game, d
        bid = Bid(1, 1, ("crimson-ash-spearman.1",))
        game.apply(bid if (d.seat, d.kind) == (1, "bid") else default_answer(game, d))
    raise AssertionError("no Regent's discard")


def test_a_strong_bot_answers_at_once_when_one_answer_is_legal() -> None:
    game, d = _regent_with_one_card()
    think = decider("reign", "hard", ChanceStream.from_int(1))
    assert isinstance(think, SearchDecider)

    def no_world(view: object, stream: object) -> object:
        raise AssertionError("the bot searched a decision with one legal answer")

    think.bot._sample = no_world  # type: ignore[method-assign]
    answer = think(P.DecisionNeeded(1, d, game.view(d.seat)))
    assert answer.card == "azure-harbour-guard.2"


def test_the_screen_shows_a_bot_thinking_with_its_name() -> None:
    game = rules("reign").new_game(3)
    from fairtable.engine.referee import Referee

    referee = Referee(ChanceStream.from_int(4).take(32))
    while not isinstance(game.pending()[0], Decision):
        game.apply(referee.answer(game, game.pending()[0]))
    d = game.pending()[0]
    while len(list(rules("reign").legal_answers(game.view(d.seat), d))[:2]) < 2:
        game.apply(RandomBot(ChanceStream.from_int(0), "reign").decide(game.view(d.seat), d))
        while not isinstance(game.pending()[0], Decision):
            game.apply(referee.answer(game, game.pending()[0]))
        d = game.pending()[0]
    said: list[ev.NodeEvent] = []
    think = decider("reign", "search:0.8", ChanceStream.from_int(2), said.append)
    event = P.DecisionNeeded(1, d, game.view(d.seat))

    async def main() -> Any:
        with trio.fail_after(60):
            return await SessionPump._think(think, event)

    answer = trio.run(main)
    game.apply(answer)  # a legal answer
    thinking = [e for e in said if isinstance(e, ev.BotThinking)]
    assert thinking and all(e.seat == d.seat and e.worlds >= 1 for e in thinking)
    model = ClientModel()
    model.apply_event(ev.WaitingFor([d.seat]))
    model.apply_event(thinking[-1])
    names = ["", "", ""]
    names[d.seat] = bot_name(0, "normal")
    model.apply_event(ev.PlayerNames(tuple(names)))
    shown = model.names.text(model.status)
    assert f"{bot_name(0, 'normal')} is thinking ({thinking[-1].seconds:.1f} s" in shown
    model.apply_event(ev.WaitingFor([]))  # it answered: the words go
    assert "thinking" not in model.status


def test_a_play_table_seats_its_bots_under_their_names_and_plays_on(tmp_path: Path) -> None:
    identity = P.Identity.from_seed(bytes(range(32)))
    (tmp_path / "identity.key").write_bytes(identity.seed)
    names: list[tuple[str, ...]] = []
    steps = 0

    async def main() -> None:
        nonlocal steps
        enough = trio.Event()

        def emit(event: Any) -> None:
            nonlocal steps
            if isinstance(event, ev.Seated):
                names.append(tuple(event.names))
            if isinstance(event, ev.ViewChanged):
                steps += 1
                if steps >= 40:
                    enough.set()

        node = TableNode(
            NodeConfig(data_dir=tmp_path, choice=TableChoice(kind=TableKind.PLAY), ui_events=True),
            identity,
            seats=3,
            game="reign",
            emit=emit,
            decider=lambda event: RandomBot(ChanceStream.from_int(event.step), "reign").decide(
                event.view, event.decision
            ),
        )
        with trio.fail_after(240):
            async with trio.open_nursery() as nursery:
                invite = await nursery.start(node.run)
                for index, spec in enumerate(("search:0.02", "heuristic")):
                    nursery.start_soon(bot_node(tmp_path, index, invite, 0.0, spec).run)
                await enough.wait()
                nursery.cancel_scope.cancel()

    trio.run(main)
    # seated in the order they joined, each under its own signed name
    assert names and sorted(names[0][1:]) == ["Ada (search 0.02 s)", "Blaise (heuristic)"]
    assert steps >= 40  # the search bot's seat answered from its worker thread


def test_a_headless_bot_seat_is_named_by_its_key_from_sixteen_names() -> None:
    """Issue 31: headless bots were named from four names, so bots of one host met one
    name often; now sixteen, none a host's first six bots'."""
    from fairtable.client.bot_seats import BOT_NAMES, headless_bot_name

    names = {headless_bot_name(bytes([n]) + bytes(31), "hard") for n in range(256)}
    assert len(names) == 16
    assert not names & {f"{name} (hard)" for name in BOT_NAMES[:6]}  # a host's bots' names
    assert headless_bot_name(bytes(32), "search:0.5") == "Greta (search 0.5 s)"


def test_the_bots_of_two_tables_of_one_data_directory_have_keys_of_their_own(
    tmp_path: Path,
) -> None:
    """Issue 31: two hosts with --bots on one machine shared DATA_DIR/bots/N (one key for
    two tables' bots); each table's bots now have folders and keys of their own, and a
    table begun in the old layout goes on in it."""
    from fairtable.client.seats import bot_folder, identity_at
    from fairtable.netplay import LobbyId

    one, two = LobbyId(bytes(32)), LobbyId(bytes([1]) * 32)
    folders = [bot_folder(tmp_path, lobby, i) for lobby in (one, two) for i in range(2)]
    assert len({identity_at(f).public.key for f in folders}) == 4
    (tmp_path / "bots" / "0" / "tables" / one.hex()).mkdir(parents=True)
    assert bot_folder(tmp_path, one, 0) == tmp_path / "bots" / "0"  # begun before: kept
    assert bot_folder(tmp_path, two, 0) == tmp_path / "bots" / two.hex() / "0"
