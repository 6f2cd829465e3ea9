"""Plain mode (``--plain``): the game as lines of text, for a screen reader or a pipe.

The same screen model and the same network side as the full screen (:mod:`client.app`), but
instead of drawing panes it writes plain lines -- each new log line as it happens, and at
each decision of ours a line saying what to decide followed by the numbered options -- and
reads one typed line at a time.  No escape sequences, no colours, no terminal needed.

A typed line goes to the model as on the screen (``#N``, ``N``, ``done``, ``pass``,
``info N``, ``resign``...) -- but a bare number always picks an option here, in every game,
and ``card N`` picks hand card N where the screen's bare ``N`` does (:data:`PLAIN_CARD`) --
except for the short queries :data:`QUERIES` answers here
(``last``, ``hand``, ``table``, ``clock``, ``options``, ``help``) and ``quit`` (or ``q``, or
the end of the input), which leaves as the screen's quit does: the game is kept.  An empty
line says the decision again (the screen's Enter would send a highlighted option no one
hears about).  An answer typed while nothing is ours to answer (the game not started, the
others deciding, our last answer on its way) is kept for our next decision, as a terminal
keeps keys typed ahead: answers piped in are not lost before the game starts, and the end
of the input leaves once those kept are used.  When the game is over the plain mode says
so and ends by itself once every seat has the last moves.

The lines it shares with the screen -- the message line, the decision's first line, card
text, the help, the game in short and the words of the end -- are typed parts
(:mod:`client.help_parts`): where the screen names a key, plain mode says the word typed
for it, or nothing; no sentence of the screen's is rewritten here.

Everything runs in one trio run: the network side, a task that shows its events (through
the same bounded channel the screen reads), a task that reads lines (``os.read`` in a worker
thread, so the run never blocks and nothing holds the interpreter's stdin lock at exit) and
the auto-pass ticker of :mod:`client.auto_pass`.  Answers leave through the bounded answers
channel, sent from those tasks themselves.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

import trio

from fairtable.client.auto_pass import AutoPass
from fairtable.client.games import client_game
from fairtable.client.help_parts import KEPT, in_plain
from fairtable.client.rules_summary import summary_parts
from fairtable.client.screen_model import PASSED_FOR_YOU, ScreenModel
from fairtable.netplay import events as ev

__all__ = ["PLAIN_CARD", "PlainSession", "QUERIES", "plain_line", "run_plain"]

NetworkMain = Callable[
    [trio.MemorySendChannel[ev.NodeEvent], trio.MemoryReceiveChannel[Any]], Awaitable[None]
]

QUIT_WORDS = ("q", "quit")
QUERIES = {
    "last": "the log lines since your previous decision",
    "hand": "your hand (the screen's side pane)",
    "table": "the table everyone sees (the screen's table pane)",
    "clock": "the status line: round, whose move, the clocks",
    "options": "the decision at hand and its numbered options again (an empty line too)",
    "help": "this list, then the decision's own help",
    "quit": f"leave ({KEPT}; the end of the input does the same)",
}
"""The plain mode's own words and what each says (every other line goes to the game)."""

ANYTIME = ("info", "rules", "invite", "i", "resign", "skip", "?", "help")
"""First words of lines the game takes at any time (the rest answer a decision, and wait
for one when nothing is ours to answer)."""

HELD_LIMIT = 64
"""Answers typed ahead past which no more input is read until the game uses some (a pipe
such as ``yes '#1'`` is not read into memory whole)."""

PLAIN_CARD = "card "
"""How a plain line picks a hand card where the screen takes a bare number (a game's
decisions that pick cards by number, e.g. bids and discards): ``card N`` (``card N>S``).
A bare number picks the option of that number in every game here, so ``yes 1`` plays a
game as ``yes '#1'`` does, and the numbers a screen reader reads out beside the options
are the numbers to type."""

PLAIN_KEYS = {"N": "card N", "N>S": "card N>S"}
"""The screen's card-picking words (``game_keys``) as plain mode types them."""


def plain_line(model: ScreenModel, text: str) -> str:
    """A typed line in the screen's words: a bare number is ``#N`` where the screen would
    take it as a hand card (the game's words say ``N``), and ``card N`` is the screen's
    bare ``N``."""
    if text.lower().startswith(PLAIN_CARD):
        return text[len(PLAIN_CARD) :].strip()
    if text.isdecimal() and any(key == "N" for key, _ in model.game_keys()):
        return "#" + text
    return text


def pane_text(fragments: Any) -> list[str]:
    """A pane's styled fragments as plain lines (no styles; trailing spaces and empty lines
    dropped)."""
    text = "".join(fragment[1] for fragment in fragments)
    return [line.rstrip() for line in text.split("\n") if line.strip()]


class PlainSession:
    """What the plain mode has said so far, and what each line typed or event shown prints.

    ``write`` takes one line at a time; nothing here does I/O of its own."""

    def __init__(self, model: ScreenModel, write: Callable[[str], None]) -> None:
        self.model = model
        self.write = write
        self.logged = 0  # log lines written so far
        self.marks = (0, 0)  # log lengths at our previous decision and at the current one
        self.announced: Any = None  # the decision last said
        self.message = ""  # the message line last said
        self.invite_said = False
        self.words_said = ""  # the decision's extra words, said again only when they change
        self.lobby_said = ""  # the status line last said before we are seated
        self.held: deque[str] = deque()  # answers typed ahead, for our next decision
        self.over_replied = False  # a line typed after the end was answered once
        self.draining = False  # update() is using the answers typed ahead (not again inside)

    def say(self, text: str) -> None:
        if not text:
            return
        for line in self.model.names.text(text).split("\n"):
            self.write(line)

    # -- what changed --------------------------------------------------------------------
    def update(self) -> None:
        """Say what is new: log lines, the invite, a new decision, a new message."""
        model = self.model
        lines = model.log_shown()
        new = lines[self.logged :]
        for line in new:
            self.write(line)
        self.logged = len(lines)
        if model.seat is None and model.status != self.lobby_said:  # seats taken, retries
            self.lobby_said = model.status
            self.say(model.status)
        lobby = model.lobby_invite()
        if lobby and not self.invite_said:
            self.invite_said = True
            self.say(lobby)
        if (
            model.decision is not None
            and model.decision is not self.announced
            and model.view is not None
        ):
            self.announced = model.decision
            if model.only_answer() is None:  # a window that passes itself is not announced
                self.marks = (self.marks[1], len(model.log))
                self.say_decision(again=False)
            self.message = model.message  # "Your move": the decision line says it
        if model.decision is None:
            self.announced = None
        if model.message != self.message:
            self.message = model.message
            passed = model.message.startswith(PASSED_FOR_YOU)  # a window nobody was asked
            said = in_plain(model.message_parts)  # '' where the screen's words are a key's
            if said and not passed and model.names.text(said) not in new:
                self.say(said)
        if model.over:
            self.held.clear()  # nothing more is asked
        if self.draining:  # called from act() below: the loop there goes on
            return
        self.draining = True
        try:  # one answer after another, however many are typed ahead (no nesting)
            while self.held and self.asks():
                text = self.held.popleft()
                self.write(f"> {text}")  # which typed line answers
                self.act(text)
        finally:
            self.draining = False

    def asks(self) -> bool:
        """A decision really asks the player now: open to an answer, and not one passed for
        the player shortly (a window that passes itself uses no answer typed ahead)."""
        return self.model.open_to_answer() and self.model.only_answer() is None

    def waits(self, text: str) -> bool:
        """``text`` answers a decision and there is none to answer now: it is kept."""
        model = self.model
        first = text.split(" ", 1)[0].lower()
        if model.over or model.confirming_resign or first in ANYTIME:
            return False
        return bool(self.held) or not model.open_to_answer()

    def say_decision(self, again: bool = True) -> None:
        """The decision at hand: what to decide, then its numbered options, the hand where
        ``card N`` picks from it (issue 31), and the words it takes besides, when they
        differ from the last decision's (or ``again``: asked for)."""
        model, d = self.model, self.model.decision
        if d is None or model.view is None:
            self.say(model.over or "Nothing to decide now.")
            return
        menu = model.menu()
        self.say(in_plain(model.decision_parts()))  # the screen's words, keys as typed words
        for number, (label, _) in enumerate(menu, start=1):  # named as the log names them
            for line in model.names.log_text(f"#{number} {label}").split("\n"):
                self.write(line)
        words = model.game_keys()
        if any(w == "N" for w, _ in words):  # 'card N' picks from the hand: say it here
            self.hand()
        also = "Also: " + "; ".join(
            f"{PLAIN_KEYS.get(w, w)}: {in_plain(what)}" for w, what in words
        )
        if words and (also != self.words_said or again):
            self.say(also)
        self.words_said = also if words else ""

    # -- typed lines ---------------------------------------------------------------------
    def line(self, text: str) -> bool:
        """Act on one typed line; False when it leaves (quit)."""
        text = text.strip()
        word = " ".join(text.lower().split())
        if word in QUIT_WORDS:
            return False
        query = {
            "last": self.last,
            "hand": self.hand,
            "table": self.table,
            "clock": self.clock,
            "options": self.say_decision,
            "": self.say_decision,
            "help": self.help,
            "?": self.help,
        }.get(word)
        if query is not None and not self.model.confirming_resign:
            query()
            return True
        if self.waits(text):
            self.held.append(text)
            if len(self.held) == 1:
                self.say(f"Kept for your next decision: {text}")
            return True
        if self.model.over and text.split(" ", 1)[0].lower() not in ANYTIME:
            if not self.over_replied:  # one reply after the end, not one a line of a pipe
                self.over_replied = True
                self.say("The game is over; 'quit' leaves now.")
            return True
        self.act(text)
        return True

    def act(self, text: str) -> None:
        """A line for the game, as typed on the screen; what it did is said."""
        model = self.model
        before = self.message
        model.command(plain_line(model, text))
        if model.show_rules:
            model.show_rules = False
            self.say(in_plain(summary_parts(model.game)))
        if model.info:  # card text, or the invite: said once, not kept over a menu
            self.say(in_plain(model.info_parts))
            model.info = ""
            model.message = ""
        self.update()
        if model.message and model.message == before:  # the same reply again is a reply
            self.say(in_plain(model.message_parts))

    def last(self) -> None:
        lines = self.model.log_shown()[self.marks[0] :]
        self.say("\n".join(lines) if lines else "Nothing new since your previous decision.")

    def hand(self) -> None:
        self._pane(1, "Nothing in hand.")

    def table(self) -> None:
        self._pane(0, "Nothing on the table yet.")

    def _pane(self, which: int, empty: str) -> None:
        panes = client_game(self.model.game).panes(self.model)
        lines = pane_text(self.model.names_shown(list(panes[which](None))))  # said: no width
        self.say("\n".join(lines) if lines else empty)

    def clock(self) -> None:
        model = self.model
        self.say(model.status)  # no screen key in it: 'q' leaves here too
        if model.limits:
            self.say("Time: " + model.limits)

    def help(self) -> None:
        words = "; ".join(f"{w}: {what}" for w, what in QUERIES.items())
        if self.model.unkept:  # a seeded game: leaving keeps nothing
            words = words.replace(KEPT, self.model.unkept)
        self.say("Plain mode words: " + words)
        self.say(
            "Every other line goes to the game as typed on the screen: #N or N answers "
            "with option N in every game (where the screen's bare N picks a hand card, "
            "type card N); info N shows a card's text; rules the game in short; "
            "resign gives the game up."
        )
        self.say(in_plain(self.model.help_parts()))  # its keys as typed words (client/help_parts)


def _stdin_lines(fd: int) -> Callable[[], list[str] | None]:
    """A blocking reader of ``fd``'s complete lines (None at the end of the input), for a
    worker thread: ``os.read``, so no Python-level lock is held while it waits."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = [""]

    def read() -> list[str] | None:
        while "\n" not in pending[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                rest, pending[0] = pending[0] + decoder.decode(b"", final=True), ""
                return [rest] if rest.strip() else None
            pending[0] += decoder.decode(chunk)
        *lines, pending[0] = pending[0].split("\n")
        return lines

    return read


def run_plain(
    model: ScreenModel,
    network: NetworkMain,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Play in plain lines until the player quits (or the input ends); the network keeps its
    game on disk.  The network side's errors go on to the caller, as the screen's do."""
    out = stdout or sys.stdout
    fd = (stdin or sys.stdin).fileno()

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    session = PlainSession(model, write)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C leaves as quit does
        trio.run(_plain, session, network, _stdin_lines(fd))


async def _plain(
    session: PlainSession, network: NetworkMain, read: Callable[[], list[str] | None]
) -> None:
    model = session.model
    to_plain_send, to_plain = trio.open_memory_channel[ev.NodeEvent](256)
    answers_send, answers = trio.open_memory_channel[Any](16)

    def submit(answer: Any) -> None:  # called from this run's own tasks only
        try:
            answers_send.send_nowait(answer)
        except trio.WouldBlock:
            model.answer_not_sent()

    model.submit = submit
    async with trio.open_nursery() as nursery:

        async def run_network() -> None:
            async with to_plain_send:  # ended: show() says what it sent, then we end
                await network(to_plain_send, answers)

        async def show() -> None:
            async for event in to_plain:
                model.take(event)
                session.update()
            nursery.cancel_scope.cancel()  # the network side ended: so do we

        async def answer_for_the_player() -> None:
            auto = AutoPass(model)
            while True:
                await trio.sleep(0.1)
                if auto.tick(time.monotonic()):
                    session.update()

        async def typed() -> None:
            while True:
                while len(session.held) >= HELD_LIMIT:  # a pipe waits for the game
                    await trio.sleep(0.1)
                lines = await trio.to_thread.run_sync(read, abandon_on_cancel=True)
                if lines is None or not all(session.line(text) for text in lines):
                    break  # the end of the input, or quit
            while session.held:  # once the answers typed ahead are used (or the game ended)
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()

        nursery.start_soon(run_network)
        nursery.start_soon(show)
        nursery.start_soon(answer_for_the_player)
        nursery.start_soon(typed)
