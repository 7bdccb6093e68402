"""`/card`: any card's full text by name, from the channel's match's pack, privately; and
a menu description cut short says where the rest is."""

from __future__ import annotations

from bot.service.tables import Choice
from bot.ui.choices import OPTION_TEXT, SEE_CARD, choice_option
from rules.command_of_nature import GAME as CON
from rules.registry import GAMES
from tests.bot.world import World


async def test_a_card_is_looked_up_by_name_in_the_matchs_pack(world: World) -> None:
    await world.start(CON.id, "2p", [world.alice, world.bob])
    offered = await world.carol.autocomplete(world.channel, "card", "name", "cedar")
    assert [o["name"] for o in offered][:1] == ["Cedar"]
    assert all("(" not in o["name"] for o in offered)  # one game here: no game named
    shown = await world.carol.slash(world.channel, "card", name=offered[0]["value"])
    assert shown.response is not None and shown.response.ephemeral
    (embed,) = shown.response.embeds
    texts = CON.card_texts(None)
    assert embed.title == "Cedar" and embed.description == texts["Cedar"]
    assert embed.footer.text == CON.name
    assert len(await world.carol.autocomplete(world.channel, "card", "name", "")) == 25


async def test_without_a_match_every_games_cards_are_offered(world: World) -> None:
    offered = await world.alice.autocomplete(world.channel, "card", "name", "cedar")
    assert "Cedar (Command of Nature)" in [o["name"] for o in offered]
    typed = await world.alice.slash(world.channel, "card", name="Fertile Soil")
    assert typed.response is not None
    assert typed.response.embeds[0].footer.text == GAMES["mystic-vale"].name
    refused = await world.alice.slash(world.channel, "card", name="Nothing Like It")
    assert refused.response is not None and refused.response.ephemeral
    assert refused.response.content.startswith("No card here is called 'Nothing Like It'")


def test_a_menu_description_cut_short_points_to_card() -> None:
    long = Choice(key="play|x", label="Play X", detail="word " * 40)
    option = choice_option(long)
    assert option.description is not None and len(option.description) <= OPTION_TEXT
    assert option.description.endswith(SEE_CARD)
    short = choice_option(Choice(key="draw", label="Draw", detail="1 AP · a card"))
    assert short.description == "1 AP · a card"


async def test_card_in_a_game_without_cards_says_so(world: World) -> None:
    """Historia's table has no cards: /card offers a line that says so, and answers
    with that sentence rather than "no card is called …"."""
    await world.start("historia-command", "2p", [world.alice, world.bob])
    offered = await world.alice.autocomplete(world.channel, "card", "name", "")
    name = GAMES["historia-command"].name
    assert [o["name"] for o in offered] == [f"{name} has no cards to look up"]
    said = await world.alice.slash(world.channel, "card", name=offered[0]["value"])
    assert said.response is not None and said.response.ephemeral
    assert "has no cards: Arbiter referees it" in said.response.content
