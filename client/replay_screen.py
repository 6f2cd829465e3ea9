"""The console screen of ``fairtable replay TABLE``: a finished game, step by step.

:class:`ReplayCursor` owns where the replay stands (a step index), moving by step, by round,
or to a step or round typed after ``g`` / ``r``, and whether open hands are shown (only once
the audit opened every deck key: :attr:`protocol.Replay.audited`).  The screen shows the
step's public view in the game's own panes (a spectator's, seat None), the words of the
steps up to it, and with open hands every seat's verified hidden cards in place of the side
pane.  Keys: Left/Right a step, PgUp/PgDn a round, Home/End the first/last step, ``o`` open
hands, ``g N`` step N, ``r N`` round N, ``q`` quit.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension

from fairtable.client.app import style_for
from fairtable.client.replay import Record, model_for, who_answered
from fairtable.client.room import clipped, game_panes, rows_of, screen_size, wrapped

__all__ = ["ReplayCursor", "build_replay_application", "run_replay_screen"]

_STEP_INDENT = " " * 5  # a wrapped log line's further rows start past the step numbers
KEYS = " Left/Right step  PgUp/PgDn round  Home/End  o open hands  g N step  r N round  q quit "


class ReplayCursor:
    """Where the replay stands, and what was said about the last move."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.index = 0
        self.open = False
        self.message = "Left/Right to step through the game"
        self.model = model_for(record.spec.game)
        self.model.view = record.steps[0].view if record.steps else None

    @property
    def last(self) -> int:
        return len(self.record.steps) - 1

    def go(self, index: int) -> None:
        self.index = max(0, min(self.last, index))
        step = self.record.steps[self.index]
        self.model.view = step.view
        self.message = self.step_words()
        if self.index == self.last:
            self.message += " -- " + self.record.ending_words()

    def step_words(self) -> str:
        step = self.record.steps[self.index]
        words = (
            "; ".join(self.record.words[self.index])
            or ", ".join(e.KIND for e in step.events)
            or "no public event"
        )
        return f"{who_answered(step)}: {words}"

    def round_now(self) -> int:
        rnd = self.record.round_of(self.index)
        return -1 if rnd is None else rnd

    def by_round(self, forward: bool) -> None:
        """To the first step of the next round (or of this one, then the previous one)."""
        rounds = [self.record.round_of(i) for i in range(len(self.record.steps))]
        now = self.round_now()
        if forward:
            later = [i for i, r in enumerate(rounds) if r is not None and r > now]
            self.go(later[0] if later else self.last)
            return
        start = next((i for i, r in enumerate(rounds) if r == now), self.index)
        if start < self.index:
            self.go(start)
            return
        earlier = [r for r in rounds[:start] if r is not None]
        target = earlier[-1] if earlier else None
        self.go(next((i for i, r in enumerate(rounds) if r == target), 0))

    def to_round(self, number: int) -> None:
        found = next(
            (i for i in range(len(self.record.steps)) if self.record.round_of(i) == number), None
        )
        if found is None:
            self.message = f"no round {number} in this game"
        else:
            self.go(found)

    def toggle_open(self) -> None:
        if not self.record.replay.audited:
            self.message = "open hands need the audit, and this game " + self.record.ending_words()
            return
        self.open = not self.open
        self.message = (
            "open hands: every card checked against the opened deck keys"
            if self.open
            else "open hands off"
        )

    def command(self, text: str) -> bool:
        """A typed command; False to quit."""
        word, _, rest = text.strip().partition(" ")
        if word in ("q", "quit"):
            return False
        if word == "o":
            self.toggle_open()
        elif word in ("g", "r") and rest.strip().isdecimal():
            if word == "g":
                self.go(int(rest) - 1)  # steps are counted from 1 on the screen
            else:
                self.to_round(int(rest))
        elif word in ("n", ""):
            self.go(self.index + 1)
        elif word == "p":
            self.go(self.index - 1)
        else:
            self.message = f"unknown command {text.strip()!r}: g N, r N, o, n, p or q"
        return True

    # -- what the screen shows -------------------------------------------------------------
    def title(self) -> StyleAndTextTuples:
        step = self.record.steps[self.index]
        rnd = self.record.round_of(self.index)
        where = f"step {self.index + 1}/{self.last + 1} (engine step {step.serial})"
        extra = "  OPEN HANDS" if self.open else ""
        return [
            (
                "class:title",
                f"Replay {self.record.spec.game}: {where}, round "
                f"{rnd if rnd is not None else '-'}{extra}",
            )
        ]

    def hands(self, width: int = 38) -> StyleAndTextTuples:
        """Every seat's verified hidden cards, lines broken between cards (a name is never
        cut)."""
        out: StyleAndTextTuples = [("class:title", "Open hands (verified)\n")]
        for seat, cards in self.record.named_hands(self.index).items():
            line = f"seat {seat}:"
            for card in cards or ["-"]:
                if len(line) + 1 + len(card) + 1 > width:
                    out.append(("", line + "\n"))
                    line = " "
                line += f" {card},"
            out.append(("", line.rstrip(",") + "\n"))
        return out

    def log(self, rows: int, width: int | None = None) -> StyleAndTextTuples:
        """The newest log lines that fit ``rows`` rows, each broken at spaces to ``width``
        columns (the screen's) as the game's log is: no line is cut."""
        width = width or screen_size()[1]
        lines: list[tuple[str, str]] = []
        for i in range(self.index + 1):
            for line in self.record.words[i]:
                lines.append(("class:mine" if i == self.index else "", f"{i + 1:4d} {line}"))
        if self.index == self.last:
            lines.append(("class:title", "     " + self.record.ending_words()))
        kept: list[tuple[str, str]] = []
        used = 0
        for style, text in reversed(lines):
            text = wrapped(text, width, _STEP_INDENT)
            used += rows_of(text, width)
            if kept and used > rows:
                break
            kept.insert(0, (style, text))
        out: StyleAndTextTuples = []
        for style, text in kept:
            out += [(style, text), ("", "\n")]
        return out


def _upper_height() -> int:
    rows, _ = screen_size()
    return max(6, (rows - 5) * 3 // 5)


def build_replay_application(record: Record) -> Application[None]:
    cursor = ReplayCursor(record)
    cursor.go(0)
    panes = game_panes(cursor.model)
    named = record.names.fragments  # named seats by their players' names

    def side() -> StyleAndTextTuples:
        width = min(38, max(24, screen_size()[1] // 2))
        lines = cursor.hands(width) if cursor.open else panes[1](width)
        return clipped(named(lines), _upper_height(), width)

    def table() -> StyleAndTextTuples:
        width = screen_size()[1] - min(38, max(24, screen_size()[1] // 2)) - 1
        return clipped(named(panes[0](width)), _upper_height(), width)

    def accept(buffer: Buffer) -> bool:
        if not cursor.command(buffer.text):
            app.exit()
        return False

    prompt = Buffer(multiline=False, accept_handler=accept)

    def message() -> StyleAndTextTuples:
        """What the step did, broken at spaces (never cut: a long one takes more rows)."""
        text = "".join(t for _, t, *_ in named([("", cursor.message)]))
        return [("class:message", wrapped(text, screen_size()[1]))]

    def message_rows() -> int:
        """As many rows as the message needs, up to all but one of the log's (a quarter of
        the screen at the least): the last step's words and the ending are never cut."""
        rows, width = screen_size()
        room = max(rows // 4, rows - 5 - _upper_height())
        return max(1, min(room, rows_of("".join(t for _, t, *_ in message()), width)))

    def log_rows() -> int:
        return max(1, screen_size()[0] - 4 - message_rows() - _upper_height())

    body = HSplit(
        [
            Window(FormattedTextControl(cursor.title), height=1),
            VSplit(
                [
                    Window(FormattedTextControl(table), wrap_lines=True),
                    Window(width=1, char="|", style="class:dim"),
                    Window(
                        FormattedTextControl(side),
                        wrap_lines=True,
                        width=lambda: min(38, max(24, screen_size()[1] // 2)),
                    ),
                ],
                height=lambda: Dimension.exact(_upper_height()),
            ),
            Window(
                FormattedTextControl(lambda: cursor.log(log_rows())),
                height=lambda: Dimension.exact(log_rows()),
                wrap_lines=True,
            ),
            Window(
                FormattedTextControl(message),
                height=lambda: Dimension.exact(message_rows()),
                wrap_lines=True,
            ),
            VSplit(
                [
                    Window(FormattedTextControl("> "), width=2),
                    Window(BufferControl(buffer=prompt), height=1),
                ]
            ),
            Window(FormattedTextControl([("class:hints", KEYS)]), height=1),
        ]
    )
    keys = KeyBindings()
    keys.add("right", eager=True)(lambda e: cursor.go(cursor.index + 1))
    keys.add("left", eager=True)(lambda e: cursor.go(cursor.index - 1))
    keys.add("pagedown", eager=True)(lambda e: cursor.by_round(True))
    keys.add("pageup", eager=True)(lambda e: cursor.by_round(False))
    keys.add("home", eager=True)(lambda e: cursor.go(0))
    keys.add("end", eager=True)(lambda e: cursor.go(cursor.last))
    keys.add("c-c")(lambda e: e.app.exit())

    @keys.add("o", eager=True, filter=_empty(prompt))
    def _(event: Any) -> None:
        cursor.toggle_open()

    @keys.add("q", eager=True, filter=_empty(prompt))
    def _(event: Any) -> None:
        event.app.exit()

    app: Application[None] = Application(
        layout=Layout(body, focused_element=prompt),
        key_bindings=keys,
        style=style_for(record.spec.game),
        full_screen=True,
    )
    app.replay_cursor = cursor  # type: ignore[attr-defined]  # for tests
    return app


def _empty(prompt: Buffer) -> Any:
    from prompt_toolkit.filters import Condition

    return Condition(lambda: not prompt.text)


def run_replay_screen(record: Record) -> None:
    if not record.steps:
        print("fairtable: this log has no step to replay")
        return
    build_replay_application(record).run()
