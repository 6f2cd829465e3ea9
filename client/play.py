"""Playing at the keyboard: ``play``, ``host`` and ``join`` with the screen, and ``resume``.

``fairtable play reign --bots 2`` opens a table on this machine over loopback,
with two bot peers run by this process (each its own keys, engine and data
folder: the full protocol), and puts the player at seat 0.  ``host`` and
``join`` without ``--bot`` open the same screen for LAN play.  Quitting keeps
the game on disk; ``fairtable resume`` lists unfinished games and reopens one (or, with
``--resign N``, gives one up).  ``play`` and ``host`` go on with an unfinished table of
their own kind and say so; ``--new`` starts a fresh one instead (the old one is kept).
"""

from __future__ import annotations

import contextlib
import shutil
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import trio

from fairtable.client import ending, games
from fairtable.client.bot_seats import saved_bot_specs
from fairtable.client.errors import (
    UsageError,
    leaves,
    require_terminal,
    watch_instead,
)
from fairtable.client.invite_words import via_text
from fairtable.client.join_ask import asked_invite
from fairtable.client.leavers_words import leavers_line
from fairtable.client.lifecycle import UnfinishedGame, game_line
from fairtable.client.options import HostOptions, JoinOptions, PlayOptions, ResumeOptions
from fairtable.client.profile import my_name
from fairtable.client.questions import asked_number
from fairtable.client.seats import (
    bot_node,
    identity_at,
    invite_or_saved,
    keep_code,
    seat_option,
)
from fairtable.client.table_options import TableOptions
from fairtable.client.text_rows import fold
from fairtable.client.watch_screen import follow_on_screen
from fairtable.engine.games import entry, game_names
from fairtable.netplay import (
    NO_SEAT_LEFT,
    RELAY_REFUSALS,
    GameOpenElsewhere,
    Invite,
    InviteError,
    LinkClosed,
    LinkReason,
    LobbyId,
    StorageError,
    TableFolder,
    TableInfo,
    TableNode,
    claim_seat,
    game_open_elsewhere,
    hold_game,
    keep_bots,
    listen,
    refusal_words,
    saved_names,
    set_aside,
)
from fairtable.netplay import events as ev
from fairtable.protocol import Leavers

__all__ = ["host_screen", "join_screen", "run_play", "run_resume", "unfinished_games"]


KEPT = "Game kept; run the same command (or 'fairtable resume') to go on."


def _forward(to_screen: trio.MemorySendChannel[ev.NodeEvent]) -> Any:
    def emit(event: ev.NodeEvent) -> None:
        # the screen may be gone or flooded; the game itself goes on
        with contextlib.suppress(
            trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError
        ):
            to_screen.send_nowait(event)

    return emit


def model_for(game: str) -> Any:
    """A fresh screen model for ``game``, from the client's registry (client.games)."""
    if game not in game_names():
        raise UsageError(f"fairtable plays {', '.join(game_names())}, not {game!r}")
    return games.model_for(game)


NO_OPTIONS = TableOptions()
"""A table joined or resumed with nothing typed about it."""


def _network(
    data_dir: Path,
    *,
    seats: int = 0,
    invite: Invite | None = None,
    bots: Sequence[str] = (),
    options: TableOptions = NO_OPTIONS,
    game: str = "",
    brings: Any = None,
    typed: str = "",
    reopen: UnfinishedGame | None = None,
) -> Any:
    """The trio side of the screen: our node (and a bot peer on loopback for each spec in
    ``bots``, its thinking shown on our screen); ``typed`` is what a joiner typed (a join
    code is remembered for its seat).  It returns once our node has left a table whose game
    ended (every seat has the last moves): the screen stays until ``q``, the plain mode
    ends there.  ``reopen``, a game kept on disk, is held in its own folder for as long as
    we play it (another window reopening it is told so)."""

    held = contextlib.ExitStack()  # the hold on a table we host, once it has an id

    async def main(
        to_screen: trio.MemorySendChannel[ev.NodeEvent], answers: trio.MemoryReceiveChannel[Any]
    ) -> None:
        with held:
            await play(to_screen, answers)

    async def play(
        to_screen: trio.MemorySendChannel[ev.NodeEvent], answers: trio.MemoryReceiveChannel[Any]
    ) -> None:
        if reopen is not None:
            with hold_game(reopen.data_dir, reopen.invite.lobby_id):
                await seat(to_screen, answers, reopen.data_dir)
            return
        if invite is None:
            await seat(to_screen, answers, data_dir)
            return
        with claim_seat(data_dir, invite) as claim:  # our own seat, if we host or sit here
            keep_code(claim.data_dir, invite, typed)
            await seat(to_screen, answers, claim.data_dir)

    async def seat(
        to_screen: trio.MemorySendChannel[ev.NodeEvent],
        answers: trio.MemoryReceiveChannel[Any],
        data_dir: Path,
    ) -> None:
        identity = identity_at(data_dir)
        forward = _forward(to_screen)
        refused: list[str] = []
        shut_out = trio.Event()

        def emit(event: ev.NodeEvent) -> None:
            forward(event)
            if isinstance(event, ev.LinkRefused) and node.session is None:
                refused.append(event.reason)  # refused before we got a seat
                shut_out.set()

        node = TableNode(
            options.node_config(data_dir, ui_events=True),
            identity,
            invite=invite,
            seats=seats,
            game=game,
            emit=emit,
            brings=brings,
            answers=answers,
        )

        async def run_node(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            await node.run(task_status=task_status)
            shut_out.set()  # we left the table: the game ended and the others have it

        async with trio.open_nursery() as nursery:
            table_invite = await nursery.start(run_node)
            if reopen is None and invite is None:  # a table we host: held while we play it
                with contextlib.suppress(GameOpenElsewhere):
                    held.enter_context(hold_game(data_dir, table_invite.lobby_id))
            if node.folder is not None:  # where the game is kept, for the end of the game
                emit(ev.FolderKnown(str(node.folder.path)))
            if node.folder is not None and bots:
                keep_bots(node.folder, bots)
            for index, spec in enumerate(bots):
                bot = bot_node(
                    data_dir, index, table_invite, options.pace, spec, forward, host=options
                )
                nursery.start_soon(bot.run)
            await shut_out.wait()  # refused, or the node left; else the screen stops us
            if refused:
                watch = "" if invite is None else watch_instead(invite.text(), options.via)
                raise UsageError(_refusal(refused[0], watch))
            if node.session is not None and node.session.left is not None:
                await follow_on_screen(node, to_screen)  # we left: the rest, as a spectator

    return main


def _refusal(reason: str, watch: str = "") -> str:
    """One line for a link the table (or the relay) refused before we were seated; a
    started table with no seat left adds ``watch`` (:func:`client.errors.watch_instead`)."""
    if reason in RELAY_REFUSALS:
        return f"the relay refused the table: {reason}"
    words: dict[LinkReason | None, str] = {
        LinkReason.INVITE: "it does not take this invite (check that you copied all of it)",
        LinkReason.VERSION: "it runs another version of fairtable",
    }
    why = words.get(LinkReason.of(reason), f"reason: {reason}")
    if reason == NO_SEAT_LEFT:
        return f"{refusal_words(reason)};\n  {watch}" if watch else refusal_words(reason)
    return f"the table refused the link: {why}"


def _run_screen(model: Any, network: Any) -> None:
    """Show the screen; the network side's errors go on to ``cli.main``, which says them in
    one line (a link the table closed is said here, in the table's words)."""
    from fairtable.client.app import (
        run_screen,  # prompt_toolkit only when someone plays at the keyboard
    )

    with _link_closed_said():
        run_screen(model, network)


def _run_plain(model: Any, network: Any) -> None:
    """``--plain``: the game in plain lines (client/plain), its errors said as the screen's."""
    from fairtable.client.plain import run_plain

    with _link_closed_said():
        run_plain(model, network)


def _shown(model: Any, network: Any, plain: bool) -> None:
    """The screen, or with ``plain`` the plain lines."""
    (_run_plain if plain else _run_screen)(model, network)


def _closed(model: Any, kept: str, plain: bool) -> None:
    """Print what follows the screen (or the plain lines) once it closed: the result, or
    ``kept`` (client.ending.after_screen); plain lines said the result already."""
    after = ending.after_screen(model, kept, plain=plain)
    if after:
        print(after)


@contextlib.contextmanager
def _link_closed_said() -> Iterator[None]:
    """A link the table closed, said in one line in the table's words; the network side's
    other errors go on to ``cli.main``."""
    try:
        yield
    except BaseExceptionGroup as group:  # the network side's errors, as trio gathered them
        found = leaves(group)
        if found and all(isinstance(leaf, LinkClosed) for leaf in found):
            reason = found[0].reason  # type: ignore[attr-defined]
            raise UsageError(f"the link to the table closed: {reason}") from None
        raise


def _saved_at(path: Path) -> float:
    """When a table folder's files last changed (its log, or its table.json)."""
    times = [p.stat().st_mtime for p in (path / "log", path / "table.json") if p.exists()]
    return max(times, default=0.0)


def unfinished_games(data_dir: Path) -> list[UnfinishedGame]:
    """Games on disk that have not ended, last played first (the list reads no log)."""
    found: list[UnfinishedGame] = []
    seats = data_dir / "seats"
    for folder in [data_dir, *(sorted(seats.iterdir()) if seats.is_dir() else [])]:
        found += _unfinished_in(folder)
    found.sort(key=lambda g: g.info.last_played or g.saved, reverse=True)
    return found


def _unfinished_in(data_dir: Path) -> list[UnfinishedGame]:
    root = data_dir / "tables"
    found = []
    if root.is_dir():
        for path in sorted(root.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True):
            try:
                info = TableInfo.load(
                    TableFolder(data_dir, "tables", LobbyId(bytes.fromhex(path.name)))
                )
                invite = info.parsed_invite()
            except (StorageError, InviteError, ValueError):
                continue
            if info.unfinished:
                found.append(UnfinishedGame(invite, info, _saved_at(path), data_dir))
    return found


PLAIN = "--plain plays in plain lines"
"""Said when a screen command has no terminal: the plain mode needs none."""

HEADLESS = f"for a headless peer use --bot random (or one of the game's own bots); {PLAIN}"
"""What to do instead of a screen, for ``host`` and ``join`` without a terminal."""


def run_play(o: PlayOptions) -> int:
    """``fairtable play``: this terminal's player and ``o.bots`` bots of ours, on loopback."""
    model = model_for(o.game)
    model.all_bots = True  # every other seat is one of our bots: nobody to invite
    brings = seat_option(o.game, o.deck)
    if not o.plain:
        require_terminal("play", f"for games between bots use fairtable simulate; {PLAIN}")
    if o.seed is not None:  # for tests and replays: in this process, nothing kept
        from fairtable.client.seeded import NOT_KEPT, SeededTable, keep_nothing

        keep_nothing(model)

        table = SeededTable(
            o.game, o.seed, o.bots, o.pace, o.round_limit, my_name(o.data_dir, o.name)
        )
        _shown(model, table.network(), o.plain)
        _closed(model, NOT_KEPT, o.plain)
        return 0
    network = _network(
        o.data_dir,
        seats=len(o.bots) + 1,
        bots=o.bots,
        options=attrs.evolve(TableOptions.for_play(o), name=my_name(o.data_dir, o.name)),
        game=o.game,
        brings=brings,
    )
    _shown(model, network, o.plain)
    _closed(model, "Game kept; 'fairtable resume' reopens it.", o.plain)
    return 0


def run_resume(o: ResumeOptions) -> int:
    """``fairtable resume``: list the unfinished games; reopen or resign one."""
    data_dir = o.data_dir
    games = unfinished_games(data_dir)
    if not games:
        print("No unfinished games.")
        return 0
    for number, kept in enumerate(games, start=1):
        invite = kept.invite
        names = saved_names(kept.info)  # the turn names its player
        print(
            fold(
                game_line(
                    number, kept.info, invite.game, invite.seats, saved=kept.saved, names=names
                )
            )
        )
        if game_open_elsewhere(kept.data_dir, invite.lobby_id):
            print(f"{' ' * len(str(number))}  (open in another window: play it there)")
    choice = o.resign if o.resign is not None else o.number
    if choice is None:
        if o.only_list:
            return 0
        choice = asked_number(
            "Resume which game? (its number; q leaves) ", len(games), "no game chosen"
        )
        if choice is None:
            print("Nothing resumed.")
            return 0
    if not 1 <= choice <= len(games):
        raise UsageError(f"choose a game from 1 to {len(games)}")
    kept = games[choice - 1]
    invite = kept.invite
    if game_open_elsewhere(kept.data_dir, invite.lobby_id):
        raise UsageError("this game is already open in another window; play it there")
    if o.resign is not None:  # no screen: resigning needs no terminal
        from fairtable.client.resign import resign_saved

        try:
            return resign_saved(kept.data_dir, kept)
        except StorageError as exc:
            raise UsageError(str(exc)) from None
    if not o.plain:
        require_terminal(
            "resume", f"a headless peer resumes with its own host or join --bot command; {PLAIN}"
        )
    model = model_for(invite.game)
    if kept.hosted:
        model.all_bots = kept.bots + 1 >= invite.seats
        network = _network(
            data_dir,
            seats=invite.seats,
            bots=saved_bot_specs(kept.info, invite.game),
            game=invite.game,
            options=TableOptions.for_resume(kept.info.kind, o.pace, invite.lobby_id),
            reopen=kept,
        )
    else:
        options = TableOptions.for_resume(kept.info.kind)
        network = _network(kept.data_dir, invite=invite, options=options, reopen=kept)
    _shown(model, network, o.plain)
    _closed(model, "Game kept; 'fairtable resume' reopens it.", o.plain)
    return 0


def host_screen(o: HostOptions) -> int:
    """``fairtable host`` with a person at this terminal (no ``--bot``)."""
    brings = seat_option(o.game, o.peer.deck)
    if not o.peer.plain:
        require_terminal("host", HEADLESS)
    model = model_for(o.game)
    model.all_bots = o.bots + 1 >= o.seats
    model.spectators = o.spectators  # with bots alone: 'i' shows the invite to watch
    model.via = via_text(o.peer.via)
    network = _network(
        o.peer.data_dir,
        seats=o.seats,
        bots=(entry(o.game).default_bot,) * o.bots,
        options=attrs.evolve(TableOptions.for_host(o), name=my_name(o.peer.data_dir, o.peer.name)),
        game=o.game,
        brings=brings,
    )
    _shown(model, network, o.peer.plain)
    _closed(model, KEPT, o.peer.plain)
    return 0


LAN_SECONDS = 3.0
"""How long ``join`` without an invite listens for the tables the LAN announces."""


NEVER_REACHED = (
    "The table was never reached, so nothing is kept; run the same command to try again."
)
"""Said after a join screen that never reached its table closes."""


def join_screen(o: JoinOptions) -> int:
    """``fairtable join`` with a person at this terminal (no ``--bot``); without an invite,
    the tables the LAN announces are listed and the invite or join code asked for."""
    invite_text, data_dir = o.invite, o.peer.data_dir
    if invite_text is None:
        found = trio.run(lambda: listen(duration=LAN_SECONDS, port=o.peer.discovery_port))
        asked = asked_invite(found, lambda text: _resolve(text, o, data_dir))
        if asked is None:
            print("Nothing joined.")
            return 0
        invite_text, invite = asked
    else:
        invite = _resolve(invite_text, o, data_dir)
    if not _sits_down(invite):
        print("Nothing joined.")
        return 0
    model = model_for(invite.game)
    model.via = via_text(o.peer.via)
    model.leavers_told = o.peer.plain  # said by _sits_down, in the lines plain mode goes on
    brings = seat_option(invite.game, o.peer.deck)
    if not o.peer.plain:
        require_terminal("join", HEADLESS)
    options = attrs.evolve(TableOptions.for_join(o), name=my_name(data_dir, o.peer.name))
    _shown(
        model,
        _network(data_dir, invite=invite, options=options, brings=brings, typed=invite_text),
        o.peer.plain,
    )
    if model.seat is None and not model.over and not model.reached:
        _never_reached(model.saved)
        print(fold(NEVER_REACHED))
        return 0
    _closed(model, KEPT, o.peer.plain)
    return 0


def _sits_down(invite: Invite) -> bool:
    """Whether the person sits down at ``invite``'s table, told its rule for a player that
    vanishes first; where the game goes on without one (the others together could then open
    that player's cards), only once they say yes."""
    width = max(40, shutil.get_terminal_size().columns - 1)
    print(textwrap.fill(leavers_line(invite.leavers), width, subsequent_indent="  "))
    if invite.leavers is Leavers.END:
        return True
    try:
        answer = input("Sit down at this table? (y: yes; q leaves) ").strip().lower()
    except EOFError:
        return False
    return answer in ("y", "yes")


def _never_reached(saved: str) -> None:
    """A join that never reached its table is not an unfinished game: its folder (nothing
    signed in it) leaves the resume list."""
    if not saved:
        return
    folder = TableFolder.at(Path(saved))
    with contextlib.suppress(StorageError):
        set_aside(folder, "never reached")


def _resolve(text: str, o: JoinOptions, data_dir: Path) -> Invite:
    """The invite typed, or the one a join code is handed on the LAN or through ``--via``'s
    relay (or, once the host no longer answers it, led us to before)."""
    return trio.run(
        invite_or_saved, text, o.peer.discovery_port, data_dir, o.peer.via, o.peer.via_key
    )
