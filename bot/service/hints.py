"""Hints for learners: in a match that is never rated (against the AI, a solitaire game,
or one a moderator marked as practice), the player whose decision it is may ask what the
strong AI would play in their place, with the runner-up and the chances its search
gave each. The AI decides from the asker's own seat (`ai.decide` imagines the cards
that seat can't see and never reads them), thinks in the AI players' worker pool (or a
thread) by their deadline, and the match log records that a hint was given, not what.

The move, its chance and the runner-up's are one search's (`ai.deliberate`): what its
tries judged each choice it weighed."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

from pydantic import BaseModel

import ai
from ai.search import Budget
from bot.service import errors
from bot.service.matches import MatchService
from bot.service.players import AIPlayers
from bot.service.tables import AI_NAME, AITurn, Table
from rules.core import Game, Seat
from rules.registry import GAMES

HINT_LOG = "hint"  # the kind of the match-log line saying a hint was given

RATED = (
    "Hints are only for practice, and this match is rated, so no hint: it stays fair for "
    "everyone. To practise with hints, play a game against {ai} (`/match new` with "
    "`ai:strong`), or ask a moderator to mark this match as practice (`/mod practice`)."
)
NO_AI = "{ai} doesn't play this game, so it can't give hints here."
NOT_YOURS = "A hint is for your own decision, and this one isn't yours: waiting for {names}."
AI_HOLDS = "{ai} is playing your seat for now, so there is no decision of yours to hint at."
TOO_SLOW = "{ai} couldn't think of a hint in time. Try again in a moment."
CLOSE = 0.03  # chances closer than this read as "about as good"
KEPT_HINTS = 256  # hints kept for positions asked about again


@dataclass(frozen=True)
class Hint:
    """What the strong AI would play (`key`), the next best choice its search tried
    (`runner_up`), and the share of its tries each won (None where it tried none: a
    choice it saw at once, or a single legal one)."""

    key: str
    chance: float | None = None
    runner_up: str | None = None
    runner_up_chance: float | None = None
    legal: int = 1  # how many legal choices there were
    weighed: bool = False  # its search tried the choices (else a judge's instinct chose)


def think(game_id: str, snapshot: str, seat: Seat, seed: int, seconds: float | None) -> Hint:
    """The hint for `seat` in a saved state (what a worker process runs): it reads only
    the seat's part of the state, as `ai.decide_saved` does."""
    game = GAMES[game_id]
    state = game.state_model.model_validate_json(snapshot)
    return hint_for(game, state, seat, seed, seconds)


def hint_for(
    game: Game,
    state: BaseModel,
    seat: Seat,
    seed: int,
    seconds: float | None = None,
    budget: Budget | None = None,
) -> Hint:
    """The hint for `seat`: the strong AI's choice from that seat's view, with the
    chances its search gave it and the runner-up (`seconds` caps the time it takes;
    `budget`, the strong level's by default)."""
    budget = budget or ai.BUDGETS[ai.Level.STRONG]
    if seconds is not None:
        budget = replace(budget, seconds=min(seconds, budget.seconds or seconds))
    decision = ai.deliberate(game, state, seat, ai.Level.STRONG, seed=seed, budget=budget)
    chosen, means = decision.action, decision.values
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return Hint(chosen.key)
    others = sorted((k for k in means if k != chosen.key), key=lambda k: -means[k])
    runner = others[0] if others else None
    return Hint(
        chosen.key,
        means.get(chosen.key),
        runner,
        means.get(runner) if runner else None,
        legal=len(legal),
        weighed=decision.playouts > 0,
    )


def percent(chance: float) -> str:
    """A chance as a newcomer reads it: "62 %"."""
    return f"{round(chance * 100)} %"


def hint_text(hint: Hint, labels: dict[str, str]) -> str:
    """The hint in words, naming choices by the labels the asker's own menu gives them."""
    move = labels.get(hint.key, hint.key)
    if hint.legal == 1:
        return f"💡 You have one move here: **{move}**."
    line = f"💡 {AI_NAME} would play: **{move}**"
    if hint.chance is None:
        return line + (
            "." if hint.weighed else " (its usual choice here: no need to weigh others)."
        )
    line += f" (you'd win about {percent(hint.chance)} of the games it tried from there)."
    if hint.runner_up is None or hint.runner_up_chance is None:
        return line
    runner = labels.get(hint.runner_up, hint.runner_up)
    gap = hint.chance - hint.runner_up_chance
    if gap < -CLOSE:  # under a time limit, its second look weighed them otherwise
        return line + f"\nNext best: **{runner}**."
    line += f"\nNext best: **{runner}** (about {percent(hint.runner_up_chance)})."
    return line + (" The two are close." if gap < CLOSE else "")


class Hints:
    """Hints for the players of matches that are never rated."""

    def __init__(self, matches: MatchService, players: AIPlayers) -> None:
        self.matches = matches
        self.players = players
        # The last hints, by match, version and seat: asked again in the same position
        # (by /hint, then the panel's button), a hint is the same, not a second search
        # that a time limit may have cut elsewhere.
        self._given: OrderedDict[tuple[int, int, int], Hint] = OrderedDict()

    async def ask(self, match_id: int, user_id: int) -> str:
        """The hint for the asker's own decision, in words; a UserError with the reason
        when they may not have one (a rated match, not their decision, a game the AI
        doesn't play). The match log notes that the asker was given a hint."""
        pv = await self.matches.view(match_id, user_id)
        table = pv.table
        seat = table.user_of(pv.seat)
        if table.match.status != "active" or table.outcome is not None:
            raise errors.NotActive()
        if not ai.plays(table.game.id):
            raise errors.UserError(NO_AI.format(ai=AI_NAME))
        if not table.never_rated:
            raise errors.UserError(RATED.format(ai=AI_NAME))
        if seat.by_ai:
            raise errors.UserError(AI_HOLDS.format(ai=AI_NAME))
        if pv.seat not in table.to_act or not pv.choices:
            raise errors.UserError(NOT_YOURS.format(names=waiting_for(table)))
        snapshot = table.match.snapshot
        assert snapshot is not None
        seed = AITurn(table, seat, snapshot).seed  # as the AI players': never the match's own
        args = (table.game.id, snapshot, pv.seat, seed, self.players.think)
        position = (match_id, table.match.version, pv.seat)
        hint = self._given.get(position)
        if hint is None:
            try:
                hint = await self.players.run(think, *args)
            except TimeoutError:
                raise errors.UserError(TOO_SLOW.format(ai=AI_NAME)) from None
            self._given[position] = hint
            while len(self._given) > KEPT_HINTS:
                self._given.popitem(last=False)
        await self.matches.log.add(
            match_id, user_id=user_id, kind=HINT_LOG, text=f"{seat.name} was given a hint."
        )
        return hint_text(hint, {c.key: c.label for c in pv.choices})


def waiting_for(table: Table) -> str:
    """Who the match waits for, by name."""
    return " and ".join(table.user_of(s).name for s in table.to_act) or "nobody"


__all__ = ["HINT_LOG", "Hint", "Hints", "hint_for", "hint_text", "think"]
