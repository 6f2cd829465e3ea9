"""What a seat brings to a table from the command line, shared by the network commands
(:mod:`client.netcli`) and the screens (:mod:`client.play`): its deck (``--deck``), the
invite it holds (or the one a join code is handed on the LAN), and a bot peer's node.
Below both, so neither imports the other for these."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fairtable.protocol as P
from fairtable.client.bot_seats import bot_name, decider
from fairtable.client.errors import CODE_NOT_ANSWERED, FileRefused, UsageError
from fairtable.client.table_options import TableOptions
from fairtable.engine.errors import CardDataError, EngineError
from fairtable.engine.games import entry, rules
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import (
    DISCOVERY_PORT,
    CodeExchangeError,
    CodeNotFound,
    CodeRefused,
    Emit,
    Invite,
    InviteError,
    JoinCode,
    JoinCodeError,
    LobbyId,
    NodeConfig,
    Pacing,
    Reach,
    StorageError,
    TableFolder,
    TableInfo,
    TableNode,
    invite_at_relay,
    invite_by_code,
    load_identity_seed,
    looks_like_code,
)

__all__ = [
    "bot_folder",
    "bot_node",
    "bot_reach",
    "identity_at",
    "invite_from",
    "invite_or_saved",
    "keep_code",
    "saved_invite",
    "seat_option",
]


def identity_at(data_dir: Path) -> P.Identity:
    """The identity kept in ``data_dir`` (made on first use)."""
    try:
        return P.Identity.from_seed(load_identity_seed(data_dir))
    except StorageError as exc:
        raise UsageError(str(exc)) from None


def seat_option(game: str, path: str | None) -> Any:
    """What this seat brings from ``--deck PATH`` (checked), or None without one."""
    if path is None:
        return None
    game_rules = rules(game)
    if game_rules.load_seat_option is None:
        raise UsageError(f"{game_rules.title} has no custom decks: drop --deck")
    try:
        return game_rules.load_seat_option(path)
    except (CardDataError, EngineError) as exc:
        raise FileRefused(str(exc)) from None


async def invite_from(
    text: str,
    discovery_port: int = DISCOVERY_PORT,
    via: tuple[str, int] | None = None,
    via_key: bytes | None = None,
) -> Invite:
    """The invite ``text`` is (spaces and line breaks in it ignored), or the one a join code
    (``7-amber-...``) is handed on the LAN -- or, with ``via``, through that relay."""
    text = "".join(text.split())  # a mouse copy of a wrapped invite brings line breaks
    if not looks_like_code(text):
        try:
            return Invite.parse(text)
        except InviteError as exc:
            if text.lower().startswith("fairtable:"):
                raise UsageError(f"not an invite: {exc}") from None
            raise UsageError(
                "neither an invite nor a join code:\n"
                "  an invite starts with fairtable://...\n"
                "  a join code is a number and four words, like 7-amber-falcon-orbit-tidal"
            ) from None
    try:
        code = JoinCode.parse(text)
    except JoinCodeError as exc:
        raise UsageError(f"not a join code: {exc}") from None
    try:
        if via is not None:
            return await invite_at_relay(code, via, key=via_key)
        return await invite_by_code(code, discovery_port=discovery_port)
    except CodeRefused as exc:
        if via is not None and exc.wrong_code:  # or the relay changed the exchange
            raise UsageError(f"{exc} (or the relay changed the exchange)") from None
        raise UsageError(str(exc)) from None
    except CodeNotFound as exc:
        raise UsageError(f"{exc};\n  {CODE_NOT_ANSWERED}") from None
    except CodeExchangeError as exc:
        raise UsageError(f"the code exchange failed: {exc}") from None


def keep_code(seat_dir: Path, invite: Invite, text: str) -> None:
    """Remember that the join code ``text`` (if it is one) led to ``invite``'s table, so that
    the same ``join CODE`` goes on with the seat once the host has retired its code."""
    text = "".join(text.split())
    if looks_like_code(text):
        path = seat_dir / "codes" / invite.lobby_id.hex()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{path}: {exc.strerror}") from None


def saved_invite(data_dir: Path, text: str) -> Invite | None:
    """The invite of an unfinished table this data directory (or one of its seat folders)
    joined with the join code ``text``; None if there is none."""
    text = "".join(text.split())
    seats = data_dir / "seats"
    for folder in [data_dir, *(sorted(seats.iterdir()) if seats.is_dir() else [])]:
        codes = folder / "codes"
        for path in sorted(codes.iterdir()) if codes.is_dir() else []:
            try:
                if path.read_text(encoding="utf-8") != text:
                    continue
                info = TableInfo.load(
                    TableFolder(folder, "tables", LobbyId(bytes.fromhex(path.name)))
                )
                if info.unfinished:
                    return info.parsed_invite()
            except (OSError, ValueError, KeyError, StorageError, InviteError):
                continue
    return None


async def invite_or_saved(
    text: str,
    discovery_port: int,
    data_dir: Path,
    via: tuple[str, int] | None = None,
    via_key: bytes | None = None,
) -> Invite:
    """:func:`invite_from`; for a join code the host no longer answers (its table is full
    or under way), the table we joined with it, if we did."""
    try:
        return await invite_from(text, discovery_port, via, via_key)
    except UsageError:
        saved = saved_invite(data_dir, text) if looks_like_code("".join(text.split())) else None
        if saved is None:
            raise
        return saved


def bot_folder(data_dir: Path, lobby: LobbyId, index: int) -> Path:
    """The folder (keys, table) of bot number ``index`` at the table of ``lobby``:
    ``data_dir/bots/<lobby id>/<index>``, so that the bots of two tables -- two hosts with
    ``--bots`` on one machine, a ``play`` table beside a ``host`` one -- never share a key
    (nor the random stream a bot derives from its key).  A table begun before that layout
    goes on in the folder it began in (``data_dir/bots/<index>``)."""
    before = data_dir / "bots" / str(index)
    if (before / "tables" / lobby.hex()).is_dir():
        return before
    return data_dir / "bots" / lobby.hex() / str(index)


def bot_node(
    data_dir: Path,
    index: int,
    invite: Invite,
    pace: float,
    spec: str | None = None,
    emit: Emit | None = None,
    *,
    host: TableOptions | None = None,
) -> TableNode:
    """Bot number ``index`` of a table this process seats bots at: its own keys and folder
    (:func:`bot_folder`), the bot ``spec`` names (a named strength, or any spec of
    :func:`client.games.bot_maker`; ``None``: the game's default bot), named with it ("Ada
    (hard)"), ``pace`` seconds a decision at least; a search bot tells ``emit`` how its
    thinking goes.  ``host``: the options of the host this process runs the bot for; the bot
    is reached as :func:`bot_reach` says (None: on loopback, a table of this machine alone)."""
    spec = spec or entry(invite.game).default_bot
    folder = bot_folder(data_dir, invite.lobby_id, index)
    identity = identity_at(folder)
    config = NodeConfig(
        data_dir=folder,
        reach=Reach() if host is None else bot_reach(host),
        pacing=Pacing(pace=pace),
        name=bot_name(index, spec),
    )
    return TableNode(
        config,
        identity,
        invite=invite,
        decider=decider(invite.game, spec, ChanceStream(identity.seed).child("bot"), emit),
    )


def bot_reach(host: TableOptions) -> Reach:
    """Where a host's bot seat listens and how it links: where the host listens, through
    the host's relay if it has one (then it listens nowhere).  The start gives a seat the
    address the host saw its link come from -- for a bot on the host's machine that dials
    the invite's LAN address, that LAN address -- so a bot that listened on loopback alone
    could never be dialled there (docs/netplay.md, "Where a host's bot seats are reached")."""
    return Reach(
        listen_port=0 if host.via is None else None,
        listen_host=host.listen_host,
        advertise_host=host.advertise_host,
        via=host.via,
        via_key=host.via_key,
        spectators=host.spectators,
    )
