"""The games of this repository as the registry knows them: one :class:`engine.games.GameEntry`
per game, published under the entry-point group ``fairtable.games`` (``pyproject.toml``).

This package sits above every layer: an entry names a game's engine rules, client parts,
bots and search hints, each imported only when its hook is called, so declaring a game
loads none of its code.  A game from outside this repository declares its entry the same
way in its own package (docs/adding-a-game.md).
"""
