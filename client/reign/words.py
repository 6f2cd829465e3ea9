"""Reign in words for the console: card labels, the help for each decision, the log line of
each public event, and the rule a card pick breaks (said the moment it is picked)."""

from __future__ import annotations

import attrs

from fairtable.client.departures import departed_words
from fairtable.client.help_parts import Help, Key
from fairtable.engine.events import Departed, Event, RoundLimit
from fairtable.engine.reign import events as E
from fairtable.engine.reign import standard_catalog
from fairtable.engine.reign.cards import CardPhase, Op
from fairtable.engine.reign.decisions import (
    BidInfo,
    CovertInfo,
    DiscardInfo,
    ReignDecisionKind,
    SpoilsInfo,
)
from fairtable.engine.requests import Decision, DecisionKind

__all__ = [
    "HELP",
    "TO_SEAT_WORD",
    "SupportWhy",
    "card_label",
    "describe_public_event",
    "pick_problem",
]

REIGN = standard_catalog()
DEFS = REIGN.defs
TO_SEAT_WORD = Key(" 'N>S'", " 'card N>S'")
"""How a card picked for a seat is typed: on the screen, and in plain lines (where a bare
number picks an option)."""

HELP: dict[DecisionKind, Help] = {
    ReignDecisionKind.BID: (
        "Bid for a support card: pick military cards of ONE house (and influence events) by "
        "number, then 'done'. 'pass' bids nothing."
    ),
    ReignDecisionKind.OVERT: "Overt backing: choose one card to place face up in an army, or pass.",
    ReignDecisionKind.COVERT: (
        "Covert backing: pick up to {max} cards face down, each as",
        TO_SEAT_WORD,
        " (card N into seat S's army); the last one decides whom you back. 'done' to confirm, "
        "'pass' for none.",
    ),
    ReignDecisionKind.KEEP_SUPPORT: "You hold two support cards: choose the one to keep.",
    ReignDecisionKind.TIE_BREAK: "Players are tied: choose the winner.",
    ReignDecisionKind.ORDER_EVENTS: (
        "The order of the revealed influence events changes a bid (no bid goes below 0): choose"
        " the order they resolve in."
    ),
    ReignDecisionKind.ORDER_ARMY: (
        "The order your army's cards resolve in changes the combat: choose it (military "
        "abilities first, then non-betrayal, then betrayal events)."
    ),
    ReignDecisionKind.COMBAT_TIE: (
        "A card's effect meets a tie: you settle every tie in combat, choose."
    ),
    ReignDecisionKind.REGENT_DISCARD: (
        "A player gained a support card: as Regent you discard a card."
    ),
    ReignDecisionKind.SPOILS: (
        "Spoils: give cards as",
        TO_SEAT_WORD,
        " (card N to seat S); every backer needs one unless a betrayal sat in your army. "
        "'done' to confirm.",
    ),
    ReignDecisionKind.DRAW: "Draw 3 military cards, or 2 military and 1 event.",
    ReignDecisionKind.DISCARD: "Your hand is over 8: pick {count} cards to discard, then 'done'.",
}


def house_word(house_id: str) -> str:
    """A house as every line calls it: its name without "House " ("Quell"; its cards are
    drawn in its colour, amber) -- one name for a house everywhere."""
    return REIGN.house(house_id).name.removeprefix("House ")


def card_label(card: str) -> str:
    d = DEFS[card]
    if d.military:
        tag = f"{house_word(d.house or '')} {d.force}" + (" unique" if d.unique else "")
    else:
        tag = "betrayal" if d.betrayal else ("influence" if d.influence else "event")
    return f"{d.name} [{tag}]"


@attrs.frozen
class SupportWhy:
    """Why a support card changed hands, as the views around the step show it (issue 31,
    N14); the events' types tell a card given back (``support_returned``) from one a card's
    effect took (``support_lost``), and these the rest."""

    was: int | None = None  # a gain: the seat that held the card before (taken from it)
    kept: str | None = None  # a card given back: the house whose card the seat kept
    left: bool = False  # the seat left the table: its card returns to the centre
    card: str | None = None  # the card in the seat's army whose effect returned it


def describe_public_event(
    event: Event, me: int | None, why: SupportWhy | None = None
) -> str | None:
    """One line of words for a public engine event (None: not worth a line); ``why``: what
    the views say of a support card that changed hands."""

    def who(seat: int) -> str:
        return "you" if seat == me else f"seat {seat}"

    def verb(seat: int, theirs: str, yours: str) -> str:
        """The verb agreeing with its subject: "you take", "seat 2 takes"."""
        return yours if seat == me else theirs

    def army(seat: int, by: int | None = None) -> str:
        """An army in words: "your army", "its own army" (the placer's), "seat 2's army"."""
        if seat == me:
            return "your own army" if by == me else "your army"
        return "its own army" if by == seat else f"seat {seat}'s army"

    def cards(ids: tuple[str, ...]) -> str:
        return ", ".join(card_label(c) for c in ids)

    match event:
        case E.Round():
            return f"-- Round {event.number} begins; {who(event.first_player)} first --"
        case E.Houses():
            return "Houses in play: " + ", ".join(house_word(h) for h in event.houses)
        case E.Bid(seat=seat, count=count):
            return (
                f"{who(seat)} bid {count} card(s) face down"
                if count
                else f"{who(seat)} did not bid"
            )
        case E.BidRevealed():
            return f"{who(event.seat)} revealed a bid: " + cards(event.cards)
        case E.EventsOrdered():
            return f"{who(event.seat)} ordered the influence events: " + ", then ".join(
                DEFS[c].name for c in event.order
            )
        case E.ArmyOrdered(seat=seat):
            return f"{who(seat)} ordered {army(seat, seat)}: " + ", then ".join(
                DEFS[c].name for c in event.order
            )
        case E.CombatTie():
            picked = army(int(event.pick)) if event.op == Op.STRIKE else DEFS[event.pick].name
            return f"{who(event.seat)} settled a tie of {DEFS[event.card].name}: {picked}"
        case E.SupportGained():
            was = why.was if why is not None else None
            taken = f" from {who(was)}" if was is not None and was != event.seat else ""
            return f"{who(event.seat)} gained the support of House {house_word(event.house)}" + (
                taken
            )
        case E.SupportLost() | E.SupportReturned():
            return _support_lost(event, who(event.seat), army(event.seat), why)
        case E.Overt():
            placed = army(event.target, event.seat)
            return f"{who(event.seat)} placed {card_label(event.card)} face up in {placed}"
        case E.OvertPass():
            return f"{who(event.seat)} placed no card face up"
        case E.Covert(seat=seat, targets=targets):
            return f"{who(seat)} placed {len(targets)} card(s) face down" + (
                " (into " + ", ".join(army(t, seat) for t in targets) + ")" if targets else ""
            )
        case E.ArmyRevealed():
            owner = "Your army" if event.seat == me else f"Seat {event.seat}'s army"
            return f"{owner} revealed: " + cards(event.cards)
        case E.CombatTotals():
            return "Combat: " + ", ".join(f"{who(s)} {t}" for s, t in event.totals)
        case E.Regent():
            took = verb(event.seat, "takes the Onyx Crown and is", "take the Onyx Crown and are")
            return f"{who(event.seat)} {took} Regent"
        case E.Legitimacy():
            # "L3" as the table pane writes it: "root 2 L0" never reads as a number of "root 2 0"
            return "Legitimacy: " + ", ".join(f"{who(s)} L{v}" for s, v in enumerate(event.values))
        case E.Spoils(seat=seat, counts=counts):
            if not counts:
                return f"{who(seat)} {verb(seat, 'hands', 'hand')} out no spoils"
            return f"{who(seat)} {verb(seat, 'hands', 'hand')} out spoils: " + ", ".join(
                f"{n} card{'s' if n != 1 else ''} to {who(s)}" for s, n in counts
            )
        case E.RegentDiscard():
            return f"{who(event.seat)} (Regent) discarded {card_label(event.card)}"
        case E.Discard():
            return f"{who(event.seat)} discarded " + cards(event.cards)
        case E.Winner():
            return f"{who(event.seat)} {verb(event.seat, 'rules', 'rule')} Kazath!"
        case Departed(seat=seat, set_aside=n):
            return departed_words(who(seat), n)
        case E.NoArmies():
            return "Nobody holds a support card: no battle this round"
        case E.TieBroken():
            return f"{who(event.seat)} settled a tie for {who(event.winner)}"
        case RoundLimit():
            return "The round limit is reached: nobody wins"
    return None


def _support_lost(
    event: E.SupportLost | E.SupportReturned, who: str, army: str, why: SupportWhy | None
) -> str:
    """A support card leaving its holder, with the reason: "Influence Phase > Bidding" (one
    support card at a time: the other was kept), a card's effect (Broken Oath), or the seat
    left the table; without ``why``, only what happened."""
    house = house_word(event.house)
    if why is not None and why.left:
        return f"{who} lost the support of House {house} ({who} left the table)"
    if why is not None and why.kept is not None:
        return (
            f"{who} gave back the support of House {house} (one support card at a time: "
            f"{who} kept House {house_word(why.kept)})"
        )
    if isinstance(event, E.SupportLost):
        card = DEFS[why.card].name if why is not None and why.card is not None else "a card"
        return f"{who} lost the support of House {house} ({card} in {army} returns it to the " + (
            "centre)"
        )
    return f"{who} lost the support of House {house}"


def pick_problem(
    d: Decision, card: str, target: int | None, picked_ids: list[str], players: int
) -> str:
    """Why picking ``card`` (for seat ``target``) after ``picked_ids`` breaks a rule now,
    else '' (the console refuses a pick at once, with the rule's words)."""
    c = DEFS[card]
    picked = [DEFS[x] for x in picked_ids]
    if target is not None and not 0 <= target < players:
        return f"there is no seat {target} at this table (seats 0 to {players - 1})"
    match d.info:
        case BidInfo(forbidden=forbidden):
            if c.phase is CardPhase.PLOTTING:
                return (
                    "only influence-phase events go with a bid (Influence Phase > Event "
                    "Cards and Special Abilities)"
                )
            if c.military and c.house is not None and c.house in forbidden:
                return (
                    f"you may not bid for {REIGN.house(c.house).name} this time "
                    "(Influence Phase > Regent's Special Rules)"
                )
            houses = {x.house for x in picked if x.military and x.house is not None}
            if c.military and houses and c.house not in houses:
                return (
                    f"a bid is for one house, and you picked {REIGN.house(houses.pop()).name}"
                    " cards already (Influence Phase > Bidding)"
                )
        case CovertInfo(targets=targets, max_cards=limit):
            if c.influence:
                return (
                    "this event can only be placed in the influence phase (Influence Phase "
                    "> Event Cards and Special Abilities)"
                )
            if target not in targets:
                return (
                    f"seat {target} holds no support card: cards go only into the army of "
                    "a player holding one (Plotting Phase > Covert Backing)"
                )
            if len(picked) >= limit:
                return f"at most {limit} cards face down (Plotting Phase > Covert Backing)"
        case SpoilsInfo() if target == d.seat:
            return "spoils go to the other players (Regent Phase > Spoils)"
        case DiscardInfo(count=count) if len(picked) >= count:
            return (
                f"you discard exactly {count} cards; 'clear' or take one back "
                "first (Regent Phase > Draw)"
            )
    return ""
