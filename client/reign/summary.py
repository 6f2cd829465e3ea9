"""Reign in short, in our own words: the text ``fairtable rules reign`` prints and F3
shows over the board (at most 22 lines of at most 76 columns, the overlay's room at 80x24)."""

SUMMARY = """\
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
the same everywhere ([Quell 2] is a House Quell card of force 2)."""
