"""The console client's model for Sodalis: what the screen shows and what the player types.

It extends the game-neutral :class:`client.screen_model.ScreenModel` (through
:class:`client.menu_model.MenuModel`) with Sodalis's view, menus and words; its panes are
:mod:`client.sodalis.panes`.  The model holds only this seat's :class:`SodalisView` and the
decision it is asked.  Every decision is a numbered menu of legal answers in words whose
first item is a whole legal answer (the heuristic bot's suggestion); shortcuts: ``N``/``#N``,
``end``, ``pass``, ``go DIR [PAY] [leave]``, ``cast N [SEAT|p] [+sight] [+strength]``,
``flip N ...``.  Refused input gets a one-line reason and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairtable.client.help_parts import Help, Key, unspaced
from fairtable.client.menu_model import MenuModel, Shortcut
from fairtable.client.sodalis import info as sodalis_info
from fairtable.client.sodalis.bots import Board, HeuristicBot
from fairtable.client.sodalis.words import TRIBUTES, card_name, describe_event, space_words, who
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis.answers import (
    Carry,
    Cast,
    ChooseChampion,
    ConfuseChoice,
    EndTurn,
    ForcedStep,
    GiveTribute,
    OrderLife,
    Place,
    Rearrange,
    RefreshToken,
    Respawn,
    Reversals,
    Step,
    StrengthRefresh,
    TurnTokens,
)
from fairtable.engine.sodalis.arena import standard_arena
from fairtable.engine.sodalis.cards import FaceEffect
from fairtable.engine.sodalis.choices import legal_answers
from fairtable.engine.sodalis.decisions import (
    ForcedStepInfo,
    GiveTributeInfo,
    RearrangeInfo,
    ReversalsInfo,
    SodalisDecisionKind,
    TurnInfo,
    TurnTokensInfo,
)
from fairtable.engine.sodalis.view import SodalisView
from fairtable.netplay import events as ev

__all__ = ["HELP", "ClientModel", "label"]

HELP: dict[DecisionKind, str] = {
    SodalisDecisionKind.TURN_TOKENS: (
        "Turn order: as your team's captain, give one turn token to each member (Dawn keeps "
        "token 1). The other team chooses at the same time."
    ),
    SodalisDecisionKind.CHAMPION: "Choose your champion (nobody may take one already chosen).",
    SodalisDecisionKind.REARRANGE: "Before the game starts your team may reorder its turn tokens.",
    SodalisDecisionKind.REVERSALS: (
        "Flip arcana to their reversal: 'flip 2 5' flips your arcana 2 and 5 (listed beside the"
        " arena), 'flip' keeps all front up. Nobody sees your choice until everyone has chosen."
    ),
    SodalisDecisionKind.PLACE: "Place your champion on a free space of your team's base.",
    SodalisDecisionKind.TURN: (
        "Your turn, one action at a time: 'go DIR [move|minor|major|speed] [leave]' steps (DIR:"
        " e ne nw w sw se), 'cast N [SEAT|p] [+sight] [+strength]' casts spread card N (p: the "
        "Paragon), 'end' ends the turn. Champions: M m v = Major, Minor, Move up; ! Bloodied, C"
        " Confused, S Slowed."
    ),
    SodalisDecisionKind.CONFUSE: "You are Confused: choose the action token you exhaust.",
    SodalisDecisionKind.CARRY: (
        "You are forced off your Artifact: carry it along, or leave it ('pass')."
    ),
    SodalisDecisionKind.FORCED_STEP: (
        "Your push or pull has two equally straight spaces: choose one."
    ),
    SodalisDecisionKind.RESPAWN: (
        "Your champion fell: choose where in your base it comes back at full life."
    ),
    SodalisDecisionKind.ORDER_LIFE: (
        "Your cast brings champions down (and who falls first can decide the game): choose the "
        "order their life changes."
    ),
    SodalisDecisionKind.GIVE_TRIBUTE: (
        "Your team earned a tribute: give it to a champion holding the fewest."
    ),
    SodalisDecisionKind.STRENGTH_REFRESH: (
        "An enemy fell and your team already holds Strength: refresh one exhausted action token"
        " of your team ('pass' declines)."
    ),
    SodalisDecisionKind.REFRESH_TOKEN: "Choose which of your exhausted tokens is refreshed.",
}
PAY_ORDER = ("move", "speed", "minor", "major")
DIRECTIONS = {"e": (1, 0), "ne": (1, -1), "nw": (0, -1), "w": (-1, 0), "sw": (-1, 1), "se": (0, 1)}


def _dice(view: SodalisView, seat: int, card: str, strength: bool) -> str:
    face = view.catalog.face(card)
    if face.effect is FaceEffect.NONE:
        return ""
    s = view.table.seats[seat]
    n = Board(view).power(seat, face, strength, s.moved, s.casts)
    return f", {n}d{12 if face.accuracy else 10}"


def label(view: SodalisView, d: Decision, a: Any) -> str:
    """One answer in words."""
    me, table = view.seat, view.table
    if isinstance(a, Step):
        here = table.seats[d.acts_for].at  # the champion moved (taken over, if it left)
        step = None if here is None else (a.to[0] - here[0], a.to[1] - here[1])
        way = next((k for k, v in DIRECTIONS.items() if v == step), "?")
        carry = (
            ", carry the Artifact"
            if a.carry
            else (", leave the Artifact" if isinstance(d.info, TurnInfo) and d.info.carry else "")
        )
        return f"move {way} to {space_words(a.to)} paying {a.pay}{carry}"
    if isinstance(a, Cast):
        face = view.catalog.face(a.card)
        at = {
            "self": "on yourself",
            "all": f"on every {face.who.replace('any', 'unit')} in range",
        }.get(face.targets, "at " + who(table, a.target, me))
        extra = (" +Sight" if a.sight else "") + (" +Strength" if a.strength else "")
        return f"cast {face.name} {at}{_dice(view, d.acts_for, a.card, a.strength)}{extra}"
    if isinstance(a, EndTurn):
        return "end your turn"
    if isinstance(a, TurnTokens | Rearrange):
        tokens = d.info
        assert isinstance(tokens, TurnTokensInfo | RearrangeInfo)  # the decisions they answer
        return "tokens: " + ", ".join(
            f"{t} to {who(table, s, me)}" for s, t in zip(tokens.members, a.tokens, strict=True)
        )
    if isinstance(a, ChooseChampion):
        c = view.catalog.by_id[a.champion]
        return (
            f"{c.name} ({c.symbol}): inertia {c.inertia}, life {c.max_life}, "
            f"{c.passive_text.split(':')[0]}"
        )
    if isinstance(a, Reversals):
        return (
            "flip "
            + ", ".join(f"{card_name(view, x)} to {card_name(view, x + '~r')}" for x in a.reversed)
            if a.reversed
            else "keep all front up"
        )
    if isinstance(a, Place | Respawn):
        art = Board(view).artifact
        far = (
            "" if art is None else f", {standard_arena().distance(a.space, art)} from your Artifact"
        )
        return f"{'place' if isinstance(a, Place) else 'come back'} at {space_words(a.space)}{far}"
    if isinstance(a, ConfuseChoice):
        return f"exhaust your {a.token} token"
    if isinstance(a, Carry):
        return "carry the Artifact along" if a.carry else "leave the Artifact behind"
    if isinstance(a, ForcedStep):
        forced = ForcedStepInfo.of(d)
        return f"{forced.movement} {who(table, forced.unit, me)} to {space_words(a.to)}"
    if isinstance(a, OrderLife):
        return "life changes: " + ", then ".join(who(table, u, me) for u in a.order)
    if isinstance(a, GiveTribute):
        return f"give {TRIBUTES[GiveTributeInfo.of(d).tribute]} to {who(table, a.to, me)}"
    if isinstance(a, StrengthRefresh):
        return (
            "decline the refresh"
            if a.champion is None
            else f"refresh the {a.token} token of {who(table, a.champion, me)}"
        )
    if isinstance(a, RefreshToken):
        return f"refresh your {a.token} token"
    return repr(a)


def _turn_rank(a: Any, d: Decision) -> tuple[int, ...]:
    """Menu order of a turn's answers: plain casts, cheapest steps, ending, the rest."""
    info = TurnInfo.of(d)
    if isinstance(a, Cast):
        return (0 if not (a.sight or a.strength) else 3, a.sight, a.strength)
    if isinstance(a, Step):
        cheapest = next(p for p in PAY_ORDER if p in info.pay)
        usual = a.pay == cheapest and a.carry == bool(info.carry)
        return (1 if usual else 4, PAY_ORDER.index(a.pay), not a.carry)
    return (2,)


LEGEND = (
    "\nChampion lines: life now/most; action tokens M major, m minor, v move ('-' once "
    "spent); Tributes held Sp speed, Si sight, St strength (capitals: not yet used this "
    "turn); C confused, S slowed, ! at half life or less."
)
"""What the side pane's champion lines mean (said under every decision's help)."""


MAP_ROWS = 8
"""The map's rows: its title and seven rows of spaces."""

MAP_HINT: Help = (
    " type N or #N",
    Key(", or Up/Down and Enter"),
    Key("; map: N = #N, @ = this"),  # no map in plain lines
)
"""The decision line's hint while the options name spaces (the map numbers them)."""


class ClientModel(MenuModel):
    """Everything the console screen shows of a Sodalis game, for one seat."""

    game = "sodalis"
    departed_seat = "a teammate plays its champion"
    view: SodalisView | None
    info_source = sodalis_info
    numbered_what = "spread"

    def __init__(self, submit: Callable[[Any], None] = lambda answer: None) -> None:
        super().__init__(submit)
        self._menu: list[tuple[str, Any]] | None = None
        self._adviser = HeuristicBot(ChanceStream.from_int(0))

    # -- from the network side -----------------------------------------------------------
    def apply_event(self, event: ev.NodeEvent) -> None:
        if isinstance(event, ev.ViewChanged):
            before, self.view = self.view, event.view
            for e in event.events:
                line = describe_event(e, self.seat, before, event.view)
                if line:
                    self.log.append(line)
        elif isinstance(event, ev.DecisionAsked):
            self.view, self.decision, self._menu = event.view, event.decision, None
            self.message = self.your_move(event.decision.kind)
        elif isinstance(event, ev.GameOver):
            outcome = event.outcome
            yours = self._yours(self.seat is not None and outcome.won(self.seat))
            self.end(
                "Game over: nobody wins (round limit)"
                if not outcome.decided
                else f"Game over: team {str(outcome.team).title()} wins{yours}"
            )
        elif not isinstance(event, ev.CardsShown):  # Sodalis has no private cards
            super().apply_event(event)
            return
        self._update_status()

    def resign_result(self, seat: int) -> str:
        """A team game: the other team wins when one of its foes resigns."""
        if self.view is None:
            return super().resign_result(seat)
        teams = [s.team for s in self.view.table.seats]
        winner = teams[seat].other  # resigning, we know we lose: the question says no more
        mine = " - you win!" if self.seat is not None and teams[self.seat] is winner else ""
        return f"team {winner.title()} wins{mine}"

    def _yours(self, won: bool) -> str:
        """What a team's win means for this seat: ' - you win!' or ' - you lose' ('' for a
        spectator, who plays on neither team)."""
        if self.seat is None:
            return ""
        return " - you win!" if won else " - you lose"

    def _highlighted(self) -> Any:
        menu = self.menu() if self.decision is not None else []
        return menu[self.highlight][1] if 0 <= self.highlight < len(menu) else None

    def highlighted_space(self) -> tuple[int, int] | None:
        """The space the highlighted option names, if it is a move or a placement (the map
        marks it '@')."""
        return _space_of(self._highlighted())

    def option_spaces(self) -> dict[tuple[int, int], int]:
        """Each space the menu's first nine options name (moves, placements), with the
        number of the first option naming it: the map shows that number there, so that an
        option's coordinates are found on the map without reading them."""
        menu = self.menu() if self.decision is not None else []
        spaces: dict[tuple[int, int], int] = {}
        for number, (_, answer) in enumerate(menu[:9], start=1):
            space = _space_of(answer)
            if space is not None and space not in spaces:
                spaces[space] = number
        return spaces

    def turn(self) -> tuple[int, int | None] | None:
        """A seat's activation (the active seat, round by round)."""
        return None if self.view is None else (self.view.table.round, self.view.table.active)

    def upper_least(self) -> int:
        """The map's rows while we wait, so that the table stays; at a decision of ours
        none: the map gives rows to what happened since our move as the other games' tables
        do (issue 31, S1), a move highlighted too -- cut, it keeps the rows round the
        highlighted space, which it marks (client.room.FOCUS) -- and comes back with Esc."""
        if self.decision is not None:
            return 0
        return MAP_ROWS

    def decide_hint(self) -> Help:
        if self.highlighted_space() is not None:
            return MAP_HINT
        return super().decide_hint()

    def waited_for(self) -> str:
        assert self.view is not None
        table = self.view.table
        if self.blocking:
            return ", ".join(who(table, s, self.seat) for s in self.blocking)
        if table.active is not None and table.active != self.seat:
            return who(table, table.active, self.seat)
        return "the others"

    def answered(self) -> None:
        super().answered()
        self._menu = None

    # -- what the screen lists -------------------------------------------------------------
    def hand(self) -> list[str]:
        return []

    def picked(self) -> list[tuple[str, int | None]]:
        return []

    def menu(self) -> list[tuple[str, Any]]:
        """The numbered options (label, legal answer); the first is the suggested one."""
        d, view = self.decision, self.view
        if d is None or view is None:
            return []
        if self._menu is None:
            legal = list(legal_answers(view, d))
            answers = legal
            if d.kind == SodalisDecisionKind.TURN:
                answers = sorted(legal, key=lambda a: _turn_rank(a, d))
            elif (
                d.kind == SodalisDecisionKind.REVERSALS
            ):  # one flip at a time here; 'flip N N' for more
                answers = [a for a in legal if len(getattr(a, "reversed", ())) <= 1]
            best = self._adviser.decide(view, d)
            if best not in legal:  # cannot happen; never offer anything else first
                best = answers[0]
            if best in answers:
                answers.remove(best)
            self._menu = [(label(view, d, best) + " (suggested)", best)] + [
                (label(view, d, a), a) for a in answers
            ]
        return self._menu

    def reversible(self) -> list[str]:
        """The arcana a pending reversals decision may flip, numbered for ``flip N``."""
        asked = self.decision.info if self.decision is not None else None
        return list(asked.arcana) if isinstance(asked, ReversalsInfo) else []

    def help_parts(self) -> Help:
        if self.decision is None:
            return ("Nothing to decide now. ", *self.keys_help(), *self.common_help())
        return (  # the decision's words and the legend of the side pane first
            HELP.get(self.decision.kind, "") + " Type a menu number (N or #N); 'pass' "
            "takes the do-nothing answer where there is one." + LEGEND + "\n",
            *unspaced(self.common_help()),
        )

    def completions(self) -> list[str]:
        words = [
            "?",
            "help",
            "end",
            "pass",
            "quit",
            "go",
            "cast",
            "flip",
            "leave",
            "+sight",
            "+strength",
            "resign",
            "info",
            *DIRECTIONS,
            *PAY_ORDER,
        ]
        return words + [f"#{i + 1}" for i in range(len(self.menu()))]

    # -- from the keyboard -----------------------------------------------------------------
    def shortcuts(self) -> dict[str, Shortcut]:
        def on_view(parse: Callable[[SodalisView, Decision, list[str]], Any]) -> Shortcut:
            return lambda d, word, words: parse(self.view, d, words)  # type: ignore[arg-type]

        return {
            "end": on_view(self._end),
            "pass": on_view(self._pass),
            "go": on_view(self._go),
            "cast": on_view(self._cast),
            "flip": on_view(self._flip),
        }

    def word_fits(self, d: Decision, word: str) -> bool:
        """``go`` and ``cast`` need a space open or a card to cast in this turn; the other
        words are checked alone."""
        info = d.info
        if word == "go":
            return isinstance(info, TurnInfo) and bool(info.steps) and bool(info.pay)
        if word == "cast":
            return isinstance(info, TurnInfo) and bool(info.casts)
        return super().word_fits(d, word)

    def refused(self, answer: Any) -> str:
        d, view = self.decision, self.view
        assert d is not None and view is not None
        if answer in list(legal_answers(view, d)):
            return ""
        return "Not allowed now: " + label(view, d, answer)

    def _end(self, view: SodalisView, d: Decision, words: list[str]) -> Any:
        return (
            EndTurn(d.seat)
            if d.kind == SodalisDecisionKind.TURN
            else "Only your turn can be ended."
        )

    def _pass(self, view: SodalisView, d: Decision, words: list[str]) -> Any:
        answers: dict[DecisionKind, Any] = {
            SodalisDecisionKind.TURN: EndTurn(d.seat),
            SodalisDecisionKind.STRENGTH_REFRESH: StrengthRefresh(d.seat),
            SodalisDecisionKind.REVERSALS: Reversals(d.seat, ()),
            SodalisDecisionKind.CARRY: Carry(d.seat, False),
        }
        return answers.get(d.kind, "This decision cannot be passed: choose an option.")

    def _go(self, view: SodalisView, d: Decision, words: list[str]) -> Any:
        info = d.info
        if not isinstance(info, TurnInfo):
            return "You can only step during your turn."
        if not words or words[0] not in DIRECTIONS:
            return "Say where: go e, ne, nw, w, sw or se (e.g. 'go ne')."
        unknown = [x for x in words[1:] if x not in (*PAY_ORDER, "leave", "carry")]
        if unknown:
            return f"Unknown word {unknown[0]!r}: go DIR [move|minor|major|speed] [leave]."
        here = view.table.seats[d.seat].at
        if here is None:
            return "Your champion is not on the arena."
        to = (here[0] + DIRECTIONS[words[0]][0], here[1] + DIRECTIONS[words[0]][1])
        if to not in info.steps:
            return f"You cannot step {words[0]}: that space is closed."
        pays = [x for x in words[1:] if x in PAY_ORDER]
        pay = pays[0] if pays else next((p for p in PAY_ORDER if p in info.pay), "move")
        if pay not in info.pay:
            return f"No face-up {pay} to pay with."
        if "carry" in words and not info.carry:
            return "Only a champion standing on its own Artifact carries it."
        return Step(d.seat, to, pay, bool(info.carry) and "leave" not in words)

    def _cast(self, view: SodalisView, d: Decision, words: list[str]) -> Any:
        info = d.info
        if not isinstance(info, TurnInfo):
            return "You can only cast during your turn."
        spread = view.table.seats[d.seat].spread
        if not words or not words[0].isdecimal() or not 1 <= int(words[0]) <= len(spread):
            return f"Say which card: cast N, N from 1 to {len(spread)} (your spread)."
        card = spread[int(words[0]) - 1]
        option = next((o for o in info.casts if o[0] == card), None)
        if option is None:
            return f"{card_name(view, card)} cannot be cast now (token down or nothing in range)."
        sight, strength = "+sight" in words, "+strength" in words
        rest = [x for x in words[1:] if x not in ("+sight", "+strength")]
        targets = option[2] if sight else option[1]
        if len(rest) > 1 or rest and not (rest[0].isdecimal() or rest[0] in ("p", "paragon")):
            return "Name one target: a seat number, or p for the Paragon."
        if not rest and len(targets) != 1:
            return (
                "Name the target: "
                + ", ".join("p" if t == -1 else str(t) for t in targets)
                + " (seats; p: the Paragon)."
            )
        target = targets[0] if not rest else -1 if rest[0] in ("p", "paragon") else int(rest[0])
        if target not in targets:
            return f"{card_name(view, card)} cannot affect that unit from here."
        return Cast(d.seat, card, target, sight, strength)

    def _flip(self, view: SodalisView, d: Decision, words: list[str]) -> Any:
        arcana = self.reversible()
        if not arcana:
            return "Nothing to flip now."
        if not all(x.isdecimal() and 1 <= int(x) <= len(arcana) for x in words):
            return f"flip takes arcana numbers from 1 to {len(arcana)} (listed beside the arena)."
        return Reversals(d.seat, tuple(sorted({arcana[int(x) - 1] for x in words})))


def _space_of(answer: Any) -> tuple[int, int] | None:
    """The space an option names, if it is a move or a placement."""
    match answer:
        case Step(to=to) | ForcedStep(to=to):
            return (to[0], to[1])
        case Place(space=space) | Respawn(space=space):
            return (space[0], space[1])
    return None
