"""What each command was asked to do: one typed, frozen options record per command.

The command line is parsed once (:mod:`client.arguments`), and :func:`parse` reads the
result into the command's record here, checking what can be checked without touching a
file or the network: seat and bot counts against the game's rules, bot kinds, the relay's
address and key, option pairs that need each other.  A refusal is a
:class:`~client.errors.UsageError` saying why in one line.  The record is what the
command's module is handed (:mod:`client.cli` dispatches on its type); no argparse
namespace goes further, and every default is argparse's, given once.

Imports point one way: the command modules import these records, never the reverse.
"""

from __future__ import annotations

import argparse
import base64
import binascii
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import ClassVar

import attrs

from fairtable.client.arguments import build_parser
from fairtable.client.bot_seats import bot_specs
from fairtable.client.errors import UsageError
from fairtable.client.games import bot_maker
from fairtable.engine.games import entry, rules
from fairtable.netplay import DEFAULT_DATA_DIR, SeatClock
from fairtable.protocol import Leavers

__all__ = [
    "AuditOptions",
    "HostOptions",
    "JoinOptions",
    "Options",
    "PeerOptions",
    "PlayOptions",
    "RelayOptions",
    "ReplayOptions",
    "ResumeOptions",
    "RulesOptions",
    "SimulateOptions",
    "TablesOptions",
    "WatchOptions",
    "BUILDERS",
    "from_namespace",
    "parse",
    "parse_namespace",
    "relay_address",
    "relay_key",
]


@attrs.frozen(kw_only=True)
class SimulateOptions:
    """``fairtable simulate``: whole games between bots in this process."""

    command: ClassVar[str] = "simulate"
    game: str
    players: int  # the seat count asked for, or the game's usual one
    games: int
    seed: int
    bots: tuple[str, ...]  # one bot kind a seat
    json: bool
    crypto: bool
    log: str | None  # with crypto: the folder the peers' logs are written to
    cheat: str | None
    cheater: int | None
    departures: tuple[tuple[int, int], ...] = ()  # with crypto: (seat, at its n-th decision)
    vanishings: tuple[tuple[int, int], ...] = ()  # with crypto: (seat, silent from its n-th)


@attrs.frozen(kw_only=True)
class AuditOptions:
    """``fairtable audit``: check a saved table log end to end."""

    command: ClassVar[str] = "audit"
    logfile: str  # as typed: said back as typed (a path, or the start of a table's id)
    json: bool
    data_dir: Path | None = None  # where a table named by its id is looked for


@attrs.frozen(kw_only=True)
class RulesOptions:
    """``fairtable rules``: a game's summary."""

    command: ClassVar[str] = "rules"
    game: str


@attrs.frozen(kw_only=True)
class PlayOptions:
    """``fairtable play``: this terminal's player against bots run by this process."""

    command: ClassVar[str] = "play"
    game: str
    bots: tuple[str, ...]  # one bot spec a bot seat (a count asks for the game's default bot)
    pace: float
    name: str  # "" when none was given
    deck: str | None
    round_limit: int | None
    clock: SeatClock | None
    new: bool
    plain: bool
    data_dir: Path
    mono: bool
    seed: int | None = None  # a seeded table in this process (client.seeded); None: the network


@attrs.frozen(kw_only=True)
class ResumeOptions:
    """``fairtable resume``: list the unfinished games, reopen or resign one."""

    command: ClassVar[str] = "resume"
    number: int | None  # the game to reopen, as the list numbers it
    only_list: bool
    resign: int | None
    pace: float
    plain: bool
    data_dir: Path
    mono: bool


@attrs.frozen(kw_only=True)
class PeerOptions:
    """What ``host`` and ``join`` share: how this peer takes part in a table."""

    port: int
    discovery_port: int  # UDP port of LAN announcements and join codes
    data_dir: Path
    json: bool
    listen_host: str
    via: tuple[str, int] | None  # the relay's address
    via_key: bytes | None  # the relay's pinned key
    bot: str | None  # a headless peer's bot kind; None: a person at the screen
    plain: bool
    deck: str | None
    name: str  # "" when none was given
    advertise: str | None
    seat_timeout: float
    abandon_after: float
    pace: float
    stats: bool
    mono: bool


@attrs.frozen(kw_only=True)
class HostOptions:
    """``fairtable host``: open a table on this machine."""

    command: ClassVar[str] = "host"
    peer: PeerOptions
    game: str
    seats: int
    bots: int
    announce: bool
    spectators: bool
    announce_address: str
    round_limit: int | None
    clock: SeatClock | None
    new: bool
    leavers: Leavers = Leavers.END  # what the table does when a seat vanishes


@attrs.frozen(kw_only=True)
class JoinOptions:
    """``fairtable join``: take a seat at a table."""

    command: ClassVar[str] = "join"
    peer: PeerOptions
    invite: str | None  # an invite or a join code, as typed; None: ask on the LAN
    give_up_after: float


@attrs.frozen(kw_only=True)
class RelayOptions:
    """``fairtable relay``: relay tables for peers that cannot reach each other."""

    command: ClassVar[str] = "relay"
    port: int
    data_dir: Path
    json: bool
    listen_host: str


@attrs.frozen(kw_only=True)
class TablesOptions:
    """``fairtable tables``: what the LAN announces."""

    command: ClassVar[str] = "tables"
    seconds: float
    discovery_port: int
    json: bool


@attrs.frozen(kw_only=True)
class WatchOptions:
    """``fairtable watch``: follow a table as a spectator."""

    command: ClassVar[str] = "watch"
    invite: str
    json: bool
    discovery_port: int
    via: tuple[str, int] | None
    via_key: bytes | None


@attrs.frozen(kw_only=True)
class ReplayOptions:
    """``fairtable replay``: step through a finished table, or export its record."""

    command: ClassVar[str] = "replay"
    table: Path
    export: Path | None
    open_hands: bool
    mono: bool
    data_dir: Path | None = None  # where a table named by its id is looked for


Options = (
    SimulateOptions
    | AuditOptions
    | RulesOptions
    | PlayOptions
    | ResumeOptions
    | HostOptions
    | JoinOptions
    | RelayOptions
    | TablesOptions
    | WatchOptions
    | ReplayOptions
)
"""The options of any one command."""


def parse_namespace(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The arguments as argparse reads them (its refusals exit 2, in one line); only
    :func:`from_namespace` and the command line's own error handling read them."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, so the hint names its own --help
        commands = next(
            a
            for a in parser._actions  # noqa: SLF001 -- argparse's own list
            if isinstance(a, argparse._SubParsersAction)
        )
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def parse(argv: Sequence[str] | None = None) -> Options:
    """The options record of the command ``argv`` names (:class:`UsageError` if refused)."""
    return from_namespace(parse_namespace(argv))


def relay_address(text: str | None) -> tuple[str, int] | None:
    """``--via HOST:PORT``, checked."""
    if text is None:
        return None
    host, _, port = text.rpartition(":")
    if not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise UsageError(f"--via takes HOST:PORT, not {text!r}")
    return host, int(port)


def relay_key(text: str | None) -> bytes | None:
    """``--via-key KEY``: the relay's 32-byte key, as its ``relay_open`` line prints it."""
    if text is None:
        return None
    try:
        key = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, binascii.Error):
        key = b""
    if len(key) != 32:
        raise UsageError("--via-key takes the relay's key as its relay_open line prints it")
    return key


def _data_dir(text: str | None) -> Path:
    return Path(text) if text else DEFAULT_DATA_DIR


def _bot_kind(game: str, kind: str) -> str:
    try:
        bot_maker(game, kind)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return kind


def _round_limit(value: int | None) -> int | None:
    if value is not None and value < 0:
        raise UsageError("--round-limit is a number of rounds (0: no limit)")
    return value


def _simulate(a: argparse.Namespace) -> SimulateOptions:
    game = rules(a.game)
    players: int = a.players
    if players is None:
        players = entry(a.game).default_seats
    elif players not in game.seat_counts:
        raise UsageError(f"{game.title} is for {game.seat_text} players")
    if a.games < 1:
        raise UsageError("--games must be at least 1")
    if a.seed < 0:
        raise UsageError("--seed must be a non-negative integer")
    bots = ("random",) * players
    if a.bots is not None:
        bots = tuple(k.strip() for k in a.bots.split(","))
        if len(bots) != players:
            raise UsageError(f"--bots names {len(bots)} bots but the table has {players} seats")
        for kind in bots:
            _bot_kind(a.game, kind)
    if (a.cheat or a.cheater is not None or a.log) and not a.crypto:
        raise UsageError("--cheat, --cheater and --log need --crypto")
    if a.cheat and a.cheater is None:
        raise UsageError("--cheat needs --cheater SEAT")
    if a.cheater is not None and not 0 <= a.cheater < players:
        raise UsageError(f"--cheater must be a seat from 0 to {players - 1}")
    if a.cheater is not None and not a.cheat:
        raise UsageError("--cheater needs --cheat KIND")
    return SimulateOptions(
        game=a.game,
        players=players,
        games=a.games,
        seed=a.seed,
        bots=bots,
        json=a.json,
        crypto=a.crypto,
        log=a.log,
        cheat=a.cheat,
        cheater=a.cheater,
        departures=_departures(a.depart or [], players, a.crypto, "leave"),
        vanishings=_departures(a.depart or [], players, a.crypto, "vanish"),
    )


def _departures(
    texts: list[str], players: int, crypto: bool, kind: str
) -> tuple[tuple[int, int], ...]:
    """``--depart SEAT@DECISION[:leave|:vanish]``: the seat leaves (``leave``, the default)
    or vanishes for good (``vanish``: it goes silent; the table's rule is then ``go-on``) when
    asked its DECISION-th decision (1: its first); the departures of this ``kind``."""
    if texts and not crypto:
        raise UsageError("--depart needs --crypto")
    out: dict[int, tuple[int, str]] = {}
    for text in texts:
        where, _, how = text.partition(":")
        seat, at_sign, decision = where.partition("@")
        if not (at_sign and seat.isdigit() and decision.isdigit()):
            raise UsageError(f"--depart {text}: write SEAT@DECISION, e.g. 1@3")
        if how not in ("", "leave", "vanish"):
            raise UsageError(
                f"--depart {text}: a seat departs ':leave' (on purpose) or ':vanish' (silent)"
            )
        if not 0 <= int(seat) < players:
            raise UsageError(f"--depart {text}: the seat is one from 0 to {players - 1}")
        if int(decision) < 1 or int(seat) in out:
            raise UsageError(f"--depart {text}: a seat leaves once, at its decision 1 or later")
        out[int(seat)] = (int(decision), how or "leave")
    return tuple(sorted((seat, n) for seat, (n, how) in out.items() if how == kind))


def _play(a: argparse.Namespace) -> PlayOptions:
    game = rules(a.game)
    try:
        bots = bot_specs(a.bots or str(entry(a.game).default_bots), a.game)
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from None
    if len(bots) + 1 not in game.seat_counts:
        could = [n - 1 for n in game.seat_counts if n > 1]
        consecutive = could == list(range(could[0], could[-1] + 1))
        counts = f"{could[0]} to {could[-1]}" if consecutive else ", ".join(map(str, could))
        raise UsageError(f"{game.title} is for {game.seat_text} players: --bots {counts}")
    if a.seed is not None:
        _seeded(a, bots)
    return PlayOptions(
        game=a.game,
        bots=bots,
        pace=a.pace,
        name=a.name or "",
        deck=a.deck,
        round_limit=_round_limit(a.round_limit),
        clock=a.clock,
        new=a.new,
        plain=a.plain,
        data_dir=_data_dir(a.data_dir),
        mono=a.mono,
        seed=a.seed,
    )


def _seeded(a: argparse.Namespace, bots: tuple[str, ...]) -> None:
    """``play --seed``: what a seeded table cannot take is refused (client.seeded)."""
    from fairtable.client.seeded import seeded_bots_refusal

    refusal = seeded_bots_refusal(a.game, bots)
    if refusal:
        raise UsageError(refusal)
    for given, flag in ((a.deck, "--deck"), (a.clock, "--clock")):
        if given is not None:
            raise UsageError(f"--seed: a seeded table is played without {flag}")


def _resume(a: argparse.Namespace) -> ResumeOptions:
    return ResumeOptions(
        number=a.game,
        only_list=a.list,
        resign=a.resign,
        pace=a.pace,
        plain=a.plain,
        data_dir=_data_dir(a.data_dir),
        mono=a.mono,
    )


def _peer(a: argparse.Namespace, game: str | None) -> PeerOptions:
    """What ``host`` and ``join`` share, checked (``game``: the host's)."""
    return PeerOptions(
        port=a.port,
        discovery_port=a.discovery_port,
        data_dir=_data_dir(a.data_dir),
        json=a.json,
        listen_host=a.listen_host,
        via=relay_address(a.via),
        via_key=relay_key(a.via_key),
        bot=a.bot if a.bot is None or game is None else _bot_kind(game, a.bot),
        plain=a.plain,
        deck=a.deck,
        name=a.name or "",
        advertise=a.advertise,
        seat_timeout=a.seat_timeout,
        abandon_after=a.abandon_after,
        pace=a.pace,
        stats=a.stats,
        mono=a.mono,
    )


def _host(a: argparse.Namespace) -> HostOptions:
    game = rules(a.game)
    if a.seats not in game.seat_counts:
        raise UsageError(f"{game.title} is for {game.seat_text} players")
    round_limit = _round_limit(a.round_limit)
    if not 0 <= a.bots < a.seats:
        raise UsageError("--bots must leave the host a seat")
    leavers = Leavers(a.leavers)
    if leavers is Leavers.GO_ON and a.seats < 3:
        raise UsageError(
            f"--leavers go-on needs 3 seats or more: at {a.seats} seats the game cannot go on "
            "without a player, and the one other player would hold the key to your cards"
        )
    return HostOptions(
        leavers=leavers,
        game=a.game,
        seats=a.seats,
        bots=a.bots,
        announce=not a.no_announce,
        spectators=not a.no_spectators,
        announce_address=a.announce_address,
        round_limit=round_limit,
        clock=a.clock,
        new=a.new,
        peer=_peer(a, a.game),
    )


def _join(a: argparse.Namespace) -> JoinOptions:
    if a.invite is None and a.bot is not None:
        raise UsageError("a headless peer needs the invite or a join code")
    return JoinOptions(
        invite=a.invite,
        give_up_after=a.give_up_after,
        peer=_peer(a, None),
    )


def _audit(a: argparse.Namespace) -> AuditOptions:
    return AuditOptions(
        logfile=a.logfile, json=a.json, data_dir=Path(a.data_dir) if a.data_dir else None
    )


def _rules(a: argparse.Namespace) -> RulesOptions:
    return RulesOptions(game=a.game)


def _relay(a: argparse.Namespace) -> RelayOptions:
    return RelayOptions(
        port=a.port, data_dir=_data_dir(a.data_dir), json=a.json, listen_host=a.listen_host
    )


def _tables(a: argparse.Namespace) -> TablesOptions:
    if a.seconds <= 0:
        raise UsageError("--seconds must be positive")
    return TablesOptions(seconds=a.seconds, discovery_port=a.discovery_port, json=a.json)


def _watch(a: argparse.Namespace) -> WatchOptions:
    return WatchOptions(
        invite=a.invite,
        json=a.json,
        discovery_port=a.discovery_port,
        via=relay_address(a.via),
        via_key=relay_key(a.via_key),
    )


def _replay(a: argparse.Namespace) -> ReplayOptions:
    return ReplayOptions(
        table=Path(a.table),
        export=Path(a.export) if a.export else None,
        open_hands=a.open_hands,
        mono=a.mono,
        data_dir=Path(a.data_dir) if a.data_dir else None,
    )


BUILDERS: Mapping[str, Callable[[argparse.Namespace], Options]] = {
    SimulateOptions.command: _simulate,
    AuditOptions.command: _audit,
    RulesOptions.command: _rules,
    PlayOptions.command: _play,
    ResumeOptions.command: _resume,
    HostOptions.command: _host,
    JoinOptions.command: _join,
    RelayOptions.command: _relay,
    TablesOptions.command: _tables,
    WatchOptions.command: _watch,
    ReplayOptions.command: _replay,
}
"""Each command's builder, keyed by its record's own command name."""


def from_namespace(a: argparse.Namespace) -> Options:
    """The record of the command argparse read into ``a``, checked."""
    build = BUILDERS.get(a.command)
    if build is None:
        raise AssertionError(f"no options record for {a.command!r}")
    return build(a)
