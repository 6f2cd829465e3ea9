"""``fairtable join`` without an invite: the tables the LAN announces, and the question.

Before any screen, a bare ``join`` lists what the LAN announces (:func:`table_lines`, also
``fairtable tables``' words) and asks for the host's join code or invite
(:func:`asked_invite`).  A person who mistypes it is told what is wrong -- for a word that
is no code word, the nearest code words (``netplay.JoinCode``) -- and asked again, the list
still above; ``q``, an empty line or Ctrl-C leaves (:mod:`client.questions`).  An invite
pasted with its line breaks comes a line at a time: the lines that follow are asked for and
joined until it reads.  Typed at no terminal (a script feeding the question), the first
thing that is not an invite ends the command, as a code given on the command line does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fairtable.client.errors import UsageError
from fairtable.client.leavers_words import leavers_short
from fairtable.client.questions import a_person_types, says_leave
from fairtable.client.seat_names import host_words
from fairtable.client.text_rows import fold
from fairtable.netplay import Announcement, Invite, InviteError

__all__ = ["asked_invite", "table_lines"]

QUESTION = "Join code or invite (q leaves): "


MORE = "  ...the invite goes on (Enter if that was all): "
"""Asked for the rest of an invite pasted with its line breaks (each comes as a line)."""

MAX_INVITE_LINES = 12
"""At most this many lines make one invite (an invite is at most 1024 characters)."""


def _whole_invite(text: str) -> str:
    """``text``, or -- when it begins an invite that does not read yet (a mouse copy of a
    wrapped invite brings its line breaks, so it comes a line at a time) -- with the lines
    that follow it, until it reads, an empty line ends it, or the input does."""
    for _ in range(MAX_INVITE_LINES):
        if not text.lower().startswith("fairtable:") or _reads(text):
            return text
        try:
            more = input(MORE).strip()
        except EOFError:
            return text
        if not more:
            return text
        text += more
    return text


def _reads(text: str) -> bool:
    try:
        Invite.parse("".join(text.split()))
    except InviteError:
        return False
    return True


def table_lines(found: Sequence[Announcement]) -> list[str]:
    """The LAN's tables as a bare ``join`` lists them, each folded at words to the
    terminal's width."""
    lines = []
    for table in found:
        code = "" if table.code is None else f", code {table.code}-..."
        host = host_words(table.name, table.fingerprint)
        lines.append(
            fold(
                f"  {table.game} at {table.host}:{table.port}, {table.free} of {table.seats} "
                f"seats free, host {host}{code}; {leavers_short(table.leavers)}"
            )
        )
    return lines


def asked_invite(
    found: Sequence[Announcement], resolve: Callable[[str], Invite]
) -> tuple[str, Invite] | None:
    """Show the LAN's tables, ask for a join code or an invite, and ``resolve`` it; what
    was typed and its invite, or None when the person leaves.  At a terminal a refused
    answer (:class:`UsageError`) is said and the question asked again."""
    if found:
        print("Tables on the LAN (type the host's join code, or its invite):")
        print("\n".join(table_lines(found)))
    else:
        print("No tables announced on the LAN.")
    person = a_person_types()
    while True:
        try:
            text = input(QUESTION).strip()
        except EOFError:
            raise UsageError("no invite given") from None
        except KeyboardInterrupt:
            print()  # the prompt's line ends where ^C was shown
            return None
        if says_leave(text):
            return None
        text = _whole_invite(text)
        try:
            return text, resolve(text)
        except UsageError as exc:
            if not person:
                raise
            said = str(exc)
            print(fold(said[:1].upper() + said[1:] + "\n  Type it again, or q to leave."))
