"""Tournaments: who meets whom each round (Swiss, round robin, single elimination) and
the standings with their tie-breaks.

An entrant is a number (a player, or a team of players in a team variant); `seeds` list
them best first, as the tournament seeded them (by rating or at random). What was played
is a list of `Game`s. Everything here is worked out from those alone, so a round paired
again, or standings after a restart, come out the same.

Swiss rules, as players know them:
- Entrants are ranked by the standings (points, then the tie-breaks, then seed) and paired
  top down; within a score group the top half meets the bottom half (with eight level
  entrants: 1 v 5, 2 v 6, 3 v 7, 4 v 8), an odd one out meets the next group. No rematch
  while any pairing of the round avoids one (an exhaustive search finds it when it
  exists).
- With an odd number, one entrant has a bye (a win, 1 point): the lowest ranked who
  hasn't had one, unless the others could then only be paired with a rematch, in which
  case the next lowest; only when everyone has had a bye does someone get a second.

Points: a win 1, a draw ½, a loss 0, a bye 1. A game stopped before it had a result is a
loss for both (0 each; in a single elimination neither goes on, so the next opponent has
a bye, and a final stopped so leaves no champion). Tie-breaks: Swiss — Buchholz (the points
of everyone one met), then Sonneborn-Berger (the points of the opponents one beat, and
half of those one drew with), then wins; round robin — Sonneborn-Berger, then wins;
single elimination — the rounds won (a bye, a win, or a draw that sent the better seed
through), then points. Last of all, the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SWISS, ROUND_ROBIN, ELIMINATION = "swiss", "round-robin", "elimination"
FORMATS = (SWISS, ROUND_ROBIN, ELIMINATION)
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
SEARCH_LIMIT = 200_000  # pairing attempts before settling for the fewest rematches
TIEBREAKS = {
    SWISS: ("Buchholz", "Sonneborn-Berger", "wins"),
    ROUND_ROBIN: ("Sonneborn-Berger", "wins"),
    ELIMINATION: ("rounds won", "points"),
}
RANKED_BY = {  # what the standings rank by, in order, before the seed
    SWISS: ("points", *TIEBREAKS[SWISS]),
    ROUND_ROBIN: ("points", *TIEBREAKS[ROUND_ROBIN]),
    ELIMINATION: TIEBREAKS[ELIMINATION],
}


@dataclass(frozen=True)
class Game:
    """One pairing of a round and how it ended: `a`'s points (WIN, DRAW or LOSS; None
    while it is being played). A bye has no `b` and is a win; `both_lost`: the game was
    stopped before it had a result, a loss for both."""

    round: int
    a: int
    b: int | None
    points: float | None = None
    both_lost: bool = False

    @property
    def done(self) -> bool:
        """Whether it has a result."""
        return self.b is None or self.points is not None

    def points_of(self, entrant: int) -> float:
        """What the game gave `entrant` (0 while unplayed)."""
        if self.b is None:
            return WIN
        if self.points is None or self.both_lost:
            return 0.0
        return self.points if entrant == self.a else 1.0 - self.points

    def opponent(self, entrant: int) -> int | None:
        """Who `entrant` met in it (None: a bye)."""
        return self.b if entrant == self.a else self.a

    def winner(self) -> int | None:
        """Who won it (None: a draw, a loss for both, or not played yet)."""
        if self.b is None:
            return self.a
        if self.both_lost:
            return None
        if self.points == WIN:
            return self.a
        if self.points == LOSS:
            return self.b
        return None


Pairing = tuple[int, int | None]  # (a, b); b None: a bye


@dataclass(frozen=True)
class Standing:
    """One entrant's line of the standings."""

    entrant: int
    rank: int
    points: float
    tiebreaks: tuple[float, ...]
    wins: int
    draws: int
    losses: int
    byes: int
    dropped: bool = False


def figures(fmt: str, standing: Standing) -> list[tuple[str, float]]:
    """What a standing is ranked by in a format, each named, in order (see `RANKED_BY`)."""
    named = zip(TIEBREAKS[fmt], standing.tiebreaks, strict=True)
    values = {"points": standing.points, **dict(named)}
    return [(name, values[name]) for name in RANKED_BY[fmt]]


def rounds_needed(fmt: str, entrants: int, asked: int | None = None) -> int:
    """How many rounds a tournament of `entrants` plays: as asked for Swiss (at most one
    fewer than the entrants: more would need rematches), everyone once in a round
    robin, until one is left in single elimination."""
    if fmt == SWISS:
        most = max(1, entrants - 1)
        return min(asked or most, most)
    if fmt == ROUND_ROBIN:
        return entrants - 1 if entrants % 2 == 0 else entrants
    return max(1, (entrants - 1).bit_length())


def met(games: Iterable[Game]) -> set[frozenset[int]]:
    """The pairs of entrants who have met."""
    return {frozenset((g.a, g.b)) for g in games if g.b is not None}


def standings(
    fmt: str, seeds: Sequence[int], games: Sequence[Game], dropped: Iterable[int] = ()
) -> list[Standing]:
    """Every entrant ranked: points, then the format's tie-breaks, then seed."""
    gone = set(dropped)
    survived = _rounds_survived(seeds, games, gone) if fmt == ELIMINATION else {}
    points = {e: 0.0 for e in seeds}
    for g in games:
        for e in (g.a, g.b):
            if e is not None:
                points[e] += g.points_of(e)

    def line(e: int) -> Standing:
        mine = [g for g in games if e in (g.a, g.b) and g.done]
        wins = sum(1 for g in mine if g.b is not None and g.points_of(e) == WIN)
        draws = sum(1 for g in mine if g.b is not None and g.points_of(e) == DRAW)
        byes = sum(1 for g in mine if g.b is None)
        faced = [o for g in mine if (o := g.opponent(e)) is not None]
        buchholz = sum(points[o] for o in faced)
        berger = sum(points[g.opponent(e)] * g.points_of(e) for g in mine if g.b is not None)  # type: ignore[index]
        breaks = {
            SWISS: (buchholz, berger, float(wins)),
            ROUND_ROBIN: (berger, float(wins)),
            ELIMINATION: (float(survived.get(e, 0)), points[e]),
        }[fmt]
        return Standing(
            e, 0, points[e], breaks, wins, draws, len(mine) - wins - draws - byes, byes, e in gone
        )

    lines = [line(e) for e in seeds]
    seed = {e: n for n, e in enumerate(seeds)}
    lines.sort(key=lambda s: (-s.points, *(-t for t in s.tiebreaks), seed[s.entrant]))
    if fmt == ELIMINATION:
        lines.sort(key=lambda s: (-s.tiebreaks[0], -s.points, seed[s.entrant]))
    return [
        Standing(s.entrant, n, s.points, s.tiebreaks, s.wins, s.draws, s.losses, s.byes, s.dropped)
        for n, s in enumerate(lines, start=1)
    ]


def _rounds_survived(seeds: Sequence[int], games: Sequence[Game], gone: set[int]) -> dict[int, int]:
    """In a single elimination: how many rounds each entrant came through (a bye, a win,
    a draw that sent them on as the better seed): every round played to the end, and in
    the round being played each game already over (a bye from the start)."""
    survived = dict.fromkeys(seeds, 0)
    played = sorted({g.round for g in games})
    for r in played:
        this = [g for g in games if g.round == r]
        through = {e for e in _bracket_after(seeds, games, r, gone) if e is not None}
        over = all(g.done for g in this)
        if not over:  # the unplayed games' places are not known yet
            through &= {e for g in this if g.done for e in (g.a, g.b) if e is not None}
        for e in through:
            survived[e] += 1
        if not over:
            break
    return survived


# ---------------------------------------------------------------- Swiss


def swiss_round(
    seeds: Sequence[int], games: Sequence[Game], dropped: Iterable[int] = ()
) -> list[Pairing]:
    """The next Swiss round: the entrants still in, ranked by the standings and paired
    (see the module's rules)."""
    gone = set(dropped)
    table = [s for s in standings(SWISS, seeds, games) if s.entrant not in gone]
    ranked = [s.entrant for s in table]
    points = {s.entrant: s.points for s in table}
    return swiss_pairings(ranked, met(games), {g.a for g in games if g.b is None}, points)


def swiss_pairings(
    ranked: Sequence[int],
    met_pairs: set[frozenset[int]],
    had_bye: set[int],
    points: Mapping[int, float] | None = None,
) -> list[Pairing]:
    """Pair entrants ranked best first (with their `points`: all equal if not given):
    no rematch while one can be avoided; the bye (odd numbers) to the lowest ranked
    without one for whom that holds."""
    score = points or {}
    order = list(ranked)
    if len(order) % 2 == 0:
        return _pair_or_fewest(order, met_pairs, score)
    lowest_first = list(reversed(order))
    candidates = [e for e in lowest_first if e not in had_bye] or lowest_first
    for bye in candidates:
        rest = [e for e in order if e != bye]
        paired = _pair_clean(rest, met_pairs, score)
        if paired is not None:
            return [*paired, (bye, None)]
    bye = candidates[0]
    return [*_pair_or_fewest([e for e in order if e != bye], met_pairs, score), (bye, None)]


def _pair_or_fewest(
    order: list[int], met_pairs: set[frozenset[int]], score: Mapping[int, float]
) -> list[Pairing]:
    paired = _pair_clean(order, met_pairs, score)
    return paired if paired is not None else _pair_fewest_rematches(order, met_pairs)


def _partners(first: int, rest: tuple[int, ...], score: Mapping[int, float]) -> list[int]:
    """Whom `first` (the best ranked left) is best paired with, in order: within their
    score group, the top half meets the bottom half (the first of the bottom half,
    then the next...), then the rest of the group, then everyone else by rank."""
    mine = score.get(first, 0.0)
    group = [first, *(e for e in rest if score.get(e, 0.0) == mine)]
    half = max(1, len(group) // 2)
    liked = group[half:] + group[1:half]
    return liked + [e for e in rest if e not in liked]


def _pair_clean(
    order: list[int], met_pairs: set[frozenset[int]], score: Mapping[int, float]
) -> list[Pairing] | None:
    """A pairing with no rematch, each entrant in turn with the partner it is best
    paired with that it can meet (`_partners`); None if there is none (or the search
    ran past its limit)."""
    failed: set[tuple[int, ...]] = set()
    tries = 0

    def solve(left: tuple[int, ...]) -> list[Pairing] | None:
        nonlocal tries
        if not left:
            return []
        if left in failed or tries > SEARCH_LIMIT:
            return None
        first, rest = left[0], left[1:]
        for partner in _partners(first, rest, score):
            tries += 1
            if frozenset((first, partner)) in met_pairs:
                continue
            found = solve(tuple(e for e in rest if e != partner))
            if found is not None:
                return [(first, partner), *found]
        failed.add(left)
        return None

    return solve(tuple(order))


def _pair_fewest_rematches(order: list[int], met_pairs: set[frozenset[int]]) -> list[Pairing]:
    """When every pairing has a rematch: top down, each with the best ranked one left
    they haven't met, else the best ranked one left."""
    left = list(order)
    pairs: list[Pairing] = []
    while left:
        first = left.pop(0)
        partner = next((p for p in left if frozenset((first, p)) not in met_pairs), left[0])
        left.remove(partner)
        pairs.append((first, partner))
    return pairs


# ---------------------------------------------------------------- round robin


def round_robin_round(seeds: Sequence[int], round_no: int) -> list[Pairing]:
    """Round `round_no` (1 on) of a round robin by the circle method: the first seed
    stays, the others turn one place a round; with an odd number, one sits out (a bye)."""
    ring: list[int | None] = list(seeds)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    turn = (round_no - 1) % (n - 1)
    moving = ring[1:]
    moving = moving[-turn:] + moving[:-turn] if turn else moving
    ring = [ring[0], *moving]
    pairs: list[Pairing] = []
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None:
            a, b = b, None
        assert a is not None
        pairs.append((a, b))
    return pairs


# ---------------------------------------------------------------- single elimination


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1 on) in bracket order for a bracket of `size` (a power of two):
    1 meets `size`, and the top two seeds can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def elimination_round(
    seeds: Sequence[int], games: Sequence[Game], round_no: int, dropped: Iterable[int] = ()
) -> list[Pairing]:
    """Round `round_no` of a single elimination: the first by seed in bracket order (the
    top seeds get the byes), then the winners of neighbouring games. A drawn game goes
    to the better seed; an entrant who dropped out loses their next game unplayed; a game
    both lost sends nobody on (the next opponent has a bye)."""
    slots = _bracket_after(seeds, games, round_no - 1, set(dropped))
    pairs: list[Pairing] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is not None:
            pairs.append((a, b))
        elif b is not None:
            pairs.append((b, None))
    return pairs


def champion(
    seeds: Sequence[int], games: Sequence[Game], dropped: Iterable[int] = ()
) -> int | None:
    """The winner of a finished single elimination (None: its final was lost by both)."""
    (winner,) = _bracket_after(seeds, games, rounds_needed(ELIMINATION, len(seeds)), set(dropped))
    return winner


def _bracket_after(
    seeds: Sequence[int], games: Sequence[Game], rounds: int, gone: set[int]
) -> list[int | None]:
    """Who holds each place of the bracket once `rounds` rounds are played."""
    size = 1 << max(0, (len(seeds) - 1).bit_length())
    slots: list[int | None] = [
        seeds[n - 1] if n <= len(seeds) else None for n in bracket_order(size)
    ]
    seed = {e: n for n, e in enumerate(seeds)}
    for r in range(1, rounds + 1):
        played = {frozenset((g.a, g.b)): g for g in games if g.round == r and g.b is not None}
        slots = [
            _advances(a, b, played, seed, gone)
            for a, b in zip(slots[::2], slots[1::2], strict=True)
        ]
    return slots


def _advances(
    a: int | None,
    b: int | None,
    played: dict[frozenset[int], Game],
    seed: dict[int, int],
    gone: set[int],
) -> int | None:
    """Who goes through from one place of the bracket (None: nobody)."""
    if a is None or b is None:
        return a if b is None else b
    game = played.get(frozenset((a, b)))
    if game is not None and game.both_lost:
        return None
    winner = game.winner() if game is not None else None
    if winner is not None:
        return winner
    if a in gone or b in gone:
        return b if a in gone else a
    return min(a, b, key=lambda e: seed[e])
