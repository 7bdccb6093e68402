"""How a match that ended counts: each seat's result, side and place, as recorded with
the change that ended it (`Store.record_results`) and rated from there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.service.store import Results
from league.ratings import ABANDONED, PLAYED

if TYPE_CHECKING:
    from bot.service.matches import Table


def results_of(table: Table, *, ending: str = PLAYED, leaver: int | None = None) -> Results | None:
    """The results of a match as `table` shows it ended; None for a match that counts
    for nobody: not over, over with no winner outside a solitaire game, or abandoned
    with nobody to blame. An abandoned match (`leaver`: the seat that ran out of time)
    puts the leaver's side last and every other side first, tied."""
    match table.match.status, table.outcome:
        case "finished", outcome if outcome is not None and (outcome.winners or outcome.against):
            places = {s: i for i, group in enumerate(outcome.places, 1) for s in group}
            result = {
                s: "win" if s in outcome.winners else "loss" if s in outcome.losers else "draw"
                for s in places.keys() | {s.seat for s in table.seats}
            }
            default = {"win": 1, "draw": 2, "loss": 3}
            opponent, level = outcome.against, outcome.against_level or None
        case "abandoned", _ if leaver is not None and ending == ABANDONED:
            gone = table.teams.get(leaver, leaver)
            result = {
                s.seat: "loss" if table.teams.get(s.seat, s.seat) == gone else "draw"
                for s in table.seats
            }
            places, default = {}, {"draw": 1, "loss": 2}
            opponent, level = None, None
        case _:
            return None
    people = [s.seat for s in table.seats if s.person]  # the AI's own seats count for no one
    return Results(
        {s: result[s] for s in people},
        opponent,
        level,
        with_ai=table.with_ai,
        teams={s: table.teams.get(s, s) for s in people},
        places={s: places.get(s, default[result[s]]) for s in people},
        ending=ending,
    )
