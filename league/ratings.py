"""Skill ratings: the Plackett-Luce model of Weng and Lin's Bayesian approximation
(the `openskill` library), one rating per player, game, server and season.

Why this model: a match here is a 2-player game, a 3- or 4-player free-for-all, or two
teams of two; Plackett-Luce rates all of them, with ties and partial rankings ("the
winner, then everyone else"), one match at a time. Glicko-2 rates pairs of players in
rating periods: a team or a free-for-all would have to be cut into pairs, which
counts one game as several.

A rating is a belief about skill: `mu` (the estimate) and `sigma` (its uncertainty).
Players are ranked by the conservative estimate `mu - 3 sigma` (`Skill.shown`), so a
newcomer with one lucky win is not ahead of a steady player; below PROVISIONAL games
a rating is marked provisional.

Ratings depend on the matches alone and their order: `replay` run over the rated
results gives exactly the numbers stored one match at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the library's published defaults: mu 25, sigma 25/3, beta 25/6
PROVISIONAL = 5  # fewer rated games than this: the rating is marked provisional

# How a match ended, as its results record it. A match played to its end is always
# rated; the others as the server chooses (`RATED_BY_DEFAULT`, `/settings ratings`).
PLAYED, CONCEDED, TIMEOUT, ABANDONED, REMOVED, RECORDED = (
    "played",
    "conceded",
    "timeout",
    "abandoned",
    "removed",  # a moderator removed a player (their seat forfeits)
    "recorded",  # a moderator recorded the result of a match played elsewhere
)
# The choices a server makes, each naming the endings it covers.
ENDING_CHOICES: Mapping[str, tuple[str, ...]] = {
    "concessions": (CONCEDED,),
    "timeouts": (TIMEOUT,),
    "abandons": (ABANDONED,),
    "moderators": (REMOVED, RECORDED),
}
RATED_BY_DEFAULT = frozenset({"concessions", "timeouts"})


@dataclass(frozen=True)
class Skill:
    """One player's rating: the estimate and its uncertainty."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> float:
        """The conservative estimate players are ranked by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


FRESH = Skill()


@dataclass(frozen=True)
class Placing:
    """Where one player finished a match: their side (`team`: teammates share it) and
    their place (1 is first; equal places are a tie)."""

    user_id: int
    team: int
    place: int


def counts(ending: str, rated_choices: Iterable[str]) -> bool:
    """Whether a match that ended so is rated, given the server's choices."""
    return ending == PLAYED or any(ending in ENDING_CHOICES[c] for c in rated_choices)


def sides(placings: Sequence[Placing]) -> list[tuple[int, list[int]]] | None:
    """The players of a match grouped by side, each side with its place; None when the
    match can't be rated: fewer than two sides of people, or one person on two sides (a
    seat handed to someone already seated elsewhere)."""
    teams: dict[int, tuple[int, list[int]]] = {}
    for p in placings:
        _, members = teams.setdefault(p.team, (p.place, []))
        if p.user_id not in members:
            members.append(p.user_id)
    everyone = [u for _, members in teams.values() for u in members]
    if len(teams) < 2 or len(set(everyone)) != len(everyone):
        return None
    return list(teams.values())


def rate(placings: Sequence[Placing], before: Mapping[int, Skill]) -> dict[int, Skill]:
    """Every player's rating after the match, from their ratings before it (FRESH for a
    player not rated yet); empty when the match can't be rated (see `sides`)."""
    teams = sides(placings)
    if teams is None:
        return {}
    ratings = [
        [MODEL.create_rating([s.mu, s.sigma]) for s in (before.get(u, FRESH) for u in members)]
        for _, members in teams
    ]
    rated = MODEL.rate(ratings, ranks=[float(place) for place, _ in teams])
    return {
        user: Skill(r.mu, r.sigma)
        for (_, members), new in zip(teams, rated, strict=True)
        for user, r in zip(members, new, strict=True)
    }


@dataclass(frozen=True)
class Change:
    """What one rated match did to one player's rating."""

    user_id: int
    before: Skill
    after: Skill


def replay(matches: Iterable[Sequence[Placing]]) -> tuple[dict[int, Skill], dict[int, int]]:
    """The ratings, and rated games per player, after the matches in their order."""
    skills: dict[int, Skill] = {}
    games: dict[int, int] = {}
    for placings in matches:
        for user, skill in rate(placings, skills).items():
            skills[user] = skill
            games[user] = games.get(user, 0) + 1
    return skills, games
