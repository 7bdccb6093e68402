"""Every game Arbiter can referee, by game id."""

from __future__ import annotations

from rules.command_of_nature import GAME as COMMAND_OF_NATURE
from rules.core import Game
from rules.historia_command import GAME as HISTORIA_COMMAND
from rules.mystic_vale import GAME as MYSTIC_VALE
from rules.tooth_and_nail import GAME as TOOTH_AND_NAIL

GAMES: dict[str, Game] = {
    game.id: game for game in (TOOTH_AND_NAIL, COMMAND_OF_NATURE, MYSTIC_VALE, HISTORIA_COMMAND)
}


def get_game(game_id: str) -> Game:
    """The game with this id; KeyError names the ids that exist."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(GAMES))}") from None
