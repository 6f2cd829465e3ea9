"""The console client's model for Sovereign: what the screen shows and what the player types.

It extends the game-neutral :class:`client.screen_model.ScreenModel` (through
:class:`client.menu_model.MenuModel`) with Sovereign's view, menus and words.  Its panes,
found through :mod:`client.games`, are the table pane
(every seat's two lanes, forge progress, citizens, colony and Echoes) and the side pane
(your hand, your forge with names and costs, what you saw in breaches, scored Echoes and
scrap piles), drawn by :mod:`client.sovereign.panes`.

The model holds only this seat's :class:`~engine.sovereign.SovereignView` and the decision
it is asked.  The log tells public events in words -- combat round by round (attacks
declared, damage dealt to each unit, tokens lost, units scrapped, the breach value) -- and
what only this seat saw: its draws and, in a breach, "You see the cards ...".  Every
decision is a numbered menu of legal answers in words whose first item is the heuristic
bot's suggestion, checked against the rules; shortcuts: ``N``/``#N``, ``pass``/``end``,
``keep``/``free``/``shown``, ``play N``, ``acc N [K]``, ``reveal N [L|C]``.  Refused input
gets a one-line reason and changes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from fairtable.client.help_parts import Help
from fairtable.client.menu_model import MenuModel, Shortcut
from fairtable.client.screen_model import PASSED_FOR_YOU
from fairtable.client.sovereign import info as sovereign_info
from fairtable.client.sovereign.bots import HeuristicBot
from fairtable.client.sovereign.finish import FinishDraft, Part, typed_answer
from fairtable.client.sovereign.labels import label
from fairtable.client.sovereign.panes import (
    DEFS,
    forge_cards,
    hand_cards,
    name,
    stage_words,
    state_for,
    top_rows,
    who,
    whose,
)
from fairtable.client.sovereign.words import describe_event
from fairtable.engine.errors import EngineError
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import decide as rules
from fairtable.engine.sovereign.choices import legal_answers
from fairtable.engine.sovereign.decisions import FinishForgeInfo, SovereignDecisionKind
from fairtable.engine.sovereign.kinds import CardType, TurnPhase, Window
from fairtable.engine.sovereign.placement import LOOSE, NOWHERE, in_lane
from fairtable.engine.sovereign.view import SovereignView
from fairtable.netplay import events as ev
from fairtable.protocol import SeenWhy

__all__ = ["HELP", "ClientModel", "label"]

MENU_LIMIT = 400  # options listed (the suggestion is always first)
ANSWERED_FOR_YOU = (
    SovereignDecisionKind.WINDOW,
    SovereignDecisionKind.FORGE,
    SovereignDecisionKind.FINISH_FORGE,
)
FORGE_ENDED = "Ended your forge actions for you: nothing else can be done in the forge now."
ONE_WAY = (SovereignDecisionKind.FORGE, SovereignDecisionKind.FINISH_FORGE)
"""The forge's decisions answered for the player when the rules allow one answer only."""
"""The kinds answered for the player when the rules leave one answer (client/auto_pass)."""
SEAT_LEGEND = (
    "Each seat's summary row: E echoes scored/to win, hand N: cards held; its details after "
    "every summary: cit its citizens idle in the citadel (2t1d: 2 talents, 1 drone), deck "
    "N: cards left to draw, forge: progress/cost, ! ready."
)
"""What a seat's lines on the table say, for F1 (the pane's own legend says it too)."""

HELP: dict[DecisionKind, str] = {
    SovereignDecisionKind.MULLIGAN: (
        "Mulligan: 'keep' your 8 cards, 'free' (once: the hand goes back, the deck is "
        "reshuffled, 8 new cards) or 'shown' (show a hand with no unit to everyone, then the "
        "same). Everyone chooses at once."
    ),
    SovereignDecisionKind.ORDER_TRIGGERS: (
        "Several of your cards trigger together: choose the order they resolve."
    ),
    SovereignDecisionKind.UPKEEP_RETURN: (
        "Upkeep: take back one citizen from each facility and your Leader (or not: 'pass'). A "
        "perpetual facility stops working when it is empty."
    ),
    SovereignDecisionKind.FORGE: (
        "Your forge actions, one at a time: 'play N' puts hand card N face down into the forge "
        "(one idle talent), 'acc N [K]' flips K idle talents to advance forge card N, 'reveal N"
        " [L|C]' forges a ready card (a unit to the back of the Leader or Citadel lane), "
        "reflexes and facilities from the menu; 'end' ends the forge actions."
    ),
    SovereignDecisionKind.WINDOW: (
        "A priority window: play a reflex, work a facility or your Leader (or an Airborne move "
        "at the start of battle) from the menu, or 'pass'. 'skip' passes every window for you, "
        "after your usual pause (nobody learns from the clock whether you held a reflex), until"
        " 'skip' again."
    ),
    SovereignDecisionKind.MOVE: (
        "Move phase: one move (a unit up or down its lane, or to the back of the other lane), "
        "reflexes and abilities from the menu; 'end' ends the phase."
    ),
    SovereignDecisionKind.ATTACK: (
        "Battle: attack a neighbour with the front 1-3 units of one of your lanes, either its "
        "Leader lane (breach its hand) or its Citadel lane (breach its forge); 'pass' does not "
        "attack."
    ),
    SovereignDecisionKind.FINISH_FORGE: (
        "End of your forge actions: first health for the units forged this phase (idle citizens"
        " of the printed types, up to the printed maximum), their lanes, and hosts for loose "
        "augments. Or type the parts: 'health N T D' (new unit N gets T talents, D drones), "
        "'lane N L|C', 'attach N M' (loose augment N onto its host M, 0 to scrap it when it has"
        " none), 'clear', then 'done' (parts not typed come from the suggestion). When the "
        "rules leave one way to finish, it is made for you after your usual pause."
    ),
    SovereignDecisionKind.LOSSES: (
        "Your units lose health tokens of both types: choose how many are talents."
    ),
    SovereignDecisionKind.BREACH_PICK: (
        "Forge breach: choose which forge cards to look at (by position; progress and entry "
        "turn are public)."
    ),
    SovereignDecisionKind.FINDINGS: (
        "After the breach look: score every Echo you saw; in a hand breach with none, discard "
        "one of the cards you saw."
    ),
    SovereignDecisionKind.ADD_HEALTH: (
        "A unit adds health: choose how many of the added tokens are talents and how many "
        "drones (adding may use either type, even above the printed maximum). Restoring health "
        "to a unit printing both types asks its controller the same, each type only up to what "
        "the unit misses of it."
    ),
    SovereignDecisionKind.OPTIONAL_EFFECT: (
        "One of your cards triggered an effect you may use: use it (on the target you choose) "
        "or decline it."
    ),
}
KIND_ORDER = {
    "ForgeCard": 1,
    "PlayToForge": 2,
    "Accelerate": 3,
    "Work": 4,
    "PlayReflex": 5,
    "QuickForge": 6,
    "Move": 7,
    "Pass": 8,
}


_FORGE_WORDS: dict[str, type] = {
    "play": A.PlayToForge,
    "acc": A.Accelerate,
    "reveal": A.ForgeCard,
}
"""The forge turn's words that need a card number, and the answer each makes."""


class ClientModel(MenuModel):
    """Everything the console screen shows of a Sovereign game, for one seat."""

    game = "sovereign"
    departed_seat = "nobody plays its seat: its turns are skipped, its cards in play pass"
    view: SovereignView | None
    info_source = sovereign_info

    def __init__(self, submit: Callable[[Any], None] = lambda answer: None) -> None:
        super().__init__(submit)
        self._menu: list[tuple[str, Any]] | None = None
        self._adviser = HeuristicBot(ChanceStream.from_int(0))
        self.skip_windows = False  # 'skip': every priority window passed for us (auto_pass)
        self.combat_round = 0
        self.fight: dict[str, Any] = {}  # the declared attackers and the defending spaces
        self._before: SovereignView | None = None  # the view before the latest step
        self._draft = FinishDraft()  # a finish_forge answer typed part by part
        self._only: tuple[Decision, Any] | None = None  # a finish's one legal answer, if any

    # -- from the network side -----------------------------------------------------------
    def apply_event(self, event: ev.NodeEvent) -> None:
        if isinstance(event, ev.ViewChanged):
            self._before, self.view = self.view, event.view
            for e in event.events:
                line = describe_event(e, self, event.view)
                if line:
                    self.log.extend(line.split("\n"))
        elif isinstance(event, ev.DecisionAsked):
            self.view, self.decision, self._menu = event.view, event.decision, None
            self._draft = FinishDraft()
            self.message = self.your_move(event.decision.kind)
        elif isinstance(event, ev.CardsShown):
            cards = ", ".join(name(c) for c in event.cards)
            why = event.why
            if why is SeenWhy.PEEKED:
                bt = self.view.table.battle if self.view is not None else None
                frm = (
                    f" in {whose(bt.defender, self.seat)} {bt.area or 'cards'}"
                    if bt is not None
                    else ""
                )
                self.log.append(f"You see the cards{frm}: {cards}")
            elif why is SeenWhy.REHANDLED:
                self.log.append(f"Your hand is re-handled (the attacker loses track): {cards}")
            else:
                self.log.append(f"You draw: {cards}")
        elif isinstance(event, ev.GameOver):
            outcome = event.outcome
            self.end(
                "Game over: nobody wins (round limit)"
                if not outcome.decided
                else (
                    "Game over: you win!"
                    if self.seat is not None and outcome.won(self.seat)
                    else f"Game over: {outcome.words()} wins"
                )
            )
        else:
            super().apply_event(event)
            return
        self._update_status()

    def waited_for(self) -> str:
        return ", ".join(who(s, self.seat) for s in self.blocking) or self._asked()

    def phase_words(self) -> str:
        assert self.view is not None
        table = self.view.table
        if table.phase in (TurnPhase.SETUP, TurnPhase.OVER):
            return str(table.phase)
        return stage_words(self.view)  # whose turn it is: the table pane's title says

    def _asked(self) -> str:
        """Whom the table waits for, from the public state."""
        assert self.view is not None
        table = self.view.table
        w, bt = table.window, table.battle
        if w.order is not None:
            return who(w.order[w.i], self.seat)
        if w.name is Window.MULLIGAN:
            return "the mulligans"
        if bt is not None and bt.area is not None:
            return who(bt.attacker, self.seat)
        return who(table.active, self.seat) if table.phase is not TurnPhase.SETUP else "the others"

    def round_of(self, src: str, tgt: str) -> int:
        """The combat round in which ``src`` dealt damage to ``tgt``: attacker ``i`` (0 =
        front) faces defending space ``r - 1 - i`` in round ``r`` (docs/rules §1.8)."""
        fight = self.fight
        if fight.get("spaces") is None:
            before = self._before or self.view
            bt = before.table.battle if before is not None else None
            if bt is not None and bt.spaces is not None:
                fight["spaces"] = list(bt.spaces)
            elif bt is not None and before is not None:
                fight["spaces"] = list(before.table.boards[bt.defender].lanes[bt.target_lane])
            else:
                fight["spaces"] = []
            if bt is not None:  # the attackers' temporary lane, swaps included
                fight["order"] = list(bt.order)
        order, spaces = fight.get("order", []), fight["spaces"]
        for a, d in ((src, tgt), (tgt, src)):
            if a in order and d in spaces:
                return int(order.index(a) + spaces.index(d) + 1)
        return self.combat_round or 1

    def answered(self) -> None:
        super().answered()
        self._menu = None
        self._draft = FinishDraft()

    # -- what the screen lists -------------------------------------------------------------
    def hand(self) -> list[str]:
        return [c for _, c in hand_cards(self)]

    def picked(self) -> list[tuple[str, int | None]]:
        return []

    def turn(self) -> tuple[int, int] | None:
        """A seat's turn (the active seat's, round by round)."""
        return None if self.view is None else (self.view.table.round, self.view.table.turn)

    def upper_least(self) -> int:
        """With four seats or more, the table pane's turn, battle and every seat's summary
        row (and the row saying what is cut after them): the log never takes them, so how
        far each seat is from winning is always on screen (issue 31, N1).  With two or
        three the panes' least holds those rows, and the panes give way to the log as the
        other games' do (Esc brings them back)."""
        if self.view is None or self.view.table.players < 4:
            return 0
        return top_rows(self)

    def hand_named(self) -> int:
        """Down to the last hand card an option plays ("Shield Bash (hand 7)")."""
        named = {
            a.handle
            for _, a in self.menu()
            if isinstance(a, (A.PlayToForge, A.PlayReflex, A.QuickForge))
        }
        hand = enumerate(hand_cards(self), start=1)
        return max((i for i, (h, _) in hand if h in named), default=0)

    def menu(self) -> list[tuple[str, Any]]:
        """The numbered options (label, legal answer); the first is the suggested one."""
        d, view = self.decision, self.view
        if d is None or view is None:
            return []
        if self._menu is None:
            answers = list(dict.fromkeys(itertools.islice(legal_answers(view, d), MENU_LIMIT)))
            answers.sort(key=lambda a: KIND_ORDER.get(type(a).__name__, 0))
            best = self._adviser.decide(view, d)
            if not self.allowed(best):  # cannot happen; never offer anything else first
                best = answers[0]
            first = label(view, d, best)
            self._menu = [(first + " (suggested)", best)]
            for a in answers:  # the same answer in other words is listed once
                text = label(view, d, a)
                if text != first:
                    self._menu.append((text, a))
        return self._menu

    def only_answer_kind(self, decision: Decision) -> bool:
        return decision.kind in ANSWERED_FOR_YOU

    def skipping_windows(self) -> bool:
        return self.skip_windows

    def only_answer(self) -> Any:
        """A priority window where only passing is legal -- or any window while 'skip' is
        on -- its pass (client/auto_pass: after the player's own pause, so the clock tells
        nobody whether a reflex was held); the end of a forge phase that the rules allow to
        finish one way only, that way (issue 31, N20); a forge turn where nothing can be
        played or forged, its end."""
        d = self.decision
        if d is not None and d.kind in ONE_WAY:
            return self._only_legal(d)
        if d is None or d.kind != SovereignDecisionKind.WINDOW:
            return None
        if not self.skip_windows and not all(isinstance(a, A.Pass) for _, a in self.menu()):
            return None
        return A.Pass(d.seat)

    def _only_legal(self, d: Decision) -> Any:
        """The decision's one legal answer, asked of the engine's legal answers (for a
        finish, every mix of the parts 'health', 'lane', 'attach' could type, not the menu's
        labels); None when there are more.  Worked out once a decision."""
        if self._only is None or self._only[0] is not d:
            found: list[Any] = []
            if self.view is not None:
                for a in legal_answers(self.view, d):
                    if a not in found:
                        found.append(a)
                    if len(found) > 1:
                        break
            self._only = (d, found[0] if len(found) == 1 else None)
        return self._only[1]

    def only_answer_hint(self) -> str:
        d = self.decision
        if d is not None and d.kind == SovereignDecisionKind.FINISH_FORGE:
            return " one way to finish; finishing the forge for you shortly"
        if d is not None and d.kind == SovereignDecisionKind.FORGE:
            return " nothing to play or forge; ending your forge actions for you shortly"
        return super().only_answer_hint()

    def command(self, text: str) -> None:
        """``skip`` turns the passing of every priority window on or off; the rest as every
        menu game."""
        if " ".join(text.lower().split()) == "skip":
            self.show_help, self.info, self.show_rules = False, "", False
            self.skip_windows = not self.skip_windows
            self.message = (
                "Windows now passed for you after your usual pause; 'skip' again to stop."
                if self.skip_windows
                else "Priority windows are yours to answer again."
            )
            return
        super().command(text)

    def auto_answer(self, answer: Any) -> bool:
        d, view = self.decision, self.view
        sent = super().auto_answer(answer)
        if not sent or self.over:
            return sent
        if isinstance(answer, A.FinishForge) and d is not None and view is not None:
            self.message = f"Finished the forge for you: {label(view, d, answer)}."
            self.log.append(self.message)  # the next question replaces the message at once
        elif d is not None and d.kind == SovereignDecisionKind.FORGE:
            self.message = FORGE_ENDED
            self.log.append(self.message)
        elif self.skip_windows:
            self.message = PASSED_FOR_YOU + " ('skip' is on; 'skip' again to answer windows)."
        return sent

    def refusal(self, answer: Any) -> str:
        """Why the rules refuse ``answer`` now ('' if they accept it)."""
        d, view = self.decision, self.view
        if d is None or view is None:
            return "nothing to decide now"
        if type(answer) not in A.ACCEPTS[d.kind]:
            return f"this is a {d.kind.replace('_', ' ')} decision"
        try:
            rules.DECISION_RULES[type(answer)][0](state_for(view), d, answer)
        except EngineError as exc:
            return exc.reason + (f" ({exc.rule})" if exc.rule else "")
        return ""

    def allowed(self, answer: Any) -> bool:
        return not self.refusal(answer)

    def help_parts(self) -> Help:
        if self.decision is None:
            return (
                "Nothing to decide now. ",
                *self.keys_help(),
                " " + SEAT_LEGEND,
                *self.common_help(),
            )
        return (
            HELP.get(self.decision.kind, "") + " Type a menu number (N or #N); 'pass' or "
            "'end' takes the do-nothing answer. Cards: U unit cost a/r health, E Echo, "
            "R reflex, F facility, A augment; a unit's keywords by their first three "
            "letters (Air: Airborne, Slo: Slow; 'info N' says them whole). " + SEAT_LEGEND,
            *self.common_help(),
        )

    def completions(self) -> list[str]:
        words = [
            "?",
            "help",
            "pass",
            "end",
            "quit",
            "keep",
            "free",
            "shown",
            "play",
            "acc",
            "reveal",
            *Part,
            "resign",
            "info",
        ]
        return words + [f"#{i + 1}" for i in range(len(self.menu()))]

    # -- from the keyboard -----------------------------------------------------------------
    def shortcuts(self) -> dict[str, Shortcut]:
        return {
            "pass": self._pass,
            "end": self._pass,
            "keep": self._mulligan,
            "free": self._mulligan,
            "shown": self._mulligan,
            "play": self._play,
            "acc": self._acc,
            "reveal": self._reveal,
            **dict.fromkeys(Part, self._finish),
        }

    def _finish(self, d: Decision, word: str, words: list[str]) -> Any:
        """Typed parts of a finish_forge answer, sent with 'done' (client/sovereign/finish)."""
        if self.view is None:
            return "Nothing to decide now."
        suggestion = self.menu()[0][1] if d.kind == SovereignDecisionKind.FINISH_FORGE else None
        return typed_answer(self._draft, d, state_for(self.view), suggestion, word, words)

    def word_fits(self, d: Decision, word: str) -> bool:
        """The words that need a card number fit a forge turn where an option plays,
        accelerates or reveals a card; those that build a forge phase's finish fit it when it
        has units or augments to place (and are not tried: they change the draft); the rest
        are checked alone."""
        info = d.info
        if word in _FORGE_WORDS:
            made = _FORGE_WORDS[word]
            forging = d.kind == SovereignDecisionKind.FORGE
            return forging and any(isinstance(a, made) for _, a in self.menu())
        finish = info if isinstance(info, FinishForgeInfo) else None
        placing = {
            "health": finish is not None and bool(finish.new_units),
            "lane": finish is not None and bool(finish.new_units),
            "attach": finish is not None and bool(finish.loose),
            "clear": finish is not None and bool(finish.new_units or finish.loose),
            "done": finish is not None,
        }
        return placing[word] if word in placing else super().word_fits(d, word)

    def refused(self, answer: Any) -> str:
        problem = self.refusal(answer)
        return f"Not allowed: {problem}" if problem else ""

    def _pass(self, d: Decision, word: str, words: list[str]) -> Any:
        seat = d.seat
        answers: dict[DecisionKind, Any] = {
            SovereignDecisionKind.FORGE: A.Pass(seat),
            SovereignDecisionKind.WINDOW: A.Pass(seat),
            SovereignDecisionKind.MOVE: A.Pass(seat),
            SovereignDecisionKind.ATTACK: A.Attack(seat, None),
            SovereignDecisionKind.UPKEEP_RETURN: A.UpkeepReturn(seat, ()),
            SovereignDecisionKind.MULLIGAN: A.Mulligan(seat, "keep"),
        }
        return answers.get(d.kind, "This decision cannot be passed: choose an option.")

    def _mulligan(self, d: Decision, word: str, words: list[str]) -> Any:
        return (
            A.Mulligan(d.seat, word)
            if d.kind == SovereignDecisionKind.MULLIGAN
            else f"'{word}' answers a mulligan; this is a {d.kind.replace('_', ' ')} decision."
        )

    def _forge_number(self, d: Decision, words: list[str], what: str) -> Any:
        if d.kind != SovereignDecisionKind.FORGE:
            return f"'{what}' is a forge action; this is a {d.kind.replace('_', ' ')} decision."
        forge = forge_cards(self)
        if not words or not words[0].isdecimal() or not 1 <= int(words[0]) <= len(forge):
            return (
                f"Say which forge card: {what} N, N from 1 to {len(forge)}."
                if forge
                else "Your forge is empty."
            )
        return forge[int(words[0]) - 1]

    def _play(self, d: Decision, word: str, words: list[str]) -> Any:
        if d.kind != SovereignDecisionKind.FORGE:
            return "'play N' puts a card into the forge during your forge actions."
        hand = hand_cards(self)
        if len(words) != 1 or not words[0].isdecimal() or not 1 <= int(words[0]) <= len(hand):
            return f"Say which hand card: play N, N from 1 to {len(hand)}."
        return A.PlayToForge(d.seat, hand[int(words[0]) - 1][0])

    def _acc(self, d: Decision, word: str, words: list[str]) -> Any:
        slot = self._forge_number(d, words, "acc")
        if isinstance(slot, str):
            return slot
        if len(words) > 2 or len(words) == 2 and not words[1].isdecimal():
            return "acc N [K]: K is how many talents to flip (1 if left out)."
        return A.Accelerate(d.seat, slot[0], int(words[1]) if len(words) == 2 else 1)

    def _reveal(self, d: Decision, word: str, words: list[str]) -> Any:
        slot = self._forge_number(d, words, "reveal")
        if isinstance(slot, str):
            return slot
        card = DEFS.get(slot[1])
        leader, citadel = in_lane(0).word(), in_lane(1).word()
        lanes = {"l": leader, "c": citadel, "leader": leader, "citadel": citadel}
        if len(words) > 1 and words[1] not in lanes:
            return "reveal N [L|C]: L the Leader lane, C the Citadel lane."
        if card is not None and card.type is CardType.UNIT:
            if len(words) > 1:
                return A.ForgeCard(d.seat, slot[0], lanes[words[1]])
            options = [
                p for p in (leader, citadel) if self.allowed(A.ForgeCard(d.seat, slot[0], p))
            ]
            return A.ForgeCard(d.seat, slot[0], options[0] if options else leader)
        if card is not None and card.type is CardType.AUGMENT:
            for _, a in self.menu():
                if isinstance(a, A.ForgeCard) and a.handle == slot[0]:
                    return a
            return A.ForgeCard(d.seat, slot[0], LOOSE.word())
        return A.ForgeCard(d.seat, slot[0], NOWHERE.word())
