"""A formation: three rows of spaces facing the enemy, Row I in front.

Two players each have a pyramid of 1, 2 and 3 spaces; a team of four has two
pyramids side by side (2, 4 and 6 spaces), one half set up by each teammate.

Geometry (the rulebook leaves it to the table, so this is the project's reading):
a space touches its neighbours in the same row and, in the rows in front and
behind, the spaces it sits between, as the cards lie in a pyramid. Two Elementals
are connected when nothing stands between them: side by side in a row (empty
spaces between them don't count), or in touching spaces of neighbouring rows.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, Field

ROWS = 3
ROW_NAMES = ("I", "II", "III")
HALF_SIZES = (1, 2, 3)  # one pyramid: Row I, Row II, Row III

Pos = tuple[int, int]  # (row, space): row 0 is Row I, the front


class Elemental(BaseModel):
    """An Elemental standing in a formation, with its tokens."""

    card: int
    owner: int  # the seat whose half of the formation it belongs to
    damage: int = 0
    shields: int = 0
    boosts: int = 0


class Formation(BaseModel):
    """The spaces of one side, front row first; `halves` is 1 (2 players) or 2 (a team)."""

    halves: int = 1
    rows: list[list[Elemental | None]] = Field(default_factory=list)

    @classmethod
    def empty(cls, halves: int) -> Formation:
        return cls(halves=halves, rows=[[None] * (size * halves) for size in HALF_SIZES])

    def at(self, pos: Pos) -> Elemental | None:
        row, space = pos
        return self.rows[row][space]

    def put(self, pos: Pos, elemental: Elemental | None) -> None:
        row, space = pos
        self.rows[row][space] = elemental

    def has(self, pos: Pos) -> bool:
        """Whether this is a space of the formation."""
        row, space = pos
        return 0 <= row < len(self.rows) and 0 <= space < len(self.rows[row])

    def positions(self) -> Iterator[Pos]:
        """Every space, front row first, left to right."""
        for row, spaces in enumerate(self.rows):
            for space in range(len(spaces)):
                yield row, space

    def occupied(self) -> list[Pos]:
        return [
            (r, s)
            for r, spaces in enumerate(self.rows)
            for s, e in enumerate(spaces)
            if e is not None
        ]

    def half_of(self, pos: Pos) -> int:
        """Which teammate's half a space belongs to (always 0 with two players)."""
        row, space = pos
        return space // HALF_SIZES[row]

    def where(self, card: int) -> Pos | None:
        """The space of the Elemental with this card, if it stands here."""
        for r, spaces in enumerate(self.rows):
            for s, e in enumerate(spaces):
                if e is not None and e.card == card:
                    return r, s
        return None


# --------------------------------------------------------------------------- geometry


def touching(formation: Formation, pos: Pos) -> list[Pos]:
    """The spaces in the neighbouring rows that this space sits against."""
    row, space = pos
    half, offset = divmod(space, HALF_SIZES[row])
    found: list[Pos] = []
    if row + 1 < ROWS:  # behind: the two spaces it sits between
        base = half * HALF_SIZES[row + 1] + offset
        found += [(row + 1, base), (row + 1, base + 1)]
    if row > 0:  # in front: the spaces that sit between it and its neighbours
        size = HALF_SIZES[row - 1]
        for j in (offset - 1, offset):
            if 0 <= j < size:
                found.append((row - 1, half * size + j))
    return found


def connected(formation: Formation, a: Pos, b: Pos) -> bool:
    """Whether the Elementals in `a` and `b` are connected (nothing between them)."""
    if a == b or formation.at(a) is None or formation.at(b) is None:
        return False
    if a[0] == b[0]:
        low, high = sorted((a[1], b[1]))
        return all(formation.at((a[0], s)) is None for s in range(low + 1, high))
    return b in touching(formation, a)


def connected_group(formation: Formation, start: Pos, *, faction_of: dict[int, str]) -> set[Pos]:
    """Every Elemental reachable from `start` through connected Elementals of its faction
    (`faction_of` maps card -> faction), `start` included."""
    first = formation.at(start)
    if first is None:
        return set()
    faction = faction_of[first.card]
    group, frontier = {start}, [start]
    while frontier:
        here = frontier.pop()
        for other in formation.occupied():
            if other in group or faction_of[formation.at(other).card] != faction:  # type: ignore[union-attr]
                continue
            if connected(formation, here, other):
                group.add(other)
                frontier.append(other)
    return group


def distance(attacker: Pos, target: Pos) -> int:
    """Rows between an attacker and its target: own row + enemy row − 1 (1-based), so
    Row I against Row I is 1 (melee) and Row II against Row I is 2."""
    return attacker[0] + target[0] + 1


# --------------------------------------------------------------------------- placing and shifting


def summon_spaces(formation: Formation, half: int | None = None) -> list[Pos]:
    """Where an Elemental may be summoned: the empty spaces of the frontmost row that
    has one (of one teammate's half, when `half` is given)."""
    for row, spaces in enumerate(formation.rows):
        empty = [
            (row, s)
            for s in range(len(spaces))
            if spaces[s] is None and (half is None or formation.half_of((row, s)) == half)
        ]
        if empty:
            return empty
    return []


def gap_to_fill(formation: Formation) -> tuple[Pos, list[Pos]] | None:
    """The frontmost empty space that must be filled, and the Elementals that may move
    into it; None when Rows I and II have no gap with anything standing behind.

    Elementals move forward one row at a time: a gap in Row I takes one from Row II,
    and when Row II is empty its own gap is filled from Row III first."""
    for row in range(ROWS - 1):
        gaps = [(row, s) for s, e in enumerate(formation.rows[row]) if e is None]
        behind = [p for p in formation.occupied() if p[0] > row]
        if not gaps or not behind:
            continue
        next_row = [p for p in behind if p[0] == row + 1]
        if next_row:
            return gaps[0], next_row
        return (row + 1, 0), [p for p in behind if p[0] == row + 2]
    return None


def move(formation: Formation, source: Pos, target: Pos) -> None:
    """Move an Elemental (with its tokens) to an empty space."""
    elemental = formation.at(source)
    assert elemental is not None and formation.at(target) is None
    formation.put(target, elemental)
    formation.put(source, None)


def swap(formation: Formation, a: Pos, b: Pos) -> None:
    """Swap two Elementals' spaces (tokens travel with them)."""
    first, second = formation.at(a), formation.at(b)
    formation.put(a, second)
    formation.put(b, first)
