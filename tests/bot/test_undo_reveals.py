"""Undo respects what was seen (issue 11): a moderator can't take back, without `force`,
an action that showed someone a hidden card, in any game.

The red team's finding: in Command of Nature only draws were marked as revealing, so a
market refresh, the card that refills a market after a buy and a card played from a
hand could all be undone without `force` (a player could peek at the next market cards
and have it taken back). Each of them is refused now, with the sentence a moderator
reads, and goes with `force`; so do revealing actions of Tooth & Nail and Mystic Vale.
Every action here draws nothing at random: the refusal is for what it showed alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.service import errors
from bot.service.matches import MatchService
from bot.service.store import Store
from rules.core import Action
from rules.registry import GAMES

REFUSED = (
    "The last action can't be taken back: it revealed hidden cards. "
    "Use `force:true` to undo it anyway."
)
MODERATOR = 99
ONWARD = ("sage", "formation", "leader", "faction", "command_card", "phase", "done", "end")


@pytest.fixture
async def service(db_path: Path) -> AsyncIterator[MatchService]:
    store = await Store.open(db_path)
    try:
        yield MatchService(store)
    finally:
        await store.close()


class Match:
    """A match of one game played through the service, one chosen action at a time."""

    def __init__(self, service: MatchService, match_id: int, game_id: str) -> None:
        self.service = service
        self.id = match_id
        self.game = GAMES[game_id]

    @classmethod
    async def start(
        cls, service: MatchService, game_id: str, variant: str, players: int, seed: int = 7
    ) -> Match:
        table = await service.new_lobby(
            guild_id=1, channel_id=1, user_id=1, name="P1", game=game_id, variant=variant, seed=seed
        )
        for user in range(2, players + 1):
            await service.join(table.match.id, user, f"P{user}")
        await service.start(table.match.id, 1)
        return cls(service, table.match.id, game_id)

    async def state(self) -> BaseModel:
        snapshot = (await self.service.get(self.id)).snapshot
        assert snapshot is not None
        return self.game.state_model.model_validate_json(snapshot)

    async def legal(self) -> list[tuple[int, Action]]:
        """Every legal action of the seats the game waits for: (user, action)."""
        state = await self.state()
        return [
            (seat + 1, action)
            for seat in sorted(self.game.to_act(state))
            for action in self.game.legal_actions(state, seat)
        ]

    async def take(self, wanted: Callable[[Action], bool]) -> Action:
        """Take the first legal action `wanted` accepts."""
        user, action = next((u, a) for u, a in await self.legal() if wanted(a))
        await self.service.act(self.id, user, action.key)
        return action

    async def play_until(self, wanted: Callable[[Action], bool], limit: int = 200) -> None:
        """Move the game on (a turn's steps, each side's set-up) until an action `wanted`
        accepts is legal."""
        for _ in range(limit):
            legal = [a for _, a in await self.legal()]
            if any(wanted(a) for a in legal):
                return
            await self.take(lambda a: a.kind in ONWARD)
        raise AssertionError("the wanted action never came")

    async def refused_then_forced(self) -> None:
        """The last action can't be undone without force; with force it is, and the match
        is back where it was before it."""
        before = await self.service.replay(self.id)
        effective = await self.service.effective(self.id)
        with pytest.raises(errors.UndoRefused) as refused:
            await self.service.undo(self.id, MODERATOR)
        assert refused.value.message == REFUSED
        assert await self.service.replay(self.id) == before  # nothing was taken back
        undone = await self.service.undo(self.id, MODERATOR, force=True)
        assert undone.reasons == ["it revealed hidden cards"]
        assert undone.seq == effective[-1].seq
        assert [r.seq for r in await self.service.effective(self.id)] == [
            r.seq for r in effective[:-1]
        ]
        assert await self.service.verify(self.id)


def market(which: str) -> Callable[[Action], bool]:
    return lambda a: a.kind == "refresh" and a.args == (which,)


async def test_a_market_refresh_is_undone_only_with_force(service: MatchService) -> None:
    """Refreshing turns three new cards of the market deck face up."""
    match = await Match.start(service, "command-of-nature", "2p", 2)
    await match.play_until(market("commands"))
    state = await match.state()
    shown = list(state.commands.row)
    await match.take(market("commands"))
    assert set((await match.state()).commands.row).isdisjoint(shown)  # new cards, face up
    await match.refused_then_forced()
    assert (await match.state()).commands.row == shown


async def test_a_buy_that_refills_the_market_is_undone_only_with_force(
    service: MatchService,
) -> None:
    """The card bought is replaced by the next card of the market deck, face up."""
    match = await Match.start(service, "command-of-nature", "2p", 2)
    await match.play_until(lambda a: a.kind == "buy")
    deck = len((await match.state()).elementals.deck) + len((await match.state()).commands.deck)
    await match.take(lambda a: a.kind == "buy")
    state = await match.state()
    assert len(state.elementals.deck) + len(state.commands.deck) == deck - 1  # one turned up
    await match.refused_then_forced()


@pytest.mark.parametrize("kind", ["play", "attack"])
async def test_a_card_played_from_a_hand_is_undone_only_with_force(
    service: MatchService, kind: str
) -> None:
    """A Utility Command played, an Attack Command declared: out of the hand, face up."""
    match = await Match.start(service, "command-of-nature", "2p", 2)
    await match.play_until(lambda a: a.kind == kind)
    await match.take(lambda a: a.kind == kind)
    await match.refused_then_forced()


async def test_a_tooth_and_nail_troop_played_from_a_hand_is_undone_only_with_force(
    service: MatchService,
) -> None:
    match = await Match.start(service, "tooth-and-nail", "2p", 2)
    await match.play_until(lambda a: a.kind == "play")
    await match.take(lambda a: a.kind == "play")
    await match.refused_then_forced()


async def test_a_mystic_vale_push_turning_the_next_card_up_is_undone_only_with_force(
    service: MatchService,
) -> None:
    """A push plants the on-deck card and turns the deck's top card face up."""
    match = await Match.start(service, "mystic-vale", "2p", 2)
    await match.play_until(lambda a: a.kind == "push")
    seat = next(u for u, a in await match.legal() if a.kind == "push") - 1
    deck = list((await match.state()).players[seat].deck)
    assert deck  # (a push with a card left in the deck draws nothing at random)
    await match.take(lambda a: a.kind == "push")
    assert (await match.state()).players[seat].on_deck in deck  # out of the deck, face up
    await match.refused_then_forced()


async def test_an_action_that_shows_nothing_hidden_is_still_undone_without_force(
    service: MatchService,
) -> None:
    """Moving on to the next phase of a Command of Nature turn shows no card."""
    match = await Match.start(service, "command-of-nature", "2p", 2)
    await match.play_until(lambda a: a.key == "phase|market")
    await match.take(lambda a: a.key == "phase|market")
    undone = await service.undo(match.id, MODERATOR)
    assert undone.reasons == []
