"""The figures at `/metrics` (`bot.service.metrics`): a real bot logged in to the fake
Discord over HTTP plays a match through its services, Discord answers one post with a
429, a player tries a move out of turn, and a scrape of the health port reads what
that implies: every saved action counted, the refusal and the 429 counted, the outbox
back to empty, the match under way, the board pictures drawn. Interactions and the AI
are counted where simcord drives them (see the last tests)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import simcord
from prometheus_client.parser import text_string_to_metric_families

from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from bot.health import Health
from bot.service import errors
from bot.service.metrics import DISCORD_EPOCH_MS, LATE_ANSWER, Metrics, family, refusal_kind
from rules.core import IllegalAction
from tests.bot.fake_discord import FakeDiscord
from tests.bot.test_ai_players import until_the_ai_decides
from tests.bot.test_fake_discord import ALICE, BOB, CHANNEL, play, started
from tests.bot.test_operations import free_port
from tests.bot.world import World
from tests.conftest import BotFactory

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def read(text: str) -> Samples:
    """Every sample of a scrape, by name and labels."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family_ in text_string_to_metric_families(text)
        for s in family_.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value (0 when the scrape has none: a counter never touched)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


async def scrape(port: int) -> Samples:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as answer,
    ):
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain")
        return read(await answer.text())


@pytest.fixture
async def served(fake: FakeDiscord, db_path: Path) -> AsyncIterator[tuple[ArbiterBot, int]]:
    """A real bot logged in to the fake Discord, and the port its health server (and
    `/metrics`) answers on."""
    settings = Settings(
        _env_file=None, discord_token="x", arbiter_db=str(db_path), arbiter_channel_every=0
    )
    bot = create_bot(settings)
    port = free_port()
    health = Health(bot, port)
    try:
        await health.start()
        await bot.login("x")
        yield bot, port
    finally:
        await health.stop()
        await bot.close()


async def test_a_played_match_is_counted_as_it_was_played(
    served: tuple[ArbiterBot, int], fake: FakeDiscord
) -> None:
    bot, port = served
    before = await scrape(port)
    assert value(before, "arbiter_outbox_waiting") == 0
    assert value(before, "arbiter_shard_lease_held", shard="0") == 1  # SQLite: every shard

    fault = fake.inject_error("POST", "/channels/*/messages", status=429, retry_after=0.05)
    match_id = await started(bot)
    await play(bot, match_id, 6)
    table = await bot.matches.table(match_id)
    waiting = next(s for s in (ALICE, BOB) if table.seat_of(s).seat not in table.to_act)
    choices = await bot.matches.choices(CHANNEL, table.user_of(table.to_act[0]).user_id)
    with pytest.raises(errors.NotYourTurn):
        await bot.matches.act(match_id, waiting, choices[0].key)
    await bot.publisher.idle()
    assert fault.hits == 1

    seen = await scrape(port)
    saved = len(await bot.store.matches.actions(match_id))
    assert saved >= 6
    game = {"game": "tooth-and-nail", "variant": "2p"}
    assert value(seen, "arbiter_actions_total", **game) == saved
    assert value(seen, "arbiter_refusals_total", **game, kind="not_your_turn") == 1
    assert value(seen, "arbiter_matches_active", game="tooth-and-nail") == 1
    # Delivered: nothing waits, and the 429 was waited out and the post retried.
    assert value(seen, "arbiter_outbox_waiting") == 0
    assert value(seen, "arbiter_outbox_oldest_seconds") == 0
    limited = {k: v for k, v in seen.items() if k[0] == "arbiter_discord_rate_limited_total"}
    assert sum(limited.values()) == 1
    assert dict(next(iter(limited))[1])["route"] == "global"
    assert value(seen, "arbiter_discord_retry_after_seconds_count") == 1
    assert value(seen, "arbiter_discord_requests_total", route="global", status="429") == 1
    posted = [r for r in fake.requests if r.method == "POST" and r.route.endswith("/messages")]
    answered = sum(v for k, v in seen.items() if k[0] == "arbiter_discord_requests_total")
    assert (
        value(seen, "arbiter_discord_requests_total", route="global", status="200")
        >= len(posted) - 1
    )
    assert answered == len(fake.requests)  # every request discord.py made, login included
    assert value(seen, "arbiter_store_transaction_seconds_count") > saved
    assert value(seen, "arbiter_picture_seconds_count", game="tooth-and-nail") >= 1
    assert value(seen, "arbiter_outbox_given_up_total", reason="refused") == 0


async def test_a_backlog_shows_its_size_and_age_until_it_is_delivered(
    served: tuple[ArbiterBot, int], fake: FakeDiscord
) -> None:
    bot, port = served
    fake.inject_error("POST", "/channels/*/messages", status=503, times=None)
    match_id = await started(bot)
    await play(bot, match_id, 2)
    seen = await scrape(port)
    waiting = value(seen, "arbiter_outbox_waiting")
    assert waiting >= 1
    rows = [r for r in await bot.store.outbox.rows(match_id) if r.delivered_at is None]
    assert waiting == len(rows)
    assert value(seen, "arbiter_outbox_oldest_seconds") >= 0
    fake.clear_faults()
    bot.publisher.wake(rows[0].notice.lane)
    await bot.publisher.idle()
    after = await scrape(port)
    assert (
        value(after, "arbiter_outbox_waiting"),
        value(after, "arbiter_outbox_oldest_seconds"),
    ) == (
        0,
        0,
    )


def test_a_first_answer_is_timed_from_the_interaction_and_a_late_one_counted() -> None:
    metrics = Metrics()
    now = time.time()

    def made(seconds_ago: float) -> int:
        return int((now - seconds_ago) * 1000 - DISCORD_EPOCH_MS) << 22

    for ago in (0.4, LATE_ANSWER + 0.3):
        path = f"/api/v10/interactions/{made(ago)}/tok/callback"
        metrics.answered("POST", path, 204, now=now)
    metrics.answered("POST", f"/api/v10/interactions/{made(5)}/tok/callback", 404, now=now)
    samples = read(metrics_text(metrics))
    assert value(samples, "arbiter_interaction_first_answer_seconds_count") == 2
    assert value(samples, "arbiter_interaction_late_answers_total") == 1
    assert value(samples, "arbiter_discord_requests_total", route="interaction", status="204") == 2
    assert value(samples, "arbiter_discord_requests_total", route="interaction", status="404") == 1


def metrics_text(metrics: Metrics) -> str:
    from prometheus_client import generate_latest

    return generate_latest(metrics.registry).decode()


def test_labels_stay_few() -> None:
    """No id of a match, a user or a server becomes a label."""
    assert family("arbiter:act:123:s4") == "act"
    assert family("arbiter:quick:1:0:7:play|x") == "quick"
    assert family("somebody's:own:id") == "other"
    assert family("arbiter:12345") == "other"
    assert refusal_kind(errors.NotYourTurn()) == "not_your_turn"
    assert refusal_kind(errors.StaleChoice()) == "stale_choice"
    assert refusal_kind(IllegalAction("x", "no")) == "illegal"


async def test_interactions_and_the_ais_decisions_are_timed(create_bot: BotFactory) -> None:
    """Through simcord: alice opens a game against the AI with a slash command, starts
    it with the lobby's button, the AI decides and she plays with /play: each one is
    timed under its command's name or its component's family, the AI's decision under
    its game and level."""
    async with simcord.run(create_bot(arbiter_ai_pause=60.0)) as env:
        world = World.build(env)
        await until_the_ai_decides(world, "easy")
        await env.advance_time(61)
        await world.bot.players.settled()
        offered = await world.alice.autocomplete(world.channel, "play", "action", "")
        await world.alice.slash(world.channel, "play", action=offered[0]["value"])
        samples = read(metrics_text(world.bot.metrics))
        samples = read(metrics_text(world.bot.metrics))
        timed = {
            (dict(labels)["kind"], dict(labels)["name"])
            for (name, labels), count in samples.items()
            if name == "arbiter_interaction_seconds_count" and count >= 1
        }
        assert {("command", "match new"), ("command", "play"), ("component", "lobby")} <= timed
        decided = value(
            samples, "arbiter_ai_decision_seconds_count", game="tooth-and-nail", level="easy"
        )
        assert decided >= 1
        assert value(samples, "arbiter_ai_fallbacks_total", game="tooth-and-nail") == 0
