"""Reign in words for the console: card labels, the help for each decision, the log line of
each public event, and the rule a card pick breaks (said the moment it is picked)."""

from __future__ import annotations

from typing import Any

from engine.reign import standard_catalog
from engine.requests import Decision

__all__ = ["HELP", "card_label", "describe_public_event", "pick_problem"]

REIGN = standard_catalog()
DEFS = REIGN.defs
HELP = {
    "bid": "Bid for a support card: pick military cards of ONE house (and influence events) by "
    "number, then 'done'. 'pass' bids nothing.",
    "overt": "Overt backing: choose one card to place face up in an army, or pass.",
    "covert": "Covert backing: pick up to {max} cards face down, each as 'N>S' (card N into seat "
    "S's army); the last one decides whom you back. 'done' to confirm, 'pass' for none.",
    "keep_support": "You hold two support cards: choose the one to keep.",
    "tie_break": "Players are tied: choose the winner.",
    "order_events": "The order of the revealed influence events changes a bid (no bid goes "
    "below 0): choose the order they resolve in.",
    "order_army": "The order your army's cards resolve in changes the combat: choose it "
    "(military abilities first, then non-betrayal, then betrayal events).",
    "combat_tie": "A card's effect meets a tie: you settle every tie in combat, choose.",
    "regent_discard": "A player gained a support card: as Regent you discard a card.",
    "spoils": "Spoils: give cards as 'N>S' (card N to seat S); every backer needs one unless a "
    "betrayal sat in your army. 'done' to confirm.",
    "draw": "Draw 3 military cards, or 2 military and 1 event.",
    "discard": "Your hand is over 8: pick {count} cards to discard, then 'done'.",
}


def house_word(house_id: str) -> str:
    """A house as every line calls it: its name without "House " ("Quell"; its cards are
    drawn in its colour, amber) -- one name for a house everywhere."""
    return REIGN.house(house_id).name.removeprefix("House ")


def card_label(card: str) -> str:
    d = DEFS[card]
    if d.kind == "military":
        tag = f"{house_word(d.house or '')} {d.force}" + (" unique" if d.unique else "")
    else:
        tag = "betrayal" if d.betrayal else ("influence" if d.phase == "influence" else "event")
    return f"{d.name} [{tag}]"


def describe_public_event(e: tuple[Any, ...], me: int | None) -> str | None:
    """One line of words for a public engine event (None: not worth a line)."""

    def who(seat: int) -> str:
        return "you" if seat == me else f"seat {seat}"

    def army(seat: int, by: int | None = None) -> str:
        """An army in words: "your army", "its own army" (the placer's), "seat 2's army"."""
        if seat == me:
            return "your own army" if by == me else "your army"
        return "its own army" if by == seat else f"seat {seat}'s army"

    kind = e[0]
    if kind == "round":
        return f"-- Round {e[1]} begins; {who(e[2])} first --"
    if kind == "houses":
        return "Houses in play: " + ", ".join(house_word(h) for h in e[1])
    if kind == "bid":
        return f"{who(e[1])} bid {e[2]} card(s) face down" if e[2] else f"{who(e[1])} did not bid"
    if kind == "bid_revealed":
        return f"{who(e[1])} revealed a bid: " + ", ".join(card_label(c) for c in e[2])
    if kind == "events_ordered":
        return f"{who(e[1])} ordered the influence events: " + ", then ".join(
            DEFS[c].name for c in e[2]
        )
    if kind == "army_ordered":
        return f"{who(e[1])} ordered {army(e[1], e[1])}: " + ", then ".join(
            DEFS[c].name for c in e[2]
        )
    if kind == "combat_tie":
        picked = army(int(e[4])) if e[3] == "strike" else DEFS[e[4]].name
        return f"{who(e[1])} settled a tie of {DEFS[e[2]].name}: {picked}"
    if kind == "support_gained":
        return f"{who(e[1])} gained the support of House {house_word(e[2])}"
    if kind in ("support_lost", "support_returned"):
        return f"{who(e[1])} lost the support of House {house_word(e[2])}"
    if kind == "overt":
        return f"{who(e[1])} placed {card_label(e[3])} face up in {army(e[2], e[1])}"
    if kind == "covert":
        return f"{who(e[1])} placed {len(e[2])} card(s) face down" + (
            " (into " + ", ".join(army(t, e[1]) for t in e[2]) + ")" if e[2] else ""
        )
    if kind == "army_revealed":
        owner = "Your army" if e[1] == me else f"Seat {e[1]}'s army"
        return f"{owner} revealed: " + ", ".join(card_label(c) for c in e[2])
    if kind == "combat_totals":
        return "Combat: " + ", ".join(f"{who(s)} {t}" for s, t in e[1])
    if kind == "regent":
        return f"{who(e[1])} takes the Onyx Crown and is Regent"
    if kind == "legitimacy":
        return "Legitimacy: " + ", ".join(f"{who(s)} {v}" for s, v in enumerate(e[1]))
    if kind == "spoils":
        if not e[2]:
            return f"{who(e[1])} hands out no spoils"
        return f"{who(e[1])} hands out spoils: " + ", ".join(
            f"{n} card{'s' if n != 1 else ''} to {who(s)}" for s, n in e[2]
        )
    if kind == "regent_discard":
        return f"{who(e[1])} (Regent) discarded {card_label(e[2])}"
    if kind == "discard":
        return f"{who(e[1])} discarded " + ", ".join(card_label(c) for c in e[2])
    if kind == "winner":
        return f"{who(e[1])} rules Kazath!"
    if kind == "no_armies":
        return "Nobody holds a support card: no battle this round"
    if kind == "tie_broken":
        return f"{who(e[1])} settled a tie for {who(e[2])}"
    if kind == "round_limit":
        return "The round limit is reached: nobody wins"
    return None


def pick_problem(
    d: Decision, card: str, target: int | None, picked_ids: list[str], players: int
) -> str:
    """Why picking ``card`` (for seat ``target``) after ``picked_ids`` breaks a rule now,
    else '' (the console refuses a pick at once, with the rule's words)."""
    c = DEFS[card]
    picked = [DEFS[x] for x in picked_ids]
    if target is not None and not 0 <= target < players:
        return f"there is no seat {target} at this table (seats 0 to {players - 1})"
    if d.kind == "bid":
        if c.kind == "event" and c.phase != "influence":
            return (
                "only influence-phase events go with a bid (Influence Phase > Event "
                "Cards and Special Abilities)"
            )
        if c.kind == "military" and c.house is not None and c.house in d.get("forbidden", ()):
            return (
                f"you may not bid for {REIGN.house(c.house).name} this time "
                "(Influence Phase > Regent's Special Rules)"
            )
        houses = {x.house for x in picked if x.kind == "military" and x.house is not None}
        if c.kind == "military" and houses and c.house not in houses:
            return (
                f"a bid is for one house, and you picked {REIGN.house(houses.pop()).name}"
                " cards already (Influence Phase > Bidding)"
            )
    if d.kind == "covert":
        if c.kind == "event" and c.phase == "influence":
            return (
                "this event can only be placed in the influence phase (Influence Phase "
                "> Event Cards and Special Abilities)"
            )
        if target not in d.get("targets", ()):
            return (
                f"seat {target} holds no support card: cards go only into the army of "
                "a player holding one (Plotting Phase > Covert Backing)"
            )
        limit = d.get("max_cards", 2)
        if len(picked) >= limit:
            return f"at most {limit} cards face down (Plotting Phase > Covert Backing)"
    if d.kind == "spoils" and target == d.seat:
        return "spoils go to the other players (Regent Phase > Spoils)"
    if d.kind == "discard" and len(picked) >= d.get("count", 0):
        return (
            f"you discard exactly {d.get('count', 0)} cards; 'clear' or take one back "
            "first (Regent Phase > Draw)"
        )
    return ""
