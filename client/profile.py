"""The player's profile: the name a person plays under when they give no ``--name``.

A person who never passes ``--name`` is still somebody at the table, not "seat 2": their
name is their login name (:func:`getpass.getuser`), cleaned to the rules every peer checks
(``netplay.name_problem``: printable, at most 24 characters, single spaces, never a word
such as "you" or "seat 2"), or -- when nothing of the login name is left, or it reads as a
seat -- a short name made from the player's key ("player 3f9a").  The name is remembered in
``DATA_DIR/profile.json`` the first time it is needed, so it stays the same from one game to
the next; a ``--name`` given on the command line is remembered there instead, from then on.

Bots keep their own names (:mod:`client.bot_seats`); a seat folder of a second window
(``DATA_DIR/seats/N``) takes the name of the account's profile, and the screens tell two
seats of one name apart (:class:`client.seat_names.SeatNames`: "ada", "ada 2").
"""

from __future__ import annotations

import getpass
import json
import os
import unicodedata
from pathlib import Path

from fairtable.client.errors import UsageError
from fairtable.client.seats import identity_at
from fairtable.netplay import NAME_MAX, name_problem

__all__ = ["PROFILE_FILE", "key_name", "login_name", "my_name"]

PROFILE_FILE = "profile.json"
"""The profile's file in the data directory."""


def key_name(key: bytes) -> str:
    """A short name made from a public key: "player 3f9a"."""
    return f"player {key[:2].hex()}"


def login_name(login: str) -> str:
    """``login`` cleaned to the name rules ("" when nothing usable is left)."""
    text = "".join(c for c in unicodedata.normalize("NFC", login) if c.isprintable())
    name = " ".join(text.split())[:NAME_MAX].rstrip()
    return name if name and name_problem(name) is None else ""


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in the environment nor the user database
        return ""


def _saved(path: Path) -> str:
    """The name the profile at ``path`` holds ("" when there is no profile yet)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{path} cannot be read ({exc}); fix it or delete it") from None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise UsageError(f"{path} is not a usable profile: it holds no name; fix it or delete it")
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(f"{path} is not a usable profile: {problem}; fix it or delete it")
    return name


def _save(path: Path, name: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"name": name}, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot keep your name in {path}: {exc.strerror or exc}") from None


def my_name(data_dir: Path, given: str = "") -> str:
    """The name this player sits down under: ``given`` (``--name``, already checked) if
    any, else the profile's, else the login name or the key's name; remembered in the
    profile of ``data_dir`` (the account's data directory) when it was not there yet."""
    path = data_dir / PROFILE_FILE
    saved = _saved(path)
    name = given or saved or login_name(_login()) or key_name(identity_at(data_dir).public.key)
    if name != saved:
        _save(path, name)
    return name
