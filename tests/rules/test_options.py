"""Game options: what a declaration may hold, and the value each option takes in a match
(`resolve_options`), with the sentences players read for an option or value that
doesn't exist."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import pytest

from rules.core import (
    MAX_OPTIONS,
    OptionError,
    OptionInfo,
    VariantInfo,
    check_options,
    declare_options,
    find_choice,
    find_option,
    resolve_options,
)
from rules.registry import GAMES

LEADERS = OptionInfo(
    id="leaders",
    label="Leaders",
    choices={"on": "Leaders on", "off": "Leaders off"},
    default="off",
    variant_defaults={"solo": "on"},
    blurb="each player starts with a leader",
)
CARDS = OptionInfo(
    id="cards",
    label="Cards",
    choices={"mixed": "Base and Nemesis cards", "nemesis": "Nemesis cards only"},
    default="mixed",
)


class Vale:
    """Just what the option helpers read of a game."""

    id: ClassVar[str] = "vale"
    name: ClassVar[str] = "Vale"
    variants: ClassVar[dict[str, VariantInfo]] = {
        "duel": VariantInfo(id="duel", name="Duel", min_players=2, max_players=2),
        "solo": VariantInfo(id="solo", name="Solo", min_players=1, max_players=1),
    }
    options: ClassVar[dict[str, OptionInfo]] = declare_options(LEADERS, CARDS, variants=variants)


GAME: Any = Vale()


def info(**changes: Any) -> OptionInfo:
    """LEADERS with some fields changed (validated again)."""
    return OptionInfo(**{**LEADERS.model_dump(), **changes})


# ---------------------------------------------------------------- resolve_options


def test_every_option_takes_the_chosen_value_else_the_variants_default_else_the_default() -> None:
    assert resolve_options(GAME, "duel", {}) == {"leaders": "off", "cards": "mixed"}
    assert resolve_options(GAME, "solo", {}) == {"leaders": "on", "cards": "mixed"}
    chosen = {"leaders": "off", "cards": "nemesis"}
    assert resolve_options(GAME, "solo", chosen) == chosen
    assert list(resolve_options(GAME, "duel", {"cards": "nemesis", "leaders": "on"})) == [
        "leaders",
        "cards",
    ]  # the game's order


def test_the_card_pack_passes_beside_the_options_and_is_left_out() -> None:
    options = {"pack": "house rules", "leaders": "on"}
    assert resolve_options(GAME, "duel", options) == {"leaders": "on", "cards": "mixed"}
    # Its own output, with the pack added back, resolves to itself: a setup may resolve
    # what the service passed it.
    again = {**resolve_options(GAME, "duel", options), "pack": "house rules"}
    assert resolve_options(GAME, "duel", again) == {"leaders": "on", "cards": "mixed"}


def test_an_unknown_option_or_value_is_refused_with_what_exists() -> None:
    with pytest.raises(OptionError) as unknown:
        resolve_options(GAME, "duel", {"speed": "fast"})
    assert unknown.value.message == (
        "Vale has no option `speed`. Its options: `leaders` (Leaders), `cards` (Cards)."
    )
    with pytest.raises(OptionError) as value:
        resolve_options(GAME, "duel", {"leaders": "maybe"})
    assert value.value.message == (
        "Leaders has no choice `maybe`. Its choices: `on` (Leaders on), `off` (Leaders off)."
    )
    with pytest.raises(OptionError, match="no choice `True`"):
        resolve_options(GAME, "duel", {"leaders": True})  # values are strings
    assert isinstance(value.value, ValueError)


def test_a_game_without_options_resolves_to_none_and_says_so() -> None:
    without = [game for game in GAMES.values() if not game.options]
    assert {g.id for g in without} >= {"tooth-and-nail", "command-of-nature"}
    for game in without:
        assert resolve_options(game, next(iter(game.variants)), {"pack": "x"}) == {}
        with pytest.raises(OptionError) as refused:
            find_option(game, "leaders")
        assert refused.value.message == f"{game.name} has no options to choose."


def test_typed_names_find_options_and_choices_by_id_or_label_in_any_case() -> None:
    assert find_option(GAME, " LEADERS ") is LEADERS
    assert find_option(GAME, "cards") is CARDS
    assert find_choice(CARDS, "nemesis cards only") == "nemesis"
    assert find_choice(LEADERS, "On") == "on"
    with pytest.raises(OptionError, match=r"^Vale has no option `lead`\."):
        find_option(GAME, "lead")
    with pytest.raises(OptionError, match=r"^Cards has no choice `base`\. Its choices: "):
        find_choice(CARDS, "base")
    with pytest.raises(OptionError, match="`" + "x" * 39 + "…`"):
        find_option(GAME, "x" * 80)  # a long typed text is quoted short


# ---------------------------------------------------------------- declarations


@pytest.mark.parametrize(
    ("changes", "complaint"),
    [
        ({"default": "maybe"}, "the default, 'maybe', is not one of its choices"),
        ({"variant_defaults": {"solo": "x"}}, "the default of variant 'solo', 'x'"),
        ({"id": "Leaders"}, "an id is 1 to 32 lower-case letters"),
        ({"id": "a:b"}, "an id is 1 to 32 lower-case letters"),
        ({"id": "pack"}, "not 'pack' (the card pack's entry)"),
        ({"label": " "}, "its label must be 1 to 100 characters"),
        ({"choices": {"off": "Off"}, "default": "off"}, "it needs 2 to 25 choices"),
        ({"choices": {str(n): f"{n}" for n in range(26)}, "default": "0"}, "2 to 25 choices"),
        ({"choices": {"on": "On", " off": "Off"}, "default": "on"}, "empty, padded or too long"),
        ({"choices": {"on": "On", "off": ""}, "default": "on"}, "the label of 'off' is empty"),
    ],
)
def test_a_declaration_the_lobby_cannot_show_is_refused_when_built(
    changes: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(complaint)):
        info(**{"variant_defaults": {}, **changes})


def test_a_game_with_more_option_menus_than_discord_shows_fails_at_import() -> None:
    five = [info(id=f"o{n}", variant_defaults={}) for n in range(MAX_OPTIONS + 1)]
    with pytest.raises(ValueError, match="5 options declared: a lobby shows at most 4"):

        class TooMany:  # evaluating the class body is what importing its module does
            options: ClassVar[dict[str, OptionInfo]] = declare_options(*five)

    assert list(declare_options(*five[:MAX_OPTIONS])) == ["o0", "o1", "o2", "o3"]
    with pytest.raises(ValueError, match="two options are called 'leaders'"):
        declare_options(LEADERS, LEADERS)
    with pytest.raises(ValueError, match="a default for unknown variant 'solo'"):
        declare_options(LEADERS, variants=["duel"])


def test_the_service_check_catches_a_declaration_made_without_the_helper() -> None:
    for game in GAMES.values():
        check_options(game)
    check_options(GAME)

    class Literal(Vale):
        options: ClassVar[dict[str, OptionInfo]] = {
            f"o{n}": info(id=f"o{n}", variant_defaults={}) for n in range(5)
        }

    with pytest.raises(ValueError, match=r"^vale: 5 options declared"):
        check_options(Literal())

    class Misfiled(Vale):
        options: ClassVar[dict[str, OptionInfo]] = {"leader": LEADERS}

    with pytest.raises(ValueError, match="option 'leaders' is listed under 'leader'"):
        check_options(Misfiled())

    class Unknown(Vale):
        variants: ClassVar[dict[str, VariantInfo]] = {"duel": Vale.variants["duel"]}

    with pytest.raises(ValueError, match="unknown variant 'solo'"):
        check_options(Unknown())


def test_an_option_is_frozen_and_reads_its_default_per_variant() -> None:
    assert LEADERS.default_for("solo") == "on"
    assert LEADERS.default_for("duel") == "off"
    assert LEADERS.default_for("no such variant") == "off"
    with pytest.raises(ValueError):
        LEADERS.default = "on"  # type: ignore[misc]
