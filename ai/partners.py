"""An AI seat beside partners (a team game): the moves it leaves to them. Like a person,
it plays its part of the team's turn but doesn't end what the team plays together while
a partner may still be playing: a person partner ends it, and between AI partners the
later seat does."""

from __future__ import annotations

from collections.abc import Collection

from pydantic import BaseModel

import ai
from ai.judges import PROGRESS
from rules.core import Action, Game, Seat
from rules.registry import GAMES


def hands_over(
    game: Game, state: BaseModel, seat: Seat, action: Action, people: Collection[Seat] = ()
) -> bool:
    """Whether the AI at `seat` leaves `action` to a partner rather than take it: a move
    on (ending the phase or the turn) while a partner is to act too who is a person
    (`people`: the seats persons play) or, among AI seats, sits after it."""
    if action.kind not in PROGRESS:
        return False
    team = game.team_of(state, seat)
    return any(
        other != seat and game.team_of(state, other) == team and (other in people or other > seat)
        for other in game.to_act(state)
    )


def decide_saved(
    game_id: str,
    snapshot: str,
    seat: Seat,
    level: str,
    seed: int,
    seconds: float | None = None,
    people: Collection[Seat] = (),
) -> str | None:
    """`ai.decide_saved`, or None when its choice is one the seat leaves to a partner
    (`hands_over`): what the bot's worker runs for a seat the AI plays."""
    key = ai.decide_saved(game_id, snapshot, seat, level, seed, seconds)
    game = GAMES[game_id]
    state = game.state_model.model_validate_json(snapshot)
    return None if hands_over(game, state, seat, Action.from_key(key), people) else key


__all__ = ["decide_saved", "hands_over"]
