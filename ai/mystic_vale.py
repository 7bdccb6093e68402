"""Mystic Vale as an AI player reckons it: the score as it would be counted now (VP
tokens, the cards' and vales' VP, curses), plus what the player's 20 cards will yield
in the rounds left (mana and spirits to buy with, VP symbols, growth; decay against
them), which matters less as the VP pool empties."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from ai.judges import Judge
from rules.core import Action
from rules.mystic_vale.scoring import score
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import decay_count, shown

# What one symbol on a card is worth, in VP, over a whole game still ahead.
ENGINE = {
    "mana": 1.2,
    "sky": 0.9,
    "animal": 0.9,
    "water": 0.9,
    "plant": 0.9,
    "guardian": 0.5,
    "vp": 2.0,
    "growth": 0.6,
    "decay": -0.8,
    "curse": -0.6,
}

# How much a quick playout favours a push, by the decay counted now (0, 1, 2, 3 or more).
PUSH = (1.5, 0.8, 0.25, 0.03)


class MysticValeJudge(Judge):
    """Push on while it is safe, buy what can be bought, then sleeve and finish."""

    weights: ClassVar[dict[str, float]] = {
        "push": 3.0,
        "stop": 1.0,
        "buy": 4.0,
        "vale": 3.0,
        "upgrade": 3.0,
        "sleeve": 2.0,
    }
    scale = 6.0

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        mine = _standing(state, seat)
        others = [p.seat for p in state.players if p.seat != seat and not p.conceded]
        if not others:
            return mine
        return mine - max(_standing(state, s) for s in others)

    def weight(self, state: BaseModel, seat: int, action: Action) -> float:
        assert isinstance(state, State)
        if action.kind == "push":  # push less as the decay nears a Spoil
            return PUSH[min(decay_count(state, seat), len(PUSH) - 1)]
        return super().weight(state, seat, action)


def _standing(state: State, seat: int) -> float:
    """A player's score now, and their cards' yield over the rounds still to come."""
    left = state.pool / state.pool_start if state.pool_start else 0.0
    engine = 0.0
    for card in state.physical:
        if card.owner == seat:
            for symbol, count in shown(state, card).items():
                engine += ENGINE.get(symbol, 0.0) * count
    return score(state, seat) + left * engine
