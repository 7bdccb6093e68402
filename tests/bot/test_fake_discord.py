"""The fake Discord of the multi-process tests (`tests.bot.fake_discord`), served over HTTP
and driven by discord.py itself: a real bot logs in to it and its publisher delivers a
match there; the routes the publisher relies on answer as Discord's do."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.app import ArbiterBot, create_bot
from bot.config import Settings
from bot.pictures import BOARD_FILE
from tests.bot.conftest import CHANNEL, GUILD
from tests.bot.fake_discord import FakeDiscord, dm_channel_id

ALICE, BOB = 101, 102
THREAD, NOWHERE = 901, 999


@pytest.fixture
async def bot(fake: FakeDiscord, db_path: Path) -> AsyncIterator[ArbiterBot]:
    """A real bot logged in to the fake Discord (no gateway): its store, cogs, command
    sync, clocks and publisher started."""
    settings = Settings(
        _env_file=None, discord_token="x", arbiter_db=str(db_path), arbiter_channel_every=0
    )
    bot = create_bot(settings)
    try:
        await bot.login("x")
        yield bot
    finally:
        await bot.close()


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A bare discord.py client logged in to the fake Discord."""
    client = discord.Client(intents=discord.Intents.none())
    try:
        await client.login("x")
        yield client
    finally:
        await client.close()


async def started(bot: ArbiterBot) -> int:
    """A Tooth and Nail match between Alice and Bob in CHANNEL, started; its id."""
    matches = bot.matches
    table = await matches.new_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="Alice",
        game="tooth-and-nail",
        variant="2p",
        seed=1,
    )
    await matches.join(table.match.id, BOB, "Bob")
    await matches.start(table.match.id, ALICE)
    return table.match.id


async def play(bot: ArbiterBot, match_id: int, times: int) -> None:
    """`times` actions, each the first legal choice of the first player deciding."""
    for _ in range(times):
        table = await bot.matches.table(match_id)
        user = table.user_of(table.to_act[0]).user_id
        choice = (await bot.matches.choices(CHANNEL, user))[0]
        await bot.matches.act(match_id, user, choice.key)


async def action_lines(bot: ArbiterBot, match_id: int) -> list[str]:
    """The public lines of the match's actions, in order, as the outbox holds them."""
    rows = await bot.store.outbox.rows(match_id)
    return [line for r in rows if r.notice.kind == "action" for line in r.notice.body["lines"]]


def told_once(fake: FakeDiscord, expected: list[str]) -> None:
    """The channel reads each of `expected` exactly as often as it is there, in order."""
    shown = fake.lines(CHANNEL)
    for line in set(expected):
        assert shown.count(line) == expected.count(line), line
    assert [line for line in shown if line in expected] == expected


async def test_a_bot_logs_in_and_delivers_a_match(bot: ArbiterBot, fake: FakeDiscord) -> None:
    login = [(r.method, r.route) for r in fake.requests[:3]]
    assert login == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
        ("PUT", "/applications/{application_id}/commands"),
    ]
    assert bot.user is not None and bot.user.id == fake.bot_user_id
    assert {name for _, name in fake.commands} >= {"match", "play", "hand"}

    match_id = await started(bot)
    await play(bot, match_id, 2)
    await bot.publisher.idle()

    match = await bot.matches.get(match_id)
    assert match.board_message_id is not None
    board = fake.message(match.board_message_id)
    assert board.channel_id == CHANNEL
    assert board.embeds[0]["footer"]["text"].startswith(f"Match #{match_id}")
    assert board.filenames == [BOARD_FILE]
    assert board.edited >= 1  # brought up to date by the actions
    expected = await action_lines(bot, match_id)
    assert len(expected) >= 2
    told_once(fake, expected)
    assert fake.lines(CHANNEL).count("The match begins!") == 1
    turns = [m for m in fake.messages(CHANNEL) if (m.nonce or "").startswith("arbiter-")]
    assert turns and all(m.author_id == fake.bot_user_id for m in turns)
    assert set(fake.nonces().values()) == {1}
    assert (fake.deduplicated, fake.unexpected, fake.failed) == (0, [], [])

    # Another post with a turn message's nonce (as a second process would send it) is
    # answered with that message, and posts nothing.
    turn = turns[-1]
    count = len(fake.messages(CHANNEL))
    again = await bot.get_partial_messageable(CHANNEL).send("posted twice?", nonce=turn.nonce)
    assert (again.id, again.content) == (turn.id, turn.content)
    assert (fake.deduplicated, turn.posts, len(fake.messages(CHANNEL))) == (1, 2, count)
    assert set(fake.nonces().values()) == {1}


async def test_a_lost_answer_is_retried_with_its_nonce(
    bot: ArbiterBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord took the post but its answer was an error: the publisher's retry carries
    the same nonce, and the line is in the channel once."""
    monkeypatch.setattr("bot.pace.BACKOFF", 0.01)
    match_id = await started(bot)
    await bot.publisher.idle()
    lost = fake.inject_error("POST", f"/channels/{CHANNEL}/messages", status=503, applied=True)
    await play(bot, match_id, 1)  # its line calls the other player: a new message
    await bot.publisher.idle()
    assert lost.hits == 1
    assert fake.deduplicated == 1
    told_once(fake, await action_lines(bot, match_id))
    assert set(fake.nonces().values()) == {1}


async def test_a_board_post_whose_answer_is_lost_is_posted_once(
    bot: ArbiterBot, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord took the board's post but answered an error: the retry carries the
    notice's board nonce, so the channel holds one board (none left with its buttons)."""
    monkeypatch.setattr("bot.pace.BACKOFF", 0.01)
    lost = fake.inject_error("POST", f"/channels/{CHANNEL}/messages", status=503, applied=True)
    match_id = await started(bot)  # the lobby's message is the first post
    await bot.publisher.idle()
    assert lost.hits == 1 and fake.deduplicated == 1
    boards = [m for m in fake.messages(CHANNEL) if BOARD_FILE in m.filenames]
    assert len(boards) == 1
    assert (await bot.matches.get(match_id)).board_message_id == boards[0].id
    assert set(fake.nonces().values()) == {1}


async def test_history_pages_as_discord_does(client: discord.Client, fake: FakeDiscord) -> None:
    channel = client.get_partial_messageable(CHANNEL)
    sent = [(await channel.send(f"line {n}")).id for n in range(5)]
    assert [m.id for m in fake.messages(CHANNEL)] == sent == sorted(sent)
    latest = [m.id async for m in channel.history(limit=3)]
    assert latest == sent[:1:-1]  # newest first
    after = [m.id async for m in channel.history(limit=2, after=discord.Object(sent[0]))]
    assert after == sent[1:3]  # the oldest after it, oldest first
    before = [m.id async for m in channel.history(limit=10, before=discord.Object(sent[3]))]
    assert before == sent[2::-1]
    around = [m.id async for m in channel.history(limit=3, around=discord.Object(sent[2]))]
    assert sorted(around) == sent[1:4]
    query = fake.calls("GET", "/channels/{channel_id}/messages")[1].query
    assert query == {"limit": "2", "after": str(sent[0])}


async def test_edits_and_pictures(client: discord.Client, fake: FakeDiscord) -> None:
    channel = client.get_partial_messageable(CHANNEL)
    picture = discord.File(io.BytesIO(b"\x89PNG one"), filename="board.png")
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    posted = await channel.send(embed=embed, file=picture)
    assert [a.filename for a in posted.attachments] == ["board.png"]
    assert posted.attachments[0].size == len(b"\x89PNG one")
    assert posted.embeds[0].title == "Board"

    message = channel.get_partial_message(posted.id)
    newer = discord.File(io.BytesIO(b"\x89PNG two, longer"), filename="board.png")
    edited = await message.edit(content="first", attachments=[newer])
    held = fake.message(posted.id)
    assert [a.data for a in held.attachments] == [b"\x89PNG two, longer"]
    assert edited.attachments[0].id != posted.attachments[0].id
    await message.edit(content="second", attachments=[])
    await message.edit(view=None)
    assert (held.content, held.attachments, held.components) == ("second", [], [])
    assert held.edits == ["first", "second", "second"]
    assert held.embeds[0]["title"] == "Board"  # an edit keeps what it doesn't name

    with pytest.raises(discord.NotFound) as unknown:
        await channel.get_partial_message(posted.id + 1).edit(content="x")
    assert unknown.value.code == 10008


async def test_channels_and_dms(client: discord.Client, fake: FakeDiscord) -> None:
    fetched = await client.fetch_channel(CHANNEL)
    assert isinstance(fetched, discord.TextChannel) and fetched.guild.id == GUILD
    with pytest.raises(discord.NotFound) as unknown:
        await client.fetch_channel(NOWHERE)
    assert unknown.value.code == 10003
    with pytest.raises(discord.NotFound):
        await client.get_partial_messageable(NOWHERE).send("lost")

    dm = await client.create_dm(discord.Object(ALICE))
    assert dm.id == dm_channel_id(ALICE) and dm.recipient is not None
    first = await dm.send("your turn", nonce="dm-1")
    again = await dm.send("your turn", nonce="dm-1")
    assert first.id == again.id and fake.lines(dm.id) == ["your turn"]

    fake.add_channel(THREAD, GUILD, thread_of=CHANNEL)
    fake.archive(THREAD)
    with pytest.raises(discord.HTTPException) as archived:
        await client.get_partial_messageable(THREAD).send("in the thread")
    assert archived.value.code == 50083
    thread = await client.fetch_channel(THREAD)
    assert isinstance(thread, discord.Thread) and thread.archived
    assert not (await thread.edit(archived=False)).archived
    await client.get_partial_messageable(THREAD).send("in the thread")
    assert fake.lines(THREAD) == ["in the thread"]

    with pytest.raises(discord.NotFound):  # a route the fake doesn't serve
        await client.http.delete_message(CHANNEL, 1)
    assert [(r.method, r.path) for r in fake.unexpected] == [
        ("DELETE", f"/channels/{CHANNEL}/messages/1")
    ]
    fake.unexpected.clear()


async def test_injected_failures(client: discord.Client, fake: FakeDiscord) -> None:
    channel = client.get_partial_messageable(CHANNEL)
    down = fake.inject_error("POST", "/channels/*/messages", status=503, times=2)
    for _ in range(2):
        with pytest.raises(discord.DiscordServerError):
            await channel.send("lost", nonce="n-1")
    assert (down.hits, fake.messages(CHANNEL)) == (2, [])
    posted = await channel.send("through", nonce="n-1")  # the outage is over

    fake.inject_error("POST", f"/channels/{CHANNEL}", status=503, applied=True)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("taken, answer lost", nonce="n-2")
    answer = await channel.send("taken, answer lost", nonce="n-2")
    assert [m.id for m in fake.messages(CHANNEL)] == [posted.id, answer.id]
    assert fake.deduplicated == 1

    # A 429 is Discord's own: discord.py waits `retry_after` and tries again by itself.
    limited = fake.inject_error("PATCH", "/channels/", status=429, retry_after=0.01)
    await channel.get_partial_message(posted.id).edit(content="edited")
    assert limited.hits == 1 and fake.message(posted.id).content == "edited"

    fake.inject_error("POST", "/channels/", status=403, code=50013, message="Missing Permissions")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("refused")
    assert refused.value.code == 50013
    assert [r.status for r in fake.calls("POST")] == [503, 503, 200, 503, 200, 403]
