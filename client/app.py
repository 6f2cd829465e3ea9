"""The console screen: prompt_toolkit on asyncio, with trio running as its guest.

Layout functions take the game-neutral :class:`~client.screen_model.ScreenModel`
(a game's own panes come from :mod:`client.games`); key bindings are
grouped by purpose (``load_*_bindings``).  The network runs in trio guest mode
on the same loop; the screen and the network meet only through bounded
channels: node events arrive through one, answers leave through another (sent
from the UI with ``TrioToken.run_sync_soon``, so no UI callback ever starts a
trio task itself).  Works at 80x24 and uses more room when there is more.

A spectator's screen (``fairtable watch``, a model with ``spectating`` set) is the same
screen with no prompt and no menu: the model only ever gets ``view(None)``, nothing is
answered, ``q`` quits, PgUp/PgDn scroll the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import attrs
import trio
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.styles import Style

from fairtable.client.auto_pass import AutoPass
from fairtable.client.clipboard import copy_to_clipboard
from fairtable.client.games import client_game
from fairtable.client.help_pages import page_step
from fairtable.client.keys import key_bar, keys_lines
from fairtable.client.room import (
    ESC_SHOWS,
    STATUS_GAP,
    TALLER,
    clipped,
    game_panes,
    menu_lines,
    menu_room,
    message_beside,
    message_height,
    panes_cut_for_log,
    rows_of,
    rule_line,
    screen_size,
    side_columns,
    side_shown,
    side_width,
    wrapped,
)
from fairtable.client.room_drawn import DrawnRows, PlannedContainer
from fairtable.client.rules_summary import summary
from fairtable.client.screen_model import HELP_SHOWN, ScreenModel
from fairtable.netplay import events as ev

__all__ = ["build_application", "run_screen"]

BASE_STYLE: dict[str, str] = {
    "title": "bold",
    "status": "reverse",
    "mine": "bold",
    "dim": "#888888",
    "menu": "",
    "message": "italic",
    "highlight": "reverse",
    "info": "",
    "hints": "reverse",
    "keys": "reverse",
}
"""The screen's own style classes; a game adds the colours of its panes' classes (its
registry entry's ``styles``).  NO_COLOR or --mono leave only bold, reverse and italic."""


def style_for(game: str) -> Style:
    """The screen's style for a game: the base classes and the game's colours."""
    return Style.from_dict({**BASE_STYLE, **client_game(game).styles})


NetworkMain = Callable[
    [trio.MemorySendChannel[ev.NodeEvent], trio.MemoryReceiveChannel[Any]], Awaitable[None]
]


@attrs.define
class LogPane:
    """The log's scrollback: PgUp/PgDn move ``model.log_back`` lines from the newest; the pane
    shows a marker for the lines above and below it."""

    model: ScreenModel
    rows: DrawnRows = attrs.field(
        default=attrs.Factory(lambda self: DrawnRows(self.model), takes_self=True)
    )  # the screen's rows (the draw's plan while the layout draws)

    def size(self) -> tuple[int, int]:
        """(rows, columns) of the log pane: what the panes above and below leave."""
        return self.rows.log(), screen_size()[1]

    _wrapped: tuple[Any, int, list[str]] = attrs.field(factory=lambda: (None, 0, []))

    def shown(self) -> list[str]:
        """The log's lines as the screen shows them (named seats by their names), broken at
        spaces to the pane's width (worked out once a line and width)."""
        lines, width = self.model.log_shown(), screen_size()[1]
        names, known_width, out = self._wrapped
        if names is not self.model.names or known_width != width or len(out) > len(lines):
            out = []
            self._wrapped = (self.model.names, width, out)
        out.extend(wrapped(line, width) for line in lines[len(out) :])
        return out

    def scroll(self, pages: int) -> None:
        """PgUp (``pages`` > 0) / PgDn: the next page is the lines just past the shown ones,
        so no line is skipped however many of them wrap."""
        log = self.model.log
        for _ in range(abs(pages)):
            start, end = self.window(self.model.log_back)
            if pages > 0 and start > 0:  # the line above the top becomes the newest shown
                self.model.log_back = len(log) - start
            elif pages < 0 and end < len(log):  # the furthest page that starts by ``end``
                last = end + 1
                while last < len(log) and self.window(len(log) - last - 1)[0] <= end:
                    last += 1
                self.model.log_back = len(log) - last

    def window(self, back: int) -> tuple[int, int]:
        """The log lines ``[start, end)`` the pane shows ``back`` lines from the newest
        (wrapped lines counted, a row kept for each marker)."""
        log, (height, width) = self.shown(), self.size()
        back = max(0, min(back, len(log) - 1))
        end = len(log) - back
        room = height - (1 if back else 0)
        marker = 0 if self.rows.given_way() else 1  # else on the rule (on_rule)
        start, used = end, 0
        while start > 0 and used + rows_of(log[start - 1], width) <= room - (start > 1) * marker:
            start -= 1
            used += rows_of(log[start], width)
        if start == end and end:  # one line longer than the pane: its end shows
            start = end - 1
        while start == 0 and end < len(log) and used + rows_of(log[end], width) <= room:
            used += rows_of(log[end], width)  # at the top: the pane fills from the first line
            end += 1
        return start, end

    def earlier(self) -> str:
        """ "+N earlier: PgUp" (", M new since your move" when some of those came after our
        last answer; a spectator's: ", M new this turn") while lines are above the shown
        ones, else ''."""
        start, _ = self.window(self.model.log_back)
        if not start:
            return ""
        new = start - self.model.log_mark  # hidden lines from after our last answer
        when = "this turn" if self.model.spectating else "since your move"  # no move of its own
        since = f", {new} new {when}" if new > 0 and self.model.log_mark else ""
        return f"+{start} earlier{since}: PgUp"

    def on_rule(self) -> str:
        """The "+N earlier" marker the rule above the log carries while the upper panes gave
        way to the log ('' otherwise: the log's top row carries it)."""
        return self.earlier() if self.rows.given_way() else ""

    def lines(self) -> StyleAndTextTuples:
        """The log lines that fit, newest at the bottom (wrapped lines counted), with
        "+N earlier" on top (on the rule above while the upper panes gave way) and "+N
        newer" at the bottom when there are more."""
        log = self.shown()
        start, end = self.window(self.model.log_back)
        back = self.model.log_back = len(log) - end
        shown: StyleAndTextTuples = []
        if start > 0 and not self.rows.given_way():
            shown.append(("class:dim", f"({self.earlier()})\n"))
        shown += [("", line + "\n") for line in log[start:end]]
        if back:
            shown.append(("class:dim", f"(+{back} newer: PgDn)\n"))
        if shown:  # no empty row after the last line
            shown[-1] = (shown[-1][0], shown[-1][1].removesuffix("\n"))
            # rows a line too long for them leaves free go on top: the newest line stays
            # right above the decision pane, with no blank row under it
            height, width = self.size()
            used = rows_of("".join(part[1] for part in shown), width)
            if used < height:
                shown[0] = (shown[0][0], "\n" * (height - used) + shown[0][1])
        return shown

    def cursor(self) -> Point:
        return Point(0, max(0, "".join(part[1] for part in self.lines()).count("\n")))


WATCH_PROMPT = "  (a spectator: nothing to answer)"


def hint_line(model: ScreenModel) -> StyleAndTextTuples:
    return [("class:hints", key_bar(model, screen_size()[1]))]


def status_line(model: ScreenModel) -> StyleAndTextTuples:
    """The status, and the message beside it when it fits there (one row less for it)."""
    status: StyleAndTextTuples = [  # named here to fit: bot tags go first, a cut is marked
        ("class:status", " " + model.names.fitted(model.status, screen_size()[1] - 2) + " ")
    ]
    if model.message and message_beside(model):
        return [*status, ("", STATUS_GAP), ("class:message", model.message)]
    return status


def message_line(model: ScreenModel) -> StyleAndTextTuples:
    """The message on rows of its own (when it does not fit beside the status), named and
    broken at spaces to the screen's width (all its rows show)."""
    if message_beside(model):
        return []
    return [("class:message", wrapped(model.names.text(model.message), screen_size()[1]))]


def _remedy(rows: DrawnRows) -> str:
    """What shows the lines an upper pane cuts: Esc where the log took its rows, else a
    taller window."""
    return ESC_SHOWS if rows.for_log() else TALLER


def build_layout(model: ScreenModel, prompt: Buffer, log: LogPane) -> Layout:
    deciding = Condition(model.pane_open)
    panes = game_panes(model)
    named = model.names_shown  # every pane calls a named seat by its player's name
    rows = log.rows  # the plan, once a draw (PlannedContainer)

    def table() -> StyleAndTextTuples:
        width = screen_size()[1] - side_width() - 1
        return clipped(named(panes[0](width)), rows.upper(), width, _remedy(rows))

    def side() -> StyleAndTextTuples:  # or the hand, across the screen (room.side_columns)
        return side_shown(model, rows.wide(), rows.upper(), _remedy(rows))

    log_window = Window(
        FormattedTextControl(log.lines, show_cursor=False, get_cursor_position=log.cursor),
        height=lambda: Dimension.exact(rows.log()),
        wrap_lines=True,
    )
    body = HSplit(
        [
            VSplit(
                [
                    Window(FormattedTextControl(table), wrap_lines=True),
                    Window(width=lambda: 0 if rows.wide() else 1, char="|", style="class:dim"),
                    Window(
                        FormattedTextControl(side),
                        width=lambda: side_columns(rows.wide()),
                        wrap_lines=True,
                    ),
                ],
                height=lambda: Dimension.exact(rows.upper()),
            ),
            Window(
                FormattedTextControl(
                    lambda: [
                        ("class:dim", rule_line(rows.given_way(), log.on_rule(), rows.for_log()))
                    ]
                ),
                height=1,
            ),
            log_window,
            ConditionalContainer(
                Window(
                    FormattedTextControl(lambda: menu_lines(model, rows.menu())),  # named there
                    height=lambda: Dimension.exact(rows.menu()),
                    wrap_lines=True,
                ),
                filter=deciding,
            ),
            Window(
                FormattedTextControl(lambda: message_line(model)),
                height=lambda: Dimension.exact(message_height(model)),
                wrap_lines=True,
            ),
            Window(FormattedTextControl(lambda: named(status_line(model))), height=1),
            Window(FormattedTextControl([("class:dim", WATCH_PROMPT)]), height=1)
            if model.spectating
            else VSplit(
                [
                    Window(FormattedTextControl("> "), width=2),
                    Window(BufferControl(buffer=prompt), height=1),
                ]
            ),
            Window(FormattedTextControl(lambda: hint_line(model)), height=1),
        ]
    )
    completions = Float(
        xcursor=True,
        ycursor=True,  # Tab's choices, seen (above the prompt)
        content=CompletionsMenu(max_height=8, scroll_offset=1),
    )
    keys = Float(
        top=1,
        left=0,
        content=ConditionalContainer(  # the '?' overlay, over the panes
            Window(
                FormattedTextControl(lambda: list(keys_lines(model, keys_width()))),
                width=keys_width,
                style="class:keys",
                char=" ",
                wrap_lines=False,
            ),
            filter=Condition(lambda: model.show_keys),
        ),
    )
    rules = Float(
        top=0,
        left=0,
        content=ConditionalContainer(  # 'rules' / F3: the game in short
            Window(
                FormattedTextControl(lambda: rules_lines(model)),
                width=keys_width,
                style="class:keys",
                char=" ",
                wrap_lines=False,
            ),
            filter=Condition(lambda: model.show_rules),
        ),
    )
    return Layout(
        PlannedContainer(rows, content=body, floats=[keys, rules, completions]),
        focused_element=None if model.spectating else prompt,
    )


def rules_lines(model: ScreenModel) -> StyleAndTextTuples:
    """The game's summary over the board, cut (and said) to the rows there are."""
    rows = screen_size()[0] - 1  # the last row marks where the overlay ends
    lines = summary(model.game).split("\n") + ["(Esc or F3 closes)"]
    if len(lines) > rows:
        lines = [
            *lines[: rows - 1],
            f"+{len(lines) - rows + 1} more: 'fairtable rules {model.game}' prints it all",
        ]
    width = keys_width()
    out: StyleAndTextTuples = [
        (
            "class:title" if i == 0 else "",
            (line if len(line) <= width else line[: width - 1] + "…") + "\n",
        )
        for i, line in enumerate(lines)
    ]
    return [*out, ("class:dim", "-" * width)]


def keys_width() -> int:
    """The overlays' width: the whole screen (no board shows beside them)."""
    return max(20, screen_size()[1])


# -- key bindings ---------------------------------------------------------------------------
def load_help_bindings(model: ScreenModel) -> KeyBindings:
    """F1: the decision's help; '?' on an empty prompt: the keys of this screen (client/keys),
    closed by '?' again or Esc."""
    kb = KeyBindings()
    empty_prompt = Condition(lambda: get_app().current_buffer.text == "")

    @kb.add("?", filter=empty_prompt)
    def _(event: Any) -> None:
        model.show_keys = not model.show_keys

    @kb.add("f1")
    def _(event: Any) -> None:
        model.show_help, model.help_top = not model.show_help, 0
        model.message = HELP_SHOWN if model.show_help else ""

    @kb.add("f3")
    def _(event: Any) -> None:
        model.show_rules = not model.show_rules

    return kb


def load_card_bindings(model: ScreenModel) -> KeyBindings:
    """F2 shows the highlighted option's card text; Up/Down move the highlight (when no
    completion menu is open); Esc hides card text (or, with nothing to hide, brings back
    the upper panes the log took: what happened since our move counts as read)."""
    kb = KeyBindings()
    no_completion = Condition(lambda: get_app().current_buffer.complete_state is None)

    @kb.add("f2")
    def _(event: Any) -> None:
        model.info_highlighted()

    @kb.add("up", filter=no_completion)
    def _(event: Any) -> None:
        model.move_highlight(-1)

    @kb.add("down", filter=no_completion)
    def _(event: Any) -> None:
        model.move_highlight(1)

    @kb.add("escape", eager=True)
    def _(event: Any) -> None:
        shown = model.show_keys or model.show_rules or model.info or model.show_help
        if not shown and panes_cut_for_log(model):  # the log was read: the panes come back
            model.log_mark = len(model.log)
        model.show_keys = model.show_rules = False
        if model.info or model.show_help:
            model.message = ""
        model.info = ""
        model.show_help = False

    return kb


def load_log_bindings(log: LogPane) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("pageup")
    def _(event: Any) -> None:
        if log.model.show_help and not log.model.info:  # the help scrolls while it shows
            log.model.help_top -= page_step(menu_room(log.model))
        else:
            log.scroll(1)

    @kb.add("pagedown")
    def _(event: Any) -> None:
        if log.model.show_help and not log.model.info:
            log.model.help_top += page_step(menu_room(log.model))
        else:
            log.scroll(-1)

    return kb


def load_quit_bindings(model: ScreenModel) -> KeyBindings:
    kb = KeyBindings()

    # a spectator has no prompt to type in; at game over there is nothing left to answer
    single = Condition(
        lambda: model.spectating or (bool(model.over) and get_app().current_buffer.text == "")
    )

    @kb.add("c-c")
    @kb.add("c-q")
    @kb.add("q", filter=single)
    def _(event: Any) -> None:
        event.app.exit()

    @kb.add("i", filter=single)  # the invite, for others to watch
    def _invite(event: Any) -> None:
        if model.info:  # shown: i hides it again (as Esc does)
            model.info = model.message = ""
        else:
            model.invite_command("i")

    return kb


def build_application(model: ScreenModel) -> Application[None]:
    def accept(buffer: Buffer) -> bool:
        text = buffer.text.strip()
        if text in ("q", "quit"):
            app.exit()
            return False
        model.help_top = 0  # a help shown anew starts at its top
        model.command(text)
        return False

    prompt = Buffer(
        multiline=False, accept_handler=accept, completer=WordCompleter(lambda: model.completions())
    )
    log = LogPane(model)
    auto = AutoPass(model)

    async def answer_for_the_player() -> None:
        """A few times a second: a decision with one legal answer is answered after the
        player's usual pause (client/auto_pass)."""
        while True:
            await asyncio.sleep(0.1)
            if auto.tick(time.monotonic()):
                app.invalidate()

    app: Application[None] = Application(
        layout=build_layout(model, prompt, log),
        key_bindings=merge_key_bindings(
            [
                load_help_bindings(model),
                load_card_bindings(model),
                load_log_bindings(log),
                load_quit_bindings(model),
            ]
        ),
        style=style_for(model.game),
        full_screen=True,
    )

    def start_answering() -> None:
        if not model.spectating:
            app.create_background_task(answer_for_the_player())

    app.pre_run_callables.append(start_answering)
    model.copy = lambda text: copy_to_clipboard(app, text)
    return app


# -- running with trio as a guest -----------------------------------------------------------
async def _screen(model: ScreenModel, network: NetworkMain) -> None:
    loop = asyncio.get_running_loop()
    to_screen_send, to_screen = trio.open_memory_channel[ev.NodeEvent](256)
    answers_send, answers = trio.open_memory_channel[Any](16)
    token: list[trio.lowlevel.TrioToken] = []
    scopes: list[trio.CancelScope] = []
    app = build_application(model)

    def submit(answer: Any) -> None:
        if token:
            token[0].run_sync_soon(lambda: _offer(answers_send, answer, model))

    model.submit = submit

    async def trio_main() -> None:
        token.append(trio.lowlevel.current_trio_token())
        async with trio.open_nursery() as nursery:
            scopes.append(nursery.cancel_scope)
            nursery.start_soon(network, to_screen_send, answers)

            async def show() -> None:
                async for event in to_screen:
                    model.take(event)
                    app.invalidate()

            nursery.start_soon(show)
            await trio.sleep_forever()

    finished = asyncio.Event()
    outcome: list[Any] = []

    def done(result: Any) -> None:
        outcome.append(result)
        finished.set()
        if app.is_running:
            app.exit()

    ui_errors: list[BaseException] = []

    def ui_error(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """A bug behind a key press (or a redraw): close the screen and hand it on, rather
        than let prompt_toolkit print its traceback and wait for ENTER."""
        error = context.get("exception")
        if error is None:
            return  # asyncio's notes without an error (slow callbacks and the like)
        ui_errors.append(error)
        if app.is_running:
            app.exit()

    trio.lowlevel.start_guest_run(
        trio_main,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=done,
        host_uses_signal_set_wakeup_fd=True,
    )

    def ended_already() -> None:  # the network side may fail before the screen is up
        if finished.is_set():
            app.exit()

    loop.set_exception_handler(ui_error)
    await app.run_async(pre_run=ended_already, set_exception_handler=False)
    if token and scopes and not finished.is_set():
        with contextlib.suppress(trio.RunFinishedError):  # it may end on its own meanwhile
            token[0].run_sync_soon(scopes[0].cancel)
    await finished.wait()
    if ui_errors:
        raise ui_errors[0]  # the caller's (cli.main writes it to a crash log)
    outcome[0].unwrap()  # the network side's own error, if it had one, is the caller's


def _offer(channel: trio.MemorySendChannel[Any], answer: Any, model: ScreenModel) -> None:
    try:
        channel.send_nowait(answer)
    except trio.WouldBlock:
        model.answer_not_sent()


def run_screen(model: ScreenModel, network: NetworkMain) -> None:
    """Show the screen until the player quits; the network keeps its game on disk."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_screen(model, network))
