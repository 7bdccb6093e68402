"""The match service and the store, without Discord: lobbies, actions, locks, replay."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import errors
from bot.matches import MatchService, Table
from bot.store import Store, migrations
from rules.core import IllegalAction
from tests.bot import tally

ALICE, BOB, CAROL, DAVE, EVE = 101, 102, 103, 104, 105
CHANNEL = 900


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
def service(store: Store) -> MatchService:
    return MatchService(store, {"tally": tally.GAME})


async def started(service: MatchService, variant: str = "duel", players: int = 2) -> Table:
    """A started Tally match in CHANNEL with ALICE, BOB, ... seated in that order."""
    users = [ALICE, BOB, CAROL, DAVE][:players]
    table = await service.new_lobby(
        guild_id=1,
        channel_id=CHANNEL,
        user_id=users[0],
        name="Alice",
        game="tally",
        variant=variant,
        seed=42,
    )
    for user, name in zip(users[1:], ["Bob", "Carol", "Dave"], strict=False):
        await service.join(table.match.id, user, name)
    return await service.start(table.match.id, ALICE)


def user_to_act(table: Table) -> int:
    return table.user_of(table.to_act[0]).user_id


async def test_migrations_apply_once_and_set_user_version(db_path: Path) -> None:
    first = await Store.open(db_path)
    assert await first.schema_version() == len(migrations())
    await first.close()
    again = await Store.open(db_path)  # nothing left to apply: no error
    assert await again.schema_version() == len(migrations())
    await again.close()


async def test_lobby_seats_players_in_join_order(service: MatchService) -> None:
    table = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", game="tally", variant="melee"
    )
    for user, name in [(BOB, "Bob"), (CAROL, "Carol")]:
        table = await service.join(table.match.id, user, name)
    table = await service.leave(table.match.id, BOB)
    assert [(s.seat, s.name) for s in table.seats] == [(0, "Alice"), (1, "Carol")]
    table = await service.join(table.match.id, BOB, "Bob")
    assert [s.name for s in table.seats] == ["Alice", "Carol", "Bob"]


async def test_lobby_refusals(service: MatchService) -> None:
    table = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", game="tally", variant="duel"
    )
    mid = table.match.id
    with pytest.raises(errors.ChannelHasMatch):
        await service.new_lobby(
            guild_id=1, channel_id=CHANNEL, user_id=BOB, name="Bob", game="tally"
        )
    with pytest.raises(errors.AlreadyJoined):
        await service.join(mid, ALICE, "Alice")
    with pytest.raises(errors.WrongPlayerCount, match="needs 2 players; the lobby has 1"):
        await service.start(mid, ALICE)
    await service.join(mid, BOB, "Bob")
    with pytest.raises(errors.LobbyFull):
        await service.join(mid, CAROL, "Carol")
    with pytest.raises(errors.NotHost):
        await service.start(mid, BOB)
    with pytest.raises(errors.NotHost):
        await service.cancel(mid, BOB)
    with pytest.raises(errors.UnknownVariant):
        await service.new_lobby(
            guild_id=1, channel_id=CHANNEL + 1, user_id=BOB, name="Bob", game="tally", variant="x"
        )
    with pytest.raises(errors.UnknownGame):
        await service.new_lobby(
            guild_id=1, channel_id=CHANNEL + 1, user_id=BOB, name="Bob", game="chess"
        )


async def test_cancelled_or_emptied_lobby_frees_the_channel(service: MatchService) -> None:
    first = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", game="tally"
    )
    assert (await service.cancel(first.match.id, ALICE)).match.status == "cancelled"
    second = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=BOB, name="Bob", game="tally"
    )
    assert (await service.leave(second.match.id, BOB)).match.status == "cancelled"
    with pytest.raises(errors.NoMatchHere):
        await service.open_match(CHANNEL)


async def test_new_lobby_without_seed_draws_one(service: MatchService) -> None:
    table = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", game="tally"
    )
    assert table.match.variant == "duel"  # the game's first variant
    assert 0 <= table.match.seed < 2**53


async def test_act_commits_before_returning_and_replays(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    result = await service.act(mid, ALICE, "banner|amber")
    assert result.label == "Raise the amber banner"
    assert [e.text for e in result.events] == ["Alice raises amber."]
    saved = await service.get(mid)
    assert saved.version == 1
    assert [a.seq for a in await service.store.actions(mid)] == [1]
    assert await service.verify(mid)


async def test_outsider_and_out_of_turn_are_refused(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    with pytest.raises(errors.NotInMatch, match="You are not playing in this match"):
        await service.act(mid, EVE, "banner|amber")
    with pytest.raises(errors.NotYourTurn, match="waiting for Alice"):
        await service.act(mid, BOB, "banner|amber")
    assert (await service.get(mid)).version == 0


async def test_illegal_action_gets_the_rules_sentence(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    with pytest.raises(IllegalAction, match="already raised"):
        await service.act(mid, BOB, "banner|amber")
    with pytest.raises(IllegalAction, match="First raise a banner"):
        await service.act(mid, BOB, "nonsense")
    assert (await service.get(mid)).version == 1


async def test_stale_menu_version_applies_nothing(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber", version=0)
    with pytest.raises(errors.StaleChoice):
        await service.act(mid, BOB, "banner|azure", version=0)
    await service.act(mid, BOB, "banner|azure", version=1)


async def test_simultaneous_actions_apply_exactly_once(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    outcomes = await asyncio.gather(
        service.act(mid, ALICE, "banner|amber", version=0),
        service.act(mid, ALICE, "banner|amber", version=0),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1
    assert [type(e) for e in refused] == [errors.StaleChoice]
    assert (await service.get(mid)).version == 1
    assert len(await service.store.actions(mid)) == 1


async def test_simultaneous_different_players_only_the_one_to_act_applies(
    service: MatchService,
) -> None:
    table = await started(service)
    mid = table.match.id
    outcomes = await asyncio.gather(
        service.act(mid, BOB, "banner|azure"),
        service.act(mid, ALICE, "banner|amber"),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], errors.NotYourTurn)
    assert not isinstance(outcomes[1], BaseException)
    assert (await service.get(mid)).version == 1


async def test_version_check_in_the_store_refuses_a_second_writer(service: MatchService) -> None:
    table = await started(service)
    match = table.match
    kwargs = {
        "seat": 0,
        "user_id": ALICE,
        "action": '{"kind":"x","args":[]}',
        "events": "[]",
        "snapshot": match.snapshot or "",
        "status": "active",
    }
    assert await service.store.append_action(match.id, expected_version=0, **kwargs)
    assert not await service.store.append_action(match.id, expected_version=0, **kwargs)
    assert len(await service.store.actions(match.id)) == 1


async def test_private_view_hides_other_hands_and_lists_choices(service: MatchService) -> None:
    table = await started(service)
    pv = await service.view(table.match.id, ALICE)
    assert len(pv.choices) == len(tally.COLOURS)
    assert pv.view["decision"]
    assert [c["name"] for c in pv.view["hand"]]
    other = await service.view(table.match.id, BOB)
    assert other.choices == []
    assert "hand" not in table.view  # type: ignore[operator]
    with pytest.raises(errors.NotInMatch):
        await service.view(table.match.id, EVE)


async def test_full_game_to_a_winner_replays_exactly(service: MatchService) -> None:
    table = await started(service, "teams", players=4)
    mid = table.match.id
    while table.outcome is None:
        user = user_to_act(table)
        choices = await service.choices(CHANNEL, user)
        table = (await service.act(mid, user, choices[-1].key)).table
    assert table.match.status == "finished"
    assert table.outcome.winners
    assert await service.verify(mid)
    with pytest.raises(errors.NoMatchHere):
        await service.open_match(CHANNEL)
    assert await service.choices(CHANNEL, ALICE) == []


async def test_concede_is_logged_and_replayed(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    result = await service.concede(mid, BOB)  # not Bob's decision: conceding is always allowed
    assert result.table.outcome is not None
    assert result.table.outcome.winners == [0]
    rows = await service.store.actions(mid)
    assert rows[-1].action == '{"kind":"concede","args":[]}'
    assert await service.verify(mid)
    with pytest.raises(errors.NotActive):
        await service.act(mid, ALICE, "banner|azure")


async def test_recent_private_lines_reach_only_their_seat(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    await service.act(mid, BOB, "banner|azure")
    pv = await service.view(mid, ALICE)
    play = next(c for c in pv.choices if c.key.startswith("play|"))
    result = await service.act(mid, ALICE, play.key)
    (drawn,) = result.private_lines()
    assert drawn.startswith("You draw a ")
    assert drawn in (await service.view(mid, ALICE)).recent
    assert drawn not in (await service.view(mid, BOB)).recent
    assert "Alice draws a card." in (await service.view(mid, BOB)).recent
