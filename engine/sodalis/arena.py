"""The Sodalis arena: spaces, sides, impassable terrain, bases, Artifacts, distances.

The arena is data (``data/arena.toml``): three hexagonal board pieces listed space by space
in axial coordinates ``(q, r)``.  :func:`load_arena` reads and validates it against the
requirements of ``docs/rules/sodalis.md`` section 5 (three joined hexagonal pieces, exactly 10
impassable spaces outside the bases, the centre and the Paragon, connected, a reflection that
swaps the bases and fixes the centre and the Paragon, at least six free spaces per base) and
precomputes the walking distance between every two passable spaces once ("the shortest
walking path possible, disregarding other units": impassable spaces are detours, units are
not).  An :class:`Arena` is immutable and shared by every game.

Text layout for screens: space ``(q, r)`` is drawn at text row ``r - r_min`` and text column
``2 * (2q + r - c_min)``; :meth:`Arena.text_position` gives it and :attr:`Arena.text_size` the
whole block (rows, columns).
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

import attrs

from fairtable.engine.errors import CardDataError
from fairtable.engine.sodalis.team import TEAMS, Team

Space = tuple[int, int]
DIRECTIONS: tuple[Space, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
IMPASSABLE_COUNT = 10
FREE_BASE_SPACES = 6


def neighbours_of(space: Space) -> tuple[Space, ...]:
    q, r = space
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def hex_distance(a: Space, b: Space) -> int:
    """Straight hex distance, ignoring terrain."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def euclid2(a: Space, b: Space) -> int:
    """Four times the squared straight-line distance between two space centres (an integer:
    no floats in the rules)."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (2 * dq + dr) ** 2 + 3 * dr * dr


def hexagon(centre: Space, radius: int) -> frozenset[Space]:
    cq, cr = centre
    return frozenset(
        (cq + dq, cr + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if max(abs(dq), abs(dr), abs(dq + dr)) <= radius
    )


@attrs.frozen(eq=False)
class Arena:
    name: str
    spaces: frozenset[Space]
    impassable: frozenset[Space]
    centre: Space
    paragon: Space
    bases: dict[Team, frozenset[Space]]
    base_centres: dict[Team, Space]
    artifacts: dict[Team, Space]  # each team's Artifact's starting space
    pieces: tuple[tuple[str, Space, int], ...]
    passable: frozenset[Space] = attrs.field(init=False)
    adjacent: dict[Space, tuple[Space, ...]] = attrs.field(init=False)
    dist: dict[Space, dict[Space, int]] = attrs.field(init=False)
    _origin: tuple[int, int] = attrs.field(init=False)
    text_size: tuple[int, int] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        passable = self.spaces - self.impassable
        adjacent = {s: tuple(n for n in neighbours_of(s) if n in passable) for s in passable}
        dist: dict[Space, dict[Space, int]] = {}
        for start in sorted(passable):
            found = {start: 0}
            queue = deque([start])
            while queue:
                here = queue.popleft()
                for n in adjacent[here]:
                    if n not in found:
                        found[n] = found[here] + 1
                        queue.append(n)
            dist[start] = found
        rows = [r for _, r in self.spaces]
        cols = [2 * q + r for q, r in self.spaces]
        object.__setattr__(self, "passable", frozenset(passable))
        object.__setattr__(self, "adjacent", adjacent)
        object.__setattr__(self, "dist", dist)
        object.__setattr__(self, "_origin", (min(rows), min(cols)))
        object.__setattr__(
            self, "text_size", (max(rows) - min(rows) + 1, 2 * (max(cols) - min(cols)) + 1)
        )

    # -- geometry -------------------------------------------------------------------------
    def distance(self, a: Space, b: Space) -> int | None:
        """Walking distance between two passable spaces (None: unreachable or impassable)."""
        row = self.dist.get(a)
        return None if row is None else row.get(b)

    def neighbours(self, space: Space) -> tuple[Space, ...]:
        """The passable spaces sharing a side with ``space``."""
        return self.adjacent.get(space, ())

    def base_of(self, team: Team) -> frozenset[Space]:
        return self.bases[team]

    def text_position(self, space: Space) -> tuple[int, int]:
        """(row, column) of a space in the text drawing of the arena (0-based)."""
        q, r = space
        return r - self._origin[0], 2 * (2 * q + r - self._origin[1])

    def text_positions(self) -> Iterable[tuple[Space, int, int]]:
        """Every space with its text (row, column), in reading order."""
        placed = [(self.text_position(s), s) for s in self.spaces]
        for (row, col), s in sorted(placed):
            yield s, row, col


# -- loading and validation -------------------------------------------------------------------
def _space(value: Any, file: str, field: str) -> Space:
    if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int for v in value):
        raise CardDataError(file, "", field, "a space is [q, r], two whole numbers")
    return (value[0], value[1])


def _spaces(value: Any, file: str, field: str) -> list[Space]:
    if not isinstance(value, list):
        raise CardDataError(file, "", field, "expected a list of spaces")
    out = [_space(v, file, field) for v in value]
    if len(set(out)) != len(out):
        raise CardDataError(file, "", field, "a space is listed twice")
    return out


def _reflections() -> list[tuple[int, int, int, int]]:
    """The six reflections of the hex grid through the origin, as matrices acting on (q, r)."""
    out = []
    for perm in ((1, 0, 2), (0, 2, 1), (2, 1, 0)):  # swap two cube coordinates
        for sign in (1, -1):

            def image(
                q: int, r: int, perm: tuple[int, int, int] = perm, sign: int = sign
            ) -> tuple[int, int]:
                cube = (q, r, -q - r)
                return sign * cube[perm[0]], sign * cube[perm[1]]

            a, c = image(1, 0)
            b, d = image(0, 1)
            out.append((a, b, c, d))
    return out


def find_mirror(arena: Arena) -> Any:
    """A reflection of the arena swapping the two bases and fixing centre and Paragon, as a
    function on spaces (None if there is none)."""
    (bq, br), (tq, tr) = arena.base_centres[Team.DAWN], arena.base_centres[Team.DUSK]
    for a, b, c, d in _reflections():
        oq, orr = tq - (a * bq + b * br), tr - (c * bq + d * br)

        def mirror(
            s: Space, a: int = a, b: int = b, c: int = c, d: int = d, oq: int = oq, orr: int = orr
        ) -> Space:
            return a * s[0] + b * s[1] + oq, c * s[0] + d * s[1] + orr

        if (
            {mirror(s) for s in arena.spaces} == arena.spaces
            and {mirror(s) for s in arena.impassable} == arena.impassable
            and {mirror(s) for s in arena.bases[Team.DAWN]} == arena.bases[Team.DUSK]
            and mirror(arena.artifacts[Team.DAWN]) == arena.artifacts[Team.DUSK]
            and mirror(arena.centre) == arena.centre
            and mirror(arena.paragon) == arena.paragon
        ):
            return mirror
    return None


def parse_arena(data: dict[str, Any], file: str = "arena.toml") -> Arena:
    """Build and validate an arena from parsed TOML."""
    known = {"name", "centre", "paragon", "impassable", "pieces", "bases", "artifacts"}
    for key in sorted(set(data) - known):
        raise CardDataError(file, "", key, "unknown field")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise CardDataError(file, "", "name", "the arena needs a name")
    pieces_raw = data.get("pieces")
    if not isinstance(pieces_raw, list) or len(pieces_raw) != 3:
        raise CardDataError(file, "", "pieces", "the arena is three board pieces")
    spaces: set[Space] = set()
    pieces = []
    for i, piece in enumerate(pieces_raw):
        field = f"pieces[{i}]"
        if not isinstance(piece, dict) or set(piece) != {"name", "centre", "radius", "spaces"}:
            raise CardDataError(file, "", field, "a piece has name, centre, radius and spaces")
        centre = _space(piece["centre"], file, field + ".centre")
        radius = piece["radius"]
        if type(radius) is not int or not 1 <= radius <= 4:
            raise CardDataError(file, "", field + ".radius", "a radius from 1 to 4")
        listed = set(_spaces(piece["spaces"], file, field + ".spaces"))
        if listed != hexagon(centre, radius):
            raise CardDataError(
                file,
                "",
                field + ".spaces",
                "the spaces of a piece form a hexagon around its centre",
            )
        if listed & spaces:
            raise CardDataError(file, "", field + ".spaces", "board pieces overlap")
        spaces |= listed
        pieces.append((str(piece["name"]), centre, radius))
    for i, (_, centre, radius) in enumerate(pieces):
        mine = hexagon(centre, radius)
        others = spaces - mine
        if not any(n in others for s in mine for n in neighbours_of(s)):
            raise CardDataError(file, "", f"pieces[{i}]", "a piece is not joined to the others")
    arena_spaces = frozenset(spaces)
    impassable = frozenset(_spaces(data.get("impassable"), file, "impassable"))
    if len(impassable) != IMPASSABLE_COUNT:
        raise CardDataError(
            file, "", "impassable", f"exactly {IMPASSABLE_COUNT} impassable spaces (l. 36)"
        )
    if not impassable <= arena_spaces:
        raise CardDataError(file, "", "impassable", "an impassable space is off the arena")
    centre = _space(data.get("centre"), file, "centre")
    paragon = _space(data.get("paragon"), file, "paragon")
    bases_raw = data.get("bases")
    if not isinstance(bases_raw, dict) or set(bases_raw) != set(TEAMS):
        raise CardDataError(file, "", "bases", "one base for dawn and one for dusk")
    bases: dict[Team, frozenset[Space]] = {}
    base_centres: dict[Team, Space] = {}
    for team in TEAMS:
        raw = bases_raw[team]
        field = f"bases.{team}"
        if not isinstance(raw, dict) or set(raw) != {"centre", "spaces"}:
            raise CardDataError(file, "", field, "a base has a centre and spaces")
        base_centres[team] = _space(raw["centre"], file, field + ".centre")
        bases[team] = frozenset(_spaces(raw["spaces"], file, field + ".spaces"))
        if base_centres[team] not in bases[team] or not bases[team] <= arena_spaces:
            raise CardDataError(file, "", field, "a base lies on the arena around its centre")
        if bases[team] & impassable:
            raise CardDataError(file, "", field, "no impassable space in a base")
        if len(bases[team]) - 1 < FREE_BASE_SPACES:
            raise CardDataError(
                file, "", field, f"a base has at least {FREE_BASE_SPACES} spaces beside its centre"
            )
    if bases[Team.DAWN] & bases[Team.DUSK]:
        raise CardDataError(file, "", "bases", "the two bases overlap")
    arts = data.get("artifacts")
    if not isinstance(arts, dict) or set(arts) != set(TEAMS):
        raise CardDataError(file, "", "artifacts", "one Artifact for dawn and one for dusk")
    artifacts = {t: _space(arts[t], file, f"artifacts.{t}") for t in TEAMS}
    for team in TEAMS:
        if artifacts[team] != base_centres[team.other]:
            raise CardDataError(
                file,
                "",
                f"artifacts.{team}",
                "each Artifact starts at the centre of the other team's base",
            )
    for field, space in (("centre", centre), ("paragon", paragon)):
        if space not in arena_spaces or space in impassable:
            raise CardDataError(file, "", field, "must be a passable space of the arena")
        if any(space in b for b in bases.values()):
            raise CardDataError(file, "", field, "must lie outside both bases")
    if centre == paragon:
        raise CardDataError(file, "", "paragon", "the Paragon does not stand on the centre")
    arena = Arena(
        name,
        arena_spaces,
        impassable,
        centre,
        paragon,
        bases,
        base_centres,
        artifacts,
        tuple(pieces),
    )
    passable = arena.passable
    if len(arena.dist[centre]) != len(passable):
        raise CardDataError(file, "", "impassable", "the passable spaces are not all connected")
    if arena.distance(centre, artifacts[Team.DAWN]) != arena.distance(centre, artifacts[Team.DUSK]):
        raise CardDataError(file, "", "centre", "the centre is equally far from both Artifacts")
    far = {t: min(arena.dist[paragon][s] for s in bases[t]) for t in TEAMS}
    if far[Team.DAWN] != far[Team.DUSK]:
        raise CardDataError(file, "", "paragon", "the Paragon is equally far from both bases")
    if find_mirror(arena) is None:
        raise CardDataError(
            file, "", "pieces", "no reflection swaps the bases and fixes the centre and the Paragon"
        )
    return arena


def load_arena(path: str | None = None) -> Arena:
    """Read and validate an arena file (the standard one when ``path`` is None)."""
    if path is None:
        source = resources.files("fairtable.engine.sodalis") / "data" / "arena.toml"
        text, file = source.read_text(encoding="utf-8"), "engine/sodalis/data/arena.toml"
    else:
        with open(path, encoding="utf-8") as handle:
            text, file = handle.read(), path
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(file, "", "", f"not valid TOML: {exc}") from None
    return parse_arena(data, file)


@cache
def standard_arena() -> Arena:
    """The arena every game is played on (loaded and validated once)."""
    return load_arena()
