"""The picture of a Historia: Ways of Command table, checked by its layout against the
view it was drawn from: one row per civilization, each standing in its own cell with
its value and the first/last marks the view's standings give, each Command token face up
or face down as the view says (with the cube on it while its power is in force), the
powers in force listed, who can activate now, and the rows of those the table waits for
marked. Positions are built with the real engine, by reports as a table makes them."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.pictures.canvas import GAP, Box, Picture
from bot.pictures.historia_command import CAT_X, board
from bot.render.historia_command import civ_label, token_word
from rules.core import Action, IllegalAction, SeatSpec, rng_for
from rules.historia_command import GAME, State
from tests.pictures import assert_wide, check_headline
from tests.pictures.golden import assert_matches_golden
from tests.rules.test_historia_command_playouts import attempt, new_match

PLAYERS = (2, 3, 4, 5, 6)  # every variant: "2p" to "6p"
CATEGORIES = ("territory", "military", "technology")
NAMES = ("Romans", "Greeks", "Carthage", "Persians", "Egyptians", "Maya")
SEEDS = (1, 2, 3)
PLACES = {"bank": "Bank", "used": "Used Pool", "reserve": "reserve"}  # whence a token's cube
EVERY = 6  # random playouts: check the picture every this many actions


# ------------------------------------------------------------------ positions


class Table:
    """A match driven by reports, as a Historia table makes them."""

    def __init__(self, players: int) -> None:
        self.state: State = new_match(players)
        self.n = 0

    def __call__(self, seat: int, key: str) -> Table:
        self.n += 1
        self.state, _ = GAME.apply(self.state, seat, Action.from_key(key), rng_for(0, self.n))
        return self

    def concede(self, seat: int) -> Table:
        self.n += 1
        self.state, _ = GAME.concede(self.state, seat, rng_for(0, self.n))
        return self

    def view(self) -> dict[str, Any]:
        return GAME.view(self.state, None)

    def to_act(self) -> tuple[int, ...]:
        return tuple(sorted(GAME.to_act(self.state)))

    def draw(self) -> Picture:
        return board(self.view(), self.to_act())


def named(players: int) -> Table:
    """Every civilization named, the first Era begun."""
    table = Table(players)
    for seat in range(players):
        table(seat, f"civ|{NAMES[seat]}")
    return table(0, "begin")


def mid_era(players: int) -> Table:
    """Era I under way: the Romans (Territory & Military) lead Territory and have used
    their token for +2 Military (its cube from the Bank); the Greeks (Military &
    Technology) lead Technology, tie the Romans' Military and may activate their token;
    the rest trail or tie."""
    table = named(players)
    table(0, "territory|add|Gaul")(0, "territory|add|Iberia")(0, "level|military|2")
    table(1, "territory|add|Sicily")(1, "level|technology|4")(1, "level|military|1")
    for seat in range(2, players):
        table(seat, f"level|technology|{min(seat - 1, 3)}")(seat, "level|military|1")
        table(seat, "territory|add|Sicily")  # shared with the Greeks
    table(0, "vouch|military|bank")  # no cube reported there
    table(1, "level|military|4")  # level with the Romans' 2 + 2: not last
    return table(0, "cubes|2|supply|map")


def disputed(players: int) -> Table:
    """Mid-Era, the Greeks dispute the Romans' latest report: the match waits for them."""
    table = mid_era(players)
    table(0, "level|technology|3")
    number = table.view()["reports"][-1]["number"]
    return table(1, f"dispute|{number}")


def ending(players: int) -> Table:
    """Turn 4 of Era I over, its end reported by the Romans: the others to agree;
    with a seat that conceded when there are more than two."""
    table = mid_era(players)
    if players > 2:
        table.concede(players - 1)
    for _ in range(3):
        table(0, "turn")
    return table(0, "era")


def era_two(players: int) -> Table:
    """Era II begun: the Romans' token used in Era I, out of the game."""
    table = ending(players)
    for seat in GAME.to_act(table.state):
        table(seat, "agree")
    return table


def over(players: int) -> Table:
    """The game over, the Greeks the winners the table agreed."""
    table = era_two(players)
    for _ in range(2):
        for _ in range(3):
            table(0, "turn")
        table(0, "era")
        for seat in GAME.to_act(table.state):
            table(seat, "agree")
    table(0, "result|1")
    for seat in GAME.to_act(table.state):
        table(seat, "agree")
    assert table.state.phase == "over"
    return table


POSITIONS = {
    "setup": Table,
    "named": named,
    "mid-era": mid_era,
    "disputed": disputed,
    "ending": ending,
    "era-two": era_two,
    "over": over,
}


# ------------------------------------------------------------------ the layout


def overlap(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def shown(text: str, full: str) -> bool:
    """`text` is `full`, or `full` cut to fit with "…"."""
    return text == full or (text.endswith("…") and full.startswith(text[:-1].rstrip()))


def expected_marks(view: dict[str, Any], seat: int, category: str) -> list[str]:
    row = view["standings"][category]
    first, last = row["first"], row["last"]
    if seat in first and seat in last:
        return ["all tied"]
    marks = []
    if seat in first:
        marks.append("1st" if len(first) == 1 else "tied 1st")
    if seat in last:
        marks.append("last" if len(last) == 1 else "tied last")
    return marks


def check_layout(picture: Picture, view: dict[str, Any], to_act: tuple[int, ...]) -> None:
    """The picture says what the view says, each thing once, in its place."""
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.size == (picture.width, picture.height)
    assert_wide(picture)
    waited = [civ_label(c) for c in view["civs"] if c["seat"] in to_act]
    tokens = [f"{civ_label(c)}: {token_word(view, c)}" for c in view["civs"]]
    check_headline(picture, ["Game over"] if view["phase"] == "over" else waited, tokens)
    for box in picture.layout:
        assert box.x >= 0 and box.y >= 0, box
        assert box.x + box.w <= picture.width and box.y + box.h <= picture.height, box

    civs = view["civs"]
    seats = [c["seat"] for c in civs]
    winners = set((view.get("outcome") or {}).get("winners") or [])
    assert sorted(b.key for b in picture.boxes("civ")) == sorted(map(str, seats))
    for civ in civs:
        box = picture.box("civ", str(civ["seat"]))
        name = civ["name"] if civ["named"] else civ["player"]
        assert shown(box.text[0], name), (box.text, name)
        assert ("to act" in box.text) == (civ["seat"] in to_act), box.text
        assert ("won" in box.text[1]) == (civ["seat"] in winners), box.text

    # Every standing the view holds, with its value and marks; nothing for the rest.
    cells = {b.key: b for b in picture.boxes("cell")}
    expected = {
        f"{seat}:{category}"
        for category in CATEGORIES
        for seat in map(int, view["standings"][category]["values"])
    }
    assert set(cells) == expected
    for key, box in cells.items():
        seat, category = key.split(":")
        civ = next(c for c in civs if c["seat"] == int(seat))
        value = view["standings"][category]["values"][seat]
        bonus = civ["effective"].get(category, 0) - civ["levels"].get(category, 0)
        assert box.text[0] == str(value), (key, box.text)
        assert ("+2 Command" in box.text) == (bonus == 2), (key, box.text)
        marks = [t for t in box.text[1:] if t != "+2 Command"]
        assert marks == expected_marks(view, int(seat), category), (key, box.text)

    # Each token face up or face down as the view says; a cube on it while in force.
    assert sorted(b.key for b in picture.boxes("token")) == sorted(f"{s}:command" for s in seats)
    cubes = {b.key: b for b in picture.boxes("cube")}
    active = [c for c in civs if c["token"]["status"] == "active" and not c["conceded"]]
    assert set(cubes) == {f"{c['seat']}:command" for c in active}
    for civ in civs:
        token = civ["token"]
        box = picture.box("token", f"{civ['seat']}:command")
        state = box.text[0]
        if civ["conceded"]:
            assert state == "Out of the game"
        elif token["status"] == "active":
            assert state == "USED · face down" and shown(box.text[1], token["power"])
            cube = cubes[box.key]
            assert box.contains(cube)
            assert cube.text == (f"cube from the {PLACES[token['cube_from']]}",)
        elif token["status"] == "removed":
            assert box.text == ("USED · face down", "out of the game")
        else:
            assert state.startswith("Face up") and box.text[1] == token["label"]
            if view["phase"] == "era":
                ready = "READY" in state
                assert ready == token["eligible"] and ready != ("not now" in state), box.text

    # The powers in force, in seat order; who can activate now, during an Era.
    powers = sorted(picture.boxes("power"), key=lambda b: int(b.key))
    assert [b.key for b in powers] == [str(i) for i in range(len(active))]
    for box, civ in zip(powers, active, strict=True):
        token = civ["token"]
        taken = token["cubes_taken"]
        extra = f", {taken} cube{'s' if taken != 1 else ''} taken" if taken else ""
        place = PLACES[token["cube_from"]]
        line = f"{civ['name']}: {token['power']} (cube from the {place}{extra})"
        assert shown(" ".join(box.text), line), (box.text, line)
    ready = picture.boxes("label", "ready")
    if view["phase"] != "era":
        assert not ready
    else:
        (line,) = ready
        text = " ".join(line.text)
        eligible = [c for c in civs if c["token"]["eligible"] and not c["conceded"]]
        assert text.startswith("Can activate now" if eligible else "No token can be activated")
        for civ in eligible:
            assert f"{civ['name']} (first in {civ['token']['by']}" in text

    # The Era and the latest report number.
    era = picture.box("label", "glance:when").text[0]
    if view["phase"] in ("era", "dispute", "ending"):
        assert era == f"Era {view['era_name']} · turn {view['turn']} of {view['turns']}"
    report = picture.box("label", "report").text[0]
    numbers = [r["number"] for r in view["reports"]]
    assert report == (f"latest report #{max(numbers)}" if numbers else "no recent report")

    # Nothing that stands for a part of the table overlaps another.
    parts = [b for b in picture.layout if b.kind in ("civ", "cell", "token", "label", "power")]
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            assert not overlap(a, b), (a, b)


# ------------------------------------------------------------------ known positions


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("position", POSITIONS)
def test_every_cell_token_and_mark_matches_the_view(players: int, position: str) -> None:
    table = POSITIONS[position](players)
    check_layout(table.draw(), table.view(), table.to_act())


@pytest.mark.parametrize("players", PLAYERS)
def test_the_used_token_carries_its_cube_and_the_ready_one_says_so(players: int) -> None:
    table = mid_era(players)
    picture = table.draw()
    romans = picture.box("token", "0:command")
    assert romans.text == ("USED · face down", "+2 Military")
    assert picture.box("cube", "0:command").text == ("cube from the Bank",)
    assert picture.box("cell", "0:military").text[:2] == ("4", "+2 Command")
    assert picture.box("power", "0").text == ("Romans: +2 Military (cube from the Bank)",)
    assert picture.box("token", "1:command").text[0] == "Face up · READY"
    assert "Greeks (first in Technology" in " ".join(picture.box("label", "ready").text)
    assert picture.box("cell", "0:territory").text == ("2", "1st")


@pytest.mark.parametrize("players", PLAYERS)
def test_whoever_the_table_waits_for_is_marked_and_nobody_else(players: int) -> None:
    table = disputed(players)
    picture = table.draw()
    assert table.to_act() == (1,)
    marked = [b.key for b in picture.boxes("civ") if "to act" in b.text]
    assert marked == ["1"]
    prompt = " ".join(picture.box("label", "prompt").text)
    assert "dispute" in prompt and "`" not in prompt
    # During an Era nobody is waited for, and the picture says so.
    calm = mid_era(players).draw()
    assert not [b for b in calm.boxes("civ") if "to act" in b.text]
    assert calm.box("label", "prompt").text[0].startswith("Nobody is waited for")


@pytest.mark.parametrize("players", (3, 4, 5, 6))
def test_a_civilization_that_left_has_no_standings_and_its_token_is_out(players: int) -> None:
    picture = ending(players).draw()
    gone = str(players - 1)
    assert not picture.boxes("cell", f"{gone}:")
    assert picture.box("token", f"{gone}:command").text[0] == "Out of the game"
    assert "left the table" in picture.box("civ", gone).text[1]


@pytest.mark.parametrize("players", PLAYERS)
def test_the_set_up_shows_everyone_level_and_everyone_to_name(players: int) -> None:
    table = Table(players)
    picture = table.draw()
    assert [b.key for b in picture.boxes("civ") if "to act" in b.text] == [
        str(s) for s in range(players)
    ]
    for box in picture.boxes("cell"):
        assert box.text == ("0", "all tied")
    assert picture.box("label", "glance:when").text == ("Set-up",)
    assert not picture.boxes("label", "ready") and not picture.boxes("power")


def test_a_view_missing_its_keys_draws_dashes_not_errors() -> None:
    view = mid_era(4).view()
    for broken in (
        {},
        {"civs": [{}], "standings": {}},
        {**view, "standings": None, "reports": None},
        {**view, "civs": [{**c, "token": None} for c in view["civs"]]},
        {**view, "civs": [{"seat": 0, "token": {"status": "active"}}], "phase": "era"},
    ):
        picture = board(broken, (0,))
        assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height)


def test_long_names_are_cut_to_their_cell_and_a_power_is_told_whole() -> None:
    seats = [SeatSpec(seat=i, name=f"AVeryLongDiscordDisplayName{i}") for i in range(6)]
    table = Table(6)
    table.state = GAME.setup("6p", seats, {}, 0)
    long = ("Carthaginian Maritime Republic", "Θεσσαλονίκη", "Empire of the Rising Sun")
    for seat, name in enumerate((*long, "Persians", "Egyptians", "Maya")):
        table(seat, f"civ|{name}")
    table(0, "begin")(0, "territory|add|Gaul")(0, "level|military|12")
    table(0, "vouch|cubes|reserve|2")  # none reported there
    picture = table.draw()
    check_layout(picture, table.view(), table.to_act())
    first = picture.box("civ", "0")
    assert first.text[0].endswith("…") and first.text[1].endswith("…")
    assert first.w == CAT_X[0] - GAP - first.x
    power = " ".join(picture.box("power", "0").text)
    assert power == (
        "Carthaginian Maritime Republic: Cubes from the general supply "
        "(cube from the reserve, 2 cubes taken)"
    )
    assert picture.box("cube", "0:command").text == ("cube from the reserve",)


def test_the_winner_wears_the_crown() -> None:
    picture = over(4).draw()
    assert "won" in picture.box("civ", "1").text[1]
    assert picture.box("label", "glance:when").text == ("Game over",)


# ------------------------------------------------------------------ random playouts


@pytest.mark.parametrize("players", PLAYERS)
def test_random_matches_draw_their_view_throughout(players: int) -> None:
    """A few random matches per variant, driven as the playouts drive them (one in two
    with a concession): every few actions, in each phase and at the end, the picture
    decodes and says what the view says."""
    drawn: set[str] = set()  # the phases drawn
    for seed in SEEDS:
        chooser = random.Random(f"historia-picture:{players}:{seed}")
        state = new_match(players)
        done = 0
        leaves = chooser.randrange(40, 200) if seed % 2 == 0 else None  # a concession
        for _ in range(1500):
            if GAME.outcome(state) is not None:
                break
            if done == leaves:
                leaver = chooser.choice([c.seat for c in state.in_play()])
                state, _ = GAME.concede(state, leaver, rng_for(seed, done))
            else:
                seat, key = attempt(chooser, state)
                try:
                    state, _ = GAME.apply(state, seat, Action.from_key(key), rng_for(seed, done))
                except IllegalAction:
                    continue
            done += 1
            if done % EVERY == 0 or state.phase not in drawn:  # and each phase once at least
                drawn.add(state.phase)
                to_act = tuple(sorted(GAME.to_act(state)))
                view = GAME.view(state, None)
                check_layout(board(view, to_act), view, to_act)
        view, to_act = GAME.view(state, None), tuple(sorted(GAME.to_act(state)))
        check_layout(board(view, to_act), view, to_act)
    assert {"setup", "era", "dispute", "ending", "final", "over"} <= drawn, drawn


# ------------------------------------------------------------------ golden images


@pytest.mark.parametrize(
    ("name", "build", "players"),
    [
        ("mid-era-4", mid_era, 4),
        ("disputed-6", disputed, 6),
        ("ending-5", ending, 5),
        ("over-3", over, 3),
    ],
)
def test_golden(name: str, build: Any, players: int) -> None:
    assert_matches_golden(build(players).draw(), f"historia_command-{name}")
