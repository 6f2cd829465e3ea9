"""The game-neutral screen model: what every game's console screen shows around its board.

:class:`ScreenModel` owns what does not depend on the game: the lobby and the invite, the
status line's waits and clocks, the log (scrolled back to the game's first line), the reply
to the last input, the game's end, ``resign`` and its confirmation, ``info`` (card text via
the game's ``info_source``), the highlighted option, and answering a decision at most once
(typed, or passed for the player by :mod:`client.auto_pass`).  Each game's model
(``client/<game>/model.py``) adds its view, menus, words for the game's events and what a
typed line means in it.  The model does no I/O: ``submit`` hands answers to a callback (the
network side), and ``apply_event`` takes what the network side reports.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from fairtable.client import ending, table_news
from fairtable.client import help_parts as hp
from fairtable.client.card_info import Seen, info_answer
from fairtable.client.help_parts import INVITE_HELP, RESIGN_HELP, Help, Key
from fairtable.client.invite_words import INVITE_KEYS, SHOWN_COPIED
from fairtable.client.lifecycle import (
    join_lines,
    resign_question,
    watchable,
)
from fairtable.client.room_needs import RoomNeeds
from fairtable.client.seat_names import SeatNames
from fairtable.engine.games import rules
from fairtable.engine.requests import Decision
from fairtable.netplay import ResignRequest
from fairtable.netplay import events as ev

__all__ = [
    "DECIDE_HINT",
    "HELP_SHOWN",
    "INFO_SHOWN",
    "INVITE_HELP",
    "RESIGN_HELP",
    "RULES_SHOWN",
    "SENDING",
    "Lines",
    "ScreenModel",
]

Lines = list[tuple[str, str]]
"""Styled text: (style, text) pairs, as prompt_toolkit's formatted text."""


SENDING = "sending your answer..."
"""The status line's turn while our answer is on its way to the node."""

HELP_SHOWN: Help = ("Help above", Key("; F1 or Esc hides it"), ".")
"""The message line while the help is shown (the help itself is in the pane above)."""

INFO_SHOWN: Help = ("Card text above", Key("; Esc or any other line hides it"), ".")
"""The message line while card text is shown in place of the menu."""

RULES_SHOWN: Help = ("The game in short is above", Key("; Esc or any line hides it"), ".")
"""The message line while the game's summary is shown over the board."""

DECIDE_HINT: Help = (
    " type N or #N",
    Key(", or Up/Down and Enter"),  # plain lines have no highlight to move
    Key("; F2 card text", "; info #N: option N's cards"),
)
"""The decision line's words after "Decide (kind):" in a game that adds none of its own."""

UNDER_WHAT_IS_SHOWN = "Your move: Esc returns to the decision from what is shown above."
"""The message when our decision arrives while the invite or card text stands where its menu
goes (the screen's words only: plain mode says the decision as it comes)."""

PASSED_FOR_YOU = "Passed for you"
"""How the message after a window answered for the player starts (client/auto_pass)."""


class ScreenModel(RoomNeeds):
    """Everything a console screen shows that is not one game's, for one seat."""

    game = ""  # the game's name in engine.games (each game's model sets it)
    numbered_what = "hand"  # what 'info N' numbers
    departed_seat = ""  # who plays a seat that left or vanished (docs/rules/<game>.md)
    info_source: Any = None  # the game's info module: numbered, visible and option_cards
    help_top = 0  # the help's lines scrolled past (PgDn while it shows: client/help_pages)

    def __init__(self, submit: Callable[[Any], None] = lambda answer: None) -> None:
        self.submit = submit
        self.seat: int | None = None
        self.spectating = False  # fairtable watch: seat None, the public view, nothing to answer
        self.via = ""  # the relay (HOST:PORT) we play or watch through; "" for none
        self.players = 0
        self._view: Any = None
        self.prior_view: Any = None  # the last different view before the current one
        self.decision: Decision | None = None
        self.log: deque[str] = deque()  # the whole game: the log pane scrolls back to its start
        self.message_parts: Help = ""  # the one-line reply to the last input (``message``)
        self.status = "Connecting..."
        self.invite = ""  # the invite of the table we host (once open)
        self.held_invite = ""  # the invite we joined with (a joiner may pass it on)
        self.code = ""  # the host's join code, for friends on the LAN or through the relay
        self.code_via = ""  # the relay (HOST:PORT) the code works through; "" for none
        self.code_lan = True  # the code is announced on this LAN
        self.copy: Callable[[str], None] = lambda text: None  # to the terminal's clipboard
        self.all_bots = False  # every other seat is one of our bots: nobody to invite
        self.spectators = True  # the table lets spectators watch (``host --no-spectators``)
        self.leavers_told = False  # the table's rule for a vanishing player was said already
        self.reached = False  # the table answered (a lobby update, or our seat)
        self.seats_taken = ""  # the lobby's last count ("3 of 4 seats taken"), once told
        self.over = ""
        self.departed: list[int] = []  # seats that left the table for good (ours too), in order
        self.following = False  # we left a table that plays on: the screen follows the rest
        self.saved = ""  # the folder the game is kept in, once the network side says
        self.leave: Help = ending.LEAVE  # said once the game is over (a game kept nowhere: why)
        self.unkept = ""  # why the game is kept nowhere ('a seeded game is not kept'); "": kept
        self.abandoned: int | None = None  # the seat the table gave up waiting for
        self.show_help = False
        self.show_keys = False  # the '?' overlay (client/keys) is open
        self.show_rules = False  # the game's summary (client/rules_summary) is shown over it
        self.waiting: dict[int, int] = {}  # seats silent for long: seconds
        self.blocking: list[int] = []  # seats the table waits for now
        self.thinking: dict[int, ev.BotThinking] = {}  # bot seats thinking now (ours: play)
        self._thinking_said = ""  # what the status line says of them
        self.clock: tuple[ev.ClockReading, ...] = ()  # what counts down now (a clock event's seats)
        self.limits = ""  # the table's time limits in words, once known
        self.confirming_resign = False  # 'resign' was typed: the next line confirms or not
        self.notice = ""  # said in place of the first "Your move" (e.g. that we resumed)
        self.info_parts: Help = (
            ""  # the card text 'info' asked for, in place of the menu (``info``)
        )
        self.highlight = 0  # the menu option the arrow keys point at (F2: its cards' text)
        self.log_back = 0  # lines the log is scrolled back from its newest line
        self.log_mark = 0  # the log's length when we last answered, or (a spectator) when the
        # table's turn changed (what is new since: client.room.plan keeps it on screen)
        self.sent_for: Decision | None = None  # the decision the last answer was sent for
        self.auto_sent: Decision | None = None  # the decision answered for the player (auto_pass)
        self.names = SeatNames()  # the players' names, signed by their seats (client.seat_names)
        self._shown: tuple[SeatNames, list[str]] = (self.names, [])  # log_shown's lines so far

    # -- what the screen shows ------------------------------------------------------------
    @property
    def message(self) -> str:
        """The message line as the screen shows it: :attr:`message_parts` with their keys
        (plain mode says the parts in its own words: :mod:`client.help_parts`)."""
        return hp.on_screen(self.message_parts)

    @message.setter
    def message(self, line: Help) -> None:
        self.message_parts = line

    @property
    def info(self) -> str:
        """The card text (or invite) shown in place of the menu, as the screen shows it:
        :attr:`info_parts` with their keys."""
        return hp.on_screen(self.info_parts)

    @info.setter
    def info(self, text: Help) -> None:
        self.info_parts = text

    def names_shown(self, fragments: Any) -> Any:
        """Formatted text with every named seat called by its player's name."""
        return self.names.fragments(fragments)

    def log_shown(self) -> list[str]:
        """The log's lines with named seats called by their names (worked out once a line:
        the log only grows)."""
        names, lines = self._shown
        known = len(lines)
        if names is not self.names or len(lines) > len(self.log):
            names, lines = self._shown = (self.names, [])
        if self.log_back and len(self.log) > known:  # scrolled back: the page stays put
            self.log_back += len(self.log) - known
        lines.extend(names.log_text(line) for line in list(self.log)[len(lines) :])
        return lines

    # -- from the network side -----------------------------------------------------------
    def take(self, event: ev.NodeEvent) -> None:
        """One event from the network side, as every front end (screen, plain lines) takes
        it: our answer having gone out, or anything else the node said."""
        if isinstance(event, ev.Answered):
            self.answered()
        else:
            self.apply_event(event)

    def apply_event(self, event: ev.NodeEvent) -> None:
        """What the network side reports that is not one game's (a game's model takes its
        views, decisions, cards and result first, and hands the rest here)."""
        table_news.take(self, event)
        said = self._thinking_said
        if said and self.status.endswith(said):  # a status not made anew keeps no old words
            self.status = self.status[: -len(said)]
        self._update_status()
        self._thinking_said = "".join(
            f"; seat {s} is thinking ({t.seconds:.1f} s, {t.worlds} worlds)"
            for s, t in sorted(self.thinking.items())
            if not self.over
        )
        self.status += self._thinking_said

    @property
    def view(self) -> Any:
        """The seat's latest view (a decision and a step may bring the same one: only a
        different view makes the one before it ``prior_view``)."""
        return self._view

    @view.setter
    def view(self, view: Any) -> None:
        if view is not self._view and view != self._view:
            turn = self.turn()
            self.prior_view, self._view = self._view, view
            if self.spectating and self.turn() != turn:  # a spectator has no move: its mark
                self.log_mark = len(self.log)  # is where the table's turn began (room.plan)

    def end(self, over: str) -> None:
        """The game has ended with ``over`` (every game's model words its result and calls
        this): the decision closes, and the screen says what to do next."""
        self.over = over
        self.following = False  # the end of what we followed, or of our own game
        self.log.append(over)
        if self.saved and ending.saved_line(self.saved) not in self.log:  # once: said at
            self.log.append(ending.saved_line(self.saved))  # our leave, if we followed on
        self.decision = None
        self.clear_pick()
        self.show_help = False
        self.message = ending.LEAVE_WATCHING if self.spectating else self.leave
        self._update_status()

    def resign_result(self, seat: int) -> str:
        """Who is left the winner when ``seat`` resigns: the other seat of a two-seat game;
        at a larger table the record names no winner, and the screen says so."""
        if self.players != 2:
            return "no winner is named" if self.players > 2 else ""
        other = 1 - seat
        return "you win" if other == self.seat else f"seat {other} wins"

    @property
    def plays_on(self) -> bool:
        """Whether the table plays on without us, and can be watched ('i' gives the watch
        line at game over): our seat left it for good -- a departure, which the node reports
        only where the game's rules (``GameRules.departure_ends``) let the others play on, or
        our return after the others agreed we had vanished (a ``resigned`` event for us alone,
        docs/protocol.md §11.11); any other resignation, a verdict or a result ends the
        table's game instead -- and someone still serves spectators
        (:func:`client.lifecycle.watchable`, which the watch line asks too).  The one place
        this is worked out: 'i' and the key hints ask it (``invite_block``).  While the
        screen follows the rest after we left (``following``), someone does: the host we
        joined, the relay, or -- we hosted -- our own program, which serves them on."""
        if self.following:
            return True
        mine = self.seat is not None and self.seat in self.departed
        return mine and watchable(self.invite, self.held_invite, self.via)

    def limits_shown(self) -> str:
        return f" ({self.limits})" if self.limits else ""

    def _update_status(self) -> None:
        """The status line (a game's model words the rounds, phases and turns)."""
        if self.over:
            self.status = ending.status(self.over)

    # -- what the screen lists (a game's model fills these in) ------------------------------
    def hand(self) -> list[str]:
        return []

    def menu(self) -> list[tuple[str, Any]]:
        """The numbered options: (label, answer or a command string)."""
        return []

    def picked(self) -> list[tuple[str, int | None]]:
        return []

    def clear_pick(self) -> None:
        """Forget a multi-part answer being built (a game that builds one overrides this)."""

    def game_keys(self) -> list[tuple[str, Help]]:
        """The words the game takes for the decision at hand, for the '?' overlay:
        (word, what it does)."""
        return []

    def help_text(self) -> str:
        """The help as the screen shows it (F1): :meth:`help_parts` with their keys."""
        return hp.on_screen(self.help_parts())

    def help_parts(self) -> Help:
        """The help, words and screen keys told apart (:mod:`client.help_parts`)."""
        return (*self.keys_help(), *self.common_help())

    def keys_help(self) -> Help:
        """The help's line of the screen's own keys, and whether leaving keeps the game."""
        return hp.keys_help(self.unkept or hp.KEPT)

    def common_help(self) -> tuple[str | Key, ...]:
        """:data:`RESIGN_PARTS`, without the invite where there is none (bots only)."""
        return tuple(p for p in hp.RESIGN_PARTS if self.invite_block() or p != hp.INVITE_PART)

    def your_move(self, kind: str) -> Help:
        """The message for a new decision: a pending notice the first time, else nothing (the
        status line says "your move" and the kind once; the message repeated it beside).
        Under the invite or card text shown where the menu goes (asked for while we waited),
        it says that Esc brings the decision: plain mode, with no Esc, says nothing more."""
        notice, self.notice = self.notice, ""
        if not self.info:
            return notice
        return (notice + " " if notice else "", Key(UNDER_WHAT_IS_SHOWN))

    # -- the invite ---------------------------------------------------------------------------
    def invite_block(self) -> str:
        """The join code and the whole invite, each on lines of its own (shown at the full
        width of the screen: no pane border inside them); '' with nothing to show."""
        invite = self.invite or self.held_invite
        gone = self.over and not self.plays_on  # a table over takes nobody: its host closed it
        if not invite or (self.watchers_only() and not self.spectators) or gone:
            return ""
        relay = self.via or self.code_via
        via = f" --via {relay}" if relay else ""
        if self.seat is None and not self.spectating and not self.over and not self.all_bots:
            lines = join_lines(self.code, self.code_via, self.code_lan)
            lines.append(f"Anywhere, fairtable join 'INVITE'{via} with this whole invite:")
        else:  # the table is full (the code is retired): the invite lets others watch
            where = " on this machine" if _on_loopback(invite) else ""  # play listens there
            lines = [f"To watch{where}: fairtable watch 'INVITE'{via} with this whole invite:"]
        return "\n".join([*lines, invite])

    def watchers_only(self) -> bool:
        """Every other seat is a bot of ours (and we host): the invite serves spectators
        alone, where the table lets them in."""
        return self.all_bots and not self.held_invite

    def lobby_invite(self) -> str:
        """The invite block while the table waits for players (shown under the log)."""
        waiting = self.seat is None and not self.over and not self.spectating
        return self.invite_block() if waiting and not self.watchers_only() else ""

    def invite_command(self, text: str) -> bool:
        """``i`` / ``invite``: the join code and the invite again (copied to the clipboard);
        True when the line was one."""
        if text.strip().lower() not in INVITE_KEYS:
            return False
        block = self.invite_block()
        if not block:
            over = self.over and not self.following  # following: the table is our bots'
            why = "the game is over for you"
            if not over:
                why = "every other seat is a bot here, and the table lets no spectators in"
            self.message = f"No invite to show: {why}."
            return True
        self.copy(self.invite or self.held_invite)
        self.info = block
        self.message = (  # the status still says "your move": the menu is only hidden
            (
                "Above",
                Key(", also copied to your clipboard where allowed; Esc returns to the decision"),
                ".",
            )
            if self.decision is not None and not self.over
            else SHOWN_COPIED
        )
        return True

    def pane_open(self) -> bool:
        """Whether the pane under the log shows something (a decision, help, card text or
        the invite)."""
        return (
            self.decision is not None
            or self.show_help
            or bool(self.info)
            or bool(self.lobby_invite())
        )

    # -- card text (client/card_info) -------------------------------------------------------
    def numbered_cards(self) -> list[Seen]:
        return list(self.info_source.numbered(self)) if self.info_source else []

    def visible_cards(self) -> list[Seen]:
        return list(self.info_source.visible(self)) if self.info_source else []

    def option_cards(self, answer: Any) -> list[Seen]:
        return list(self.info_source.option_cards(self, answer)) if self.info_source else []

    def info_command(self, text: str) -> bool:
        """``info [N|#N|NAME]``: the full text of cards this seat can see, shown in place of
        the menu until the next line; True when the line was one."""
        word, _, rest = text.strip().partition(" ")
        if word.lower() != "info":
            return False
        self.show_info(info_answer(self, rest, self.numbered_what))
        return True

    def show_info(self, text: Help) -> None:
        self.info = text
        self.message = INFO_SHOWN

    def info_highlighted(self) -> None:
        """F2: the text of the highlighted option's cards (or how to use info)."""
        menu = self.menu()
        words = f"#{self.highlight + 1}" if 0 <= self.highlight < len(menu) else ""
        self.show_info(info_answer(self, words, self.numbered_what))

    def move_highlight(self, step: int) -> None:
        menu = self.menu()
        if menu:
            self.highlight = max(0, min(len(menu) - 1, self.highlight + step))

    # -- from the keyboard -----------------------------------------------------------------
    def lifecycle_command(self, text: str) -> bool:
        """``resign`` and the line that confirms it (every game's model asks this first);
        True when the line was one of them.  Anything but 'yes' after 'resign' goes on."""
        words = " ".join(text.strip().lower().split())
        if self.confirming_resign:
            self.confirming_resign = False
            if words in ("yes", "y"):
                self.message = "Resigning..."
                self.submit(ResignRequest())
            else:
                self.message = "Not resigned: the game goes on."
            return True
        if words != "resign":
            return False
        if self.over:
            self.message = self.over
        elif self.seat is None:
            self.message = "The game has not started: there is nothing to resign yet."
        else:
            self.confirming_resign = True
            self.message = f"{self.resign_question()} Type 'yes' to confirm."
        return True

    def resign_question(self) -> str:
        """What resigning does now, from the public view (``GameRules.departure_ends``)."""
        seat, view = self.seat, self.view
        ends = None if seat is None or view is None else rules(self.game).departure_ends(view, seat)
        return resign_question(ends, self.resign_result(seat) if ends and seat is not None else "")

    def command(self, text: str) -> None:
        """Act on one typed line; ``message`` says what happened.  Lines every game knows
        are handled here; the rest go to the game's ``decide``."""
        text = text.strip()
        shown = self.show_help or bool(self.info) or self.show_rules
        self.show_help = False
        self.info = ""
        self.show_rules = text.lower() == "rules"  # the summary over the board (Esc hides it)
        if self.show_rules:
            self.message = RULES_SHOWN
            return
        if not text:  # Enter on an empty prompt
            if shown:  # hides what was shown over the menu, and nothing more
                self.message = ""
            else:
                self.enter_highlighted()
            return
        if self.lifecycle_command(text) or self.info_command(text) or self.invite_command(text):
            return
        if text in ("?", "help"):
            self.show_help = True
            self.message = HELP_SHOWN
            return
        d = self.decision
        if d is None or self.view is None:
            self.message = self.leave if self.over else "Nothing to decide now."
            return
        self.decide(d, text)

    def decide(self, d: Decision, text: str) -> None:
        """A typed line for the decision ``d`` (the game's model says what it means)."""
        self.message = "Nothing to decide now."

    def decide_hint(self) -> Help:
        """What the decision pane's first line says keys do (after "Decide (kind):")."""
        return DECIDE_HINT

    def decision_parts(self) -> Help:
        """The decision's first line, "Decide (kind): what keys do", words and keys told
        apart -- the one source of those words for the screen's decision pane
        (:meth:`decision_line`) and plain mode's heading (which says the keys' typed words).
        Empty when nothing is ours to decide."""
        if self.decision is None:
            return ""
        hint = self.only_answer_hint() if self.only_answer() is not None else self.decide_hint()
        return hp.joined(f"Decide ({self.decision.kind.replace('_', ' ')}):", hint)

    def decision_line(self) -> str:
        """The decision's first line as the screen shows it (:meth:`decision_parts`)."""
        return hp.on_screen(self.decision_parts())

    def only_answer_hint(self) -> str:
        """What the decision line says of a decision answered for the player shortly."""
        if self.skipping_windows():
            return " passing for you shortly ('skip' is on)"
        return " nothing can be played here; passing for you shortly"

    def enter_highlighted(self) -> None:
        """Enter on an empty prompt: answer with the highlighted option (every game alike)."""
        menu = self.menu()
        if self.decision is None or self.view is None or not menu:
            self.message = self.leave if self.over else "Nothing to decide now."
            return
        if any(True for _ in self.picked()):
            self.message = (  # the screen's Enter only: plain lines say the decision again
                "Cards are picked: 'done' sends them ('clear' forgets them",
                Key(", then Enter takes the highlighted option"),
                ").",
            )
            return
        self._send(menu[max(0, min(self.highlight, len(menu) - 1))][1])

    def answer_on_its_way(self) -> bool:
        """Whether our answer to the decision at hand is sent and the node has not yet said
        whether it took it.  Every way an answer leaves (a typed line, a line plain mode kept
        for the next decision, an answer passed for the player) asks this one guard: a
        second answer would reach the node after the first and be refused as not asked."""
        return self.decision is not None and self.sent_for is self.decision

    def open_to_answer(self) -> bool:
        """A decision is ours to answer now, and no answer of ours to it is on its way."""
        return (
            self.decision is not None
            and self.view is not None
            and not self.over
            and not self.answer_on_its_way()
        )

    def _send(self, answer: Any) -> bool:
        """Send ``answer`` to the decision at hand, at most one a decision; whether it went."""
        if self.over:  # nothing is asked once the game is over
            self.message = self.leave
            return False
        if self.decision is not None and self.auto_sent is self.decision:
            self.message = "Passed for you already; waiting for the others..."
            return False  # one answer a decision: a late key press must not answer the next one
        if self.answer_on_its_way():
            self.message = "Sent already; waiting for the others..."
            return False
        self.sent_for = self.decision
        self.log_mark = len(self.log)
        self.message = "Sent; waiting for the others..."
        self.submit(answer)
        self._update_status()
        return self.sent_for is self.decision  # not when the network side could not take it

    def answer_not_sent(self) -> None:
        """The network side could not take the answer just handed to it (its queue is full):
        nothing is on its way, so the decision is open to the next one."""
        self.sent_for = self.auto_sent = None
        self.message = "Still sending your last answer; try again."

    def only_answer_kind(self, decision: Decision) -> bool:
        """Whether decisions like ``decision`` may be answered for the player when they have
        one legal answer (client/auto_pass); none unless the game's model says so."""
        return False

    def only_answer(self) -> Any:
        """The one legal answer of the current decision, if it may be answered for the
        player (else None)."""
        return None

    def skipping_windows(self) -> bool:
        """Whether the player asked to pass every priority window for them ('skip'); only a
        game with such windows (Sovereign) says so."""
        return False

    def auto_answer(self, answer: Any) -> bool:
        """Send ``answer`` for the player (the one legal answer), and say so; typed answers
        to the same decision are not sent after it.  Whether it went (not when the player's
        own answer is on its way)."""
        if self.decision is None or not self._send(answer):
            return False
        self.auto_sent = self.decision
        if not self.over:
            self.message = PASSED_FOR_YOU + ": nothing could be played here."
        return True

    def answered(self) -> None:
        """The network side accepted our answer."""
        self.decision = None
        self.clear_pick()
        self.highlight = 0
        if self.over:  # the answer that ended the game: say what to do next, not "waiting"
            self.message = self.leave
        self._update_status()

    def completions(self) -> list[str]:
        words = ["?", "help", "quit", "resign", "info", "invite", "rules"]
        return (
            words
            + [f"#{i + 1}" for i in range(len(self.menu()))]
            + [str(i + 1) for i in range(len(self.menu()))]
        )


def _on_loopback(invite: str) -> bool:
    """Whether ``invite`` names a table on this machine's loopback (``play``'s): only a
    spectator on this machine reaches it."""
    address = invite.removeprefix("fairtable://").split("/", 1)[0]
    return address.startswith(("127.", "[::1]", "localhost"))
