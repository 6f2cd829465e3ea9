"""Custom Sovereign decks ("Customizing Your Deck", rulebook l. 259-267) from a TOML file.

A deck file names a Leader, the 30 cards and the 20 Echoes::

    name = "Iron and Wind"          # optional
    leader = "md-tribune-castra"
    cards = ["md-hunter-seeker", ...]    # 30 ids
    echoes = ["md-echo-first-oath", ...] # 20 ids

:func:`load_deck` reads a file (or TOML text), :func:`parse_deck` checks parsed data against
a :class:`~engine.sovereign.cards.Catalog`; both return a :class:`Deck` or raise
:class:`DeckError` naming the file, the card and the problem.  The checks (readings in
``docs/rules/sovereign.md`` §1.13):

- the Leader is a Leader card; the Citadel is its faction's (the deck file never names one);
- ``cards``: 30 distinct units, augments, facilities or reflexes (never a Leader, Citadel or
  Echo), at least 15 of the Leader's faction (15 chosen from it, 15 more from any faction,
  the Leader's own included);
- ``echoes``: 20 distinct Echoes of any faction.

Which Leaders the seats of one table may play ("no two players may play the same leader")
is a table rule, checked by :meth:`SovereignConfig.check`.  A deck list is public: it is part
of the table's configuration, never a secret.  Only :func:`load_deck` touches a file.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

import attrs

from fairtable.engine.errors import CardDataError
from fairtable.engine.sovereign.cards import Catalog, Faction, standard_catalog
from fairtable.engine.sovereign.kinds import CardType

DECK_RULE = "Customizing Your Deck"
CARDS, LEADER_CARDS, ECHOES = 30, 15, 20
CARD_TYPES = (CardType.UNIT, CardType.AUGMENT, CardType.FACILITY, CardType.REFLEX)
_KEYS = ("echoes", "cards", "leader", "name")


class DeckError(CardDataError):
    """A deck file breaks the deck-building rules or the file format.

    A :class:`CardDataError` (not a :class:`~engine.errors.MalformedAnswer`): a deck is card
    data a player authors and loads before the game, checked against the catalog; it is no
    answer to a pending request and no peer is to blame.  The message reads
    ``<file>: card '<id>', field '<field>': <problem> (Customizing Your Deck)``.
    """

    rule = DECK_RULE

    def __init__(self, file: str, card: str, field: str, problem: str) -> None:
        super().__init__(file, card, field, f"{problem} ({DECK_RULE})")
        self.reason = problem


@attrs.frozen
class Deck:
    """A validated deck: the Leader and Citadel (set aside) and the 50 cards shuffled into
    the deck (``cards`` and ``echoes`` sorted by id)."""

    leader: str
    citadel: str
    faction: str  # the Leader's faction
    cards: tuple[str, ...]
    echoes: tuple[str, ...]
    name: str = ""

    @property
    def deck(self) -> tuple[str, ...]:
        """The 50 cards of the deck pile, sorted by id (as :attr:`Faction.deck`)."""
        return tuple(sorted(self.cards + self.echoes))

    def data(self) -> dict[str, Any]:
        """The deck as plain data, the format of a deck file (:func:`parse_deck` reads it)."""
        out: dict[str, Any] = {
            "leader": self.leader,
            "cards": list(self.cards),
            "echoes": list(self.echoes),
        }
        if self.name:
            out["name"] = self.name
        return out

    @classmethod
    def of_faction(cls, faction: Faction) -> Deck:
        """A faction's pre-built deck (what a seat plays when it names no deck)."""
        return cls(
            faction.leader, faction.citadel, faction.id, faction.cards, faction.echoes, faction.name
        )


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _ids(data: Mapping[str, Any], field: str, file: str) -> list[str]:
    if field not in data:
        raise DeckError(file, "", field, "is missing: list the card ids")
    raw = data[field]
    if not isinstance(raw, list | tuple):
        raise DeckError(file, "", field, f"expected a list of card ids, got {_show(raw)}")
    for value in raw:
        if not isinstance(value, str):
            raise DeckError(file, "", field, f"expected card ids (text), got {_show(value)}")
    return list(raw)


def _known(catalog: Catalog, card: str, field: str, file: str) -> CardType:
    d = catalog.defs.get(card)
    if d is None:
        raise DeckError(file, card, field, "there is no card with this id")
    return d.type


def _unique(ids: list[str], field: str, file: str) -> None:
    seen: set[str] = set()
    for card in ids:
        if card in seen:
            raise DeckError(
                file, card, field, "is listed twice; a deck holds only one of each card"
            )
        seen.add(card)


def parse_deck(data: Any, catalog: Catalog | None = None, file: str = "deck") -> Deck:
    """Check deck data (a parsed deck file) against ``catalog`` (default: the shipped
    factions) and return the :class:`Deck`; ``file`` names the source in errors."""
    catalog = catalog or standard_catalog()
    if not isinstance(data, Mapping):
        raise DeckError(file, "", "", f"expected a table of deck fields, got {_show(data)}")
    extra = sorted((str(k) for k in data if k not in _KEYS), key=repr)
    if "citadel" in extra:
        raise DeckError(
            file,
            "",
            "citadel",
            "a deck names no Citadel: it plays the Citadel of its Leader's faction",
        )
    if extra:
        raise DeckError(
            file,
            "",
            extra[0],
            f"unknown key {_show(extra[0])}; a deck file has name, leader, cards and echoes",
        )
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > 80 or not name.isprintable():
        raise DeckError(
            file, "", "name", f"expected text of at most 80 characters, got {_show(name)}"
        )

    # the Leader
    if "leader" not in data:
        raise DeckError(file, "", "leader", "is missing: a deck has one Leader")
    leader = data["leader"]
    if not isinstance(leader, str):
        raise DeckError(file, "", "leader", f"expected one Leader's card id, got {_show(leader)}")
    kind = _known(catalog, leader, "leader", file)
    if kind is not CardType.LEADER:
        raise DeckError(
            file, leader, "leader", f"is a{'n' if kind[0] in 'aeiou' else ''} {kind}, not a Leader"
        )
    faction = catalog.faction(catalog.defs[leader].faction)

    # the 30 cards
    cards = _ids(data, "cards", file)
    for card in cards:
        kind = _known(catalog, card, "cards", file)
        if kind is CardType.ECHO:
            raise DeckError(
                file,
                card,
                "cards",
                "is an Echo: Echoes are listed in 'echoes', not among the 30 cards",
            )
        if kind in (CardType.LEADER, CardType.CITADEL):
            raise DeckError(
                file,
                card,
                "cards",
                f"is a {kind.capitalize()}: a deck's 30 cards "
                "are units, augments, facilities and reflexes (the Leader is "
                "named in 'leader', the Citadel comes with it)",
            )
    _unique(cards, "cards", file)
    if len(cards) != CARDS:
        raise DeckError(
            file,
            "",
            "cards",
            f"a deck has {CARDS} unique cards (besides its {ECHOES} Echoes), not {len(cards)}",
        )
    own = sum(1 for c in cards if catalog.defs[c].faction == faction.id)
    if own < LEADER_CARDS:
        raise DeckError(
            file,
            leader,
            "cards",
            f"only {own} of the {CARDS} cards are of the "
            f"Leader's faction ({faction.name}); choose at least {LEADER_CARDS} "
            "from it",
        )

    # the 20 Echoes
    echoes = _ids(data, "echoes", file)
    for card in echoes:
        kind = _known(catalog, card, "echoes", file)
        if kind is not CardType.ECHO:
            raise DeckError(
                file, card, "echoes", f"is a{'n' if kind[0] in 'aeiou' else ''} {kind}, not an Echo"
            )
    _unique(echoes, "echoes", file)
    if len(echoes) != ECHOES:
        raise DeckError(file, "", "echoes", f"a deck has {ECHOES} unique Echoes, not {len(echoes)}")
    return Deck(
        leader, faction.citadel, faction.id, tuple(sorted(cards)), tuple(sorted(echoes)), name
    )


def load_deck(
    source: str | os.PathLike[str], catalog: Catalog | None = None, file: str | None = None
) -> Deck:
    """Load a deck file.  ``source`` is a path (a :class:`os.PathLike`, or a string with no
    ``=`` and no line break) or the TOML text itself; ``file`` names it in errors (default:
    the path, or ``"deck"`` for text).  The only I/O of this module: reading that file."""
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "=" not in source and "\n" not in source
    ):
        path = os.fspath(source)
        file = file or str(path)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise DeckError(file, "", "", f"cannot read the deck file: {reason}") from None
    elif isinstance(source, str):
        text, file = source, file or "deck"
    else:
        raise DeckError(
            file or "deck", "", "", f"expected a path or TOML text, got {_show(source)}"
        )
    problem = _over_bounds(text)
    if problem is not None:
        raise DeckError(file, "", "", problem)
    try:
        data = tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of too many digits
        raise DeckError(file, "", "", f"not valid TOML: {str(exc)[:200]}") from None
    return parse_deck(data, catalog, file)


MAX_DECK_TEXT = 1 << 16
"""The longest deck file, in characters (a deck of 30 cards and 20 Echoes is about 2,000)."""
MAX_DECK_DEPTH = 16
"""The deepest nesting of arrays and tables a deck file may have (a deck needs 1)."""
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})


def _over_bounds(text: str) -> str | None:
    """Why a deck file is refused before it is parsed (tomllib recurses into nesting), or
    None.  Brackets inside strings count too: a real deck never nests them 16 deep."""
    if len(text) > MAX_DECK_TEXT:
        return f"{len(text)} characters, over the {MAX_DECK_TEXT}-character limit"
    brackets = "".join(c for c in text if c in "[]{}")
    if len(brackets) > MAX_DECK_DEPTH:
        steps = memoryview(brackets.translate(_STEP).encode("latin-1")).cast("b")
        if max(accumulate(steps)) > MAX_DECK_DEPTH:
            return f"nested deeper than {MAX_DECK_DEPTH} levels"
    return None


def type_counts(deck: Deck, catalog: Catalog | None = None) -> dict[CardType, int]:
    """How many cards of each type the deck holds; the rulebook recommends "approximately 12
    unit cards and 6 of each other card type" (l. 267) but does not require it."""
    catalog = catalog or standard_catalog()
    counts = {t: 0 for t in CARD_TYPES}
    for card in deck.cards:
        counts[catalog.defs[card].type] += 1
    return counts
