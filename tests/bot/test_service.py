"""The match service and the store, without Discord: lobbies, actions, locks, replay."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service import errors
from bot.service.locks import KeyedLocks
from bot.service.matches import MatchService
from bot.service.store import GuildSettings, SeatClock, Store, migrations
from bot.service.tables import Table, default_pack
from rules.core import Game, IllegalAction, SeatSpec, rng_for
from rules.registry import GAMES
from rules.tooth_and_nail.cards import bundled_pack
from tests.bot import tally
from tests.bot.outside import one

pytestmark = pytest.mark.engines

ALICE, BOB, CAROL, DAVE, EVE = 101, 102, 103, 104, 105
CHANNEL = 900


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


async def test_migrations_apply_once_and_set_user_version(database: str) -> None:
    first = await Store.open(database)
    assert await first.db.schema_version() == len(migrations())
    await first.close()
    again = await Store.open(database)  # nothing left to apply: no error
    assert await again.db.schema_version() == len(migrations())
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
    with pytest.raises(errors.WrongPlayerCount, match="needs 2 players to start; 1 has joined"):
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
    assert [a.seq for a in await service.records.actions(mid)] == [1]
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


async def test_a_menu_is_stale_once_its_own_seat_decided(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber", decisions=0)
    await service.act(mid, BOB, "banner|azure", decisions=0)  # Alice's move spoils nothing
    play = next(c for c in (await service.view(mid, ALICE)).choices if c.key.startswith("play"))
    with pytest.raises(errors.StaleChoice):
        await service.act(mid, ALICE, play.key, decisions=0)  # her first menu, used again
    assert (await service.view(mid, ALICE)).decisions == 1
    await service.act(mid, ALICE, play.key, decisions=1)


async def test_simultaneous_actions_apply_exactly_once(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    outcomes = await asyncio.gather(
        service.act(mid, ALICE, "banner|amber", decisions=0),
        service.act(mid, ALICE, "banner|amber", decisions=0),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1
    assert [type(e) for e in refused] == [errors.StaleChoice]
    assert (await service.get(mid)).version == 1
    assert len(await service.records.actions(mid)) == 1


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
    assert await service.records.append_action(match.id, expected_version=0, **kwargs)
    assert not await service.records.append_action(match.id, expected_version=0, **kwargs)
    assert len(await service.records.actions(match.id)) == 1


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
    rows = await service.records.actions(mid)
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


async def test_players_deciding_at_once_never_spoil_each_others_menus(
    service: MatchService,
) -> None:
    table = await started(service, "muster", players=3)
    mid = table.match.id
    assert table.to_act == (0, 1, 2)
    menus = {user: (await service.view(mid, user)).decisions for user in (ALICE, BOB, CAROL)}
    assert menus == {ALICE: 0, BOB: 0, CAROL: 0}
    outcomes = await asyncio.gather(
        service.act(mid, CAROL, "banner|cyan", decisions=menus[CAROL]),
        service.act(mid, ALICE, "banner|amber", decisions=menus[ALICE]),
        service.act(mid, BOB, "banner|azure", decisions=menus[BOB]),
        service.act(mid, BOB, "banner|azure", decisions=menus[BOB]),  # Bob's double click
        return_exceptions=True,
    )
    assert [type(o).__name__ for o in outcomes] == ["ActResult"] * 3 + ["StaleChoice"]
    assert [s.decisions for s in await service.records.seats(mid)] == [1, 1, 1]
    assert (await service.get(mid)).version == 3
    assert await service.verify(mid)


async def test_typed_text_names_an_action_by_key_label_or_unique_part(
    service: MatchService,
) -> None:
    table = await started(service)
    mid = table.match.id
    assert (await service.act(mid, ALICE, "banner|amber", typed=True)).label.endswith(
        "amber banner"
    )
    assert (await service.act(mid, BOB, "RAISE THE AZURE BANNER", typed=True)).seat == 1
    hand = [c.label for c in (await service.view(mid, ALICE)).choices]
    with pytest.raises(errors.UnknownAction, match=r"“play a” fits \d of your actions") as vague:
        await service.act(mid, ALICE, "play a", typed=True)
    assert vague.value.message.splitlines()[1:] == [f"• {label}" for label in hand]
    with pytest.raises(errors.UnknownAction, match="isn't one of your actions right now"):
        await service.act(mid, ALICE, "Raise the amber banner", typed=True)
    with pytest.raises(IllegalAction, match="Play a card"):  # a suggestion gone stale
        await service.act(mid, ALICE, "banner|azure", typed=True)
    part = hand[0][-3:].upper()  # "A 3": a unique part of one label, in another case
    assert (await service.act(mid, ALICE, part, typed=True)).seat == 0


async def test_the_pack_column_is_the_pack_setup_receives(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    received: list[dict[str, object]] = []
    real_setup = tally.GAME.setup

    def spy(variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int) -> Any:
        received.append(dict(options))
        return real_setup(variant, seats, options, seed)

    monkeypatch.setattr(tally.GAME, "setup", spy)
    table = await service.new_lobby(
        guild_id=1,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="Alice",
        game="tally",
        options={"pack": "house rules", "target": 12},
    )
    assert table.match.pack == "house rules"
    assert table.match.options == {"target": 12}
    await service.join(table.match.id, BOB, "Bob")
    await service.start(table.match.id, ALICE)
    await service.act(table.match.id, ALICE, "banner|amber")
    assert await service.verify(table.match.id)  # replay sets up the same way
    assert received == [{"pack": "house rules", "target": 12}] * 2

    plain = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL + 1, user_id=BOB, name="Bob", game="tally"
    )
    assert plain.match.pack == "bundled"  # Tally has no card packs


async def test_tooth_and_nail_records_and_plays_its_bundled_pack(store: Store) -> None:
    service = MatchService(store)
    table = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", game="tooth-and-nail"
    )
    assert table.match.pack == bundled_pack().name == default_pack(GAMES["tooth-and-nail"])
    await service.join(table.match.id, BOB, "Bob")
    await service.start(table.match.id, ALICE)
    state = await service.replay(table.match.id)
    assert state.pack == table.match.pack  # type: ignore[attr-defined]


async def test_migration_2_backfills_decisions_and_names_the_old_pack(tmp_path: Path) -> None:
    first_only = tmp_path / "v1"
    first_only.mkdir()
    (first_only / "0001_initial.sql").write_text(migrations()[0][1].read_text())
    path = tmp_path / "old.db"
    await (await Store.open(path, migrations_dir=first_only)).close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO matches (id, channel_id, game, variant, seed, rules_version, status,"
            " created_by, created_at, updated_at)"
            " VALUES (1, 5, 'tooth-and-nail', '2p', 9, '0', 'active', 101, '', '')"
        )
        db.executemany(
            "INSERT INTO seats (match_id, seat, user_id, display_name) VALUES (1, ?, ?, ?)",
            [(0, ALICE, "Alice"), (1, BOB, "Bob")],
        )
        db.executemany(
            "INSERT INTO actions (match_id, seq, seat, user_id, action, events, created_at)"
            " VALUES (1, ?, ?, 0, '{}', '[]', '')",
            [(1, 1), (2, 0), (3, 1)],
        )
    store = await Store.open(path)
    try:
        assert [s.decisions for s in await store.matches.seats(1)] == [1, 2]
        match = await store.matches.get(1)
        assert match is not None
        assert match.pack == bundled_pack().name
        assert not match.seed_chosen  # an older match's seed stays hidden
    finally:
        await store.close()


async def test_a_concession_draws_from_its_own_action_rng_and_replays(
    service: MatchService,
) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    before = tally.TallyState.model_validate_json((await service.get(mid)).snapshot or "")
    await service.concede(mid, BOB)
    expected, _ = tally.GAME.concede(before, 1, rng_for(42, 2))
    after = tally.TallyState.model_validate_json((await service.get(mid)).snapshot or "")
    assert after == expected
    assert after.players[1].deck != sorted(after.players[1].deck)  # it did shuffle
    assert await service.verify(mid)


def test_tally_follows_the_whole_contract() -> None:
    game = tally.GAME
    assert isinstance(game, Game)
    seats = [SeatSpec(seat=s, name=n) for s, n in enumerate(["A", "B", "C", "D"])]
    state = game.setup("teams", seats, {}, 5)
    assert game.active_seat(state) is None  # raising banners is set-up
    for step in range(500):
        if game.outcome(state) is not None:
            break
        (seat,) = game.to_act(state)
        fallback = game.timeout_action(state, seat)
        assert fallback in game.legal_actions(state, seat)
        if state.phase != "banner":  # type: ignore[attr-defined]
            assert game.active_seat(state) == state.turn  # type: ignore[attr-defined]
        state, _ = game.apply(state, seat, fallback, rng_for(5, step + 1))
    assert game.outcome(state) is not None
    assert game.active_seat(state) is None


async def test_one_lock_per_match_shared_while_in_use_then_forgotten(
    service: MatchService,
) -> None:
    locks = KeyedLocks()
    first = locks(1)
    assert locks(1) is first and locks(2) is not first
    async with first:
        assert locks(1).locked() and not locks(2).locked()
    assert len(locks) == 1
    del first
    gc.collect()
    assert len(locks) == 0
    # The service takes its per-match locks from this helper.
    assert isinstance(service._lock, KeyedLocks)


async def test_a_tooth_and_nail_concession_is_saved_and_replays(store: Store) -> None:
    service = MatchService(store)
    table = await service.new_lobby(
        guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", game="tooth-and-nail", seed=3
    )
    await service.join(table.match.id, BOB, "Bob")
    table = await service.start(table.match.id, ALICE)
    for _ in range(4):
        user = user_to_act(table)
        table = (
            await service.act(table.match.id, user, (await service.choices(CHANNEL, user))[0].key)
        ).table
    result = await service.concede(table.match.id, BOB)
    assert result.table.outcome is not None and result.table.outcome.winners == [0]
    assert await service.verify(table.match.id)


async def test_listeners_hear_every_committed_change_after_the_lock(service: MatchService) -> None:
    heard: list[tuple[int, int]] = []

    async def listener(match_id: int) -> None:
        # Runs outside the match's lock: reading through the service must not deadlock.
        heard.append((match_id, (await service.get(match_id)).version))

    service.on_change(listener)
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    await service.concede(mid, BOB)
    assert heard == [(mid, 0), (mid, 1), (mid, 2)]


async def test_a_failing_listener_never_hides_a_committed_action(
    service: MatchService, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(match_id: int) -> None:
        raise RuntimeError("listener bug")

    service.on_change(broken)
    table = await started(service)
    result = await service.act(table.match.id, ALICE, "banner|amber")
    assert result.events and (await service.get(table.match.id)).version == 1
    assert any("change listener" in r.getMessage() for r in caplog.records)
    caplog.clear()  # the logged failure is what this test provokes


async def test_server_settings_default_then_change_and_persist(database: str) -> None:
    store = await Store.open(database)
    try:
        assert await store.settings.guild(7) == GuildSettings(guild_id=7)
        changed = await store.settings.update_guild(7, mod_role_id=55, match_channels=[3, 1])
        assert changed.mod_role_id == 55 and changed.match_channels == (1, 3)
        with pytest.raises(ValueError, match="unknown server settings"):
            await store.settings.update_guild(7, nonsense=1)
    finally:
        await store.close()
    reopened = await Store.open(database)
    try:
        assert (await reopened.settings.guild(7)).mod_role_id == 55
        assert (await reopened.settings.guild(8)).mod_role_id is None
    finally:
        await reopened.close()


async def test_match_log_entries_name_who_and_when(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    entry = await service.log.add(mid, user_id=EVE, kind="pause", text="Eve paused the match.")
    assert (entry.version, entry.user_id, entry.kind) == (1, EVE, "pause")
    await service.log.add(mid, user_id=None, kind="timeout", text="Time ran out.")
    assert [(e.user_id, e.text) for e in await service.log.entries(mid)] == [
        (EVE, "Eve paused the match."),
        (None, "Time ran out."),
    ]


async def test_a_seat_that_changed_hands_keeps_its_new_name_through_undo_and_replay(
    service: MatchService,
) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    await service.replace_seat(mid, BOB, EVE, "Eve", moderator_id=DAVE)
    assert (await service.table(mid)).view["players"][1]["name"] == "Eve"  # type: ignore[index]
    await service.undo(mid, DAVE)  # Alice's banner, taken back after the rename
    replayed = await service.replay(mid)
    assert [p.name for p in replayed.players] == ["Alice", "Eve"]  # type: ignore[attr-defined]
    assert await service.verify(mid)
    result = await service.act(mid, ALICE, "banner|amber")
    assert await service.verify(mid) and result.table.match.version == 4


async def test_a_seat_changing_hands_starts_with_a_clean_clock(service: MatchService) -> None:
    """The newcomer inherits no timeouts in a row and no vacation, and gets a fresh
    decision count (so a fresh clock)."""
    table = await started(service)
    mid = table.match.id
    await service.clocks.put_seat_clock(SeatClock(mid, 1, timeouts=2, vacation_used=3600))
    assert await service.clocks.add_pause_vote(mid, 1) == {1}
    before = (await service.records.seats(mid))[1].decisions
    await service.replace_seat(mid, BOB, EVE, "Eve", moderator_id=DAVE)
    assert 1 not in await service.clocks.seat_clocks(mid)
    assert await service.clocks.add_pause_vote(mid, 0) == {0}  # Bob's vote left with him
    assert (await service.records.seats(mid))[1].decisions == before + 1


async def test_an_undone_action_leaves_the_recent_lines(service: MatchService) -> None:
    table = await started(service)
    mid = table.match.id
    await service.act(mid, ALICE, "banner|amber")
    assert "Alice raises amber." in (await service.view(mid, BOB)).recent
    await service.undo(mid, DAVE)
    assert "Alice raises amber." not in (await service.view(mid, BOB)).recent


# ------------------------------------------------------------ group commit
# Changes of different matches that arrive together share one commit, and each is on
# disk before the call that made it returns.

MATCHES = 30


async def started_apart(service: MatchService, count: int) -> list[int]:
    """`count` started Tally matches, each in a channel of its own."""
    ids = []
    for channel in range(1, count + 1):
        table = await service.new_lobby(
            guild_id=1, channel_id=channel, user_id=ALICE, name="A", game="tally", seed=channel
        )
        await service.join(table.match.id, BOB, "B")
        await service.start(table.match.id, ALICE)
        ids.append(table.match.id)
    return ids


async def saved_actions(database: str, match_id: int) -> int:
    """The match's actions as another connection reads them (what is saved)."""
    return int(await one(database, "SELECT COUNT(*) FROM actions WHERE match_id = ?", match_id))


def count_commits(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many commits the store makes from now on (one entry per commit)."""
    made: list[int] = []
    commit = store.db.engine._commit  # type: ignore[attr-defined]

    async def counted(group: object) -> None:
        made.append(1)
        await commit(group)  # type: ignore[arg-type]

    monkeypatch.setattr(store.db.engine, "_commit", counted)
    return made


async def test_actions_arriving_together_are_each_saved_when_they_return(
    service: MatchService, store: Store, database: str, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite they share commits (group commit); on PostgreSQL each has its own
    connection, and the server commits them side by side."""
    ids = await started_apart(service, MATCHES)
    commits = count_commits(store, monkeypatch) if engine == "sqlite" else []
    seen: dict[int, int] = {}

    async def act(match_id: int) -> None:
        await service.act(match_id, ALICE, "banner|amber")
        seen[match_id] = await saved_actions(database, match_id)  # at once, from outside

    await asyncio.gather(*(act(m) for m in ids))
    assert seen == dict.fromkeys(ids, 1), "an action returned before it was saved"
    if engine == "sqlite":
        assert len(commits) < MATCHES / 3, f"{len(commits)} commits for {MATCHES} actions"
    for match_id in ids:
        assert (await service.get(match_id)).version == 1
        assert await service.verify(match_id)


@pytest.mark.engines("sqlite")
async def test_one_action_alone_commits_at_once(
    service: MatchService, store: Store, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (match_id,) = await started_apart(service, 1)
    commits = count_commits(store, monkeypatch)
    await service.act(match_id, ALICE, "banner|amber")
    assert commits == [1]
    assert await saved_actions(database, match_id) == 1


async def test_a_change_refused_among_others_undoes_only_its_own_writes(
    service: MatchService, database: str
) -> None:
    ids = await started_apart(service, 5)

    async def busy_lobby() -> None:
        # The channel of the first match is taken: refused inside the group, after its
        # insert began.
        await service.new_lobby(
            guild_id=1, channel_id=1, user_id=BOB, name="B", game="tally", seed=1
        )

    results = await asyncio.gather(
        *(service.act(m, ALICE, "banner|amber") for m in ids),
        busy_lobby(),
        return_exceptions=True,
    )
    assert isinstance(results[-1], errors.ChannelHasMatch)
    assert not any(isinstance(r, BaseException) for r in results[:-1])
    assert [await saved_actions(database, m) for m in ids] == [1] * 5
    assert await one(database, "SELECT COUNT(*) FROM matches") == 5


@pytest.mark.engines("sqlite")
async def test_a_caller_cancelled_while_its_group_commits_leaves_the_change_saved(
    service: MatchService, database: str
) -> None:
    ids = await started_apart(service, 10)
    tasks = [asyncio.ensure_future(service.act(m, ALICE, "banner|amber")) for m in ids]
    await asyncio.sleep(0)  # all of them queued for the store
    for _ in range(2000):  # until a group is open: the first is in it, or waits on it
        if service.db.engine._group is not None:  # type: ignore[attr-defined]
            break
        # Not sleep(0): on a loaded machine the database thread may not have answered
        # yet, and a few hundred turns of the loop pass in no time.
        await asyncio.sleep(0.001)
    group = service.db.engine._group  # type: ignore[attr-defined]
    assert group is not None, "no group formed: nothing here was tested"
    tasks[0].cancel()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    assert not any(isinstance(r, BaseException) for r in done[1:])
    await service.db.flush()
    # The cancelled caller's change stands or was never made: nothing is half-saved,
    # and every other change is on disk.
    assert [await saved_actions(database, m) for m in ids[1:]] == [1] * 9
    first = await saved_actions(database, ids[0])
    assert (await service.get(ids[0])).version == first
    assert await service.verify(ids[0])
