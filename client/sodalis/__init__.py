"""Sodalis's console client: its screen model, panes, bots and champion text (mirroring
``engine/sodalis/``; found by name through :mod:`client.games`)."""
