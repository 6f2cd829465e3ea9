"""Sodalis in short, in our own words: the text ``fairtable rules sodalis`` prints and F3
shows over the board (at most 22 lines of at most 76 columns, the overlay's room at 80x24)."""

SUMMARY = """\
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
spread numbered for 'cast N', and every roll with its dice."""
