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
# Actions that move the game on (the phase, the turn; Mystic Vale's stop, which ends the
# Planting): what a tie goes to, so that a choice that changes nothing never wins by
# being listed first, nor a risk that gains nothing (a push that may Spoil).
PROGRESS = frozenset({"end", "phase", "done", "stop"})


class Judge:
    """The defaults: any legal move, uniformly, and every choice searched."""

    # How likely a quick playout picks each kind of action, relative to 1 (others).
    weights: ClassVar[dict[str, float]] = {}
    scale = 1.0  # a `score` difference this large is worth about 73 % (logistic)
    sure_after = 3  # tries of every choice before a search may stop early
    novice: Judge | None = None  # the easy level's simpler heuristics (None: these)
    # Kinds of action always searched, each card at least in the form that looks best
    # (attacks, Commands, buys): one step ahead they may look no better than a move
    # that changes little, and they are what a turn is for.
    always: ClassVar[frozenset[str]] = frozenset()
    # Turns a playout plays on after the decision's own, for every choice alike: where
    # what the other side does next decides what a move is worth.
    turns_after = 0

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

    def turn(self, state: BaseModel) -> int:
        """A count of the turns taken, where the game keeps one: a playout ends with the
        turn under way even when the same seat plays the next (an extra turn), so that
        no choice is judged a turn further on than another. 0 where it doesn't."""
        return 0

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
        """The choices worth searching: all of them, up to SHORTLIST; beyond, every
        action of the kinds `always` searched (each card in its best-looking form), then
        the ones that look best one step ahead in an imagined `world` (`glance`), moving
        on first among equals."""
        if len(legal) <= SHORTLIST:
            return legal
        worth = {a.key: self.glance(game, world, seat, a) for a in legal}
        ranked = sorted(legal, key=lambda a: (-worth[a.key], a.kind not in PROGRESS))
        kept: dict[str, Action] = {}
        cards: set[tuple[str, str]] = set()
        for action in ranked:
            if action.kind in self.always and (card := self.card(action)) not in cards:
                cards.add(card)
                kept[action.key] = action
        for action in ranked[: max(0, SHORTLIST - len(kept))]:
            kept.setdefault(action.key, action)
        return [a for a in ranked if a.key in kept]

    def card(self, action: Action) -> tuple[str, str]:
        """What makes two actions of an `always` kind the same choice in other forms:
        their kind and the card they play (the first argument)."""
        return (action.kind, action.args[0] if action.args else "")

    def glance(self, game: Game, world: BaseModel, seat: Seat, action: Action) -> float:
        """A choice's worth one step ahead in an imagined world."""
        after, _ = game.apply(world, seat, action, random.Random(0))
        return self.value(game, after, seat)
