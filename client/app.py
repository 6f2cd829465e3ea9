"""The console screen: prompt_toolkit on asyncio, with trio running as its guest.

Layout functions take the :class:`~client.model.ClientModel`; key bindings are
grouped by purpose (``load_*_bindings``).  The network runs in trio guest mode
on the same loop; the screen and the network meet only through bounded
channels: node events arrive through one, answers leave through another (sent
from the UI with ``TrioToken.run_sync_soon``, so no UI callback ever starts a
trio task itself).  Works at 80x24 and uses more room when there is more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.layout import (
    ConditionalContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.styles import Style

from client.model import ClientModel, card_label, invite_lines
from netplay import events as ev

__all__ = ["build_application", "run_screen"]

STYLE = Style.from_dict({
    "title": "bold",
    "status": "reverse",
    "mine": "bold",
    "dim": "#888888",
    "menu": "",
    "message": "italic",
})

NetworkMain = Callable[[trio.MemorySendChannel[ev.NodeEvent], trio.MemoryReceiveChannel[Any]],
                       Awaitable[None]]


# -- layout -------------------------------------------------------------------------------
def table_lines(model: ClientModel) -> StyleAndTextTuples:
    view = model.view
    if view is None:
        lines: StyleAndTextTuples = [("class:title", "Reign: The Card Game\n"),
                                     ("", model.status + "\n")]
        if model.invite:
            lines += invite_lines(model)
        return lines
    pub = view.public
    out: StyleAndTextTuples = [("class:title", f"Reign - round {pub['round']}, {pub['phase']}\n")]
    holders = {seat: house for house, seat in pub["support"].items() if seat is not None}
    for seat in range(pub["players"]):
        mark = "*" if seat == pub["regent"] else " "
        style = "class:mine" if seat == model.seat else ""
        army = pub["armies"].get(str(seat), [])
        down = len(pub["army_down"].get(str(seat), []))
        extra = f" army {len(army)}+{down}" if str(seat) in pub["armies"] else ""
        out.append((style, f"{mark}{'you' if seat == model.seat else 'seat ' + str(seat)}: "
                    f"L{pub['legitimacy'][seat]} {pub['hand_count'][seat]}c "
                    f"{holders.get(seat, '-')}{extra}\n"))
    centre = [h for h, s in pub["support"].items() if s is None]
    piles = pub["piles"]
    out.append(("class:dim", f"centre {', '.join(centre) or '-'}\n"
                f"piles {piles['military']}m {piles['event']}e  *Regent L=legit c=cards\n"))
    for seat, cards in sorted(pub["armies"].items()):
        if cards:
            out.append(("class:dim", f"army of seat {seat}: "
                        + ", ".join(card_label(c) for c in cards) + "\n"))
    return out


def hand_lines(model: ClientModel) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("class:title", "Your hand\n")]
    picked = {c: t for c, t in model.picked()}
    for i, card in enumerate(model.hand(), start=1):
        mark = ">" if card in picked else " "
        where = f" -> seat {picked[card]}" if picked.get(card) is not None else ""
        out.append(("class:mine" if mark == ">" else "", f"{mark}{i}. {card_label(card)}{where}\n"))
    if model.view is not None and model.view.facedown:
        out.append(("class:dim", f"{len(model.view.facedown)} of yours face down\n"))
    return out


def menu_lines(model: ClientModel) -> StyleAndTextTuples:
    if model.show_help or model.decision is None:
        return [("class:message", model.help_text() if model.show_help else "")]
    out: StyleAndTextTuples = [("class:title", f"Decide ({model.decision.kind.replace('_', ' ')}):"
                                 " type #N for an option, ? for help\n")]
    menu = model.menu()
    for i, (label, _) in enumerate(menu[:8], start=1):
        out.append(("class:menu", f"#{i} {label}\n"))
    if len(menu) > 8:
        out.append(("class:dim", f"... and #9 to #{len(menu)}: type one, or ? for help\n"))
    return out


def menu_height(model: ClientModel) -> int:
    """Rows the decision pane takes: its whole text (title, 8 options and the "more" line) as
    long as that fits, so the options never shrink behind the log."""
    text = "".join(part[1] for part in menu_lines(model))
    rows = sum(1 + len(line) // 76 for line in text.rstrip("\n").split("\n"))  # wrapped
    return max(1, min(10, rows))


def log_lines(model: ClientModel, height: int = 8) -> StyleAndTextTuples:
    return [("", line + "\n") for line in list(model.log)[-height:]]


def status_line(model: ClientModel) -> StyleAndTextTuples:
    return [("class:status", f" {model.status} ")]


def message_line(model: ClientModel) -> StyleAndTextTuples:
    return [("class:message", model.message)]


def game_panes(model: Any) -> tuple[Callable[[], StyleAndTextTuples],
                                     Callable[[], StyleAndTextTuples]]:
    """The two upper panes (the table, and the side pane beside it) for the model's game:
    a model of another game brings its own through ``panes()``; Reign's are here."""
    panes = getattr(model, "panes", None)
    if panes is not None:
        found: tuple[Callable[[], StyleAndTextTuples], Callable[[], StyleAndTextTuples]] = panes()
        return found
    return (lambda: table_lines(model)), (lambda: hand_lines(model))


def build_layout(model: ClientModel, prompt: Buffer) -> Layout:
    deciding = Condition(lambda: model.decision is not None or model.show_help)
    table, side = game_panes(model)
    body = HSplit([
        VSplit([
            Window(FormattedTextControl(table), wrap_lines=True),
            Window(width=1, char="|", style="class:dim"),
            Window(FormattedTextControl(side), width=Dimension(min=24,
                   preferred=38), wrap_lines=True),
        ], height=Dimension(min=8, weight=2)),
        Window(height=1, char="-", style="class:dim"),
        Window(FormattedTextControl(lambda: log_lines(model), show_cursor=False,
                                    get_cursor_position=lambda: Point(  # newest line shows
                                        0, max(0, min(len(model.log), 8) - 1))),
               height=Dimension(min=1, weight=1), wrap_lines=True),
        ConditionalContainer(
            Window(FormattedTextControl(lambda: menu_lines(model)),
                   height=lambda: Dimension.exact(menu_height(model)), wrap_lines=True),
            filter=deciding),
        Window(FormattedTextControl(lambda: message_line(model)), height=1),
        Window(FormattedTextControl(lambda: status_line(model)), height=1),
        VSplit([Window(FormattedTextControl("> "), width=2),
                Window(BufferControl(buffer=prompt), height=1)]),
    ])
    return Layout(body, focused_element=prompt)


# -- key bindings ---------------------------------------------------------------------------
def load_help_bindings(model: ClientModel) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("f1")
    def _(event: Any) -> None:
        model.show_help = not model.show_help
        model.message = model.help_text()

    return kb


def load_quit_bindings(model: ClientModel) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("c-c")
    @kb.add("c-q")
    def _(event: Any) -> None:
        event.app.exit()

    return kb


def build_application(model: ClientModel) -> Application[None]:
    def accept(buffer: Buffer) -> bool:
        text = buffer.text.strip()
        if text in ("q", "quit"):
            app.exit()
            return False
        model.command(text)
        return False

    prompt = Buffer(multiline=False, accept_handler=accept,
                    completer=WordCompleter(lambda: model.completions()))
    app: Application[None] = Application(
        layout=build_layout(model, prompt),
        key_bindings=merge_key_bindings([load_help_bindings(model), load_quit_bindings(model)]),
        style=STYLE,
        full_screen=True,
    )
    return app


# -- running with trio as a guest -----------------------------------------------------------
async def _screen(model: ClientModel, network: NetworkMain) -> None:
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
                    if isinstance(event, ev.Answered):
                        model.answered()
                    else:
                        model.apply_event(event)
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

    trio.lowlevel.start_guest_run(trio_main, run_sync_soon_threadsafe=loop.call_soon_threadsafe,
                                  done_callback=done, host_uses_signal_set_wakeup_fd=True)
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


def _offer(channel: trio.MemorySendChannel[Any], answer: Any, model: ClientModel) -> None:
    try:
        channel.send_nowait(answer)
    except trio.WouldBlock:
        model.message = "Still sending your last answer; try again."


def run_screen(model: ClientModel, network: NetworkMain) -> None:
    """Show the screen until the player quits; the network keeps its game on disk."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_screen(model, network))
