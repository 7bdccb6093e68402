"""Mystic Vale's judge counts the turns the rulebook gives each player."""

from __future__ import annotations

from ai.mystic_vale import Deck, turns_left
from rules.core import SeatSpec
from rules.mystic_vale import State
from rules.registry import GAMES


def four_players(first: int, active: int) -> State:
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(4)]
    state = GAMES["mystic-vale"].setup("4p", seats, {}, 7)
    assert isinstance(state, State)
    return state.model_copy(update={"first": first, "active": active, "phase": "planting"})


def test_the_last_round_is_finished_so_seats_after_the_active_one_still_play() -> None:
    """4.1: once the VP pool is empty the round is played out, so every seat between the
    active player and the first player gets one more turn; the others none."""
    state = four_players(first=2, active=3).model_copy(update={"last_round": True})
    decks = [Deck(state, s) for s in range(4)]
    # The round goes 2, 3, 0, 1: seat 3 is playing, seats 0 and 1 are still to come.
    assert [turns_left(state, decks, s) for s in range(4)] == [1.0, 1.0, 0.0, 0.0]


def test_before_the_last_round_every_player_has_the_same_turns_left() -> None:
    state = four_players(first=0, active=1)
    decks = [Deck(state, s) for s in range(4)]
    turns = {turns_left(state, decks, s) for s in range(4)}
    assert len(turns) == 1
    assert turns.pop() > 1.0


def test_no_turns_are_left_once_the_game_is_being_scored() -> None:
    state = four_players(first=0, active=1).model_copy(update={"phase": "final"})
    decks = [Deck(state, s) for s in range(4)]
    assert [turns_left(state, decks, s) for s in range(4)] == [0.0] * 4
