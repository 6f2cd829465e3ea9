"""What a user sees when a command cannot start or fails: one line, never a traceback.

This module owns three things the command line does in one place
(:func:`client.cli.main`):

* :func:`leaves` -- trio reports errors from inside a nursery as exception
  groups; they are flattened here, once, so no caller unwraps groups itself;
* :func:`user_message` -- the one-line message for an error the user can fix
  (a refused option, an unusable data directory, a port in use), or None for
  an error that is a bug;
* :func:`write_crash_log` -- a bug's traceback goes to a file in the data
  directory (or the temp directory when that is unusable), and the user is
  told its name.

It also has the small checks shared by the commands' options (port numbers,
seconds, a usable data directory, a terminal for the screen).
"""

from __future__ import annotations

import argparse
import datetime
import errno
import os
import socket
import sys
import tempfile
import traceback
from pathlib import Path

from fairtable.netplay import events as ev

__all__ = [
    "FileRefused",
    "UsageError",
    "CODE_NOT_ANSWERED",
    "leaves",
    "nonnegative_seconds",
    "port_number",
    "positive_seconds",
    "reach_line",
    "require_terminal",
    "usable_data_dir",
    "user_message",
    "watch_instead",
    "write_crash_log",
]

CODE_NOT_ANSWERED = (
    "a table answers its code only until its game starts; to watch a game\n"
    "  under way, ask a player for the invite ('i' on their screen shows it)"
)
"""Said after "no table with that code": what someone who came by code can do."""


def watch_instead(invite: str, via: tuple[str, int] | None = None) -> str:
    """Said to a joiner a started table has no seat for: the command that watches it,
    whole on a line of its own (a mouse copies it), with the invite the joiner was handed
    -- typed, or fetched with a join code -- and the relay it came through (``--via``)."""
    relay = "" if via is None else f" --via {via[0]}:{via[1]}"
    return f"you can watch it instead with:\n  fairtable watch '{invite}'{relay}"


class UsageError(Exception):
    """A command cannot start (or go on) for a reason the user can fix: an option refused,
    an invite that is not one, no terminal for the screen.  Every such error of every
    command is one of these; :func:`client.cli.main` says its message in one line and
    exits 2."""


class FileRefused(UsageError):
    """A file a command was given (a log, a saved table, a deck) cannot be used: unreadable,
    malformed or refused.  Said in one line like any usage error, but the command exits 1."""


def port_number(text: str) -> int:
    """An argparse type: a TCP/UDP port, 0 (any free port) to 65535."""
    if not text.strip().isdecimal() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    return value


WEEK = 7 * 24 * 3600  # no wait or limit of ours is longer (time limits are sent in ms)


def player_name(text: str) -> str:
    """An argparse type: a player's name, by the rules every peer checks (netplay.name_problem);
    surrounding spaces are dropped and the name put in Unicode NFC first."""
    import unicodedata

    from fairtable.netplay import name_problem

    name = unicodedata.normalize("NFC", " ".join(text.split()))
    problem = name_problem(name)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return name


def positive_seconds(text: str) -> float:
    """An argparse type: seconds, more than zero (and at most a week)."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    if value > WEEK:
        raise argparse.ArgumentTypeError(f"must be at most a week ({WEEK} seconds), not {text}")
    return value


def nonnegative_seconds(text: str) -> float:
    """An argparse type: seconds, zero or more."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 seconds or more, not {text}")
    return value


def usable_data_dir(path: Path, *, create: bool = True) -> Path:
    """``path`` if games and keys can be kept there (made if missing, when ``create``);
    :class:`UsageError` saying why not otherwise.  Leaves nothing behind but the folder."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"cannot use the data directory {path}: a file is in the way")
    if not create and not path.exists():
        above = next((p for p in path.parents if p.exists()), None)
        if above is not None and not above.is_dir():
            raise UsageError(f"cannot use the data directory {path}: a file is in the way")
        return path
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        why = (
            "a file is in the way"
            if exc.errno in (errno.ENOTDIR, errno.EEXIST)
            else (exc.strerror or str(exc)).lower()
        )
        raise UsageError(f"cannot use the data directory {path}: {why}") from None
    return path


def require_terminal(command: str, instead: str) -> None:
    """:class:`UsageError` unless stdin and stdout are a terminal (the screen needs one)."""
    if not (
        sys.stdin is not None
        and sys.stdin.isatty()
        and sys.stdout is not None
        and sys.stdout.isatty()
    ):
        raise UsageError(f"{command} needs a terminal; {instead}")


def reach_line(event: ev.Unreachable) -> str:
    """The line for a node's ``unreachable`` event (a dial failed; it is retried)."""
    return f"cannot reach {event.address}: {event.why}; retrying... (attempt {event.attempt})"


def leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside ``exc``: itself, or every leaf of a (nested) exception group."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in leaves(inner)]
    return [exc]


def _os_message(exc: OSError, where: str | None) -> str | None:
    place = where or "the address asked for"
    if isinstance(exc, socket.gaierror):
        return f"cannot listen on {place}: address not known"
    if exc.errno in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES) and exc.filename is None:
        return f"cannot listen on {place}: {(exc.strerror or str(exc)).lower()}"
    if exc.filename is not None:
        return f"cannot use {exc.filename}: {(exc.strerror or str(exc)).lower()}"
    return None


def user_message(
    exc: BaseException, known: tuple[type[BaseException], ...], where: str | None = None
) -> str | None:
    """The one line to show for ``exc`` (possibly a group), if it is an error the user can
    act on: one of ``known`` (its message), or an operating-system refusal to listen
    ``where`` (the address the command was told to listen on) or to use a file.  None when
    it is a bug."""
    found = leaves(exc)
    for leaf in found:
        if isinstance(leaf, known):
            return str(leaf)
    for leaf in found:
        if isinstance(leaf, OSError):
            text = _os_message(leaf, where)
            if text is not None:
                return text
    return None


def write_crash_log(exc: BaseException, data_dir: Path, command: str) -> Path:
    """Write ``exc``'s traceback to ``<data_dir>/crash-YYYYmmdd-HHMMSS.log`` (the temp
    directory if that cannot be written; readable by the user only) and return the file's
    path.  Only the command's name is written, not its arguments (an invite is a secret)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = "".join(traceback.format_exception(exc))
    text = f"fairtable {command} stopped on an unexpected error:\n\n{text}"
    for folder in (data_dir, Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for number in range(100):
                suffix = "" if number == 0 else f"-{number}"
                path = folder / f"crash-{stamp}{suffix}.log"
                try:
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                except FileExistsError:
                    continue
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(text)
                return path
        except OSError:
            continue
    raise OSError("no folder to write a crash log in")
