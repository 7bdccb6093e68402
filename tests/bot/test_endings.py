"""Every way a match ends, drawn right in every game (issue 41, item 4): a moderator's
abort, a concession, a forfeit at a deadline, an abandon at a deadline, a win played
out, a team's win, a solitaire game lost to the nemesis, a tie.

What a player sees is checked each time: the board's summary says how the match ended
in its first line and closes its Lately with it, nobody is said to act (no ▶️, no "their
turn"), the picture's headline says what happened with nobody marked to decide and a
band reads at a phone's width, and the whole text board says the same.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
import simcord
from PIL import Image

from bot.pictures.canvas import GOLD, RED, band_lines
from bot.render import ending_of
from bot.service.timing import HOUR
from rules.core import Outcome
from tests.bot.playout import play_randomly
from tests.bot.test_moderation import admin
from tests.bot.world import World

PHONE = 270  # px: how wide a phone shows the board's picture (the gallery measures it)
LEAST_TYPE = 11  # px: the band's type at that width, at least
PLAYERS = {"tooth-and-nail": 2, "command-of-nature": 2, "mystic-vale": 2, "historia-command": 2}
CLOCKED = ("tooth-and-nail", "command-of-nature", "mystic-vale")  # Historia runs no clock


def seated(world: World, count: int) -> list[simcord.MemberActor]:
    return [world.alice, world.bob, world.carol, world.dave][:count]


async def shows_the_ending(world: World, headline: str, *, stopped: bool) -> None:
    """The board, its picture and the whole text board say the match ended as
    `headline` says, with nobody to act."""
    await world.bot.publisher.idle()
    table = await world.bot.matches.table(world.match_id or 0)
    ending = ending_of(table)
    assert ending is not None and ending.headline == headline and ending.stopped == stopped
    mark = "🛑" if stopped else "🏆"

    board = await world.board()
    summary = (board.embeds[0].description or "").splitlines()
    assert summary[0] == f"{mark} **{headline}**", summary
    assert ending.story in summary[-1], summary  # Lately names the ending, last
    assert "▶️" not in "\n".join(summary)

    posted = Image.open(io.BytesIO(await board.attachments[0].read())).convert("RGB")
    band = posted.getpixel((2, 2))  # the band, on top (its colour as the palette keeps it)
    assert all(abs(a - b) <= 4 for a, b in zip(band, RED if stopped else GOLD, strict=True))
    drawn = await world.bot.pictures.board(table.game.id, table.view or {}, table.to_act, ending)
    assert drawn is not None and (drawn.width, drawn.height) == posted.size
    assert drawn.box("label", "ending").text == (ending.story,)
    assert drawn.box("label", "glance:who").text == (headline,)
    assert not drawn.boxes("mark", "decides") and "TO ACT" not in str(drawn.layout)
    _, size, _ = band_lines(drawn.width, ending.story)
    assert size * PHONE / drawn.width >= LEAST_TYPE - 0.5  # it reads on a phone

    full = await world.full_board(world.eve)
    assert (full.description or "").startswith(f"{mark} {ending.story}")
    names = " ".join(f.name or "" for f in full.fields)
    assert "▶️" not in names and "their turn" not in names and "to decide now" not in names
    lately = next((f.value or "" for f in full.fields if f.name == "Lately"), "")
    if table.game.id != "historia-command":  # its board lists its own reports instead
        assert ending.story in lately.splitlines()[-1], lately


async def start(world: World, game: str, count: int, **options: Any) -> None:
    players = seated(world, count)
    opened = await players[0].slash(world.channel, "match new", game=game, seed=5, **options)
    assert opened.response is not None
    world.match_id = (await world.bot.matches.open_match(world.channel.id)).id
    for player in players[1:]:
        await player.click(opened.response, label="Join")
    await players[0].click(opened.response, label="Start")
    assert (await world.match()).status == "active"


async def into_play(world: World, moves: int = 12) -> None:
    """A few random moves, so the match stops mid-game (not at its set-up)."""
    rng = random.Random(4)
    for _ in range(moves):
        table = await world.bot.matches.table(world.match_id or 0)
        if table.match.status != "active" or not table.to_act:
            return
        seat = rng.choice(table.to_act)
        pv = await world.bot.matches.view(table.match.id, table.user_of(seat).user_id)
        choices = [c.key for c in pv.choices]
        if not choices:
            return
        game = world.bot.matches.game(table.match.game)
        state = await world.state()
        calm = [k for k in choices if game.outcome(apply(game, state, seat, k)) is None]
        if not calm:
            return
        await world.bot.matches.act(table.match.id, table.user_of(seat).user_id, rng.choice(calm))


def apply(game: Any, state: Any, seat: int, key: str) -> Any:
    action = next(a for a in game.legal_actions(state, seat) if a.key == key)
    after, _ = game.apply(state, seat, action, random.Random(0))
    return after


@pytest.mark.parametrize("game", list(PLAYERS))
async def test_an_abort_reads_stopped_by_a_moderator(world: World, game: str) -> None:
    await start(world, game, PLAYERS[game], variant="2p")
    await into_play(world)
    await admin(world).slash(world.channel, "mod abort")
    await shows_the_ending(world, "Stopped by a moderator", stopped=True)


@pytest.mark.parametrize("game", list(PLAYERS))
async def test_a_concession_reads_as_the_other_player_s_win(world: World, game: str) -> None:
    await start(world, game, PLAYERS[game], variant="2p")
    await into_play(world)
    await world.concede(world.alice)
    await shows_the_ending(world, "bob won", stopped=False)


async def run_out_the_clock(world: World) -> None:
    for _ in range(12):
        if (await world.match()).status != "active":
            return
        await world.env.advance_time(HOUR)
    raise AssertionError("the clock never ended the match")


@pytest.mark.parametrize("game", CLOCKED)
async def test_a_forfeit_at_the_deadline_reads_as_the_other_side_s_win(
    world: World, game: str
) -> None:
    await start(world, game, 2, variant="2p", clock="1h", timeout="skip")
    await run_out_the_clock(world)
    table = await world.bot.matches.table(world.match_id or 0)
    assert table.outcome is not None
    (winner,) = table.outcome.winners
    await shows_the_ending(world, f"{table.user_of(winner).name} won", stopped=False)


@pytest.mark.parametrize("game", CLOCKED)
async def test_an_abandon_at_the_deadline_reads_abandoned(world: World, game: str) -> None:
    await start(world, game, 2, variant="2p", clock="1h", timeout="abandon")
    await run_out_the_clock(world)
    assert (await world.match()).status == "abandoned"
    await shows_the_ending(world, "Abandoned: nobody won", stopped=True)


@pytest.mark.parametrize(
    ("game", "variant", "count"),
    [
        ("tooth-and-nail", "2p", 2),
        ("command-of-nature", "2p", 2),
        ("mystic-vale", "2p", 2),
        ("tooth-and-nail", "4p", 4),  # a team's win
        ("command-of-nature", "4p", 4),
        ("mystic-vale", "solo", 1),  # won or lost against the nemesis
    ],
)
async def test_a_game_played_to_its_end_reads_as_its_result(
    world: World, game: str, variant: str, count: int
) -> None:
    await start(world, game, count, variant=variant)
    await play_randomly(world.bot.matches, world.match_id or 0, random.Random(2))
    table = await world.bot.matches.table(world.match_id or 0)
    outcome = table.outcome
    assert outcome is not None
    names = [table.user_of(s).name for s in outcome.winners]
    if outcome.against:
        headline = f"{names[0]} beat the nemesis" if names else "The nemesis won"
    elif len({table.teams[s] for s in outcome.winners}) > 1:
        headline = f"{' and '.join(names)} share the win"
    else:
        headline = f"{' and '.join(names)} won"
    if variant == "4p":
        assert len(names) == 2  # both players of the side
    await shows_the_ending(world, headline, stopped=False)


async def test_a_tie_between_sides_reads_as_a_shared_win(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mystic Vale's players still tied share the win: the headline says so."""
    from rules.mystic_vale import MysticVale

    plain = MysticVale.outcome

    def tied(self: MysticVale, state: Any) -> Outcome | None:
        outcome = plain(self, state)
        if outcome is None:
            return None
        return outcome.model_copy(
            update={"winners": [0, 1], "losers": [], "text": "alice and bob tie: both win."}
        )

    monkeypatch.setattr(MysticVale, "outcome", tied)
    await start(world, "mystic-vale", 2, variant="2p")
    await play_randomly(world.bot.matches, world.match_id or 0, random.Random(2))
    await shows_the_ending(world, "alice and bob share the win", stopped=False)
