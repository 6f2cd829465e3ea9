"""The key bar and the ``?`` overlay: the keys and typed words of the screen as it is now
(lazygit style).

:func:`key_bar` is the screen's last row: the keys most used, for a player, a spectator or
a game over; during play ``i Enter: invite`` whenever the table has an invite or a code (a
bare ``i`` is the start of typed words such as ``info N``; at game over, where nothing is
typed, ``i`` alone shows the watch line of a table we left that plays on).

:func:`screen_keys` lists, for the model's current screen, the keys every screen has, the
keys that only work now (a menu's Up/Down, Esc while card text or help is shown or the log
took the upper panes' rows, PgDn while the log is scrolled back) and the words the game's
model takes for the decision at hand (``game_keys``).  :func:`keys_lines` is the overlay's
text.  Nothing here reads anything but the model (and the screen's rows), so the list never
names a card.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.help_parts import KEPT, on_screen
from fairtable.client.screen_model import Lines

__all__ = ["key_bar", "keys_lines", "screen_keys"]

KEY_HINTS = " F1 help  ? keys  F2 card text  Up/Down option  PgUp/PgDn log  Ctrl-Q quit "
INVITE_HINTS = (  # the first that fits the screen's width
    " F1 help  ? keys  F2 card text  Up/Down option  PgUp/PgDn log  i Enter: invite  Ctrl-Q quit ",
    " F1 help  ? keys  F2 card  Up/Down  PgUp/PgDn log  i Enter: invite  Ctrl-Q quit",
)
WATCH_HINTS = " Spectating: the public view only  PgUp/PgDn log  i invite  ? keys  q quit "
OVER_HINTS = " Game over  PgUp/PgDn log  ? keys  q quit "  # no invite: the table is closed
WATCH_OVER_HINTS = " Spectating: game over  PgUp/PgDn log  ? keys  q quit "
FOLLOW_HINTS = " You left: following the public view  PgUp/PgDn log  ? keys  q quit "


def key_bar(model: Any, width: int) -> str:
    """The key bar for the screen the model shows now, at ``width`` columns."""
    if model.spectating:  # no invite once the table is over: it takes nobody then
        return WATCH_OVER_HINTS if model.over else WATCH_HINTS
    if getattr(model, "following", False):  # we left: the screen follows ('i': for others)
        invite = model.invite_block()
        return FOLLOW_HINTS.replace("  ? keys", "  i invite  ? keys") if invite else FOLLOW_HINTS
    if model.over and model.invite_block():  # we left a table that plays on: 'i' to watch it
        return OVER_HINTS.replace("  ? keys", "  i invite  ? keys")
    if model.over:
        return OVER_HINTS
    if model.invite_block():
        return next((bar for bar in INVITE_HINTS if len(bar) <= width), INVITE_HINTS[-1])
    return KEY_HINTS


def screen_keys(model: Any) -> list[tuple[str, str]]:
    """(key, what it does) for the screen the model shows now, the most used first."""
    if getattr(model, "spectating", False):  # fairtable watch: nothing to answer or type
        keys = [("?", "show or hide these keys"), ("PgUp", "scroll the log back")]
        if model.log_back:
            keys.append(("PgDn", "scroll the log forward"))
        if model.invite_block():  # none once the table is over
            keys.append(("i", "show or hide the invite, for others to watch (and copy it)"))
        from fairtable.client.room import panes_cut_for_log  # the screen's rows

        if panes_cut_for_log(model):  # the log took their rows for this turn's lines
            keys.append(("Esc", "show the panes whole (the log took rows for this turn)"))
        return [*keys, ("q / Ctrl-Q", "stop watching (the game goes on without us)")]
    if model.over:  # nothing left to answer: single keys, as a spectator's
        keys = [("?", "show or hide these keys"), ("PgUp", "scroll the log back")]
        if model.log_back:
            keys.append(("PgDn", "scroll the log forward"))
        if model.invite_block():
            keys.append(("i", "show or hide the invite, for others to watch (and copy it)"))
        return [*keys, ("q / Ctrl-Q", f"leave ({model.unkept or 'the game is saved'})")]
    from fairtable.client.room import (  # the screen's rows (prompt_toolkit)
        panes_cut_for_log,
        panes_given_way,
    )

    keys = [("?", "show or hide these keys"), ("F1", "help on the decision at hand")]
    menu = model.menu()
    game_keys = list(model.game_keys())
    if menu:  # a bare N picks a hand card where the game's words say so: only #N then
        numbers = "#N" if any(key == "N" for key, _ in game_keys) else "N / #N"
        keys += [
            (numbers, f"answer with option N (1 to {len(menu)})"),
            ("Up/Down", "move the highlight"),
            ("F2", "card text of the highlighted option"),
        ]
    keys += [
        ("info N", f"card text of {model.numbered_what} card N (info NAME, info #N)"),
        ("rules / F3", "the game in short: what wins, its phases"),
        ("Tab", "complete a word (the menu shows the choices)"),
    ]
    paging = model.show_help and not model.info  # PgUp/PgDn page the help while it shows
    keys.append(
        ("PgUp / PgDn", "page through the help") if paging else ("PgUp", "scroll the log back")
    )
    if model.log_back and not paging:
        keys.append(("PgDn", "scroll the log forward"))
    if model.info or model.show_help:
        keys.append(("Esc", "hide the card text or help"))
    elif panes_given_way(model) and panes_cut_for_log(model):
        keys.append(("Esc", "bring back the table (the log took its rows)"))
    elif panes_cut_for_log(model):
        keys.append(("Esc", "show the panes whole (the log took some of their rows)"))
    keys += [(key, on_screen(what)) for key, what in game_keys]
    if model.invite_block() and model.watchers_only():  # our bots: spectators alone
        keys.append(("i Enter", "show the invite, for others to watch (and copy it)"))
    elif model.invite_block():
        keys.append(("i Enter", "show the join code and the invite again (and copy it)"))
    if model.seat is not None and not model.over:
        keys.append(("resign", "give the game up (asks first)"))
    keys.append(("Ctrl-Q", f"leave ({model.unkept or KEPT}; or type q and Enter)"))
    return keys


def keys_lines(model: Any, width: int) -> Lines:
    """The overlay: a title, then one key a line, cut to ``width`` columns."""
    keys = screen_keys(model)
    pad = max(len(k) for k, _ in keys)
    out: Lines = [("class:title", "Keys here (? or Esc closes)\n")]
    room = max(1, width - pad - 3)
    for key, what in keys:
        cut = what if len(what) <= room else what[: room - 1] + "…"  # a cut is marked
        out += [("class:mine", f" {key.ljust(pad)} "), ("", cut + "\n")]
    return [*out, ("class:dim", "-" * width)]  # where the overlay ends and the board shows
