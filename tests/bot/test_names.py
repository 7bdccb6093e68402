"""Display names shown as they are: markdown, mentions, line breaks and control
characters in a name never format, ping or break what the table reads (issue 37)."""

from __future__ import annotations

from typing import Any

import discord

from bot.names import plain, shown_name
from bot.pictures.canvas import drawable, fit
from rules.core.text import clip
from tests.bot.world import World

TRICKY = "**Bo**||x||[y](https://e.x) @everyone"
RAW_PARTS = ("**Bo**", "||x||", "[y](", "@everyone")


def texts(message: Any) -> list[str]:
    """Every markdown text of a message: its content and its embeds' texts."""
    found = [message.content or ""]
    for embed in message.embeds:
        found += [embed.title or "", embed.description or "", embed.footer.text or ""]
        found += [f"{f.name}\n{f.value}" for f in embed.fields]
    return found


def test_a_shown_name_escapes_markdown_and_mentions_and_keeps_one_line() -> None:
    shown = shown_name("**Bo**\n||x||\u2029`y`")
    assert shown == "\\*\\*Bo\\*\\* \\|\\|x\\|\\| \\`y\\`"
    assert plain(shown) == "**Bo** ||x|| `y`"  # a menu or a picture shows it as it is
    assert drawable(shown) == "**Bo** ||x|| `y`"
    assert "@everyone" not in shown_name("@everyone")  # never a mention


async def test_a_tricky_name_shows_literally_on_every_screen(world: World) -> None:
    tricky = world.guild.add_member(world.env.create_user(TRICKY))
    opened = await world.open(world.alice, "tooth-and-nail", "2p", seed=3)
    assert opened.response is not None
    await tricky.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    players = {world.alice.id: world.alice, tricky.id: tricky}
    for _ in range(4):
        table = await world.bot.matches.table((await world.match()).id)
        player = players[table.user_of(table.to_act[0]).user_id]
        offered = await player.autocomplete(world.channel, "play", "action", "")
        assert all("\\" not in o["name"] for o in offered)  # autocomplete is not markdown
        await player.slash(world.channel, "play", action=offered[0]["value"])
    await world.bot.publisher.idle()
    status = (await world.alice.slash(world.channel, "match status")).response
    shown = [t for m in [*world.channel.history(), status] for t in texts(m)]
    escaped = shown_name(TRICKY)
    assert any(escaped in t for t in shown), "the name is shown"
    for text in shown:
        rest = text.replace(escaped, "")  # what is left once the escaped name is out
        for raw in RAW_PARTS:
            assert raw not in rest, f"{raw!r} unescaped in {text!r}"
    board = await world.board()
    assert any(escaped in t for t in texts(board))
    assert isinstance(board, discord.Message)


def test_a_picture_draws_one_mark_for_an_emoji_sequence_it_lacks() -> None:
    """The picture's font has no emoji: each sequence is one "?", never its parts."""
    assert drawable("Ada 👩‍💻 👨‍👩‍👧 🇫🇷 👍🏽 1️⃣ é") == "Ada ? ? ? ? ? é"
    assert drawable("a\n\u0301b x\u200dy") == "a \u0301b xy"  # a break is a space, even marked


def test_a_name_cut_short_keeps_its_emoji_sequences_whole() -> None:
    name = "Ada 👨‍👩‍👧"
    for limit in range(1, len(name) + 2):
        cut = clip(name, limit)
        assert len(cut) <= limit
        assert cut in (name, "Ada …", "Ada…", "Ad…", "A…", "…"), (limit, cut)
    assert clip("🇫🇷🇩🇪", 3) == "🇫🇷…"  # a flag is two letters: never one of them alone
    assert clip("🇫🇷🇩🇪", 2) == "…"
    fitted = fit("Bo " + "👩‍💻" * 9, 60)  # a picture's line cut to its width
    assert fitted.endswith("…") and fitted[:-1].endswith("👩‍💻"), fitted
