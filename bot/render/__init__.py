"""Embeds and lines of text built from the match service's results.

Nothing here talks to Discord or the store; `bot.ui` sends what these build.
Each game may register a `Renderer` for its board; others get the generic one.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.names import plain
from bot.pictures import Ending, Picture
from bot.render.command_of_nature import CommandOfNatureRenderer
from bot.render.generic import Field, Renderer, chunked_fields, clip
from bot.render.historia_command import HistoriaCommandRenderer
from bot.render.mystic_vale import MysticValeRenderer
from bot.render.tooth_and_nail import ToothAndNailRenderer
from bot.service.store import MatchRow, SeatRow
from bot.service.tables import AI_NAME, ActResult, PrivateView, Table
from bot.service.timing import clock_text, terms_text
from rules.core import Game, OptionInfo
from rules.core.text import listed

RENDERERS: dict[str, Renderer] = {
    "tooth-and-nail": ToothAndNailRenderer(),
    "command-of-nature": CommandOfNatureRenderer(),
    "mystic-vale": MysticValeRenderer(),
    "historia-command": HistoriaCommandRenderer(),
}
_GENERIC = Renderer()

EMBED_BUDGET = 5800  # Discord refuses embeds over 6000 characters in total
MESSAGE_LIMIT = 2000

COLOURS = {
    "lobby": discord.Colour.blurple(),
    "active": discord.Colour.green(),
    "finished": discord.Colour.gold(),
    "cancelled": discord.Colour.dark_grey(),
    "abandoned": discord.Colour.dark_grey(),
}

LATELY_FIELD = "Lately"
TO_ACT = "▶️"  # who decides, on the board

__all__ = [
    "Field",
    "Renderer",
    "action_lines",
    "action_text",
    "board_embed",
    "end_line",
    "end_lines",
    "ending_of",
    "glance_embed",
    "host_left",
    "lobby_embed",
    "option_lines",
    "options_footer",
    "options_summary",
    "ping_lines",
    "private_embed",
    "renderer_for",
    "seed_notice",
    "short_choice",
    "turn_text",
]


def seed_notice(match: MatchRow) -> str | None:
    """The public warning a chosen seed needs (every shuffle can be worked out from it);
    None for a drawn seed, which is never shown while the match is open."""
    if not match.seed_chosen:
        return None
    return f"🎲 Seed {match.seed} — shuffles are predictable (for testing or replays)."


def short_choice(info: OptionInfo, value: str) -> str:
    """A choice's label as it reads beside its option's label: a label that is the
    option's label and one word says the word ("Leaders off" of "Leaders": "off"); any
    other is kept whole ("Hand of 5" of "Hand")."""
    label = info.choices[value]
    head, _, rest = label.strip().rpartition(" ")
    if head.casefold() == info.label.strip().casefold() and rest:
        return rest
    return label


def option_lines(table: Table) -> list[str]:
    """Each option of the match's game with its value and what it changes: "**Leaders:**
    off — each player starts with a leader sleeved in a blank card"."""
    lines = []
    for info, value in table.options:
        line = f"**{info.label}:** {short_choice(info, value)}"
        lines.append(f"{line} — {info.blurb}" if info.blurb else line)
    return lines


def options_footer(table: Table) -> str:
    """The chosen options in a line, by their choices' labels ("Leaders on · Nemesis cards
    only"); "" for a game without options."""
    return " · ".join(info.choices[value] for info, value in table.options)


def options_summary(game: Game) -> str:
    """A game's options as `/rules` lists them: each with its choices, its default and
    what it changes; "" for a game without options."""
    lines = []
    for info in game.options.values():
        choices = " / ".join(info.choices.values())
        line = f"**{info.label}** — {choices} (default: {info.choices[info.default]})"
        if info.only:
            line += " — " + " and ".join(game.variants[v].name for v in info.only) + " only"
        lines.append(line + (f": {info.blurb}" if info.blurb else ""))
    return "\n".join(lines)


def renderer_for(game_id: str) -> Renderer:
    """The board renderer of a game (the generic one by default)."""
    return RENDERERS.get(game_id, _GENERIC)


def _fill(embed: discord.Embed, fields: list[Field]) -> discord.Embed:
    """Add fields while the embed stays within Discord's size and count limits."""
    used = len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "")
    for field in fields[:25]:
        room = EMBED_BUDGET - used - len(field.name)
        if room < 20:
            break
        value = clip(field.value, min(room, 1024)) or "—"
        embed.add_field(name=field.name, value=value, inline=field.inline)
        used += len(field.name) + len(value)
    return embed


def _names(table: Table, seats: tuple[int, ...] | list[int]) -> str:
    return " and ".join(f"**{table.user_of(s).name}**" for s in seats)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _seats_text(table: Table) -> str:
    """How full a lobby is: "1 of 2 seats taken — waiting for 1 more player"."""
    info = table.variant
    taken = len(table.seats)
    count = f"{taken} of {info.max_players} seats taken"
    if taken < info.min_players:
        least = "at least " if info.min_players < info.max_players else ""
        return f"{count} — waiting for {least}{_plural(info.min_players - taken, 'more player')}"
    if taken < info.max_players:
        return f"{count} — enough to start, and {info.max_players - taken} more can join"
    return count


def _lobby_text(table: Table) -> str:
    """What an open lobby says: the variant, how full it is, who does what next."""
    info = table.variant
    taken = len(table.seats)
    host = f"**{table.host.name}**" if table.host else "the host"
    if taken < info.min_players:
        least = "at least " if info.min_players < info.max_players else ""
        needed = _plural(info.min_players, "player")
        next_step = (
            f"Press **Join** to take a seat. The host, {host}, can press **Start** "
            f"once {least}{needed} have joined."
        )
    elif taken < info.max_players:
        next_step = f"Press **Join** to take a seat, or the host, {host}, can press **Start** now."
    else:
        next_step = f"The host, {host}, can press **Start** now."
    parts = [
        info.blurb,
        f"**{_seats_text(table)}.**\n{next_step}\n"
        "**Leave** gives up your seat; **Cancel** (the host only) closes the lobby."
        + (
            f"\nNo one else around? **🤖 Add AI** seats {AI_NAME}, easy or strong (the host"
            " only; games with the AI are not rated)."
            if table.ai_welcome and taken < info.max_players
            else ""
        ),
    ]
    if table.game.options:
        parts.append("The host sets the options with the menus below (or `/match option`).")
    return "\n\n".join(part for part in parts if part)


LOBBY_STARTED = "This match has started: follow it on the board below."  # a retired lobby
LOBBY_LEFT = (
    "This lobby closed: its host left and nobody else had taken a seat. "
    "Anyone can open a new one with `/match new`."
)


def host_left(table: Table) -> bool:
    """Whether a lobby closed because its host left it with no other person seated."""
    return table.match.status == "cancelled" and not any(s.person for s in table.seats)


def lobby_embed(table: Table) -> discord.Embed:
    """The lobby message: the game and variant, what it is, how many seats are taken, who
    hosts and who has joined."""
    info = table.variant
    status = table.match.status
    if status == "lobby":
        text = _lobby_text(table)
    elif host_left(table):
        text = LOBBY_LEFT
    elif status == "cancelled":
        text = "This lobby was closed."
    else:
        text = LOBBY_STARTED
    notice = seed_notice(table.match)
    if notice:
        text = f"{text}\n\n{notice}"
    embed = discord.Embed(
        title=f"{table.game.name} — {info.name}", description=text, colour=COLOURS[status]
    )
    lines = [
        f"{s.seat + 1}. {'🤖 ' if not s.person else ''}{s.name}"
        + (" (host)" if s.seat == 0 else "")
        for s in table.seats
    ]
    embed.add_field(name="Players", value="\n".join(lines) or "—")
    options = option_lines(table)
    if options:
        embed.add_field(name="Options", value=clip("\n".join(options), 1024), inline=False)
    embed.add_field(
        name="Clock",
        value=terms_text(table.match.clock_seconds, table.match.timeout_policy),
        inline=False,
    )
    embed.set_footer(text=f"Match #{table.match.id}")
    return embed


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def end_description(table: Table) -> str:
    """How the match ended, for the board: the game's own sentence when it has one."""
    assert table.outcome is not None
    if table.outcome.text:
        return f"🏆 {table.outcome.text}"
    winners = _names(table, table.outcome.winners) or "nobody"
    reason = f" ({table.outcome.reason})" if table.outcome.reason else ""
    return f"🏆 {winners} won{reason}."


STOPPED_HEADLINES = {"cancelled": "Stopped by a moderator", "abandoned": "Abandoned: nobody won"}


def ending_of(table: Table) -> Ending | None:
    """How the match ended, as its board says it: the headline's words ("Ada won",
    "The nemesis won", "Stopped by a moderator") and the whole sentence; None while it
    is in play (or before it started)."""
    if table.stopped is not None:
        headline = STOPPED_HEADLINES.get(table.match.status, "Stopped")
        return Ending(headline, table.stopped, stopped=True)
    outcome = table.outcome
    if outcome is None:
        return None
    winners = listed([table.user_of(s).name for s in outcome.winners])
    sides = {table.teams.get(s, s) for s in outcome.winners}
    if outcome.against:
        headline = f"{winners} beat the nemesis" if winners else "The nemesis won"
    elif len(sides) > 1:
        headline = f"{winners} share the win"  # a tie between sides
    else:
        headline = f"{winners} won" if winners else "Nobody won"
    return Ending(headline, end_description(table).removeprefix("🏆 "))


def picture_files(picture: Picture | None, filename: str) -> list[discord.File]:
    """A drawn picture as the file to attach under `filename` (none without one)."""
    if picture is None:
        return []
    return [discord.File(io.BytesIO(picture.png), filename=filename)]


def shown_view(table: Table) -> tuple[dict[str, Any], tuple[int, ...]]:
    """The public view and the deciders as the board shows them: a match that ended has
    nobody to act, and one stopped mid-turn reads as over, saying why."""
    view = table.view or {}
    ending = ending_of(table)
    if ending is None:
        return view, table.to_act
    if ending.stopped:
        return {**view, "phase": "over", "prompt": ending.story}, ()
    return view, ()


def _mark(ending: Ending) -> str:
    return "🛑" if ending.stopped else "🏆"


def lately_lines(table: Table, lately: list[str] | None) -> list[str]:
    """The last public lines as the board lists them: once the match is over, ending
    with how it ended (said by no line of the game's when a moderator stopped it, or a
    clock ran out)."""
    shown = list(lately or [])
    ending = ending_of(table)
    if ending is not None and not any(ending.story in line for line in shown):
        shown.append(f"{_mark(ending)} {ending.story}")
    return shown


def _headline(table: Table) -> str:
    """The board's first line: how the match ended, or who decides and what is asked."""
    ending = ending_of(table)
    if ending is not None:
        return f"{_mark(ending)} {ending.story}"
    return _deciding(table)


def _deciding(table: Table) -> str:
    """Who decides and what they are asked (or where the match is, when nobody is)."""
    if not table.to_act:
        prompt = (table.view or {}).get("prompt")
        return str(prompt) if prompt else "Nobody to decide right now."
    waiting = _waiting(table)  # the prompt, which starts with a name; or "waiting for …"
    return f"{TO_ACT} {_capitalised(waiting) if waiting.startswith('waiting') else waiting}"


def _footer(table: Table, *, legend: bool) -> str:
    """The board's footer: the match's number and turn, with the legend of the text
    board's marks (`legend`), the options, the clock's terms, a chosen seed's warning
    and the AI at the table."""
    view = table.view or {}
    footer = f"Match #{table.match.id}"
    if isinstance(view.get("turn"), int):
        footer += f" · turn {view['turn']}"
    renderer = renderer_for(table.match.game)
    if legend and renderer.legend:  # on lines of its own (a renderer may split it in several)
        footer += f"\n{renderer.legend}"
    options = options_footer(table)
    if options:
        footer += f"\n{options}"
    if legend and table.match.status == "active":
        footer += f"\n{clock_text(table.match.clock_seconds)}"
    notice = seed_notice(table.match)
    if notice:
        footer += f"\n{notice}"
    robots = ai_line(table)
    if robots:
        footer += f"\n{robots}"
    if table.match.practice:
        footer += "\n🎓 Practice match: not rated; /hint suggests a move"
    return plain(footer)  # a footer shows its text as it is: names without their escapes


def board_embed(
    table: Table,
    clocks: list[str] | None = None,
    lately: list[str] | None = None,
    *,
    picture: str | None = None,
) -> discord.Embed:
    """The whole text board: whose decision it is (and by when: `clocks`, lines of the
    match clock's status) or how the match ended, the game's own fields, the last public
    lines, and the legend of its marks; with `picture`, the attached file of the table's
    picture shown under it."""
    view, to_act = shown_view(table)
    embed = discord.Embed(
        title=f"{table.game.name} — {table.variant.name}",
        description=clip(_headline(table), 4000),
        colour=COLOURS[table.match.status],
    )
    embed.set_footer(text=_footer(table, legend=True))
    if picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    renderer = renderer_for(table.match.game)
    fields = renderer.board_fields(view, to_act)
    shown = lately_lines(table, lately)
    if shown and renderer.lately:
        fields.append(Field(LATELY_FIELD, clip("\n".join(clip(line, 300) for line in shown), 1024)))
    if clocks and table.match.status == "active":
        fields.append(Field("Clock", clip("\n".join(clocks), 1024)))
    return _fill(embed, fields)


GLANCE_LATELY = 3  # the last public lines the board's summary shows
GLANCE_LINE = 160  # characters of each, at most


def glance_embed(
    table: Table,
    clocks: list[str] | None,
    lately: list[str] | None,
    *,
    picture: str,
    summary: bool = True,
) -> discord.Embed:
    """The board at a glance, under its picture (the attached file `picture`): who
    decides and what is asked (or how the match ended), then with `summary` the turn and
    every side's score, the clock (`clocks`: a line or two) and the last few public
    lines. The whole text board is a tap away (`board_embed`)."""
    renderer = renderer_for(table.match.game)
    view, _ = shown_view(table)
    ending = ending_of(table)  # said whole under Lately
    lines = [_deciding(table) if ending is None else f"{_mark(ending)} **{ending.headline}**"]
    if summary:
        when = renderer.when(view) if table.outcome is None and table.stopped is None else ""
        scores = " · ".join(renderer.scores(view))
        lines.append(" · ".join(part for part in (f"**{when}**" if when else "", scores) if part))
        if table.match.status == "active":
            lines.extend(clocks or [])
        last = lately_lines(table, lately)
        if last:
            lines.append(f"**{LATELY_FIELD}**")
            lines.extend(clip(line, GLANCE_LINE) for line in last[-GLANCE_LATELY:])
    embed = discord.Embed(
        title=f"{table.game.name} — {table.variant.name}",
        description=clip("\n".join(line for line in lines if line), 4000),
        colour=COLOURS[table.match.status],
    )
    embed.set_image(url=f"attachment://{picture}")
    embed.set_footer(text=_footer(table, legend=False))
    return embed


def _waiting(table: Table) -> str:
    """What the table waits for, naming who decides: the public prompt when it names
    them, else "waiting for …"."""
    names = _names(table, table.to_act)
    prompt = str((table.view or {}).get("prompt") or "").strip()
    if not prompt:
        return f"waiting for {names}."
    if not any(table.user_of(s).name in prompt for s in table.to_act):
        return f"{prompt} (waiting for {names})"
    return prompt


def private_embed(
    pv: PrivateView, *, picture: str | None = None, text: bool = True
) -> discord.Embed:
    """One player's own view: what the game asks of them (or who decides instead), their
    hand and what they saw lately; with `picture`, the attached file of the view's
    picture shown as its image, and without `text` the fields that picture shows (the
    renderer's `pictured` ones) left to it."""
    table = pv.table
    renderer = renderer_for(table.match.game)
    headline = renderer.private_headline(pv.view) if table.match.status == "active" else None
    if table.outcome is not None:
        description = end_description(table)
    elif pv.question:
        description = f"**{_capitalised(pv.question)}**"
    elif headline:
        description = headline
    elif table.to_act and table.match.status == "active":
        description = f"Not your decision now — {_waiting(table)}"
    elif table.match.status == "active" and (table.view or {}).get("prompt"):
        # Nobody is called (a Historia table reports as it plays): where the match is.
        description = str((table.view or {}).get("prompt"))
    else:
        description = "Nothing to decide right now."
    embed = discord.Embed(
        title=f"Your view — {table.game.name}",
        description=clip(description, 4000),
        colour=COLOURS[table.match.status],
    )
    embed.set_footer(text=f"Match #{table.match.id} · only you can see this")
    if picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    fields = renderer.private_fields(pv.view)
    if picture is not None and not text:
        fields = [f for f in fields if not any(part in f.name for part in renderer.pictured)]
    if pv.recent and renderer.lately:
        fields.extend(chunked_fields("Lately", pv.recent[-8:]))
    return _fill(embed, fields)


def mention(seat: SeatRow) -> str:
    """Who plays a seat, as the channel names them: a mention of its player, or the AI
    (for whom it plays, when it stands in for someone)."""
    if not seat.person:
        return f"🤖 **{seat.name}**"
    if seat.by_ai:
        return f"🤖 **{AI_NAME}** (for {seat.name})"
    return f"<@{seat.user_id}>"


def ai_line(table: Table) -> str:
    """Which seats the AI plays, for the board's footer; once it has stopped, that it
    played here ("" when it never did)."""
    played = [s.name if not s.person else f"{AI_NAME} for {s.name}" for s in table.seats if s.by_ai]
    if played:
        return f"🤖 AI at the table: {', '.join(played)} (not rated)"
    return f"🤖 {AI_NAME} played in this match (not rated)" if table.with_ai else ""


def ping_lines(table: Table, seats: tuple[int, ...] | list[int]) -> list[str]:
    """One line per deciding seat, addressed to them: "➡️ @Basil, {what the game asks}";
    the AI is named, not pinged, and said to be thinking."""
    lines = []
    for s in seats:
        row = table.user_of(s)
        if row.by_ai:
            lines.append(f"➡️ {mention(row)} is thinking…")
        else:
            lines.append(f"➡️ {mention(row)}, {table.question(s)}")
    return lines


def end_line(table: Table) -> str:
    """The public line at the end of a match: the game's own sentence, or who won (as
    mentions)."""
    assert table.outcome is not None
    free = "The channel is free for a new match."
    if table.outcome.text:
        return f"🏆 {table.outcome.text} {free}"
    winners = " and ".join(mention(table.user_of(s)) for s in table.outcome.winners)
    return f"🏆 {winners or 'Nobody'} won! {free}"


def end_lines(table: Table, lines: list[str]) -> list[str]:
    """The public lines of the action that ended a match, then the end line: a line that
    restates the game's own end sentence is left out, so the end is announced once."""
    said = table.outcome.text if table.outcome is not None else ""
    if not said:
        return [*lines, end_line(table)] if table.outcome is not None else lines
    return [*(line for line in lines if said not in line), end_line(table)]


def turn_text(table: Table) -> str:
    """Who decides now, each told what to do (as mentions), or how the match ended."""
    if table.outcome is not None:
        return end_line(table)
    return "\n".join(ping_lines(table, table.to_act))


def action_lines(result: ActResult) -> list[str]:
    """What the table reads of an action: its public lines (or, when it has none, who
    decided what)."""
    table = result.table
    happened = [e.text for e in result.events if e.text]
    return happened or [f"**{table.user_of(result.seat).name}**: {result.label}"]


def action_text(result: ActResult) -> str:
    """The public message an action opens: what happened, then a line for each player it
    calls to decide (the player carrying on with their own turn is not called), or how
    the match ended."""
    table = result.table
    lines = action_lines(result)
    if table.outcome is not None:
        *lines, tail = end_lines(table, lines)
    else:
        tail = "\n".join(ping_lines(table, result.called))
    body = clip("\n".join(lines), MESSAGE_LIMIT - len(tail) - 2)
    return f"{body}\n{tail}" if body and tail else body or tail
