"""What a tournament shows: its sign-up, then its standings with the round being played
(one embed, kept up to date), and the line that calls a pairing's players to their match."""

from __future__ import annotations

import discord

from bot.render.generic import chunked_fields
from bot.service.store import TournamentGame, TournamentRow
from bot.service.timing import format_duration
from bot.service.tournaments import ABORTED, Event, discord_time
from league import tournament as league
from rules.core import Game
from rules.core.text import clip

FORMAT_NAMES = {
    league.SWISS: "Swiss",
    league.ROUND_ROBIN: "round robin",
    league.ELIMINATION: "single elimination",
}
MOST_LINES = 40  # standings lines an embed shows (Discord caps an embed at 6,000 characters)
SHORT = {"Buchholz": "Bh", "Sonneborn-Berger": "SB"}  # a standings line fits a phone
TIEBREAK_WORDS = {
    "Buchholz": "Buchholz: the points of everyone one met.",
    "Sonneborn-Berger": "Sonneborn-Berger: the points of those one beat, half of those drawn.",
    "rounds won": "Rounds won: a bye, a win, or a draw that sent the better seed on.",
}
STATUS = {
    "signup": "sign-up open",
    "running": "round {round} of {rounds}",
    "finished": "finished",
    "cancelled": "cancelled",
}


def _points(points: float) -> str:
    return f"{points:g}" if points != int(points) else f"{int(points)}"


def _when(moment: str | None) -> str:
    return "—" if moment is None else discord_time(moment)


def terms(event: Event, game: Game) -> str:
    """The tournament's terms in a line: the game, the format, rounds, seeding, clock."""
    row = event.row
    variant = game.variants[row.variant].name
    rounds = f"{row.rounds} rounds" if row.format == league.SWISS or row.round else ""
    seeding = "seeded by rating" if row.seeding == "rating" else "seeded at random"
    deadline = (
        "then the seats still to move forfeit"
        if row.at_deadline == "forfeit"
        else "then a moderator records the result"
    )
    parts = [f"**{game.name}** ({variant})", FORMAT_NAMES[row.format], rounds, seeding]
    head = " · ".join(p for p in parts if p)
    return f"{head}\n{format_duration(row.round_seconds)} a round, {deadline}."


def signup_embed(event: Event, game: Game) -> discord.Embed:
    """The sign-up: the terms, who is in, and when it closes."""
    row = event.row
    names = [p.name for p in event.players]  # an embed shows few mentions as names
    embed = discord.Embed(
        title=f"🏆 {row.name} — sign-up open",
        description=f"{terms(event, game)}\nPress **Join** to play. The sign-up closes "
        f"{_when(row.signup_until)}, or when a moderator starts it.",
        colour=discord.Colour.gold(),
    )
    embed.add_field(
        name=f"Signed up ({len(names)})",
        value=clip(", ".join(names), 1024) or "Nobody yet.",
        inline=False,
    )
    embed.set_footer(text=f"Tournament #{row.id}")
    return embed


def standings_embed(event: Event, game: Game) -> discord.Embed:
    """The standings (rank, points, the tie-breaks by name, wins-draws-losses), then the
    round being played: each table, its thread and whether it is over."""
    row = event.row
    if row.status == "signup":
        return signup_embed(event, game)
    status = STATUS[row.status].format(round=row.round, rounds=row.rounds)
    embed = discord.Embed(
        title=f"🏆 {row.name} — {status}",
        description=terms(event, game),
        colour=discord.Colour.gold(),
    )
    breaks = league.TIEBREAKS[row.format]
    lines = []
    for s in event.standings():
        gone = " *(dropped out)*" if s.dropped else ""
        lines.append(f"**{s.rank}.** {event.name(s.entrant)}{gone} — {standing_figures(row, s)}")
    if len(lines) > MOST_LINES:
        lines = [*lines[:MOST_LINES], f"… and {len(lines) - MOST_LINES} more."]
    empty = "Cancelled before it began." if row.status == "cancelled" else "—"
    for field in chunked_fields("Standings", lines, empty=empty):
        embed.add_field(name=field.name, value=field.value, inline=False)
    if row.status == "finished":
        winner = event.winner()
        shown = (
            f"🥇 {event.name(winner)}"
            if winner is not None
            else "Nobody: the final was stopped before it had a result."
        )
        embed.add_field(name="Winner", value=shown, inline=False)
    elif row.status == "running":
        games = event.round_games()
        tables = [_table_line(event, g) for g in games if g.points is None and g.b is not None]
        done = [_table_line(event, g) for g in games if g.points is not None or g.b is None]
        if len(done) > MOST_LINES // 2:
            done = [f"{len(done)} tables are over."]
        deadline = _when(row.round_ends) if row.round_ends else "passed"
        title = f"Round {row.round} — deadline {deadline}"
        for field in chunked_fields(title, tables + done):
            embed.add_field(name=field.name, value=field.value, inline=False)
    named = [f"{b} ({SHORT[b]})" if b in SHORT else b for b in league.RANKED_BY[row.format]]
    order = ", then ".join([*named, "seed"])
    explained = " ".join(TIEBREAK_WORDS[b] for b in breaks if b in TIEBREAK_WORDS)
    embed.set_footer(
        text=f"Tournament #{row.id} · ranked by {order}. Points: a win 1, a draw ½, a bye 1. "
        + explained
    )
    return embed


def _counted(count: float, one: str, many: str) -> str:
    return f"{_points(count)} {one if count == 1 else many}"


def standing_figures(row: TournamentRow, standing: league.Standing) -> str:
    """A standings line's figures, each once and named: what it is ranked by, the first
    in bold ("**2 points** (1 win, 1 bye) · Bh 3 · SB 1"; in an elimination "**1 round
    won** · 1 point (1 bye)"), the games as wins, draws, losses and byes beside the
    points, and the wins left to them."""
    games = [
        _counted(count, one, many)
        for count, one, many in (
            (standing.wins, "win", "wins"),
            (standing.draws, "draw", "draws"),
            (standing.losses, "loss", "losses"),
            (standing.byes, "bye", "byes"),
        )
        if count
    ]
    parts = []
    for name, value in league.figures(row.format, standing):
        if name == "wins":
            continue  # in the games beside the points
        if name == "points":
            shown = _counted(value, "point", "points")
        elif name == "rounds won":
            shown = _counted(value, "round won", "rounds won")
        else:
            shown = f"{SHORT.get(name, name)} {_points(value)}"
        shown = f"**{shown}**" if not parts else shown
        if name == "points" and games:
            shown += f" ({', '.join(games)})"
        parts.append(shown)
    return " · ".join(parts)


def _table_line(event: Event, game: TournamentGame) -> str:
    a, b = event.name(game.a), event.name(game.b)
    if game.b is None:
        return f"{a} has a bye."
    where = f" · <#{game.thread_id}>" if game.thread_id else " · opening…"
    if game.points is None:
        return f"Table {game.board}: {a} v {b}{where}"
    result = (
        f"{a} and {b} both lost"
        if game.how == ABORTED
        else f"{a} and {b} drew"
        if game.points == league.DRAW
        else f"**{a}** beat {b}"
        if game.points == league.WIN
        else f"**{b}** beat {a}"
    )
    how = {
        "recorded": " (recorded by a moderator)",
        "deadline": " (at the deadline)",
        ABORTED: " (match stopped)",
    }
    return f"Table {game.board}: {result}{how.get(game.how or '', '')} ✅"
