"""Plain mode (``--plain``): the game as lines of text, for a screen reader or a pipe.

The same screen model and the same network side as the full screen (:mod:`client.app`), but
instead of drawing panes it writes plain lines -- each new log line as it happens, and at
each decision of ours a line saying what to decide followed by the numbered options -- and
reads one typed line at a time.  No escape sequences, no colours, no terminal needed.

A typed line goes to the model as on the screen (``#N``, ``N``, ``done``, ``pass``,
``info N``, ``resign``...), except for the short queries :data:`QUERIES` answers here
(``last``, ``hand``, ``table``, ``clock``, ``options``, ``help``) and ``quit`` (or ``q``, or
the end of the input), which leaves as the screen's quit does: the game is kept.  An empty
line says the decision again (the screen's Enter would send a highlighted option no one
hears about).

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
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

import trio

from client.auto_pass import AutoPass
from client.games import client_game
from client.rules_summary import summary
from client.screen_model import ScreenModel
from netplay import events as ev

__all__ = ["PlainSession", "QUERIES", "plain_words", "run_plain"]

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
    "quit": "leave (the game is kept; the end of the input does the same)",
}
"""The plain mode's own words and what each says (every other line goes to the game)."""

_KEYS = [  # the screen's keys in the plain mode's words
    ("(F1 for help)", "('help' for help)"),
    ("; Esc or any other line hides it", ""),
    ("; Esc or any line hides it", ""),
    ("; F1 or Esc hides it", ""),
    ("Press q to leave", "Type quit to leave"),
    ("F1", "'help'"),
    ("PgUp/PgDn", "'last'"),
    ("Invite copied to your clipboard, where the terminal allows it.", ""),  # it is not
]


def plain_words(text: str) -> str:
    """A line of the screen's with its keys named as the plain mode's words."""
    for key, words in _KEYS:
        text = text.replace(key, words)
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
            self.marks = (self.marks[1], len(model.log))
            self.say_decision(again=False)
            self.message = model.message  # "Your move": the decision line says it
        if model.decision is None:
            self.announced = None
        if model.message != self.message:
            self.message = model.message
            if model.message and model.names.text(model.message) not in new:  # not twice
                self.say(plain_words(model.message))

    def say_decision(self, again: bool = True) -> None:
        """The decision at hand: what to decide, then its numbered options (and the words it
        takes besides, when they differ from the last decision's, or ``again``: asked for)."""
        model, d = self.model, self.model.decision
        if d is None or model.view is None:
            self.say("Nothing to decide now." if not model.over else plain_words(model.over))
            return
        menu = model.menu()
        kind = d.kind.replace("_", " ")
        if model.only_answer() is not None:
            how = "nothing can be played here; passing for you shortly"
        elif menu:
            how = f"type 1 to {len(menu)}" if len(menu) > 1 else "type 1"
        else:
            how = "type your answer ('help' says how)"
        self.say(f"Decide ({kind}): {how}")
        for number, (label, _) in enumerate(menu, start=1):
            self.say(f"#{number} {label}")
        words = model.game_keys()
        also = plain_words("Also: " + "; ".join(f"{w}: {what}" for w, what in words))
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
        model = self.model
        before = self.message
        model.command(text)
        if model.show_rules:
            model.show_rules = False
            self.say(summary(model.game))
        if model.info:  # card text, or the invite: said once, not kept over a menu
            self.say(model.info)
            model.info = ""
            model.message = ""
        self.update()
        if model.message and model.message == before:  # the same reply again is a reply
            self.say(plain_words(model.message))
        return True

    def last(self) -> None:
        lines = self.model.log_shown()[self.marks[0] :]
        self.say("\n".join(lines) if lines else "Nothing new since your previous decision.")

    def hand(self) -> None:
        self._pane(1, "Nothing in hand.")

    def table(self) -> None:
        self._pane(0, "Nothing on the table yet.")

    def _pane(self, which: int, empty: str) -> None:
        panes = client_game(self.model.game).panes(self.model)
        lines = pane_text(self.model.names_shown(list(panes[which]())))
        self.say("\n".join(lines) if lines else empty)

    def clock(self) -> None:
        model = self.model
        self.say(plain_words(model.status))
        if model.limits:
            self.say("Time: " + model.limits)

    def help(self) -> None:
        self.say("Plain mode words: " + "; ".join(f"{w}: {what}" for w, what in QUERIES.items()))
        self.say(
            "Every other line goes to the game as typed on the screen: #N or N answers "
            "with option N; info N shows a card's text; rules the game in short; "
            "resign gives the game up."
        )
        self.say(plain_words(self.model.help_text()))


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
            model.message = "Still sending your last answer; try again."

    model.submit = submit
    async with trio.open_nursery() as nursery:

        async def run_network() -> None:
            await network(to_plain_send, answers)
            nursery.cancel_scope.cancel()  # the network side ended: so do we

        async def show() -> None:
            async for event in to_plain:
                model.take(event)
                session.update()

        async def answer_for_the_player() -> None:
            auto = AutoPass(model)
            while True:
                await trio.sleep(0.1)
                if auto.tick(time.monotonic()):
                    session.update()

        async def typed() -> None:
            while True:
                lines = await trio.to_thread.run_sync(read, abandon_on_cancel=True)
                if lines is None:  # the end of the input: leave as quit does
                    break
                if not all(session.line(text) for text in lines):
                    break
            nursery.cancel_scope.cancel()

        nursery.start_soon(run_network)
        nursery.start_soon(show)
        nursery.start_soon(answer_for_the_player)
        nursery.start_soon(typed)
