"""Reign's console client: its screen model, panes, bot, words, card text and combat breakdowns
(mirroring ``engine/reign/``; found by name through :mod:`client.games`)."""
