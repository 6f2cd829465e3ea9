"""A short summary of each game, in our own words: what wins, how a round goes (its
phases), and where the screen shows it.  ``fairtable rules GAME`` prints it; ``rules`` (or
F3) on the screen shows it over the board.  The rulebooks themselves are the reference (our
readings of their unclear passages are in ``docs/rules/``); nothing here quotes them.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.games import GAMES

__all__ = ["SUMMARIES", "add_command", "game_name", "summary"]

SUMMARIES: dict[str, str] = {
    "reign": """\
Reign: The Card Game, in short
Win: be the Regent (holder of the Onyx Crown) with 9 or more legitimacy (L).
  Taking the Crown is worth 3 L; having backed the seat that takes it, 2 L.
A round has four phases:
 1 Influence: in turn, bid face down with military cards of ONE house for
   that house's support card; bids open together and the strongest bid per
   house takes its card (one support card per player). Bid cards are spent.
 2 Plotting: only seats with a support card have an army. Each seat adds one
   card face up to an army, then up to two face down (the Regent three, and
   only into its own army). Your last card says whom you back. Events go
   into an army and act on its owner; betrayals hurt it.
 3 Combat: face-down cards are mixed and shown; abilities, events, then
   betrayals apply; each card of the army's own house adds 1. The strongest
   army takes the Crown (the Regent settles ties).
 4 Regent: legitimacy is scored; the Regent deals out spoils (at least one
   card to each backer, unless betrayed); everyone draws 3 cards (one may be
   an event) and keeps at most 8.
Screen: L = legitimacy out of 9, * = Regent; houses are named and coloured
the same everywhere ([Quell 2] is a House Quell card of force 2).""",
    "sodalis": """\
Sodalis, in short
Win: your team holds all three Tributes -- Speed, Sight and Strength.
  Speed: bring your own Artifact (stand on it and move) to the centre (+).
  Sight: roll a critical (10 or more) while affecting the Paragon (P), or
    the champion holding Sight if it is the other team's.
  Strength: bring an enemy champion's life to 0 (it comes back in its base).
Before play: teams share out turn tokens (the order), pick champions, and
  may choose reversed arcana.
A turn: spend your action tokens -- Major (M), minor (m), move (v) -- to
  move one space a token, or to cast an arcana of your spread paying its
  cost; a cast card goes under your deck and the next one fills the gap.
  Tokens refresh at the end of your turn. Held Tributes help: Speed as a
  move, Sight +1 range, Strength +2 power.
Screen: the arena (letters are champions), each champion's life, tokens
(a letter up, '-' spent) and Tributes (Sp Si St; capital = unspent), your
spread numbered for 'cast N', and every roll with its dice.""",
    "sovereign": """\
Sovereign: Fall of Wormwood, in short
Win: be first to score the Echo target (10; 12 at two players). An Echo
  scores when you forge it, or when you breach a neighbour and take it.
A turn has six phases:
 1 Growth: two new talents join your Citadel.
 2 Upkeep: reflexes end; citizens come home from work; every talent in
   your forge advances one space.
 3 Forge: put hand cards face down into the forge (a talent starts each),
   accelerate them by turning talents into drones, and reveal cards whose
   cost is met -- units into a lane, facilities, augments; Echoes score
   (never on the turn they went in).
 4 Battle: attack a neighbour with one lane, front first. A lane defends:
   the Leader lane guards the hand, the Citadel lane the forge; an
   undefended hit is a breach that looks at (and takes Echoes from) them.
 5 Move: one unit one step, or to the back of your other lane.
 6 Draw: up to 8 cards in hand.
Reflexes can be played in any seat's turn, at priority windows.
Screen: E scored/target, citizens as talents (t) and drones (d), lanes L:
and C:, forge progress/cost ('!' ready); F2 or 'info N' reads a card.""",
}
"""Each game's summary: at most 22 lines of at most 76 columns (the overlay's room at 80x24)."""


def game_name(text: str) -> str:
    """A game's name as the registry spells it, whatever its case ("Reign" -> "reign")."""
    lowered = text.strip().lower()
    return lowered if lowered in GAMES else text


def summary(game: str) -> str:
    """The game's summary (a game with none: where to read its rules)."""
    return SUMMARIES.get(game, f"{game}: see its rulebook (no summary here yet).")


def _rules(args: argparse.Namespace) -> int:
    print(summary(args.game))
    return 0


def add_command(sub: Any) -> None:
    """``fairtable rules GAME``."""
    rules = sub.add_parser("rules", help="a short summary of a game: what wins, its phases")
    rules.add_argument("game", type=game_name, choices=GAMES)
    rules.set_defaults(run=_rules)
