"""Rules engine speed: random legal games of every mode of every game with an engine."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

from rules.command_of_nature import GAME as COMMAND_OF_NATURE
from rules.core import Action, Game, SeatSpec, rng_for
from rules.mystic_vale import GAME as MYSTIC_VALE
from rules.tooth_and_nail import GAME as TOOTH_AND_NAIL
from tests.rules.test_command_of_nature_playouts import choose as fighting_choice

END_TURN_ODDS = 0.1  # as in the playout tests: end the turn only now and then
Policy = Callable[[random.Random, list[Action]], Action]


@dataclass(frozen=True)
class EngineFigures:
    """What one mode measured."""

    variant: str
    games: int
    actions: int
    seconds: float
    apply_seconds: float

    @property
    def actions_per_second(self) -> float:
        """apply() calls per second of the whole random-play loop."""
        return self.actions / self.seconds

    @property
    def apply_us(self) -> float:
        """Mean microseconds inside apply() alone."""
        return self.apply_seconds / self.actions * 1e6

    @property
    def actions_per_game(self) -> float:
        """Mean length of a game, in actions."""
        return self.actions / self.games


def choose(chooser: random.Random, legal: list[Action]) -> Action:
    """A random legal Tooth & Nail action, ending the turn only now and then."""
    others = [a for a in legal if a.kind != "end"]
    if others and chooser.random() >= END_TURN_ODDS:
        return chooser.choice(others)
    return next((a for a in legal if a.kind == "end"), legal[-1])


def grower(chooser: random.Random, legal: list[Action]) -> Action:
    """A Mystic Vale table that plays on: pushes more often than it stops, buys what it
    can, and ends its Harvest only now and then."""
    kinds = {a.kind for a in legal}
    if "push" in kinds and chooser.random() < 0.65:
        return next(a for a in legal if a.kind == "push")
    for kind in ("vale", "buy"):
        picks = [a for a in legal if a.kind == kind]
        if picks and chooser.random() < 0.85:
            return chooser.choice(picks)
    return chooser.choice(legal)


MODES: list[tuple[Game, str, int, Policy]] = [
    (TOOTH_AND_NAIL, "2p", 2, choose),
    (TOOTH_AND_NAIL, "3p", 3, choose),
    (TOOTH_AND_NAIL, "alliance", 2, choose),
    (TOOTH_AND_NAIL, "4p", 4, choose),
    (COMMAND_OF_NATURE, "2p", 2, fighting_choice),
    (COMMAND_OF_NATURE, "4p", 4, fighting_choice),
    (MYSTIC_VALE, "2p", 2, grower),
    (MYSTIC_VALE, "3p", 3, grower),
    (MYSTIC_VALE, "4p", 4, grower),
]
SHORT_NAMES = {TOOTH_AND_NAIL.id: "T&N", COMMAND_OF_NATURE.id: "CoN", MYSTIC_VALE.id: "MV"}


def measure_mode(
    game: Game, variant: str, players: int, policy: Policy, budget: float
) -> EngineFigures:
    """Play whole random games of one mode until `budget` seconds have passed."""
    games = actions = 0
    apply_seconds = 0.0
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(players)]
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        seed = games
        state: BaseModel = game.setup(variant, seats, {}, seed)
        chooser = random.Random(seed)
        seq = 0
        while game.outcome(state) is None:
            seat = chooser.choice(sorted(game.to_act(state)))
            action = policy(chooser, game.legal_actions(state, seat))
            seq += 1
            before = time.perf_counter()
            state, _ = game.apply(state, seat, action, rng_for(seed, seq))
            apply_seconds += time.perf_counter() - before
        games += 1
        actions += seq
    label = f"{SHORT_NAMES[game.id]} {variant}"
    return EngineFigures(label, games, actions, time.perf_counter() - start, apply_seconds)


def new_game(variant: str, seed: int) -> BaseModel:
    """A fresh Tooth & Nail game of this mode dealt from `seed`."""
    players = next(n for game, v, n, _ in MODES if game is TOOTH_AND_NAIL and v == variant)
    return TOOTH_AND_NAIL.setup(
        variant, [SeatSpec(seat=i, name=f"P{i}") for i in range(players)], {}, seed
    )


def measure_engine(budget_per_mode: float) -> list[EngineFigures]:
    """Every mode, one after the other."""
    return [measure_mode(*mode, budget_per_mode) for mode in MODES]
