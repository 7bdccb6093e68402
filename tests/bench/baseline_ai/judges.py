"""What an AI knows of a game beyond its rules: how good a position looks to a seat
(`value`), which moves are worth trying in a quick playout (`quick`), and which of many
choices are worth searching at all (`shortlist`). One `Judge` per game, in
`ai.tooth_and_nail`, `ai.command_of_nature` and `ai.mystic_vale`; each carries the
simpler heuristics the easy level plays by (`novice`), a practice opponent's.

A judge reads the whole state it is given: the search only ever gives it worlds the
seat imagined (`Game.redeal`), never the real one's hidden cards."""

from __future__ import annotations

import math
import random
from typing import ClassVar

from pydantic import BaseModel

from rules.core import Action, Game, Seat

SHORTLIST = 14  # the most choices one decision searches (the others judged one step ahead)


class Judge:
    """The defaults: any legal move, uniformly, and every choice searched."""

    # How likely a quick playout picks each kind of action, relative to 1 (others).
    weights: ClassVar[dict[str, float]] = {}
    scale = 1.0  # a `score` difference this large is worth about 73 % (logistic)
    sure_after = 3  # tries of every choice before a search may stop early
    novice: Judge | None = None  # the easy level's simpler heuristics (None: these)

    def score(self, state: BaseModel, seat: Seat) -> float:
        """How far ahead `seat`'s side stands, in the game's own units (0: even)."""
        return 0.0

    def value(self, game: Game, state: BaseModel, seat: Seat) -> float:
        """The chance `seat`'s side wins from here, as the heuristics reckon it: 1 or 0
        once the game is over (½ for a side that neither won nor lost)."""
        outcome = game.outcome(state)
        if outcome is not None:
            team = game.team_of(state, seat)
            if any(game.team_of(state, s) == team for s in outcome.winners):
                return 1.0
            if any(game.team_of(state, s) == team for s in outcome.losers):
                return 0.0
            return 0.5
        return 1.0 / (1.0 + math.exp(-self.score(state, seat) / self.scale))

    def settled(self, game: Game, state: BaseModel, seat: Seat) -> bool:
        """Whether a playout may stop here and be judged: what is left of the turn
        hardly changes `value` (default: never before the turn ends)."""
        return False

    def instinct(
        self, game: Game, world: BaseModel, seat: Seat, legal: list[Action]
    ) -> Action | None:
        """A choice made without searching, for decisions the heuristics settle alone
        (reading an imagined `world` only); None to search (the default)."""
        return None

    def weight(self, state: BaseModel, seat: Seat, action: Action) -> float:
        """How much a quick playout favours `action` (see `weights`)."""
        return self.weights.get(action.kind, 1.0)

    def hunch(
        self, game: Game, state: BaseModel, seat: Seat, rng: random.Random
    ) -> list[Action] | None:
        """Moves a quick playout would make here, best first, found without listing the
        legal ones (the first that `apply` accepts is played); None: use `quick`."""
        return None

    def quick(
        self, game: Game, state: BaseModel, seat: Seat, legal: list[Action], rng: random.Random
    ) -> Action:
        """A move for a quick playout: legal, at random, by `weight`."""
        weights = [self.weight(state, seat, a) for a in legal]
        total = sum(weights)
        if total <= 0:
            return legal[int(rng.random() * len(legal))]
        point = rng.random() * total
        for action, w in zip(legal, weights, strict=True):
            point -= w
            if point < 0:
                return action
        return legal[-1]

    def shortlist(
        self, game: Game, world: BaseModel, seat: Seat, legal: list[Action]
    ) -> list[Action]:
        """The choices worth searching: all of them, up to SHORTLIST; beyond, the ones
        that look best one step ahead in an imagined `world`."""
        if len(legal) <= SHORTLIST:
            return legal
        worth = {a.key: self.glance(game, world, seat, a) for a in legal}
        return sorted(legal, key=lambda a: -worth[a.key])[:SHORTLIST]

    def glance(self, game: Game, world: BaseModel, seat: Seat, action: Action) -> float:
        """A choice's worth one step ahead in an imagined world."""
        after, _ = game.apply(world, seat, action, random.Random(0))
        return self.value(game, after, seat)
