"""The Mystic Vale picture, checked against the views of real games: every field card and
slot of the player whose turn it is drawn with the names it holds, the on-deck card
apart, each player's decay gauge and row (the decider marked in words), the commons as
the view lists them, a solitaire game's nemesis and track; random games drawn from
start to end; golden images of a few positions."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.pictures import mystic_vale as mv
from bot.pictures import vale_parts as parts
from bot.pictures.canvas import MARGIN, Box, Picture, forget
from rules.core import SeatSpec, rng_for
from rules.mystic_vale import GAME, State
from tests.pictures import assert_wide, check_headline
from tests.pictures.golden import assert_matches_golden

# variant -> players, options
VARIANTS: dict[str, tuple[int, dict[str, str]]] = {
    "2p": (2, {"leaders": "on"}),
    "3p": (3, {"leaders": "off"}),
    "4p": (4, {"leaders": "on"}),
    "solo": (1, {"leaders": "on", "nemesis": "random", "track": "standard"}),
}
# Positions drawn in the content tests: (variant, seed, actions played).
POSITIONS = [
    ("2p", 1, 60),  # planting, a Cursed Land on deck
    ("2p", 4, 250),  # late: vales bought, upgraded leaders
    ("3p", 3, 120),
    ("3p", 5, 0),  # everyone choosing a leader
    ("4p", 2, 200),  # a Harvest with a buy to sleeve
    ("4p", 1, 239),  # a field of 20 cards
    ("solo", 1, 6),  # the nemesis in the field
    ("solo", 1, 40),
    ("solo", 6, 70),
]
PLAYOUT_SEEDS = (11, 12)
DRAW_EVERY = 9  # actions between two drawings in a random game
MAX_ACTIONS = 3000


def choose(chooser: random.Random, state: State, seat: int) -> Any:
    """A table that plays roughly to win: push while the decay is low, buy what it can."""
    legal = GAME.legal_actions(state, seat)
    kinds = {a.kind for a in legal}
    if "push" in kinds:
        decay = GAME.view(state, None)["players"][seat]["decay"]
        push = next(a for a in legal if a.kind == "push")
        stop = next((a for a in legal if a.kind == "stop"), push)
        return push if chooser.random() < (0.9, 0.75, 0.5, 0.3)[min(decay, 3)] else stop
    for kind in ("vale", "buy", "upgrade"):
        picks = [a for a in legal if a.kind == kind]
        if picks and chooser.random() < 0.85:
            return chooser.choice(picks)
    return chooser.choice(legal)


def start(variant: str, seed: int, options: dict[str, str] | None = None) -> State:
    players, default = VARIANTS[variant]
    seats = [SeatSpec(seat=i, name=f"Player {i + 1}") for i in range(players)]
    return GAME.setup(variant, seats, {**default, **(options or {})}, seed)


def step(state: State, chooser: random.Random, seed: int, n: int) -> State:
    seat = chooser.choice(sorted(GAME.to_act(state)))
    state, _ = GAME.apply(state, seat, choose(chooser, state, seat), rng_for(seed, n))
    return state


@cache
def position(variant: str, seed: int, actions: int) -> State:
    """The game of `seed` after `actions` actions (or at its end)."""
    state = start(variant, seed)
    chooser = random.Random(seed)
    for n in range(1, actions + 1):
        if GAME.outcome(state) is not None:
            break
        state = step(state, chooser, seed, n)
    return state


def drawn(state: State) -> tuple[Picture, dict[str, Any], tuple[int, ...]]:
    view = GAME.view(state, None)
    to_act = tuple(sorted(GAME.to_act(state)))
    return mv.board(view, to_act), view, to_act


def shows(text: str, full: str) -> bool:
    """Whether `text` is `full`, or `full` cut with "…" to fit."""
    return text == full or (text.endswith("…") and full.startswith(text[:-1].rstrip()))


def overlap(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def active_player(view: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in view["players"] if p["seat"] == view["active"])


# ---------------------------------------------------------------------- layout checks


def check_picture(picture: Picture) -> None:
    """The PNG decodes at the canvas size; every box lies inside it."""
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.size == (picture.width, picture.height)
    for box in picture.layout:
        assert box.x >= 0 and box.y >= 0, box
        assert box.x + box.w <= picture.width, box
        assert box.y + box.h <= picture.height - MARGIN + 1, box


def check_card(picture: Picture, kind: str, key: str, card: dict[str, Any]) -> Box:
    """A field or on-deck card: one box, its number, its symbols in words, and its
    three slots inside it (each with the name it holds), or the leader covering it."""
    box = picture.box(kind, key)
    assert box.text[0] == parts.card_number(card)
    for words in parts.symbol_words(card.get("symbols")):
        assert words in box.text, (words, box.text)
    prefix = key if kind == "field" else f"{key}:deck"
    slots = picture.boxes("slot", prefix + ":")
    if not parts.has_slots(card):
        assert not slots
        words = box.text[2 : len(box.text) - len(parts.symbol_words(card.get("symbols")))]
        if card.get("leader"):  # the name, then its side
            assert box.text[1] == "Leader"
            assert shows(" ".join(words[:-1]), card["leader"]["name"]), box.text
        else:
            assert box.text[1] == "Nemesis"
            assert shows(" ".join(words), parts.nemesis_name(card) or ""), box.text
        return box
    assert {s.key for s in slots} == {f"{prefix}:{slot}" for slot in parts.SLOTS}
    for slot in parts.SLOTS:
        drawn_slot = picture.box("slot", f"{prefix}:{slot}")
        assert box.contains(drawn_slot)
        names = parts.slot_names(card["slots"][slot])
        if not names:
            assert drawn_slot.text == ()
        elif len(names) > 1:  # an eclipse covered
            assert shows(drawn_slot.text[0], names[-1]), (drawn_slot.text, names)
            assert len(drawn_slot.text) == 1 or drawn_slot.text[1].startswith("over ")
        else:
            assert shows(" ".join(drawn_slot.text), names[-1]), (drawn_slot.text, names)
    return box


def check_field(picture: Picture, view: dict[str, Any]) -> None:
    """The player whose turn it is: each field card and slot, the on-deck card apart."""
    player = active_player(view)
    seat = player["seat"]
    field = player["field"]
    cards = [check_card(picture, "field", f"{seat}:{n}", c) for n, c in enumerate(field)]
    assert len(picture.boxes("field")) == len(field)
    for a in cards:
        assert sum(overlap(a, b) for b in cards) == 1  # only itself
    others = [p for p in view["players"] if p["seat"] != seat]
    for other in others:
        assert not picture.boxes("field", f"{other['seat']}:")
    if player["on_deck"] is None:
        assert not picture.boxes("ondeck")
        return
    deck = check_card(picture, "ondeck", str(seat), player["on_deck"])
    assert len(picture.boxes("ondeck")) == 1
    assert all(deck.x > c.x + c.w + 10 for c in cards), "the on-deck card stands apart"


def check_players(picture: Picture, view: dict[str, Any], to_act: tuple[int, ...]) -> None:
    """Each player's row and decay gauge; the decider marked in words."""
    rows = []
    for player in view["players"]:
        seat = player["seat"]
        row = picture.box("player", str(seat))
        rows.append(row)
        assert shows(row.text[1 if seat in to_act else 0].split(" (")[0], player["name"])
        assert ("TO ACT" in row.text) == (seat in to_act)
        assert f"{player['vp']} VP" in row.text
        assert mv._many(player["curses"], "curse") in row.text
        piles = next(t for t in row.text if "deck" in t and "discard" in t)
        assert f"deck {player['deck_count']} · discard {player['discard_count']}" in piles
        if player["vales"]:
            assert any(f"Vales ({len(player['vales'])})" in t for t in row.text)
        if player["leader"]:
            assert any(t.startswith("Leader: ") for t in row.text)
        bar = picture.box("bar", f"decay:{seat}")
        assert bar.text == (f"Decay {player['decay']} of {view['spoil_at']}",)
    for a in rows:
        assert sum(overlap(a, b) for b in rows) == 1
    scores = [f"{p['name']}: {p['vp']} VP" for p in view["players"]]
    if view.get("nemesis"):
        scores.append(f"Nemesis: {view['nemesis']['score']}")
    over = view["phase"] == "over"
    who = ["Game over"] if over else [view["players"][s]["name"] for s in to_act]
    check_headline(picture, who, scores)
    decider = picture.box("label", "decider")
    if view["phase"] == "over":
        assert decider.text[0].startswith("Game over")
    else:
        for seat in to_act:
            assert view["players"][seat]["name"] in decider.text[0]


def check_commons(picture: Picture, view: dict[str, Any]) -> None:
    """The advancements and vales for sale, as the view's rows have them."""
    commons = view["commons"]
    expected: dict[tuple[str, str], dict[str, Any]] = {}
    for level, row in commons["rows"].items():
        for i, card in enumerate(row):
            if card is not None:
                expected["offer", f"{level}:{i}"] = card
    for i, card, _count in parts.offer_groups(commons["level4"]):
        expected["offer", f"4:{i}"] = card
    for level, row in commons["vales"].items():
        for i, card in enumerate(row):
            if card is not None:
                expected["vale", f"{level}:{i}"] = card
    cells = [b for b in picture.layout if b.kind in ("offer", "vale")]
    assert {(b.kind, b.key) for b in cells} == {*expected, ("offer", "fertile")}
    for (kind, key), card in expected.items():
        box = picture.box(kind, key)
        assert shows(box.text[0].split(" ×")[0], card["name"]), (box.text, card["name"])
        for words in parts.symbol_words(card["cost"]) or ["free"]:
            assert words in box.text
    fertile = picture.box("offer", "fertile")
    assert fertile.text[0] == f"Fertile Soil ×{commons['fertile']}"
    for a in cells:
        assert sum(overlap(a, b) for b in cells) == 1


def check_nemesis(picture: Picture, view: dict[str, Any]) -> None:
    """A solitaire game's nemesis card and corruption track, the hourglass on its space;
    nothing of the kind in a game of players."""
    nemesis = view.get("nemesis")
    if nemesis is None:
        assert not picture.boxes("nemesis") and not picture.boxes("track")
        return
    card = picture.box("nemesis", "card")
    assert shows(card.text[0], f"Nemesis: {nemesis['name']}")
    assert f"power {nemesis['power']}" in card.text[1]
    spaces = picture.boxes("track")
    assert len(spaces) == len(nemesis["track"])
    (here,) = [b for b in spaces if "hourglass" in b.text]
    assert here.key == str(nemesis["space"])
    assert [b.key for b in spaces if "passed" in b.text] == [
        str(n) for n in range(nemesis["space"])
    ]
    now = picture.box("label", "track:now")
    assert shows(
        now.text[0], f"Claimed on space {nemesis['space']}: " + nemesis["track"][nemesis["space"]]
    )
    score = picture.box("label", "nemesis:score")
    assert score.text == (f"Score so far: {nemesis['score']}",)


def check_board(state: State) -> Picture:
    picture, view, to_act = drawn(state)
    check_picture(picture)
    assert_wide(picture)
    check_field(picture, view)
    check_players(picture, view, to_act)
    check_commons(picture, view)
    check_nemesis(picture, view)
    return picture


# ---------------------------------------------------------------------- the tests


@pytest.mark.parametrize(("variant", "seed", "actions"), POSITIONS)
def test_every_field_card_and_slot_has_its_box_with_the_names_it_shows(
    variant: str, seed: int, actions: int
) -> None:
    picture, view, _ = drawn(position(variant, seed, actions))
    check_picture(picture)
    check_field(picture, view)


def test_a_position_has_cards_of_every_kind_in_its_slots() -> None:
    """The positions drawn above hold what the checks are about: Cursed Lands, Fertile
    Soils, advancements, empty slots, a leader in the field, a card on deck."""
    seen: set[str] = set()
    for variant, seed, actions in POSITIONS:
        view = GAME.view(position(variant, seed, actions), None)
        player = active_player(view)
        for card in player["field"]:
            if card.get("leader"):
                seen.add("leader")
            for layers in card["slots"].values():
                seen.add(str(layers[-1]) if layers and isinstance(layers[-1], str) else "other")
                seen.add("empty" if not layers else "filled")
        if player["on_deck"]:
            seen.add("on deck")
    assert {"cursed land", "fertile soil", "leader", "empty", "filled", "on deck"} <= seen


@pytest.mark.parametrize(("variant", "seed", "actions"), POSITIONS)
def test_the_on_deck_card_is_drawn_apart_from_the_field(
    variant: str, seed: int, actions: int
) -> None:
    picture, view, _ = drawn(position(variant, seed, actions))
    player = active_player(view)
    if player["on_deck"] is None:
        assert not picture.boxes("ondeck")
        return
    deck = picture.box("ondeck", str(player["seat"]))
    field = picture.boxes("field")
    assert all(deck.x > card.x + card.w + 10 for card in field)
    assert all(not overlap(deck, card) for card in field)


@pytest.mark.parametrize(("variant", "seed", "actions"), POSITIONS)
def test_each_players_row_decay_gauge_and_the_decider_marked_in_words(
    variant: str, seed: int, actions: int
) -> None:
    picture, view, to_act = drawn(position(variant, seed, actions))
    check_players(picture, view, to_act)
    active = active_player(view)["seat"]
    if active in to_act:
        assert picture.box("label", "turn").text[0].startswith(view["players"][active]["name"])


def test_the_decay_gauge_says_the_views_decay_against_the_spoil_line() -> None:
    state = position("2p", 1, 60)
    picture, view, _ = drawn(state)
    player = active_player(view)
    assert player["decay"] == 3
    bar = picture.box("bar", f"decay:{player['seat']}")
    assert bar.text == ("Decay 3 of 4",)


@pytest.mark.parametrize(("variant", "seed", "actions"), POSITIONS)
def test_the_commons_match_the_views_rows(variant: str, seed: int, actions: int) -> None:
    picture, view, _ = drawn(position(variant, seed, actions))
    check_commons(picture, view)
    pool = picture.box("label", "pool")
    assert pool.text[0].endswith(f"{view['pool']} VP left in the pool")


@pytest.mark.parametrize(("seed", "actions"), [(1, 40), (6, 70), (9, 3)])
def test_solitaire_shows_the_nemesis_and_the_hourglass_on_its_space(
    seed: int, actions: int
) -> None:
    picture, view, _ = drawn(position("solo", seed, actions))
    check_nemesis(picture, view)
    assert picture.box("label", "title").text[0].startswith("Mystic Vale · solitaire")


def test_a_game_of_players_draws_no_nemesis() -> None:
    picture, view, _ = drawn(position("4p", 2, 200))
    check_nemesis(picture, view)
    assert picture.box("label", "title").text[0] == (
        f"Mystic Vale · 4 players · round {view['round']}"
    )


def test_a_four_player_board_is_wide_with_the_commons_beside_the_players() -> None:
    """A typical 4-player board (a field of a few cards) has the commons in a column
    at the right of the players; a field of 20 cards spans the board above both
    columns, and the board stays 16:9."""
    typical, view, _ = drawn(position("4p", 2, 200))
    assert len(active_player(view)["field"]) <= 5
    seat = str(active_player(view)["seat"])
    panel, commons = typical.box("player", seat), typical.box("label", "commons")
    assert commons.x >= panel.x + panel.w and commons.y < panel.y + panel.h
    biggest, view, _ = drawn(position("4p", 1, 239))
    assert len(active_player(view)["field"]) == 20
    seat = str(active_player(view)["seat"])
    panel, commons = biggest.box("player", seat), biggest.box("label", "commons")
    assert panel.w == biggest.width - 2 * MARGIN and commons.y > panel.y
    assert_wide(biggest)


def test_a_view_missing_its_keys_draws_dashes_not_errors() -> None:
    for view in (
        {},
        {"players": [{}], "commons": {}},
        {"players": [{"seat": 0, "field": [{}], "on_deck": {"slots": None}}], "active": 0},
        {"nemesis": {}, "commons": {"rows": {"1": [None, {}]}, "vales": {"1": [None]}}},
    ):
        picture = mv.board(view, (0,))
        check_picture(picture)
    title = mv.board({}, ()).box("label", "title")
    assert title.text == ("Mystic Vale · 0 players · round –",)


def test_private_draws_each_of_the_players_cards_once_by_where_it_is() -> None:
    """Field, on deck, discard pile and deck: every one of the player's 20 cards once,
    with its number and what each slot shows; the deck in card order (never its own)."""
    state = position("2p", 4, 250)
    view = GAME.view(state, 0)
    picture = mv.private(view)
    assert picture is not None
    check_picture(picture)
    me = state.players[0]
    where = {
        "field": me.field,
        "ondeck": [me.on_deck] if me.on_deck is not None else [],
        "discard": sorted(me.discard),
        "deck": sorted(me.deck),
    }
    drawn = picture.boxes("mine")
    assert len(drawn) == 20 == sum(len(ids) for ids in where.values())
    for pile, ids in where.items():
        numbers = [b.text[0] for b in drawn if b.key.startswith(f"{pile}:")]
        assert numbers == [parts.card_number({"id": i}) for i in ids], pile
    head = picture.box("label", "private:me")
    assert head.text == (f"Your 20 cards — {me.name}",)
    shuffled = state.model_copy(deep=True)
    random.Random(3).shuffle(shuffled.players[0].deck)
    assert mv.private(GAME.view(shuffled, 0)).png == picture.png  # the deck's order never shows


def test_private_is_none_without_a_player() -> None:
    state = start("3p", 5, {"leaders": "on"})
    assert mv.private(GAME.view(state, 1)) is not None
    assert mv.private(GAME.view(state, None)) is None
    assert mv.private({}) is None


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_draw_at_every_stage_and_match_the_view(variant: str) -> None:
    """A few whole games: every DRAW_EVERY actions (and at the end) the board draws,
    its PNG decodes at the canvas width, and its layout matches the view."""
    for seed in PLAYOUT_SEEDS:
        options = {"leaders": "on" if seed % 2 else "off"}
        if variant == "solo":  # each side of the corruption track
            options["track"] = ("easy", "standard")[seed % 2]
        state = start(variant, seed, options)
        chooser = random.Random(seed)
        n = 0
        while GAME.outcome(state) is None and n < MAX_ACTIONS:
            if n % DRAW_EVERY == 0:
                check_board(state)
            n += 1
            state = step(state, chooser, seed, n)
        assert GAME.outcome(state) is not None
        picture = check_board(state)
        assert picture.box("label", "decider").text[0].startswith("Game over")
        for seat in range(len(state.players)):
            mine = mv.private(GAME.view(state, seat))
            if mine is not None:
                check_picture(mine)


@pytest.mark.parametrize(
    ("name", "variant", "seed", "actions"),
    [
        ("2p-planting", "2p", 1, 60),
        ("4p-harvest", "4p", 2, 200),
        ("solo-nemesis-in-field", "solo", 1, 6),
    ],
)
def test_golden(name: str, variant: str, seed: int, actions: int) -> None:
    picture, _, _ = drawn(position(variant, seed, actions))
    assert_matches_golden(picture, f"mystic_vale-{name}")


def test_golden_private() -> None:
    picture = mv.private(GAME.view(position("4p", 2, 200), 0))
    assert picture is not None
    assert_matches_golden(picture, "mystic_vale-private")


def test_a_board_drawn_again_from_remembered_parts_is_the_same() -> None:
    """Text, cards, cells and rows drawn before are pasted again: the picture is the one
    drawn afresh, boxes and all."""
    state = position("4p", 2, 200)
    view, to_act = GAME.view(state, None), tuple(sorted(GAME.to_act(state)))
    forget()
    fresh = mv.board(view, to_act)
    again = mv.board(view, to_act)
    assert again.png == fresh.png
    assert again.layout == fresh.layout


def test_boards_drawn_in_threads_match_those_drawn_alone() -> None:
    """The bot draws in worker threads, which share what is remembered."""
    states = [position(*p) for p in POSITIONS]
    args = [(GAME.view(s, None), tuple(sorted(GAME.to_act(s)))) for s in states]
    alone = [mv.board(*a).png for a in args]
    forget()
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda a: mv.board(*a).png, args * 3))
    assert together == alone * 3
