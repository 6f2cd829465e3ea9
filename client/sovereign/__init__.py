"""Sovereign's console client: its screen model, panes, bots, card text, finish drafts and the
bot's tactics (mirroring ``engine/sovereign/``; found by name through :mod:`client.games`)."""
