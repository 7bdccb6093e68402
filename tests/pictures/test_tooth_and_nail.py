"""The Tooth & Nail board picture, checked against the games it was drawn from.

Positions come from the real engine (random legal actions from a seed). Each drawing is
read back through its boxes: every Troop of every zone has one card with its name, Troop
Type and Strength (and "drained" when it is), nothing is drawn for what the view lacks,
each deck's bar says the view's counts, the Alpha player and whoever must decide are
marked, and the sides sit where a table puts them.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from bot.pictures import Box, Picture
from bot.pictures.canvas import CARD, CARD_DIM, MARGIN, TABLE
from bot.pictures.tooth_and_nail import board
from rules.core import SeatSpec, rng_for
from rules.tooth_and_nail import GAME, State
from tests.pictures import assert_wide, check_headline
from tests.pictures.golden import assert_matches_golden

PLAYERS = {"2p": 2, "3p": 3, "alliance": 2, "4p": 4}
VARIANTS = list(PLAYERS)
NAMES = ["Ada", "Basil", "Cleo", "Dmitri"]
ZONES = {"war": "war_zone", "command": "command_zone"}
ZONE_TITLES = {"war": "War Zone", "command": "Command Zone"}
MAX_ACTIONS = 3000
PLAYOUT_SEEDS = (1, 2)
DRAWN_EVERY = 9  # actions between two drawings in a playout


# ---------------------------------------------------------------- playing


def walk(variant: str, seed: int) -> Iterator[State]:
    """Every state of one game played with random legal actions (ending the turn now and
    then, as the rules' playouts do), from the set-up to the end."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {}, seed)
    chooser = random.Random(seed)
    yield state
    for n in range(1, MAX_ACTIONS):
        if GAME.outcome(state) is not None:
            return
        seat = chooser.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        others = [a for a in legal if a.kind != "end"]
        action = chooser.choice(others) if others and chooser.random() < 0.9 else legal[-1]
        state, _ = GAME.apply(state, seat, action, rng_for(seed, n))
        yield state
    raise AssertionError("the game did not end")


def play_until(variant: str, seed: int, wanted: Callable[[State], bool]) -> State:
    """The first state of the game from `seed` that is `wanted`."""
    for state in walk(variant, seed):
        if wanted(state):
            return state
    raise AssertionError(f"{variant} seed {seed} never reached the position")


def mid_game(state: State) -> bool:
    """An Action Step with Troops in both zones of every side, some of them drained."""
    players = state.players
    drained = sum(t.drained for p in players for t in p.war_zone + p.command_zone)
    return (
        state.phase == "action"
        and all(len(p.war_zone) >= 2 and p.command_zone for p in players)
        and 1 <= drained <= 4
        and all(len(t.deck) > 8 for t in state.teams)
    )


def team_mid_game(state: State) -> bool:
    """The Enemy of My Enemy's Action Step with every player's War Zone in use."""
    players = state.players
    return (
        state.phase == "action"
        and all(p.war_zone for p in players)
        and sum(len(p.command_zone) for p in players) >= 3
        and any(t.drained for p in players for t in p.war_zone + p.command_zone)
    )


def revenge_to_come(state: State) -> bool:
    """Three players, one out with their revenge hit still to come."""
    return any(p.eliminated and not p.revenge_done for p in state.players)


def drawn(state: State) -> tuple[dict[str, Any], tuple[int, ...], Picture]:
    view = GAME.view(state, None)
    to_act = tuple(sorted(GAME.to_act(state)))
    return view, to_act, board(view, to_act)


# ---------------------------------------------------------------- reading the drawing


def only(picture: Picture, kind: str, key: str) -> Box:
    found = [b for b in picture.layout if b.kind == kind and b.key == key]
    assert len(found) == 1, f"{len(found)} boxes {kind} {key!r}"
    return found[0]


def keys(picture: Picture, kind: str) -> set[str]:
    return {b.key for b in picture.layout if b.kind == kind}


def overlap(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def starting_deck(view: dict[str, Any], team: dict[str, Any]) -> int:
    """Every card the side owns but those set aside face down, counted from the view."""
    mine = [p for p in view["players"] if p["seat"] in team["seats"]]
    in_play = sum(p["hand_count"] + len(p["war_zone"]) + len(p["command_zone"]) for p in mine)
    return team["deck"] + team["discard_count"] + team["removed_count"] + in_play


def expected_caption(view: dict[str, Any], team: dict[str, Any]) -> str:
    if view["phase"] == "faction_choice":
        return "No deck yet"
    caption = f"Deck {team['deck']}/{starting_deck(view, team)}"
    return caption + (" · low" if team["low"] else "")


def pixel(picture: Picture, x: int, y: int) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    return image.getpixel((x, y))  # type: ignore[return-value]


def near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return max(abs(a - b) for a, b in zip(colour, wanted, strict=True)) <= 10


def check_layout(view: dict[str, Any], to_act: tuple[int, ...], picture: Picture) -> None:
    """The drawing says what the view says, each thing once, where it belongs."""
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    assert image.size == (picture.width, picture.height)
    assert_wide(picture)
    names = {p["seat"]: p["name"] for p in view["players"]}
    decks = []
    for team in view["teams"]:
        side = " & ".join(names[s] for s in team["seats"])
        if all(p["eliminated"] for p in view["players"] if p["seat"] in team["seats"]):
            decks.append(f"{side}: out")
        elif view["phase"] != "faction_choice":
            decks.append(f"{side}: deck {team['deck']}")
    over = view["phase"] == "over"
    check_headline(picture, ["Game over"] if over else [names[s] for s in to_act], decks)
    # it ends with its margin of bare table: nothing drawn was cut off at the bottom
    margin = image.crop((0, picture.height - MARGIN // 2, picture.width, picture.height))
    assert [colour for _, colour in margin.getcolors() or []] == [TABLE]
    for box in picture.layout:
        assert box.x >= 0 and box.x + box.w <= picture.width, box
        assert box.y >= 0 and box.y + box.h <= picture.height, box
    drafting = view["phase"] == "faction_choice"
    players = view["players"]
    sides = {p["seat"]: only(picture, "side", f"player{p['seat']}") for p in players}
    for a in sides.values():
        for b in sides.values():
            assert a is b or not overlap(a, b), (a, b)

    wanted_troops: set[str] = set()
    for player in players:
        seat, side = player["seat"], sides[player["seat"]]
        for zone, field in ZONES.items():
            troops = player[field]
            if drafting:
                assert not troops
                continue
            label = only(picture, "label", f"{seat}:{zone}")
            limit = view["limits"][zone]
            assert label.text == (f"{ZONE_TITLES[zone]} {len(troops)}/{limit}",)
            assert side.contains(label)
            if not troops:
                assert side.contains(only(picture, "empty", f"{seat}:{zone}"))
            for i, troop in enumerate(troops):
                key = f"{seat}:{zone}:{i}"
                wanted_troops.add(key)
                card = only(picture, "troop", key)
                assert side.contains(card), key
                *names, kind = card.text[:-1] if troop["drained"] else card.text
                assert " ".join(names) == troop["name"], (key, card.text)
                assert kind == f"{troop['type']} {troop['strength']}", (key, card.text)
                assert ("drained" in card.text) == troop["drained"], (key, card.text)
                assert card.y >= label.y + label.h, "a card above its zone's label"
        if not drafting:
            assert only(picture, "label", f"hand:{seat}").text == (f"Hand {player['hand_count']}",)
            assert only(picture, "label", f"ap:{seat}").text == (f"AP {player['ap']}",)
        alpha = f"alpha:{seat}" in keys(picture, "mark")
        assert alpha == player["alpha"], f"seat {seat}: Alpha marked {alpha}"
        if alpha:
            mark = only(picture, "mark", f"alpha:{seat}")
            assert mark.text == ("Alpha",) and side.contains(mark)
            assert "Alpha" in side.text
        decides = f"decides:{seat}" in keys(picture, "mark")
        assert decides == (seat in to_act), f"seat {seat}: marked to decide {decides}"
        if decides:
            assert side.contains(only(picture, "mark", f"decides:{seat}"))
        assert (f"out:{seat}" in keys(picture, "mark")) == player["eliminated"]
    assert keys(picture, "troop") == wanted_troops, "a card for a Troop the view lacks"
    cards = picture.boxes("troop")
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            assert not overlap(a, b), (a, b)

    for team in view["teams"]:
        bar = only(picture, "bar", f"deck:{team['team']}")
        assert bar.text == (expected_caption(view, team),)
        only(picture, "back", f"deck:{team['team']}")
        hidden = team["face_down_removed"]
        assert ("facedown:" + str(team["team"]) in keys(picture, "back")) == bool(hidden)
        if len(team["seats"]) > 1:
            band = only(picture, "side", f"team{team['team']}")
            assert band.contains(bar)
            assert all(band.contains(sides[s]) for s in team["seats"])
        else:
            assert sides[team["seats"][0]].contains(bar)
    assert len(picture.boxes("bar")) == len(view["teams"])
    available = view["available_factions"]
    assert keys(picture, "faction") == {f"available:{i}" for i in range(len(available))}
    for i, faction in enumerate(available):
        assert " ".join(only(picture, "faction", f"available:{i}").text) == faction["name"]


# ---------------------------------------------------------------- known positions


@pytest.mark.parametrize(
    ("variant", "seed", "wanted"),
    [
        ("2p", 2, mid_game),
        ("alliance", 9, mid_game),
        ("3p", 1, revenge_to_come),
        ("4p", 3, team_mid_game),
    ],
)
def test_every_troop_of_every_zone_is_one_card_with_its_name_type_and_strength(
    variant: str, seed: int, wanted: Callable[[State], bool]
) -> None:
    view, to_act, picture = drawn(play_until(variant, seed, wanted))
    check_layout(view, to_act, picture)
    troops = sum(len(p["war_zone"]) + len(p["command_zone"]) for p in view["players"])
    assert troops >= 4 and len(picture.boxes("troop")) == troops


def test_drained_troops_are_dimmed_cards_that_say_drained() -> None:
    view, _, picture = drawn(play_until("2p", 2, mid_game))
    fresh = drained = 0
    for player in view["players"]:
        for zone, field in ZONES.items():
            for i, troop in enumerate(player[field]):
                card = only(picture, "troop", f"{player['seat']}:{zone}:{i}")
                # the bottom right corner of a card is blank: its colour is the card's
                colour = pixel(picture, card.x + card.w - 12, card.y + card.h - 8)
                assert near(colour, CARD_DIM if troop["drained"] else CARD), (troop, colour)
                assert (
                    card.text[-1] == "drained" if troop["drained"] else "drained" not in card.text
                )
                drained += troop["drained"]
                fresh += not troop["drained"]
    assert drained and fresh


def test_deck_bars_caption_the_views_counts_out_of_the_starting_deck() -> None:
    """The bar's full length is the side's starting deck: worked out from the view's
    counts, it never changes through a whole game."""
    starts: dict[int, set[int]] = {0: set(), 1: set()}
    for n, state in enumerate(walk("2p", 4)):
        if state.phase in ("faction_choice", "command_choice") or n % 5:
            continue
        view, _, picture = drawn(state)
        for team in view["teams"]:
            bar = only(picture, "bar", f"deck:{team['team']}")
            assert bar.text == (expected_caption(view, team),)
            starts[team["team"]].add(starting_deck(view, team))
    assert starts == {0: {30}, 1: {30}}


def test_the_alpha_player_has_a_crown_and_the_word_alpha() -> None:
    view, _, picture = drawn(play_until("2p", 2, mid_game))
    (alpha,) = [p["seat"] for p in view["players"] if p["alpha"]]
    mark = only(picture, "mark", f"alpha:{alpha}")
    assert mark.text == ("Alpha",)
    assert only(picture, "side", f"player{alpha}").contains(mark)
    assert keys(picture, "mark") >= {f"alpha:{alpha}"}
    assert not [
        k for k in keys(picture, "mark") if k.startswith("alpha:") and k != f"alpha:{alpha}"
    ]
    # the crown is drawn (gold), just left of the word
    crown = [pixel(picture, mark.x + dx, mark.y + 14) for dx in range(3, 16)]
    assert any(c[0] > 180 and c[1] > 130 and c[2] < 90 for c in crown), crown


def test_whoever_must_decide_is_marked_and_the_prompt_says_so() -> None:
    state = play_until("2p", 2, mid_game)
    view, to_act, picture = drawn(state)
    assert to_act
    for seat in to_act:
        tag = only(picture, "mark", f"decides:{seat}")
        assert tag.text == ("TO DECIDE",)
        assert "TO DECIDE" in only(picture, "side", f"player{seat}").text
    assert " ".join(only(picture, "label", "prompt").text) == view["prompt"]


def test_two_players_sit_side_by_side_with_their_war_zones_level() -> None:
    _, _, picture = drawn(play_until("2p", 2, mid_game))
    left, right = only(picture, "side", "player0"), only(picture, "side", "player1")
    assert left.y == right.y and left.x + left.w <= right.x and left.w == right.w
    assert only(picture, "label", "0:war").y == only(picture, "label", "1:war").y
    assert only(picture, "label", "0:war").y < only(picture, "label", "0:command").y


def test_three_players_sit_in_three_columns() -> None:
    _, _, picture = drawn(play_until("3p", 1, revenge_to_come))
    first, second, third = (only(picture, "side", f"player{s}") for s in range(3))
    assert first.y == second.y == third.y
    assert first.x + first.w <= second.x and second.x + second.w <= third.x
    assert first.w == second.w == third.w


def test_an_eliminated_player_is_marked_out_with_the_revenge_to_come() -> None:
    view, _, picture = drawn(play_until("3p", 1, revenge_to_come))
    (out,) = [p for p in view["players"] if p["eliminated"]]
    mark = only(picture, "mark", f"out:{out['seat']}")
    assert mark.text == ("out · revenge to come",)
    assert only(picture, "side", f"player{out['seat']}").contains(mark)


def test_the_end_of_the_game_marks_the_winners_and_nobody_to_decide() -> None:
    final = list(walk("3p", 3))[-1]
    view, to_act, picture = drawn(final)
    check_layout(view, to_act, picture)
    assert view["phase"] == "over" and not to_act
    winners = view["outcome"]["winners"]
    assert winners and keys(picture, "mark") >= {f"winner:{s}" for s in winners}
    assert not [k for k in keys(picture, "mark") if k.startswith(("alpha:", "decides:"))]
    # the game is over: nobody's revenge is still to come
    assert all(
        only(picture, "mark", f"out:{p['seat']}").text == ("out",)
        for p in view["players"]
        if p["eliminated"]
    )
    assert " ".join(only(picture, "label", "prompt").text) == view["prompt"]


def test_teams_are_bands_holding_their_players_and_their_shared_deck() -> None:
    view, to_act, picture = drawn(play_until("4p", 3, team_mid_game))
    check_layout(view, to_act, picture)
    first, second = only(picture, "side", "team0"), only(picture, "side", "team1")
    assert first.y == second.y and first.x + first.w <= second.x
    for team, band in ((view["teams"][0], first), (view["teams"][1], second)):
        left, right = (only(picture, "side", f"player{s}") for s in team["seats"])
        assert left.y == right.y and left.x + left.w <= right.x
        assert band.contains(only(picture, "bar", f"deck:{team['team']}"))
        assert " & ".join(team["names"]) in band.text


def test_the_alliance_games_cards_set_aside_face_down_are_nameless_backs() -> None:
    view, _, picture = drawn(play_until("alliance", 9, mid_game))
    for team in view["teams"]:
        back = only(picture, "back", f"facedown:{team['team']}")
        assert back.text == (f"{team['face_down_removed']} face down",) == ("10 face down",)
        assert only(picture, "side", f"player{team['seats'][0]}").contains(back)
        assert not [b for b in picture.boxes("troop") if overlap(b, back)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_draft_shows_who_chooses_the_factions_left_and_no_deck_yet(variant: str) -> None:
    state = play_until(
        variant, 1, lambda s: s.phase == "faction_choice" and any(t.factions for t in s.teams)
    )
    view, to_act, picture = drawn(state)
    check_layout(view, to_act, picture)
    assert not picture.boxes("troop") and not picture.boxes("empty")
    assert {b.text for b in picture.boxes("bar")} == {("No deck yet",)}
    assert len(picture.boxes("faction")) == len(view["available_factions"]) > 0


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"players": [{}], "teams": [{}]},
        {
            "players": [{"seat": 0, "war_zone": [{}], "command_zone": None}],
            "teams": [{"seats": [0]}],
        },
        {"players": "nobody", "teams": None, "limits": [], "outcome": "?", "turn": "x"},
    ],
)
def test_a_view_missing_keys_still_draws(view: dict[str, Any]) -> None:
    picture = board(view, (0,))
    assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height)


def test_a_view_with_keys_taken_out_still_draws() -> None:
    view, to_act, _ = drawn(play_until("4p", 3, team_mid_game))
    for player in view["players"]:
        for key in list(player):
            broken = {**view, "players": [{k: v for k, v in player.items() if k != key}]}
            board(broken, to_act)
    for key in list(view):
        board({k: v for k, v in view.items() if k != key}, to_act)


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", PLAYOUT_SEEDS)
def test_random_playouts_draw_what_every_view_says(variant: str, seed: int) -> None:
    states = list(walk(variant, seed))
    for state in [*states[::DRAWN_EVERY], states[-1]]:
        view, to_act, picture = drawn(state)
        check_layout(view, to_act, picture)


# ---------------------------------------------------------------- golden images


@pytest.mark.parametrize(
    ("name", "variant", "seed", "wanted"),
    [
        ("2p-mid-game", "2p", 2, mid_game),
        ("alliance-mid-game", "alliance", 9, mid_game),
        ("3p-revenge-to-come", "3p", 1, revenge_to_come),
        ("4p-mid-game", "4p", 3, team_mid_game),
    ],
)
def test_the_board_looks_as_it_did(
    name: str, variant: str, seed: int, wanted: Callable[[State], bool]
) -> None:
    _, _, picture = drawn(play_until(variant, seed, wanted))
    assert_matches_golden(picture, f"tooth_and_nail-{name}")
