"""The registry of games: what the protocol and the client need to know of each.

Every game package ``engine/<name>/`` exports ``RULES``, a :class:`GameRules`:
how to start a game, the answer classes that travel on the wire, which parts
of an answer are secret, and how to enumerate or pick legal answers.  Layers
above the engine look a game up by name here and never import a game package
by hand, so adding a game is adding a package and a line to :data:`GAMES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from engine.errors import MalformedAnswer

GAMES: tuple[str, ...] = ("reign", "sodalis", "sovereign")
"""The games fairtable plays, by the name used on the command line and in table specs."""


def _same(answer: Any) -> Any:
    return answer


def _no_cards(answer: Any) -> tuple[Any, ...]:
    return ()


@attrs.frozen
class GameRules:
    """One game, as the layers above the engine see it.

    - ``new_game(seats, round_limit, known, options)`` starts a game; ``known`` are
      the seats whose secrets this instance may hold (``None``: all of them);
      ``options`` are the table's game options as sorted ``(name, value)`` pairs.
    - ``answer_kinds`` are the attrs classes of this game's answers.
    - ``public_part(answer)`` is the answer as other seats receive it.
    - ``secret_cards`` / ``shown_cards`` / ``gifted_cards`` name the hand cards a
      decision puts face down, shows face up, or hands to another seat;
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

    The protocol knows a game through this record, the requests of :mod:`engine.requests`
    and :class:`engine.contract.ContractGame` only: a new game needs no protocol change.
    """

    name: str
    title: str
    seat_counts: tuple[int, ...]
    new_game: Callable[..., Any]
    answer_kinds: tuple[type, ...]
    legal_answers: Callable[[Any, Any], Iterable[Any]]
    random_answer: Callable[[Any, Any, Any], Any]
    summary: Callable[[Any], dict[str, Any]]
    public_part: Callable[[Any], Any] = _same
    secret_cards: Callable[[Any], tuple[Any, ...]] = _no_cards
    shown_cards: Callable[[Any], tuple[Any, ...]] = _no_cards
    gifted_cards: Callable[[Any], tuple[Any, ...]] = _no_cards
    places_face_down: Callable[[Any], bool] = lambda answer: False
    gift_counts: Callable[[Any], tuple[tuple[int, int], ...]] = _no_cards
    default_round_limit: int = 60
    seat_option: str | None = None
    load_seat_option: Callable[[str], Any] | None = None
    audit_cards: Callable[[Any, dict[int, str]], tuple[int, str] | None] | None = None
    illegal_answer: Callable[[Any], Any] | None = None
    sample_world: Callable[[Any, Any], tuple[Any, Any]] | None = None

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


_REGISTERED: dict[str, GameRules] = {}


def register(rules_: GameRules) -> None:
    """Make a game outside :data:`GAMES` known by its name (a test's toy game): every layer
    that looks games up here can then play it, the protocol included."""
    if rules_.name in GAMES:
        raise ValueError(f"{rules_.name!r} is already one of fairtable's games")
    _REGISTERED[rules_.name] = rules_


def unregister(name: str) -> None:
    """Forget a game :func:`register` made known (nothing if it was not)."""
    _REGISTERED.pop(name, None)


def rules(name: str) -> GameRules:
    """The rules of game ``name``; :class:`KeyError` naming the games if there is none."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name not in GAMES:
        raise KeyError(f"no game {name!r}: fairtable plays {', '.join(GAMES)}")
    module = importlib.import_module(f"engine.{name}")
    found: GameRules = module.RULES
    return found


def table_options(rules_: GameRules, seat_values: list[Any]) -> dict[str, Any]:
    """The table options from what each seat brought (``None``: nothing), in seat order."""
    if rules_.seat_option is None or all(v is None for v in seat_values):
        return {}
    return {rules_.seat_option: list(seat_values)}
