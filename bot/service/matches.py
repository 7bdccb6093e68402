"""The match service: the only path from Discord to the rules.

Every operation loads the match from the store, asks the game, and commits
before it returns, so a reply built from its result never announces
something that was not saved. One writer per match: a per-match lock in this
process, and a version check in the store's UPDATE for anything beyond it.

A menu is tied to its seat's decision count, not to the match's version: a
decision another seat takes meanwhile (two players discarding at once) never
spoils it, while the same menu used twice is refused the second time.

Callers see one service, `MatchService`; its methods live by concern, each part a base
of it standing on `MatchCore` (`bot.service.match_core`): `Lobbies` (`lobbies`),
`Acting` (`acting`), `StandIns` (`stand_ins`) and `Repairs` (`repairs`); what it reads
and answers with is in `bot.service.tables`.
"""

from __future__ import annotations

from bot.service.acting import Acting
from bot.service.lobbies import Lobbies
from bot.service.repairs import Repairs
from bot.service.stand_ins import StandIns


class MatchService(Lobbies, Acting, StandIns, Repairs):
    """Lobbies, moves, views and replays, for every game in `games`."""
