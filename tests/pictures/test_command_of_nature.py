"""The Command of Nature board picture, checked by its layout against the game's views:
positions come from the real engine, and each drawing's boxes are compared with the
view it was drawn from (every space, header, market card and attack), not only drawn."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.pictures import Box, Picture
from bot.pictures.canvas import WIDTH
from bot.pictures.command_of_nature import board, private, space_label
from rules.command_of_nature import GAME, State
from rules.core import SeatSpec, rng_for
from tests.pictures import assert_wide, check_headline
from tests.pictures.golden import assert_matches_golden
from tests.rules.test_command_of_nature_playouts import choose

PLAYERS = {"2p": 2, "4p": 4}
NAMES = ("Ash", "Birch", "Cypress", "Dogwood")
MARKETS = {"elementals": "elemental_deck", "commands": "command_deck"}


# ------------------------------------------------------------------ positions


def game(variant: str, seed: int) -> Iterator[tuple[int, State]]:
    """Every position of a random game, with the number of actions taken to reach it."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(PLAYERS[variant])]
    state = GAME.setup(variant, seats, {}, seed)
    chooser = random.Random(seed)
    taken = 0
    yield taken, state
    while GAME.outcome(state) is None:
        seat = chooser.choice(sorted(GAME.to_act(state)))
        action = choose(chooser, GAME.legal_actions(state, seat))
        taken += 1
        state, _ = GAME.apply(state, seat, action, rng_for(seed, taken))
        yield taken, state


@cache
def position(variant: str, seed: int, taken: int) -> State:
    """The position after `taken` actions (or the end) of a seeded random game."""
    reached = None
    for n, state in game(variant, seed):
        reached = state
        if n == taken:
            break
    assert reached is not None
    return reached


@cache
def first(variant: str, seed: int, what: str) -> State:
    """The first position of a seeded game where the public view has `what` ("attack",
    "tokens": shields and boosts standing, "fallen": a defeated Sage, "over")."""
    for _, state in game(variant, seed):
        view = GAME.view(state, None)
        if what == "attack" and view["attack"]:
            return state
        standing = [card for card in spaces_of(view) if card]
        if what == "tokens" and all(any(c[t] for c in standing) for t in ("shields", "boosts")):
            return state
        if what == "fallen" and any(p["sage_defeated"] for p in view["players"]):
            return state
        if what == "over" and view["outcome"]:
            return state
    raise AssertionError(f"no {what} in {variant} game {seed}")


def spaces_of(view: dict[str, Any]) -> list[dict[str, Any] | None]:
    return [card for side in view["sides"] for row in side["formation"] for card in row]


def known(variant: str) -> list[State]:
    """Positions to check closely: the set-up, early, middle, an attack, the end."""
    return [
        position(variant, 1, 0),
        position(variant, 1, 12),
        position(variant, 1, 60),
        first(variant, 2, "attack"),
        first(variant, 3, "over"),
    ]


def draw(state: State) -> tuple[Picture, dict[str, Any], tuple[int, ...]]:
    view = GAME.view(state, None)
    to_act = tuple(sorted(GAME.to_act(state)))
    return board(view, to_act), view, to_act


def spaces(view: dict[str, Any]) -> Iterator[tuple[int, int, int, str, dict[str, Any] | None]]:
    """Each space of the view: side, row, index, key and what stands there."""
    for n, side in enumerate(view["sides"]):
        for r, row in enumerate(side["formation"]):
            for i, card in enumerate(row):
                yield n, r, i, f"side{n}:{space_label(r, i, len(row))}", card


def only(picture: Picture, kind: str, key: str) -> Box:
    found = [b for b in picture.layout if b.kind == kind and b.key == key]
    assert len(found) == 1, f"{len(found)} boxes {kind} {key}"
    return found[0]


def overlap(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


# ------------------------------------------------------------------ layout checks


def check_spaces(picture: Picture, view: dict[str, Any]) -> None:
    """Every space of the view has one box with its label, Elemental and numbers (an
    empty space: its label and "empty"), and there is no other space box."""
    keys = set()
    for *_, key, card in spaces(view):
        box = only(picture, "space", key)
        keys.add(key)
        label = key.split(":")[1]
        assert box.text[0] == label
        if card is None:
            assert box.text == (label, "empty")
            continue
        left = card["hp"] - card["damage"]
        assert box.text[1] == card["name"], (box.text, card["name"])
        assert f"STR {card['strength']}" in box.text
        assert f"HP {left}/{card['hp']}" in box.text
        assert ("Sage" in box.text) == card["sage"]
        for token in ("shields", "boosts"):
            assert (f"{token} {card[token]}" in box.text) == bool(card[token]), (token, box.text)
    assert {b.key for b in picture.boxes("space")} == keys


def check_sides(picture: Picture, view: dict[str, Any], to_act: tuple[int, ...]) -> None:
    """Each side's panel says whether it is to act (in words), its gold, AP and every
    player's Sage with its health and level."""
    players = {p["seat"]: p for p in view["players"]}
    for n, side in enumerate(view["sides"]):
        box = only(picture, "side", f"side{n}")
        acting = any(s in to_act for s in side["seats"])
        assert ("TO ACT" in box.text) == acting
        assert f"{side['gold']} gold" in box.text and f"{side['ap']} AP" in box.text
        for seat in side["seats"]:
            player = players[seat]
            level = f"level {player['level']}"
            if not player["sage_name"]:
                expected = f"no Sage yet · {level}"
            elif player["sage_defeated"]:
                expected = f"Sage {player['sage_name']} has fallen · {level}"
            else:
                hp = player["sage_hp"]
                left = player["sage_hp_left"] if player["sage_placed"] else hp
                expected = f"Sage {player['sage_name']} HP {left}/{hp} · {level}"
            assert expected in box.text, (expected, box.text)
        for s, name in enumerate(side["names"]):
            if len(side["names"]) > 1:  # a team: each half under its player's name
                assert only(picture, "label", f"side{n}:half{s}").text == (name,)
                assert (f"{name}: to act" in box.text) == (side["seats"][s] in to_act)


def check_geometry(picture: Picture, view: dict[str, Any]) -> None:
    """The formations face each other: side 1 above, its front row lowest; side 0
    below, its front row highest; the spaces never overlap; all lies in the picture."""
    rows: dict[tuple[int, int], list[Box]] = {}
    for n, r, _, key, _ in spaces(view):
        rows.setdefault((n, r), []).append(only(picture, "space", key))
    for boxes in rows.values():
        assert len({b.y for b in boxes}) == 1, "a row drawn at two heights"
        xs = [b.x for b in boxes]
        assert xs == sorted(xs), "a row's spaces out of order (a to f, left to right)"
    for r in (0, 1):
        assert rows[(1, r)][0].y > rows[(1, r + 1)][0].y  # side 1: front row lowest
        assert rows[(0, r)][0].y < rows[(0, r + 1)][0].y  # side 0: front row highest
    lowest_top = max(b.y + b.h for b in picture.boxes("space", "side1:"))
    assert lowest_top < min(b.y for b in picture.boxes("space", "side0:"))
    drawn = picture.boxes("space")
    for i, a in enumerate(drawn):
        assert not any(overlap(a, b) for b in drawn[i + 1 :]), a.key
    for box in picture.layout:
        assert box.x >= 0 and box.x + box.w <= picture.width, box
        assert box.y >= 0 and box.y + box.h <= picture.height, box
    for n in (0, 1):
        panel = only(picture, "side", f"side{n}")
        assert all(panel.contains(b) for b in picture.boxes("space", f"side{n}:"))


def check_halves(picture: Picture, view: dict[str, Any]) -> None:
    """A team's formation is two pyramids side by side: each player's half (the first
    seat's on the left) by that player's name, wholly left or right of the other."""
    for n, side in enumerate(view["sides"]):
        if len(side["seats"]) < 2:
            assert not picture.boxes("label", f"side{n}:half")
            continue
        halves: list[list[Box]] = [[], []]
        for m, r, i, key, _ in spaces(view):
            if m == n:
                halves[i // (len(side["formation"][r]) // 2)].append(only(picture, "space", key))
        left_end = max(b.x + b.w for b in halves[0])
        right_start = min(b.x for b in halves[1])
        assert left_end < right_start
        names = [only(picture, "label", f"side{n}:half{h}") for h in (0, 1)]
        assert names[0].x < left_end <= right_start <= names[1].x
        assert min(b.x for b in halves[0]) <= names[0].x + 20


def check_markets(picture: Picture, view: dict[str, Any]) -> None:
    """Both markets: each face-up card with its name and cost, the decks' counts."""
    markets = view["markets"]
    for name, deck in MARKETS.items():
        cards = markets[name]
        boxes = picture.boxes("market", f"{name}:")
        assert len(boxes) == len(cards)
        for i, card in enumerate(cards):
            box = only(picture, "market", f"{name}:{i}")
            assert box.text == (card["name"], f"cost {card['cost']}")
        assert only(picture, "deck", name).text == (f"{markets[deck]} in deck",)
        xs = [b.x for b in boxes]
        assert xs == sorted(xs) and len({b.y for b in boxes}) <= 1  # a row of cards


def check_attack(picture: Picture, view: dict[str, Any]) -> None:
    """The attack under way, and only then, is a line across the middle."""
    attacks = picture.boxes("attack")
    if not view["attack"]:
        assert not attacks
        return
    (box,) = attacks
    written = " ".join(box.text)
    assert written == f"Attack: {view['attack']}" or written.endswith("…")
    assert max(b.y for b in picture.boxes("space", "side1:")) < box.y
    assert box.y + box.h < min(b.y for b in picture.boxes("space", "side0:"))


def check_healths(picture: Picture, view: dict[str, Any], to_act: tuple[int, ...]) -> None:
    """The headline: who acts, and each placed Sage's health by its player's name."""
    healths = []  # side by side, each side's players together
    players = {p["seat"]: p for p in view["players"]}
    for player in (players[s] for side in view["sides"] for s in side["seats"]):
        if player["sage_name"] and not player["sage_defeated"] and player["sage_placed"]:
            healths.append(f"{player['name']} ♥{player['sage_hp_left']}/{player['sage_hp']}")
    over = view["phase"] == "over"
    who = ["Game over"] if over else [view["players"][s]["name"] for s in to_act]
    check_headline(picture, who, healths)


def check_board(picture: Picture, view: dict[str, Any], to_act: tuple[int, ...]) -> None:
    assert_wide(picture)
    check_healths(picture, view, to_act)
    check_spaces(picture, view)
    check_sides(picture, view, to_act)
    check_geometry(picture, view)
    check_halves(picture, view)
    check_markets(picture, view)
    check_attack(picture, view)


# ------------------------------------------------------------------ the board


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_every_space_is_drawn_once_with_its_elemental_name_and_numbers(variant: str) -> None:
    for state in [*known(variant), first(variant, 5, "tokens")]:
        picture, view, _ = draw(state)
        check_spaces(picture, view)


def test_space_labels_are_the_menus_names() -> None:
    from bot.render.command_of_nature import space_name

    for size in (1, 2, 3, 4, 6):
        for index in range(size):
            for row in range(3):
                assert space_label(row, index, size) == space_name(row, index, size).strip("`")


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_a_sage_is_crowned_and_its_health_shown(variant: str) -> None:
    picture, view, _ = draw(position(variant, 1, 60))
    sages = [(key, card) for *_, key, card in spaces(view) if card and card["sage"]]
    assert len(sages) == PLAYERS[variant]
    for key, card in sages:
        box = only(picture, "space", key)
        assert "Sage" in box.text
        assert f"HP {card['hp'] - card['damage']}/{card['hp']}" in box.text


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_formations_face_each_other_front_rows_nearest_the_middle(variant: str) -> None:
    for state in known(variant):
        picture, view, _ = draw(state)
        check_geometry(picture, view)


def test_team_halves_lie_side_by_side_in_seat_order_under_their_players_names() -> None:
    for state in known("4p"):
        picture, view, _ = draw(state)
        check_halves(picture, view)
    picture, view, _ = draw(position("2p", 1, 60))
    check_halves(picture, view)  # one player a side: no halves named


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_the_side_to_act_is_marked_in_words_with_its_players_sages_and_wallet(
    variant: str,
) -> None:
    for state in [*known(variant), first(variant, 3, "fallen")]:
        picture, view, to_act = draw(state)
        check_sides(picture, view, to_act)
        title = only(picture, "label", "glance:who").text[0]
        if to_act:
            names = [view["players"][s]["name"] for s in to_act]
            assert title == " & ".join(names) + " to act"


def test_a_side_waiting_on_one_teammate_marks_that_teammate() -> None:
    """In a team game the decision may be one player's: the side says "TO ACT" and that
    player's half names them as the one to act, the other not."""
    for _, state in game("4p", 1):
        to_act = tuple(sorted(GAME.to_act(state)))
        sides = [s for s in state.sides if any(seat in to_act for seat in s.seats)]
        if len(to_act) == 1 and sides:
            break
    picture, view, _ = draw(state)
    (seat,) = to_act
    side = next(n for n, s in enumerate(view["sides"]) if seat in s["seats"])
    box = only(picture, "side", f"side{side}")
    for name, other in zip(view["sides"][side]["names"], view["sides"][side]["seats"], strict=True):
        assert (f"{name}: to act" in box.text) == (other == seat)


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_an_attack_under_way_is_a_line_across_the_middle(variant: str) -> None:
    picture, view, _ = draw(first(variant, 2, "attack"))
    assert view["attack"]
    check_attack(picture, view)
    assert picture.boxes("attack")


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_markets_show_each_card_with_its_cost_and_what_is_left_in_the_decks(
    variant: str,
) -> None:
    for state in known(variant):
        picture, view, _ = draw(state)
        check_markets(picture, view)


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_the_title_names_the_game_turn_phase_and_at_the_end_the_winners(variant: str) -> None:
    picture, view, _ = draw(position(variant, 1, 60))
    status = only(picture, "label", "status").text[0]
    assert f"turn {view['turn']}" in status and view["phase_name"] in status
    picture, view, to_act = draw(first(variant, 3, "over"))
    assert not to_act
    winners = " & ".join(view["players"][s]["name"] for s in view["outcome"]["winners"])
    assert only(picture, "label", "glance:who").text[0].startswith(f"Game over: {winners} win")
    assert all("TO ACT" not in b.text for b in picture.boxes("side"))


def test_a_view_with_missing_parts_draws_without_raising() -> None:
    full = GAME.view(position("4p", 1, 60), None)
    views: list[dict[str, Any]] = [
        {},
        {"sides": None, "markets": 3},
        {k: v for k, v in full.items() if k not in ("players", "markets")},
        {**full, "sides": [{"seats": [0]}, {"formation": [[None], [{}], []]}]},
    ]
    for view in views:
        picture = board(view, (0,))
        assert_wide(picture)
        Image.open(io.BytesIO(picture.png)).verify()
    assert not board({}, ()).boxes("space")


# ------------------------------------------------------------------ the private view


def test_private_draws_each_hand_card_with_its_type_numbers_and_text() -> None:
    state = position("4p", 1, 60)
    for seat in range(4):
        view = GAME.view(state, seat)
        picture = private(view)
        assert picture is not None and picture.width == WIDTH
        hands = view["hands"]
        drawn = picture.boxes("hand")
        assert len(drawn) == sum(len(cards) for cards in hands.values())
        for owner, cards in hands.items():
            for i, card in enumerate(cards):
                box = only(picture, "hand", f"{owner}:{i}:{card['id']}")
                assert box.text[0] == card["name"] and f"cost {card['cost']}" in box.text
                head, _, body = card["text"].partition(" — ")
                assert head.split(" · ")[0] in box.text  # its type
                if "♥" in head:  # an Elemental: STR and HP
                    assert any(t.startswith("STR ") for t in box.text)
                    assert any(t.startswith("HP ") for t in box.text)
                assert body.split()[0] in " ".join(box.text)
        # The player's own hand comes first, then the teammate's.
        mine = [b for b in drawn if b.key.startswith(f"{seat}:")]
        theirs = [b for b in drawn if not b.key.startswith(f"{seat}:")]
        if mine and theirs:
            assert max(b.y for b in mine) < min(b.y for b in theirs)
        assert not picture.boxes("space")  # the formation is the board's


def test_private_shows_the_set_up_choices_as_cards() -> None:
    state = position("2p", 1, 0)
    seat = min(GAME.to_act(state))
    view = GAME.view(state, seat)
    assert view["to_choose"]
    picture = private(view)
    assert picture is not None
    for i, card in enumerate(view["to_choose"]):
        assert only(picture, "choose", str(i)).text[0] == card["name"]
    assert only(picture, "label", f"empty:{seat}").text == ("empty",)


def test_private_is_none_without_a_hand() -> None:
    assert private(GAME.view(position("2p", 1, 12), None)) is None
    assert private({}) is None


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(("variant", "seed"), [("2p", 11), ("2p", 12), ("4p", 11), ("4p", 12)])
def test_random_games_draw_every_sampled_position_matching_its_view(
    variant: str, seed: int
) -> None:
    """Positions all through a game draw, decode as PNGs of the canvas width, match
    their views; side 0 and side 1 keep every space where it was all game."""
    placed: dict[str, tuple[int, int]] = {}
    drawn = 0
    for taken, state in game(variant, seed):
        if taken % 7 and GAME.outcome(state) is None:
            continue
        picture, view, to_act = draw(state)
        with Image.open(io.BytesIO(picture.png)) as image:
            image.load()
            assert image.size == (picture.width, picture.height)
        assert_wide(picture)
        check_healths(picture, view, to_act)
        check_spaces(picture, view)
        check_sides(picture, view, to_act)
        check_markets(picture, view)
        check_attack(picture, view)
        for box in picture.boxes("space"):
            assert placed.setdefault(box.key, (box.x, box.y)) == (box.x, box.y), box.key
        drawn += 1
    assert drawn > 10


# ------------------------------------------------------------------ golden images


def golden(name: str) -> Picture | None:
    """The fixed positions kept as golden images."""
    middle = position("4p", 1, 60)
    match name:
        case "2p-attack":
            return draw(first("2p", 2, "attack"))[0]
        case "4p-midgame":
            return draw(middle)[0]
        case "4p-over":
            return draw(first("4p", 3, "over"))[0]
        case _:
            return private(GAME.view(middle, min(GAME.to_act(middle))))


@pytest.mark.parametrize("name", ["2p-attack", "4p-midgame", "4p-over", "4p-hand"])
def test_golden_images(name: str) -> None:
    picture = golden(name)
    assert picture is not None
    assert_matches_golden(picture, f"command_of_nature-{name}")
