"""Arbiter at the table: an AI player for the games that hide cards.

`decide(game, state, seat, level, seed)` picks a legal action for `seat` from what the
seat may know: it imagines the hidden cards (`Game.redeal`) and never reads them (see
`ai.search`). It imports the rules and nothing of the bot; the bot runs it away from
the event loop (`bot.service.players`)."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from pydantic import BaseModel

from ai.command_of_nature import CommandOfNatureJudge
from ai.judges import Judge
from ai.mystic_vale import MysticValeJudge
from ai.search import Budget, Decision, Search
from ai.tooth_and_nail import ToothAndNailJudge
from rules.core import Action, Game, Seat
from rules.registry import GAMES


class Level(StrEnum):
    """How hard the AI plays."""

    EASY = "easy"
    STRONG = "strong"


LEVEL_NAMES = {Level.EASY: "Easy", Level.STRONG: "Strong"}

BUDGETS = {
    Level.EASY: Budget(playouts=24, worlds=1, per_choice=1, seconds=0.2),
    Level.STRONG: Budget(playouts=400, worlds=8, per_choice=24, seconds=0.8),
}

JUDGES: dict[str, Judge] = {
    "tooth-and-nail": ToothAndNailJudge(),
    "command-of-nature": CommandOfNatureJudge(),
    "mystic-vale": MysticValeJudge(),
}


def decide_saved(
    game_id: str, snapshot: str, seat: Seat, level: str, seed: int, seconds: float | None = None
) -> str:
    """`decide` for a state as saved, as an action key: what a worker process runs (it
    gets the saved state and reads only the seat's part of it, see `ai.search`). With
    `seconds`, the level's time per decision is capped there."""
    game = GAMES[game_id]
    state = game.state_model.model_validate_json(snapshot)
    budget = BUDGETS[Level(level)]
    if seconds is not None:
        budget = replace(budget, seconds=min(seconds, budget.seconds or seconds))
    return decide(game, state, seat, Level(level), seed=seed, budget=budget).key


def first_legal_saved(game_id: str, snapshot: str, seat: Seat) -> str:
    """The first legal action of a seat in a saved state, as a key: the last resort when
    the AI cannot decide."""
    game = GAMES[game_id]
    state = game.state_model.model_validate_json(snapshot)
    return game.legal_actions(state, seat)[0].key


def plays(game_id: str) -> bool:
    """Whether the AI can take a seat at this game."""
    return game_id in JUDGES


def decide(
    game: Game,
    state: BaseModel,
    seat: Seat,
    level: Level = Level.STRONG,
    seed: int = 0,
    budget: Budget | None = None,
) -> Action:
    """The AI's choice for `seat`, one of `game.legal_actions(state, seat)` (which must
    not be empty). The same view, level, seed and budget without a time limit give the
    same choice, whatever the hidden cards are."""
    return deliberate(game, state, seat, level, seed, budget).action


def deliberate(
    game: Game,
    state: BaseModel,
    seat: Seat,
    level: Level = Level.STRONG,
    seed: int = 0,
    budget: Budget | None = None,
) -> Decision:
    """`decide`, with what the decision cost: its playouts, choices searched and time."""
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to decide")
    judge = JUDGES[game.id]
    if level == Level.EASY and judge.novice is not None:
        judge = judge.novice
    search = Search(game, judge, state, seat, seed, budget or BUDGETS[level])
    return search.decide(legal)


__all__ = [
    "BUDGETS",
    "JUDGES",
    "LEVEL_NAMES",
    "Budget",
    "Decision",
    "Level",
    "decide",
    "decide_saved",
    "deliberate",
    "first_legal_saved",
    "plays",
]
