"""Random legal play through the match service, as the tournament tests and the
gallery's tournament picture play their matches."""

from __future__ import annotations

import random

from bot.service.matches import MatchService

MOST_MOVES = 5000  # a match still going after this many is a bug
# Random play can wander for long (some Command of Nature team games take over 5,000
# moves): past this many the player the match waits for concedes, which ends it.
PATIENCE = 2000


async def play_randomly(
    matches: MatchService,
    match_id: int,
    rng: random.Random,
    *,
    stop_before_end: bool = False,
) -> None:
    """Random legal moves (drawn from `rng`) until the match is over (past PATIENCE
    moves, by concessions); with `stop_before_end`, until the next move drawn would end
    it (it is left unplayed) or PATIENCE moves are played: a match left going."""
    for move in range(MOST_MOVES):
        table = await matches.table(match_id)
        if table.match.status != "active":
            return
        if move >= PATIENCE and stop_before_end:
            return
        if move >= PATIENCE and table.to_act:
            await matches.concede(match_id, table.user_of(min(table.to_act)).user_id)
            continue
        game = matches.game(table.match.game)
        assert table.match.snapshot is not None
        state = game.state_model.model_validate_json(table.match.snapshot)
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        if stop_before_end:
            after, _ = game.apply(state, seat, action, random.Random(0))
            if game.outcome(after) is not None:
                return
        await matches.act(match_id, table.user_of(seat).user_id, action.key)
    raise AssertionError(f"match {match_id} did not end in {MOST_MOVES} moves")
