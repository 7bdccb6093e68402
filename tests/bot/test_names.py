"""Display names shown as they are: markdown, mentions, Discord's `<...>` forms, line
breaks and control characters in a name never format, ping, come alive or break what
the table reads, and its emoji sequences stay whole (issues 37 and 42)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.names import plain, shown_name
from bot.pictures.canvas import drawable, fit
from bot.service.tables import AI_NAME
from rules.core.text import clip
from tests.bot.test_moderation import admin
from tests.bot.world import World, answered, turn_message

TRICKY = "**Bo**||x||[y](https://e.x) @everyone"
RAW_PARTS = ("**Bo**", "||x||", "[y](", "@everyone")


def texts(message: Any) -> list[str]:
    """Every text of a message where markdown renders: its content, and its embeds'
    titles, descriptions and fields (see `literal_texts` for the rest)."""
    found = [message.content or ""]
    for embed in message.embeds:
        found += [embed.title or "", embed.description or ""]
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


# Names that hold Discord's `<...>` forms (a channel, a role mention, a timestamp, a
# command link, a custom emoji), a heading and emoji sequences. Each must read as written
# and none of its forms come alive.
HEADS = "# head 👩‍💻 <#1> <@&123456789012345678>"
CLOCK = "<t:0:R> </match new:1> 👨‍👩‍👧 👍🏽 🇫🇷 1️⃣ <:x:123>"
FORMS = ("<#1>", "<@&123456789012345678>", "<t:0:R>", "</match new:1>", "<:x:123>")
SPLIT = ("👩 💻", "👨 👩", "👍 🏽")  # a sequence broken into its parts


def live(text: str) -> list[str]:
    """The forms of the names that Discord would parse in `text`: those left once every
    backslash escape (a backslash and the character after it) is taken out."""
    unescaped = re.sub(r"\\.", "", text, flags=re.DOTALL)
    return [form for form in FORMS if form in unescaped]


def reads(text: str) -> str:
    """What a reader sees of markdown: an escaped punctuation mark as itself (Discord's
    escape), a zero-width space as nothing."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text).replace("\u200b", "")


def literal_texts(message: Any) -> list[str]:
    """The texts of a message that Discord shows as they are: its embeds' footers and
    authors, its buttons' labels and its menus' options."""

    def get(item: Any, key: str) -> Any:  # a raw payload, or discord.py's object
        return item.get(key) if isinstance(item, dict) else getattr(item, key, None)

    found = []
    for embed in message.embeds:
        found += [embed.footer.text or "", embed.author.name or ""]
    for row in message.components:
        for child in get(row, "components") or get(row, "children") or []:
            found.append(get(child, "label") or "")
            for option in get(child, "options") or []:
                found += [get(option, "label") or "", get(option, "description") or ""]
    return found


def test_a_name_keeps_its_emoji_sequences_and_escapes_every_form() -> None:
    shown = shown_name(HEADS + " " + CLOCK)
    assert live(shown) == []
    assert reads(shown) == HEADS + " " + CLOCK  # as written where markdown renders
    assert plain(shown) == HEADS + " " + CLOCK  # and where text shows as it is
    assert shown_name("a\u200d b \u200d") == "a b"  # a joiner that joins nothing goes
    assert shown_name("1. Ada") == "1\\. Ada"  # never a numbered list
    assert reads(shown_name("1. Ada")) == plain(shown_name("1. Ada")) == "1. Ada"
    assert shown_name("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f") == (
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # Scotland's flag
    )


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


async def test_names_with_discord_forms_and_emoji_read_as_written_everywhere(
    world: World,
) -> None:
    """Two players whose names hold a heading, every `<...>` form Discord parses and emoji
    sequences play; the AI stands in for one. Every message, embed, button, menu and
    footer shows each name as written, none of its forms comes alive, no emoji sequence
    is split, and the picture draws each sequence as one mark."""
    heads = world.guild.add_member(world.env.create_user(HEADS))
    clock = world.guild.add_member(world.env.create_user(CLOCK))
    match = await world.start("tooth-and-nail", "2p", [heads, clock], seed=3)
    players = {heads.id: heads, clock.id: clock}
    panels = []
    for _ in range(4):
        table = await world.bot.matches.table(match.id)
        player = players[table.user_of(table.to_act[0]).user_id]
        panels.append((await player.slash(world.channel, "hand")).response)
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    mona = admin(world)
    handed = await mona.slash(world.channel, "mod ai", player=heads, level="easy")
    await world.bot.publisher.idle()
    status = (await clock.slash(world.channel, "match status")).response
    board = await world.board()
    assert f"{AI_NAME} for {HEADS}" in board.embeds[0].footer.text  # no escape shows

    seen = [*world.channel.history(viewer=heads), *world.channel.history(viewer=clock)]
    seen += [status, *panels, *answered(handed)]
    marked = [t for m in seen for t in texts(m)]
    for text in marked:
        assert live(text) == [], text
        assert not any(split in text for split in SPLIT), text
    assert any(HEADS in reads(t) for t in marked) and any(CLOCK in reads(t) for t in marked)
    literal = [t for m in seen for t in literal_texts(m)]
    assert any(HEADS in t for t in literal)
    for text in literal:  # shown as they are: no escape may show there
        assert not re.search(r"\\[^0-9A-Za-z\s]", text) and "\u200b" not in text, text
        assert not any(split in text for split in SPLIT), text

    table = await world.bot.matches.table(match.id)
    drawn = await world.bot.pictures.board(table.game.id, table.view or {}, (), None)
    assert drawn is not None
    written = [drawable(line) for box in drawn.layout for line in box.text]
    assert any("# head ? <#1>" in line for line in written), written


async def test_a_button_named_for_a_player_shows_the_name_as_written(world: World) -> None:
    """Command of Nature's teammates each have a button that ends their part of the turn,
    named for them: a label shows its text as it is, so the name has no escapes there."""
    heads = world.guild.add_member(world.env.create_user(HEADS))
    players = [heads, world.bob, world.carol, world.dave]
    match = await world.start("command-of-nature", "4p", players, seed=3)
    by_id = {p.id: p for p in players}
    for _ in range(20):  # the first choice each time, until both teammates may end the turn
        table = await world.bot.matches.table(match.id)
        if len((table.view or {}).get("quick") or []) > 1:
            break
        player = by_id[table.user_of(table.to_act[0]).user_id]
        offered = await player.autocomplete(world.channel, "play", "action", "")
        await player.slash(world.channel, "play", action=offered[0]["value"])
    await world.bot.publisher.idle()
    labels = literal_texts(await turn_message(world, heads))
    assert f"{HEADS}: End turn" in labels, labels
