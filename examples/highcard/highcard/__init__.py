"""High Card, a toy card game for fairtable from outside its repository.

Everything a game brings lives in this package: its rules (:mod:`highcard.rules`, on the
engine only), its client parts (:mod:`highcard.model`, :mod:`highcard.panes`,
:mod:`highcard.parts`), a bot (:mod:`highcard.bots`), and the registry entry that names them
all (:mod:`highcard.entry`), published under the entry-point group ``fairtable.games`` by
this package's ``pyproject.toml``.  docs/adding-a-game.md walks through it.
"""
