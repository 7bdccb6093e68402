"""Command of Nature set-up ("How to Start"), in both modes."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.command_of_nature.cards import bundled_pack
from rules.command_of_nature.setup import (
    choose_sage,
    formation_options,
    sage_options,
    set_up_formation,
    setup_game,
)
from rules.command_of_nature.state import State
from rules.core import IllegalAction, rng_for

PACK = bundled_pack()


def set_up(variant: str, seed: int = 1, sages: tuple[str, ...] = ()) -> State:
    """Both sides through the Sage choice and their formations (first options each, or
    the `sages` given, in the order the players choose)."""
    names = ["Ann", "Ben", "Cid", "Dot"][: 2 if variant == "2p" else 4]
    state = setup_game(variant, names, PACK.name, rng_for(seed, 0))
    seq = 1
    wanted = list(sages)
    while state.phase in ("sage_choice", "formation"):
        (seat,) = state.frames[0].deciders
        if state.frames[0].kind == "sage":
            choose_sage(state, seat, wanted.pop(0) if wanted else sage_options(state)[0])
        else:
            left, right = formation_options(state, seat)[0]
            set_up_formation(state, seat, left, right, rng_for(seed, seq))
        seq += 1
    return state


def test_each_player_chooses_a_different_sage():
    """How to Start: "each player choose a Sage" — each Sage pack once."""
    state = setup_game("2p", ["Ann", "Ben"], PACK.name, rng_for(1, 0))
    (first,) = state.frames[0].deciders
    choose_sage(state, first, "cedar")
    (second,) = state.frames[0].deciders
    assert second != first and "cedar" not in sage_options(state)
    with pytest.raises(IllegalAction):
        choose_sage(state, second, "cedar")


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_formation_basics_front_sage_centre_of_row_three_with_two_warriors(variant: str):
    """Set-up: "add 1 into Row I and 2 into Row II ... your Sage ... in the center of Row
    III ... 2 of your Elemental Warriors ... to the left and right of your Sage"."""
    state = set_up(variant)
    for player in state.players:
        formation = state.side_of(player.seat).formation
        half = state.side_of(player.seat).seats.index(player.seat)
        mine = {
            pos: PACK.card(state.cards[formation.at(pos).card])  # type: ignore[union-attr]
            for pos in formation.occupied()
            if formation.half_of(pos) == half
        }
        kinds = {pos[0]: sorted(c.kind for p, c in mine.items() if p[0] == pos[0]) for pos in mine}
        assert kinds == {0: ["basic"], 1: ["basic", "basic"], 2: ["sage", "warrior", "warrior"]}
        centre = (2, half * 3 + 1)
        assert state.cards[formation.at(centre).card] == player.sage  # type: ignore[union-attr]


@pytest.mark.parametrize("variant", ["2p", "4p"])
def test_deck_hand_and_champions_after_set_up(variant: str):
    """Set-up: the remaining Warrior, the set-aside Basic and the 6 Commands are shuffled
    into the deck, 5 are drawn; the Champions wait face down at levels 4, 6 and 8."""
    state = set_up(variant)
    for player in state.players:
        assert len(player.hand) == 5 and len(player.deck) == 3
        held = Counter(PACK.card(state.cards[c]).kind for c in player.hand + player.deck)
        assert held == Counter({"command": 6, "basic": 1, "warrior": 1})
        assert sorted(player.champions) == [4, 6, 8]
        assert player.level == 1


@pytest.mark.parametrize(("variant", "gold"), [("2p", 3), ("4p", 4)])
def test_markets_open_and_the_second_side_starts_with_gold(variant: str, gold: int):
    """Set-up: 3 cards face up in each market; the first player starts with 0 gold, the
    second with 3 (four players: the second team with 4)."""
    state = set_up(variant)
    assert len(state.elementals.row) == 3 and len(state.commands.row) == 3
    assert len(state.elementals.deck) + 3 == len(PACK.elemental_market()) == 56
    assert len(state.commands.deck) + 3 == len(PACK.command_market()) == 85
    assert state.sides[state.start_team].gold == 0
    assert state.sides[1 - state.start_team].gold == gold
    assert state.phase == "daybreak" and state.turn == 1


def test_every_card_of_the_box_in_play_is_in_exactly_one_place():
    state = set_up("4p")
    places: list[int] = list(state.removed)
    for player in state.players:
        places += player.hand + player.deck + player.discard + list(player.champions.values())
    for side in state.sides:
        places += [side.formation.at(p).card for p in side.formation.occupied()]  # type: ignore[union-attr]
    for market in (state.elementals, state.commands):
        places += market.deck + market.row
    assert sorted(places) == list(range(len(state.cards)))


def test_the_warriors_beside_the_sage_are_a_choice():
    state = setup_game("2p", ["Ann", "Ben"], PACK.name, rng_for(1, 0))
    for _ in range(2):
        choose_sage(state, state.frames[0].deciders[0], sage_options(state)[0])
    (seat,) = state.frames[0].deciders
    options = formation_options(state, seat)
    assert len(options) == 6  # which two of three Warriors, and which side each stands
    with pytest.raises(IllegalAction):
        set_up_formation(state, seat, options[0][0], options[0][0], rng_for(1, 3))
