"""Command of Nature as an AI player reckons it: a side loses with its Sage, so a Sage's
HP left counts most; then the Elementals standing (their HP, STR and tokens), the
levels earned by defeating them, gold, and the cards a player owns to fight with."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from ai.judges import Judge
from rules.command_of_nature.setup import card_of
from rules.command_of_nature.state import Side, State
from rules.command_of_nature.table import elemental_def

SAGE_HP = 2.0  # each HP a Sage has left
HP = 0.35  # each HP another Elemental has left (and each shield, anywhere)
STR = 0.45  # each point of an Elemental's STR, boosts included
STANDING = 1.0  # an Elemental in the formation at all
LEVEL = 0.9
GOLD = 0.15
CARD = 0.12  # each point of cost of the cards a player owns beyond the Sage pack


class CommandOfNatureJudge(Judge):
    """Attack, summon and play Commands more than draw, swap or stop."""

    weights: ClassVar[dict[str, float]] = {
        "attack": 5.0,
        "summon": 3.0,
        "play": 2.0,
        "instant": 1.5,
        "buy": 2.0,
        "faction": 2.0,
        "daybreak": 3.0,
        "swap": 0.2,
        "draw": 0.4,
        "refresh": 0.1,
        "sell": 0.2,
        "phase": 0.3,
        "end": 0.3,
        "done": 0.3,
    }
    scale = 6.0

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        mine = state.side_of(seat)
        others = [s for s in state.sides if s.team != mine.team]
        return _strength(state, mine) - sum(_strength(state, s) for s in others) / len(others)


def _strength(state: State, side: Side) -> float:
    """A side's standing: its formation, levels, gold and bought cards."""
    total = GOLD * side.gold
    for pos in side.formation.occupied():
        elemental = side.formation.at(pos)
        assert elemental is not None
        definition = elemental_def(state, elemental.card)
        left = max(0, definition.hp - elemental.damage) + elemental.shields
        if definition.kind == "sage":
            total += SAGE_HP * left
        else:
            total += STANDING + HP * left + STR * (definition.strength + elemental.boosts)
    for seat in side.seats:
        player = state.players[seat]
        total += LEVEL * player.level
        for card in (*player.hand, *player.deck, *player.discard):
            definition = card_of(state, card)
            if not definition.in_sage_pack:
                total += CARD * definition.cost
    return total
