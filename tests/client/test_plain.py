"""``--plain``: a whole game of each game played through pipes (``fairtable play GAME --plain``
with a driver that answers every decision with ``#1``), and the plain mode's query words on a
model fed by hand."""

from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from fairtable.client.ending import LEAVE, LEAVE_WATCHING
from fairtable.client.games import model_for
from fairtable.client.help_parts import F1_FOR_HELP, in_plain, on_screen
from fairtable.client.plain import PlainSession, _stdin_lines
from fairtable.client.reign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.engine.driver import Table

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 240.0  # seconds for a whole game through the pipes


def play_plain(game: str, bots: int, rounds: int, data_dir: Path) -> list[str]:
    """Run ``play GAME --plain``, answer each decision with '#1' until the result line, then
    close the input; the lines it wrote (its exit code checked)."""
    words = f"play {game} --bots {bots} --round-limit {rounds} --pace 0.05 --plain"
    return drive(words.split(), data_dir)


def drive(words: list[str], data_dir: Path, answers: int | None = None) -> list[str]:
    """Run ``fairtable WORDS --data-dir DATA_DIR``, answer each decision with '#1' until the
    result line (or until ``answers`` are given), then close the input; the lines it wrote
    (its exit code checked)."""
    command = [sys.executable, "-m", "fairtable.client.cli", *words, "--data-dir", str(data_dir)]
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TERM": "xterm", "LOGNAME": "ada"},  # the login names us
    )
    assert proc.stdin is not None and proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    out: list[str] = []
    given = 0
    deadline = time.monotonic() + TIMEOUT
    try:
        while True:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if line is None:
                break
            out.append(line)
            if line.startswith("Decide (") and not proc.stdin.closed:
                proc.stdin.write("#1\n")
                proc.stdin.flush()
                given += 1
                if given == answers:
                    proc.stdin.close()
            elif line.startswith("Game over") and not proc.stdin.closed:
                proc.stdin.close()  # the end of the input leaves, as quit does
        assert proc.wait(timeout=30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return out


@pytest.mark.parametrize(
    ("game", "bots", "rounds"),
    [
        ("reign", 2, 2),
        ("sodalis", 1, 2),
        ("sovereign", 1, 2),
    ],
)
def test_plain_a_whole_game_through_pipes_ends_with_its_result(
    tmp_path: Path, game: str, bots: int, rounds: int
) -> None:
    out = play_plain(game, bots, rounds, tmp_path)
    text = "\n".join(out)
    assert "\x1b" not in text  # no escape sequences, no colours
    start = next(i for i, line in enumerate(out) if line.startswith("The game starts: you are"))
    assert out[start] == f"The game starts: you are ada (seat 0 of {bots + 1})"
    decisions = [i for i, line in enumerate(out) if line.startswith("Decide (")]
    assert len(decisions) > 3
    assert all(out[i + 1].startswith("#1 ") for i in decisions)  # the options follow
    results = [i for i, line in enumerate(out) if line.startswith("Game over: ")]
    assert len(results) == 1  # said once: nothing printed again after leaving
    end = out[results[0] :]
    assert len(end) == 3, end  # the result, where it is saved, and when we leave, once each
    assert end[1].startswith("The game is saved; to check it: fairtable audit ")
    assert end[2] == "Leaving once every seat has the last moves ('quit' leaves now)."
    assert "Game kept" not in text and sum("saved" in line for line in out) == 1
    check = shlex.split(end[1].removeprefix("The game is saved; to check it: fairtable "))
    assert len(check[1]) == 12  # the start of the table's id, not its 64-digit path
    audited = subprocess.run(  # the command as printed works
        [sys.executable, "-m", "fairtable.client.cli", *check],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert audited.returncode == 0, audited.stdout + audited.stderr


def test_plain_the_end_of_the_input_keeps_the_game_and_resume_plain_goes_on_to_its_end(
    tmp_path: Path,
) -> None:
    words = ["play", "sodalis", "--bots", "1", "--round-limit", "2", "--pace", "0.05", "--plain"]
    first = drive(words, tmp_path, answers=3)
    assert first[-1] == "Game kept; 'fairtable resume' reopens it."
    assert not any(line.startswith("Game over") for line in first)
    second = drive(["resume", "1", "--pace", "0.05", "--plain"], tmp_path)
    assert second[0].startswith("1. ")  # the list of unfinished games, then the game
    resuming = [line for line in second if line.startswith("Resuming your Sodalis game")]
    assert len(resuming) == 1  # a log line and the message alike: said once
    assert any(line.startswith("Decide (") for line in second)
    assert second[-3].startswith("Game over: ")  # then where it is saved, and leaving
    assert "\x1b" not in "\n".join(first + second)


def readme_plain_example() -> str:
    """The README's piped plain-mode example, as written there."""
    text = (ROOT / "README.md").read_text()
    found = re.search(r"`(yes [^`|]+\| fairtable play reign --bots 2 --plain)`", text)
    assert found, "the README shows a piped plain-mode example"
    return found.group(1)


@pytest.mark.parametrize(
    ("game", "bots"), [("reign", "--bots 2"), ("sodalis", "--bots 1"), ("sovereign", "--bots 1")]
)
def test_plain_the_readmes_piped_example_plays_a_whole_game_and_stops(
    tmp_path: Path, game: str, bots: str
) -> None:
    """The README's ``yes 1 | fairtable play reign --bots 2 --plain`` (and the same input for
    the other games): the answers piped ahead play the game, which ends by itself at its
    result (no line said again and again after it; issue 31: a bare 1 toggled a Reign hand
    card for ever).  Short games, fast bots: bounded."""
    command = readme_plain_example().replace("reign --bots 2", f"{game} {bots}")
    command += f" --round-limit 1 --pace 0.05 --data-dir {tmp_path}"
    scripts = Path(sys.executable).parent  # where this install put the 'fairtable' command
    assert (scripts / "fairtable").exists()
    done = subprocess.run(
        command,
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "TERM": "xterm", "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}"},
    )
    out = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    over = [i for i, line in enumerate(out) if line.startswith("Game over: ")]
    assert len(over) == 1  # said once (issue 31: it was printed again after leaving)
    assert out[over[0] + 1].startswith("The game is saved; to check it: fairtable audit ")
    kept = [line for line in out if line.startswith("Kept for your next decision: ")]
    assert len(kept) == 1
    assert sum(line.startswith("> ") for line in out) >= 2  # piped lines answered decisions
    assert len(out) < 2000  # nothing repeated for every line of the pipe


def seated_model() -> tuple[ClientModel, list[str]]:
    said: list[str] = []
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=3))
    return model, said


def test_plain_quit_words_leave_and_queries_do_not() -> None:
    model, said = seated_model()
    session = PlainSession(model, said.append)
    assert session.line("quit") is False
    assert session.line(" Q ") is False
    assert session.line("clock") is True


def test_plain_says_new_log_lines_once_and_last_gives_those_since_the_previous_decision() -> None:
    model, said = seated_model()
    session = PlainSession(model, said.append)
    session.update()
    assert said == ["The game starts: you are seat 0 of 3"]
    model.log.append("one happened")
    session.update()
    session.update()
    assert said[-1] == "one happened" and said.count("one happened") == 1
    said.clear()
    session.line("last")
    assert said == ["The game starts: you are seat 0 of 3", "one happened"]


def test_plain_clock_says_the_status_line_and_help_names_the_words() -> None:
    model, said = seated_model()
    session = PlainSession(model, said.append)
    model.status = "Round 1 - bid - waiting for seat 1 (1:07 left)"
    session.line("clock")
    assert said == ["Round 1 - bid - waiting for seat 1 (1:07 left)"]
    said.clear()
    session.line("help")
    assert said[0].startswith("Plain mode words: last:")
    assert all(word in said[0] for word in ("hand:", "table:", "clock:", "quit:"))
    assert not any("F1" in line for line in said)


SCREEN_KEYS = ("F1", "F2", "F3", "? keys", "Ctrl-Q", "Up/Down", "PgUp", "'i'", "Enter")
"""Keys a piped or screen-reader user cannot press: plain mode never names them."""


@pytest.mark.parametrize("game", ["reign", "sodalis", "sovereign"])
def test_plain_help_before_a_decision_names_only_words_a_plain_user_can_type(game: str) -> None:
    """A new user's run found plain 'help' saying '? keys, Ctrl-Q quit ... (or Up/Down then
    F2) ... 'i' shows the join code': screen keys a screen reader's user cannot press."""
    model = model_for(game)
    model.apply_event(ev.TableOpen("fairtable://x", None))  # a table others can join
    said: list[str] = []
    PlainSession(model, said.append).line("help")
    assert said and not [line for line in said if any(key in line for key in SCREEN_KEYS)]
    assert any("'quit'" in line for line in said) and any("'invite'" in line for line in said)


def test_plain_words_name_the_screen_keys_as_typed_words() -> None:
    """A line is typed parts (client/help_parts): the screen names its keys, plain mode says
    the typed word doing the same, or leaves the key out."""
    reply = ("Type a number from 1 to 3", F1_FOR_HELP, ".")
    assert on_screen(reply) == "Type a number from 1 to 3 (F1 for help)."
    assert in_plain(reply) == "Type a number from 1 to 3 ('help' for help)."
    assert on_screen(LEAVE_WATCHING).startswith("Press q to leave. A spectator keeps nothing")
    assert in_plain(LEAVE_WATCHING).startswith("Type quit to leave. A spectator keeps nothing")
    assert in_plain(LEAVE) == "Leaving once every seat has the last moves ('quit' leaves now)."
    assert (
        on_screen(LEAVE)
        == "Press q to leave. The game is saved; 'fairtable audit' (above) checks it."
    )


def test_plain_a_line_for_the_game_goes_to_the_model_and_its_reply_is_said() -> None:
    model, said = seated_model()
    session = PlainSession(model, said.append)
    session.update()
    said.clear()
    session.line("")  # an empty line says the decision, and sends nothing
    assert said == ["Nothing to decide now."]
    said.clear()
    session.line("info Ash Spearman")  # the game takes it at any time: a reply, not kept
    assert len(said) == 1 and not said[0].startswith("Kept") and not session.held
    said.clear()
    session.line("resign")  # so is resigning (it asks first)
    session.line("no")
    assert said == [
        "Resign (the others play on if the game can, else it ends)? Type 'yes' to confirm.",
        "Not resigned: the game goes on.",
    ]


def bid_decisions(count: int) -> tuple[list[Decision], list[Any]]:
    """The first ``count`` bid decisions of one seat, and its views then."""
    table = Table(3, seed=1, bots=["random"] * 3)
    asked: list[Decision] = []
    views = []
    while len(asked) < count:
        request = table.truth.pending()[0]
        if (
            isinstance(request, Decision)
            and request.kind == "bid"
            and (not asked or request.seat == asked[0].seat)
        ):
            asked.append(request)
            views.append(table.truth.view(request.seat))
        table.step()
    return asked, views


def plain_at_first(
    asked: list[Decision], views: list[Any]
) -> tuple[ClientModel, PlainSession, list[str], list[object]]:
    """A plain session seated at a three-seat table and asked the first of ``asked``:
    its model, the session, the lines it said and the answers it sent."""
    said: list[str] = []
    sent: list[object] = []
    model = ClientModel(sent.append)
    session = PlainSession(model, said.append)
    model.apply_event(ev.Seated(seat=asked[0].seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=asked[0], view=views[0]))
    session.update()
    return model, session, said, sent


def test_plain_answers_typed_ahead_wait_for_the_next_decision() -> None:
    """As a terminal keeps keys typed ahead: answers piped in before the game starts, or
    while our last answer is on its way, answer the next decisions in order."""
    asked, views = bid_decisions(2)
    said: list[str] = []
    sent: list[object] = []
    model = ClientModel(sent.append)
    session = PlainSession(model, said.append)
    session.line("#1")  # before the game starts
    session.line("#2")
    assert said == ["Kept for your next decision: #1"] and sent == []
    model.apply_event(ev.Seated(seat=asked[0].seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=asked[0], view=views[0]))
    session.update()
    first = model.menu()
    assert sent == [first[0][1]]  # '#1' answers the first decision...
    assert said[said.index("> #1") + 1] == "Sent; waiting for the others..."
    assert list(session.held) == ["#2"]  # ... '#2' waits: our answer is on its way
    model.take(ev.Answered())
    session.update()
    assert len(sent) == 1
    model.apply_event(ev.DecisionAsked(decision=asked[1], view=views[1]))
    session.update()
    assert sent[1] == model.menu()[1][1] and not session.held
    assert said.index("> #2") > max(i for i, s in enumerate(said) if s.startswith("Decide"))


def test_plain_thousands_of_answers_typed_ahead_are_used_one_after_another() -> None:
    """A long pipe (``yes 'card 1'``: each picks hand card 1, the next takes it back, so the
    bid stays open): the kept answers are used in a loop, not in calls nested one a line."""
    asked, views = bid_decisions(1)
    said: list[str] = []
    sent: list[object] = []
    model = ClientModel(sent.append)
    session = PlainSession(model, said.append)
    for _ in range(5000):
        session.line("card 1")
    session.line("#1")
    model.apply_event(ev.Seated(seat=asked[0].seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=asked[0], view=views[0]))
    session.update()  # no RecursionError
    assert said.count("> card 1") == 5000 and said[-2] == "> #1"
    assert sent == [model.menu()[0][1]] and not session.held


def test_plain_the_decision_heading_is_the_screens_decision_line_in_typed_words() -> None:
    """The same words as the screen's decision pane, as plain mode takes them: in a Reign
    bid 'card N' picks a hand card, and a bare number an option (as in every game)."""
    asked, views = bid_decisions(1)
    said: list[str] = []
    model = ClientModel()
    session = PlainSession(model, said.append)
    model.apply_event(ev.Seated(seat=asked[0].seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=asked[0], view=views[0]))
    session.update()
    assert in_plain(model.decision_parts()) in said
    assert "Decide (bid): card N picks hand card N, done sends; N or #N: an option" in said
    assert not any("Enter" in line or "Up/Down" in line or "F2" in line for line in said)


def test_plain_refused_answer_leaves_the_decision_open_to_the_next_line() -> None:
    asked, views = bid_decisions(1)
    model, session, said, sent = plain_at_first(asked, views)
    session.line("#1")
    model.apply_event(ev.AnswerRefused(reason="a test says no"))
    session.update()
    session.line("#1")  # answers again, not kept for a later decision
    assert len(sent) == 2 and not session.held


def test_plain_a_decision_is_said_with_its_options_and_hand_and_table_say_the_panes() -> None:
    table = Table(3, seed=1, bots=["random"] * 3)
    decision = table.truth.pending()[0]
    while not isinstance(decision, Decision):
        table.step()
        decision = table.truth.pending()[0]
    view = table.truth.view(decision.seat)
    said: list[str] = []
    sent: list[object] = []
    model = ClientModel(sent.append)
    model.apply_event(ev.Seated(seat=decision.seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=decision, view=view))
    session = PlainSession(model, said.append)
    session.update()
    menu = model.menu()
    kind = decision.kind.replace("_", " ")
    assert (
        in_plain(model.decision_parts())
        == f"Decide ({kind}): card N picks hand card N, done sends; N or #N: an option"
    )
    assert f"#1 {menu[0][0]}" in said
    said.clear()
    session.line("hand")
    assert said[0] == "Your hand"
    assert len(said) >= 1 + len(view.hand)
    said.clear()
    session.line("table")
    assert said[0].startswith("Reign - round")
    assert not any("class:" in line for line in said)
    said.clear()
    session.line("info 1")  # the first hand card's whole text, said once; nothing sent
    assert said and not any("Esc" in line for line in said)
    assert model.info == "" and sent == []
    said.clear()
    session.line("#1")
    assert sent == [menu[0][1]]
    assert said == ["Sent; waiting for the others..."]


def test_plain_reads_whole_lines_from_a_pipe_and_none_at_its_end() -> None:
    read_fd, write_fd = os.pipe()
    read = _stdin_lines(read_fd)
    try:
        os.write(write_fd, b"#1\npa")
        assert read() == ["#1"]
        os.write(write_fd, "ss\nhand\nlast\ninfo é".encode())
        assert read() == ["pass", "hand", "last"]
        os.close(write_fd)
        assert read() == ["info é"]  # a last line without its newline still counts
        assert read() is None  # the end of the input
    finally:
        os.close(read_fd)


def test_plain_a_decisions_extra_words_are_said_once_until_they_change() -> None:
    table = Table(3, seed=1, bots=["random"] * 3)
    asked: list[Decision] = []
    while len(asked) < 2:
        request = table.truth.pending()[0]
        if (
            isinstance(request, Decision)
            and request.kind == "bid"
            and (not asked or request.seat == asked[0].seat)
        ):
            asked.append(request)
        table.step()
    said: list[str] = []
    model = ClientModel()
    model.apply_event(ev.Seated(seat=asked[0].seat, players=3))
    session = PlainSession(model, said.append)
    for decision in asked:
        view = table.truth.view(decision.seat)
        model.apply_event(ev.DecisionAsked(decision=decision, view=view))
        session.update()
    also = [line for line in said if line.startswith("Also: ")]
    assert len(also) == 1 and "done: send the cards picked" in also[0]
    assert sum(line.startswith("Decide (bid)") for line in said) == 2
    said.clear()
    session.line("options")  # asked for: said whole
    assert said[0].startswith("Decide (bid)") and said[-1] == also[0]


def test_plain_before_the_game_starts_says_the_lobby_and_the_invite_once() -> None:
    said: list[str] = []
    model = ClientModel()
    session = PlainSession(model, said.append)
    session.update()
    assert said == ["Connecting..."]
    model.apply_event(ev.TableOpen(invite="fairtable://example", code=None, clock=None))
    session.update()
    model.apply_event(ev.LobbyUpdate(seated=2, seats=3))
    session.update()
    session.update()
    assert said[1].startswith("If a player vanishes: the game ends")  # the table's rule
    assert said[2] == "Waiting for players to join"
    assert said.count("fairtable://example") == 1
    assert said[-1] == "2 of 3 seats taken"
    assert not any("clipboard" in line for line in said)  # nothing is copied in plain lines


def test_plain_a_bare_number_picks_an_option_in_reign_too_and_card_n_a_hand_card() -> None:
    """Issue 31: ``yes 1 | fairtable play reign --plain`` toggled hand card 1 for ever (each
    bare 1 picked it, the next took it back) and the game never went on.  In plain mode a
    bare number picks the option of that number in every game, so a pipe of them plays;
    'card N' picks hand card N where the screen's bare N does (docs: README, plain mode)."""
    asked, views = bid_decisions(2)
    model, session, said, sent = plain_at_first(asked, views)
    session.line("1")
    assert sent == [model.menu()[0][1]]  # option 1 (pass), as '#1'
    model.take(ev.Answered())
    model.apply_event(ev.DecisionAsked(decision=asked[1], view=views[1]))
    session.update()
    assert any(line.startswith("Also: card N: pick card N of your hand") for line in said)
    for card in range(1, len(model.hand()) + 1):  # the first card a bid may take
        session.line(f"card {card}")
        if model.picked():
            break
    assert len(sent) == 1 and model.picked() and said[-1].startswith("Picked ")
    session.line(f"card {card}")  # again: taken back, as the screen's bare N
    assert not model.picked() and said[-1].startswith("Took back ")
    session.line("2")
    assert sent[1] == model.menu()[1][1]


def test_plain_hand_and_table_say_whole_card_names() -> None:
    """Issue 31 (N9): plain Sovereign cut names as the 80-column panes do ("Ironheart
    Reven.", "Memory Arch."); a screen reader reads them as words and plain lines have no
    width to save, so every hand and forge card is said by its whole name."""
    from fairtable.client.sovereign.panes import DEFS, forge_cards
    from tests.client.test_sovereign_screen import forge_model

    model, _, game, d = forge_model()
    said: list[str] = []
    session = PlainSession(model, said.append)
    names = [DEFS[card].name for _, card in game.view(d.seat).hand]
    names += [DEFS[card].name for _, card, _, _ in forge_cards(model)]
    assert any(len(n) > 19 for n in names)  # one the 80-column pane cuts
    session.line("hand")
    session.line("table")
    text = "\n".join(said)
    assert all(n in text for n in names), text
    assert not re.search(r"[A-Za-z]\.(?= |,|$)", text, re.MULTILINE), text


def test_plain_a_reign_bid_lists_the_hand_its_card_n_picks_from() -> None:
    """Issue 31 (N16): the plain Decide block of a Reign bid never listed the hand 'card N'
    picks from (one had to know to type 'hand'); it lists it, numbered, before the words."""
    from fairtable.client.reign.words import card_label

    asked, views = bid_decisions(1)
    model, _, said, _ = plain_at_first(asked, views)
    start = next(i for i, line in enumerate(said) if line.startswith("Decide (bid)"))
    block = said[start:]
    hand = model.hand()
    assert hand and "Your hand" in block
    for number, card in enumerate(hand, start=1):
        assert any(line.strip() == f"{number}. {card_label(card)}" for line in block), block
    assert block[-1].startswith("Also: card N")


def test_plain_sodalis_table_says_where_each_piece_stands_in_the_options_coordinates() -> None:
    """Issue 31 (N6): plain Sodalis gave the arena only as its map of characters; 'table'
    says where each champion, the Paragon and each Artifact stand, as the options' (q,r)."""
    from tests.client.test_sodalis_screen import turn_model

    model, _, _, _ = turn_model()
    said: list[str] = []
    PlainSession(model, said.append).line("table")
    table = model.view.table
    text = "\n".join(said)
    for seat in table.seats:
        if seat.at is not None:
            assert f"at ({seat.at[0]},{seat.at[1]})" in text, text
    assert f"the Paragon at ({table.paragon_at[0]},{table.paragon_at[1]})" in text, text
    for at in table.artifacts.values():
        if at is not None:
            assert f"Artifact at ({at[0]},{at[1]})" in text, text
