"""`/help` and `/rules`: what the commands do, and how a game's turn goes."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host, host
from bot.render import options_summary
from bot.render.generic import clip
from bot.replies import guard
from bot.ui.choices import game_choices, offer_choices

HELP = """\
**/match new** `game` `[variant]` `[clock]` `[timeout]` `[seed]` `[ai]` — open a lobby \
here; others press **Join** (or the host seats **🤖 Arbiter**, the AI: `ai:strong` plays \
against you, in a DM too), the host presses **Start**. One open match per channel or thread.
**/match join · leave · start · cancel** — the lobby buttons, as commands; \
**/match option** `name` `value` — the host changes one of the game's options.
**/hand** (or **My hand** on the board) — your panel, only for you: your hand and your \
choices, updated in place as you play; **Send to my DMs** keeps a copy you can play from.
**/card** `name` — any card's full text.
**/play** `action` — take an action: type some of its words, in any order, and pick \
from your legal actions (or type one's name in full).
**/hint** (or **💡 Hint** on your panel) — what Arbiter would play in your place, only \
for you; in a match that isn't rated (against Arbiter, solitaire, or marked practice).
**/historia** — a Historia table reports what it plays (The Ways of Command): \
`civilization` · `token` · `begin` · `territory add|remove` · `level` · `cubes` · `turn` · \
`era-end` · `command` (activate your token) · `dispute` (or **Dispute** under a report) · \
`withdraw` · `retract` · `result` · `agree` · `object`.
**/match status** — the board and the clocks · **/match log** — what happened · \
**/match export** — the whole match as a file · \
**/match concede** — give up (you confirm with a button).
**/match nudge** — remind whoever must decide (after half their clock) · \
**/match pause · resume** — when every player agrees · **/match vacation** — freeze \
your clock for a while (3 days per match) · **/match ai** `player` — the AI plays an absent \
player's seat (half their clock gone) once every other player asks, unless they keep it, \
until they are back.
**/notify on · off** — your turns and reminders by DM · **/profile answer · show** — \
your standing answers (the game answers for you when one applies) · **/profile pictures** \
— how you see your own view.
**/stats** · **/leaderboard** — ratings and results in this server · **/rules** `game` \
— how a turn goes · **/help** — this list.
**/tournament standings · log** — the channel's tournament · **/tournament drop** — leave it \
(moderators: new · start · record · pair-again · cancel, and drop anyone). A tournament \
match a moderator aborts counts at once as a loss for both sides (**record** gives it \
another result while its round is on).
Moderators: **/mod** abort · kick · replace · ai (Arbiter plays an absent player's seat) · \
undo · pause · resume · extend · practice (not rated, hints allowed) · matches · \
new-season · rebuild-ratings; \
**/settings** mod-role · channels · clock · timeout · reminders · pictures · ratings · show."""


class HelpCog(commands.Cog):
    """Explanations, available everywhere."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        offer_choices(self.rules, game=game_choices(bot.matches.games))

    @app_commands.command(name="help", description="What Arbiter's commands do.")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Arbiter referees card games", description=HELP)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="rules", description="A short summary of a game's turn.")
    @app_commands.describe(game="The game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        async with guard(interaction):
            rules = self.bot.matches.game(game)
            variants = "\n".join(
                f"**{v.id}** — {v.name}" + (f": {v.blurb}" if v.blurb else "")
                for v in rules.variants.values()
            )
            embed = discord.Embed(title=rules.name, description=clip(rules.rules_summary, 4000))
            embed.add_field(name="Variants", value=clip(variants, 1024) or "—")
            options = options_summary(rules)
            if options:
                embed.add_field(name="Options", value=clip(options, 1024), inline=False)
            await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Add these commands to `bot` (`bot.app` loads this module by name)."""
    await bot.add_cog(HelpCog(host(bot)))
