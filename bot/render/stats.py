"""What `/stats` and `/leaderboard` show: a server's results as embeds, with the
solitaire victory tracker (wins and losses per nemesis; who has beaten the most, and the
hardest)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.service.store import Hunter, Rating, RatingChange, Record, Versus
from league.ratings import PROVISIONAL
from rules.core import Game
from rules.core.text import clip

EXPLAINED = (
    "A rating is the skill estimate less three times its uncertainty: a newcomer starts "
    "at 0 and climbs as results confirm their skill."
)
RANKED_BY = (
    "Ranked by rating: the skill estimate less three times its uncertainty, so it rises "
    "as results confirm it. 🆕 provisional: fewer than {n} rated matches."
)


def _rating(rating: Rating) -> str:
    """A rating as players read it: the number they are ranked by, how sure it is, and
    whether it is still provisional."""
    skill = rating.skill
    games = f"{rating.games} rated match" + ("" if rating.games == 1 else "es")
    mark = " 🆕" if rating.games < PROVISIONAL else ""
    return f"**{skill.shown:.1f}**{mark} (skill {skill.mu:.1f} ± {skill.sigma:.1f}) · {games}"


def _trend(changes: Sequence[RatingChange]) -> str:
    """The shown rating after each of the last matches: "0.0 → 2.6 → 1.9"."""
    if not changes:
        return ""
    points = [changes[0].before.shown, *(c.after.shown for c in changes)]
    return " → ".join(f"{p:.1f}" for p in points)


def _counts(record: Record) -> str:
    wins = f"{record.wins} win" + ("" if record.wins == 1 else "s")
    losses = f"{record.losses} loss" + ("" if record.losses == 1 else "es")
    games = f"{record.games} match" + ("" if record.games == 1 else "es")
    return f"{games} · {wins} · {losses} · {record.win_rate:.0%} won"


def player_embed(
    name: str,
    records: list[Record],
    games: Mapping[str, Game],
    versus: Sequence[Versus] = (),
    against_ai: Sequence[Record] = (),
    ratings: Sequence[tuple[Rating, Sequence[RatingChange]]] = (),
    season: int = 1,
) -> discord.Embed:
    """A player's ratings this season (each with its recent course), their results per
    game, then their solitaire record against each opponent (a game's nemeses), marked
    ✅ beaten at least once, then their matches with the AI (not rated)."""
    embed = discord.Embed(title=f"{name} — results on this server", colour=discord.Colour.gold())
    if not records and not versus and not against_ai:
        embed.description = "No finished match yet."
    if ratings:
        lines = [
            f"**{games[r.game].name if r.game in games else r.game}**: {_rating(r)}"
            + (f"\n  lately: {_trend(changes)}" if changes else "")
            for r, changes in ratings
        ]
        embed.add_field(
            name=f"Ratings, season {season}", value=clip("\n".join(lines), 1024), inline=False
        )
    for record in records[:20]:
        game = games.get(record.game)
        embed.add_field(
            name=game.name if game else record.game, value=_counts(record), inline=False
        )
    by_game: dict[str, list[Versus]] = {}
    for row in versus:
        by_game.setdefault(row.game, []).append(row)
    for game_id, rows in list(by_game.items())[:4]:
        game = games.get(game_id)
        beaten = sum(1 for r in rows if r.wins)
        title = (
            f"{game.name if game else game_id} — solitaire: {beaten} beaten of {len(rows)} faced"
        )
        lines = [
            f"{'✅' if r.wins else '❌'} **{r.opponent}** (level {r.level} of 4): "
            f"{r.wins} won · {r.losses} lost"
            for r in rows
        ]
        embed.add_field(name=clip(title, 256), value=clip("\n".join(lines), 1024), inline=False)
    if against_ai:
        lines = [
            f"**{games[r.game].name if r.game in games else r.game}**: {_counts(r)}"
            for r in against_ai
        ]
        embed.add_field(
            name="🤖 With Arbiter, the AI (not rated)",
            value=clip("\n".join(lines), 1024),
            inline=False,
        )
    # What the figures mean goes in the footer, the embed's small print (an embed shows
    # the message's `-#` small print as it is typed).
    notes = []
    if ratings:
        notes.append(f"{EXPLAINED} Matches, wins and losses count every season.")
    if versus or against_ai:
        notes.append(
            "Solitaire games and games with the AI count wherever they were played, DMs included."
        )
    if notes:
        embed.set_footer(text=" ".join(notes))
    return embed


def leaderboard_embed(
    game: Game,
    ratings: Sequence[Rating],
    hunters: Sequence[Hunter] = (),
    *,
    names: Mapping[int, str] | None = None,
    season: int = 1,
    current: int = 1,
) -> discord.Embed:
    """The best players of a game in a season, by rating; for a game with a solitaire
    variant, its own board too: who has beaten the most opponents, and the hardest.
    Players are named by their `names` (an embed shows a mention as a name only to a
    reader whose app has that member loaded), else mentioned."""
    known = names or {}

    def who(user_id: int) -> str:
        return known.get(user_id) or f"<@{user_id}>"

    lines = [f"**{n}.** {who(r.user_id)} — {_rating(r)}" for n, r in enumerate(ratings, start=1)]
    when = "" if season == current else " (an earlier season)"
    embed = discord.Embed(
        title=f"{game.name} — leaderboard, season {season}{when}",
        description=clip("\n".join(lines), 4000) or "No rated match of this game this season yet.",
        colour=discord.Colour.gold(),
    )
    footer = RANKED_BY.format(n=PROVISIONAL)
    if current > 1:
        footer += f" Past seasons: /leaderboard season:1 to {current - 1}."
    embed.set_footer(text=footer)
    if hunters:
        rows = [
            f"**{n}.** {who(h.user_id)} — {h.beaten} beaten"
            + (f", the hardest level {h.hardest} of 4" if h.hardest else "")
            + f" · {h.wins} won of {h.games}"
            for n, h in enumerate(hunters, start=1)
        ]
        embed.add_field(
            name="Solitaire: the most opponents beaten, and the hardest",
            value=clip("\n".join(rows), 1024),
            inline=False,
        )
    return embed


def history_embed(
    name: str, game: Game, rating: Rating | None, changes: Sequence[RatingChange], season: int
) -> discord.Embed:
    """One player's rating in a game: where it stands and what each of their last rated
    matches did to it."""
    embed = discord.Embed(
        title=f"{name} — {game.name}, season {season}", colour=discord.Colour.gold()
    )
    if rating is None:
        embed.description = "No rated match of this game this season yet."
        return embed
    embed.description = _rating(rating)
    lines = [
        f"`{c.at[:10]}` match #{c.match_id}: {c.before.shown:.1f} → **{c.after.shown:.1f}** "
        f"({c.after.shown - c.before.shown:+.1f})"
        for c in reversed(changes)
    ]
    embed.add_field(name="Latest rated matches", value=clip("\n".join(lines), 1024), inline=False)
    embed.set_footer(text=RANKED_BY.format(n=PROVISIONAL))
    return embed
