"""Sovereign in short, in our own words: the text ``fairtable rules sovereign`` prints and F3
shows over the board (at most 22 lines of at most 76 columns, the overlay's room at 80x24),
its screen key told apart (client/help_parts): plain mode's ``rules`` says it without."""

from fairtable.client.help_parts import Help, Key

SUMMARY: Help = (
    """\
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
and C:, forge progress/cost ('!' ready); """,
    Key("F2 or 'info N'", "'info N'"),
    " reads a card.",
)
