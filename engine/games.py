"""The registry of games: every game fairtable plays, and what each layer needs of it.

A game is a :class:`GameEntry` published under the entry-point group ``fairtable.games``
(:mod:`importlib.metadata`): the three games of this repository are declared in the
top-level package ``games/`` and registered in its ``pyproject.toml``; a game from outside
registers its own entry in its own package's ``pyproject.toml`` and needs no change here or
in any layer (docs/adding-a-game.md).  :func:`game_names` lists the installed games, :func:`entry`
finds one and :func:`rules` its :class:`GameRules`: how to start a game, the answer classes
that travel on the wire, which parts of an answer are secret, and how to enumerate or pick
legal answers.

A game's rules are a ``GameRules[Game, View, Answer]``, typed by the game's object (a
:class:`~engine.contract.ContractGame`), its view and its decisions' answers, so a reader or
a type checker follows each field into the game.  Code that holds the rules of whichever
game (the registry, the protocol, the client) holds an :data:`AnyGameRules`.

An entry names the parts of the layers above the engine (the client's screen, bots and
search hints) by hooks that import them only when called: this module imports no client
code, and a process loads only the game it plays.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import attrs

from fairtable.engine.contract import ContractGame
from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream

if TYPE_CHECKING:
    from fairtable.engine.referee import Referee

ENTRY_POINT_GROUP = "fairtable.games"
"""The entry-point group a game is published under: ``name = "module:ENTRY"``."""


Game = TypeVar("Game", bound=ContractGame[Any, Any])
View = TypeVar("View")
Answer = TypeVar("Answer")
Game_co = TypeVar("Game_co", bound=ContractGame[Any, Any], covariant=True)

Options = tuple[tuple[str, Any], ...]
"""A table's game options as sorted ``(name, value)`` pairs (values plain JSON data)."""
Summary = dict[str, Any]
"""The game-specific fields of a finished game's report (plain JSON data)."""
Cards = tuple[str, ...]
Gifts = tuple[tuple[int, str], ...]
"""``(recipient, card)`` pairs a decision hands over."""
GiftCounts = tuple[tuple[int, int], ...]


class NewGame(Protocol[Game_co]):
    """How the layers above start a game: ``seats`` players, a round limit (``None``: the
    game's default), the seats whose secrets this instance holds (``None``: all of them)
    and the table's game options."""

    def __call__(
        self,
        seats: int,
        round_limit: int | None = None,
        known: Iterable[int] | None = None,
        options: Options = (),
    ) -> Game_co: ...


def _same(answer: Answer) -> Answer:
    return answer


def _no_cards(answer: object) -> Cards:
    return ()


def _no_gifts(answer: object) -> Gifts:
    return ()


def _no_gift_counts(answer: object) -> GiftCounts:
    return ()


def _not_face_down(answer: object) -> bool:
    return False


def _always_ends(view: object, seat: int) -> bool:
    return True


@attrs.frozen
class GameRules(Generic[Game, View, Answer]):
    """One game, as the layers above the engine see it.

    - ``new_game(seats, round_limit, known, options)`` starts a game; ``known`` are
      the seats whose secrets this instance may hold (``None``: all of them);
      ``options`` are the table's game options as sorted ``(name, value)`` pairs.
    - ``answer_kinds`` are the attrs classes of this game's answers.
    - ``public_part(answer)`` is the answer as other seats receive it.
    - ``secret_cards`` / ``shown_cards`` / ``gifted_cards`` name the hand cards a
      decision puts face down, shows face up, or hands to another seat (``(recipient,
      card)`` pairs);
      ``places_face_down(public answer)`` says whether it puts any face down (so
      its move must carry a commitment).
    - ``gift_counts(public answer)`` gives the ``(recipient, number)`` of the cards a
      decision announces handing over (its move carries that many re-encrypted cards).
    - ``legal_answers(view, decision)`` enumerates answers (may be long);
      ``random_answer(view, decision, rng)`` picks one legal answer.
    - ``summary(game)`` gives the game-specific fields of a finished game's report.
    - ``seat_option`` names the table option each seat may bring (Sovereign: ``"decks"``,
      one custom deck per seat, collected in the lobby into a list in seat order);
      ``load_seat_option(path)`` reads and checks one from a file, returning plain JSON
      data (a typed engine error, e.g. ``CardDataError``, when it is not valid).
    - ``audit_cards(game, cards)``: at the end-of-game audit, the identities of the cards
      still face down under a handle (handle -> card); returns ``(seat, reason)`` for a
      seat whose hidden cards broke the rules (a reflex left in a Sovereign forge), else
      None.
    - ``illegal_answer(decision)``: an answer to ``decision`` the rules refuse, for the
      protocol's cheating peers (``None``: none for this decision; left unset, a cheater sends
      an answer of another decision kind).
    - ``sample_world(view, stream)``: a world consistent with one seat's view, each such
      world equally likely -- an omniscient game and a :class:`~engine.referee.Referee`
      holding its hidden pile orders, to play on from (search bots); ``None`` for a game
      that has none yet.  It reads the view only.
    - ``departure_ends(view, seat)``: whether the game ends if ``seat`` leaves now (a
      resignation ends it) rather than going on without it -- the opposite of
      :meth:`~engine.contract.ContractGame.can_depart`, worked out from what every seat
      sees (the public part of any seat's or a spectator's view), so a screen can say
      what resigning will do.  By default always: a game without departures ends.

    The protocol knows a game through this record, the requests of :mod:`engine.requests`
    and :class:`engine.contract.ContractGame` only: a new game needs no protocol change.
    """

    name: str
    title: str
    seat_counts: tuple[int, ...]
    new_game: NewGame[Game]
    answer_kinds: tuple[type[Answer], ...]
    legal_answers: Callable[[View, Decision], Iterable[Answer]]
    random_answer: Callable[[View, Decision, ChanceStream], Answer]
    summary: Callable[[Game], Summary]
    public_part: Callable[[Answer], Answer] = _same
    secret_cards: Callable[[Answer], Cards] = _no_cards
    shown_cards: Callable[[Answer], Cards] = _no_cards
    gifted_cards: Callable[[Answer], Gifts] = _no_gifts
    places_face_down: Callable[[Answer], bool] = _not_face_down
    gift_counts: Callable[[Answer], GiftCounts] = _no_gift_counts
    default_round_limit: int = 60
    seat_option: str | None = None
    load_seat_option: Callable[[str], object] | None = None
    audit_cards: Callable[[Game, dict[int, str]], tuple[int, str] | None] | None = None
    illegal_answer: Callable[[Decision], Answer | None] | None = None
    sample_world: Callable[[View, ChanceStream], tuple[Game, Referee]] | None = None
    departure_ends: Callable[[View, int], bool] = _always_ends

    @property
    def seat_text(self) -> str:
        """The seat counts in words: "3 to 7", "2, 4 or 6"."""
        counts = list(self.seat_counts)
        if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]}"
        if len(counts) == 1:
            return str(counts[0])
        return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"

    def check_seats(self, seats: int) -> None:
        """Refuse a seat count this game is not played with."""
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seat_counts:
            raise MalformedAnswer(f"{self.title} is for {self.seat_text} players, not {seats}")


AnyGameRules = GameRules[Any, Any, Any]
"""The rules of whichever game: what the registry gives and the layers above hold."""


@attrs.frozen
class Playthrough:
    """A golden playthrough of a game: a table of ``seats`` played by the bots named in
    ``bots`` (one kind per seat) with chance from ``seed``, saved as its answers and digests
    (``<game>-<seats>p-seed<seed>.jsonl``) and replayed by the tests to the same digests."""

    seats: int
    seed: int
    bots: tuple[str, ...]


@attrs.frozen
class BenchPlan:
    """How ``bench/engine.py`` measures a game: at ``seats`` seats, a decision costing at most
    ``plies`` python-chess random-playout plies; a long game plays ``1/fewer`` of the games
    asked for."""

    seats: int
    plies: int = 1
    fewer: int = 1


@attrs.frozen
class GameEntry:
    """One game, for every layer that touches it: what its entry point publishes.

    - ``name``: the game's name on the command line, in table specs and logs.
    - ``rules``: its engine rules (imports the game's engine package when called).
    - ``client``: its client parts -- screen model, panes, help words, card names and rules
      summary (a :class:`client.games.ClientParts`, imported when called).
    - ``bots``: its own bots by kind (a mapping of bot makers, imported when called; the
      random bot is every game's and needs no entry); ``default_bot`` is the kind a bot seat
      plays unless told (``host --bots``, ``play``'s bots, the search bot's rollouts).
    - ``default_seats``: seats when none is asked for (``simulate``);
      ``default_bots``: bot players ``play`` seats beside the human unless told.
    - ``styles``: the screen's colours for the style classes its panes use, as
      ``(class, prompt_toolkit style)`` pairs (``house-amber``, ``fg:#d7a000``).
    - ``search``: the search bot's hints for the game (a :class:`client.search.SearchHints`,
      imported when called); ``None`` where the search bot does not play it.
    - ``bench``: how ``bench/engine.py`` measures it; ``golden``: its golden playthroughs,
      kept in ``golden_dir`` (``None``: the repository's ``tests/engine/golden``).

    The client-side hooks return ``object``: the engine names no client type, and the client
    checks what it is handed (:func:`client.games.client_game`).
    """

    name: str
    rules: Callable[[], AnyGameRules]
    client: Callable[[], object]
    bots: Callable[[], Mapping[str, object]]
    default_bot: str = "random"
    default_seats: int = 2
    default_bots: int = 1
    styles: tuple[tuple[str, str], ...] = ()
    search: Callable[[], object] | None = None
    bench: BenchPlan = BenchPlan(2)
    golden: tuple[Playthrough, ...] = ()
    golden_dir: str | None = None


@functools.cache
def _entries() -> dict[str, GameEntry]:
    found: dict[str, GameEntry] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        if not isinstance(loaded, GameEntry) or loaded.name != point.name:
            raise TypeError(
                f"entry point {point.name!r} of {ENTRY_POINT_GROUP} is not the GameEntry "
                f"of a game by that name: {loaded!r}"
            )
        if found.get(point.name, loaded) is not loaded:
            raise ValueError(f"two installed packages publish the game {point.name!r}")
        found[point.name] = loaded
    return found


def game_names() -> tuple[str, ...]:
    """The names of the installed games, sorted."""
    return tuple(sorted(_entries()))


def entry(name: str) -> GameEntry:
    """The entry of game ``name``; :class:`KeyError` naming the games if there is none."""
    found = _entries().get(name)
    if found is None and not _entries():
        raise KeyError(
            f"no game {name!r}: no game is installed (the {ENTRY_POINT_GROUP} entry points "
            "are read from the installed package: run 'pip install -e .' again)"
        )
    if found is None:
        raise KeyError(f"no game {name!r}: fairtable plays {', '.join(game_names())}")
    return found


@functools.cache
def rules(name: str) -> AnyGameRules:
    """The rules of game ``name``; :class:`KeyError` naming the games if there is none."""
    found = entry(name).rules()
    if not isinstance(found, GameRules) or found.name != name:
        raise TypeError(f"the rules of {name!r} are not a GameRules by that name: {found!r}")
    return found


def table_options(rules_: AnyGameRules, seat_values: list[Any]) -> dict[str, Any]:
    """The table options from what each seat brought (``None``: nothing), in seat order."""
    if rules_.seat_option is None or all(v is None for v in seat_values):
        return {}
    return {rules_.seat_option: list(seat_values)}
