"""Mystic Vale's judge counts the turns the rulebook gives each player, and a Harvest
is spent as a person would spend it: the playout buys what the evaluation values, and
far ahead or behind the points still count. The positions in `positions/` are saved
states where an earlier AI ended its Harvest with its mana unspent."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ai
from ai import Budget, Level
from ai.judges import SHORTLIST
from ai.mystic_vale import MARGIN_TURNS, Deck, MysticValeJudge, _standings, turns_left
from rules.core import Action, SeatSpec
from rules.mystic_vale import State
from rules.mystic_vale.symbols import advancement_of
from rules.registry import GAMES

GAME = GAMES["mystic-vale"]


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


POSITIONS = Path(__file__).parent / "positions"
SMALL = Budget(playouts=200, worlds=4, per_choice=12)  # no time limit: decisions repeat


def position(name: str) -> tuple[State, int]:
    state = GAME.state_model.model_validate_json((POSITIONS / name).read_text())
    assert isinstance(state, State)
    return state, sorted(GAME.to_act(state))[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ai_spends_its_harvest_instead_of_ending_it_with_mana_unspent(seed: int) -> None:
    """mv-2p-harvest-unspent: it ended its Harvest with 28 mana unspent, every first buy
    scoring below ending because the playout bought cards the evaluation marked down."""
    state, seat = position("mv-2p-harvest-unspent.json")
    action = ai.decide(GAME, state, seat, Level.STRONG, seed=seed, budget=SMALL)
    assert action.kind in ("vale", "buy"), action.key


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_far_ahead_the_ai_still_buys_a_card_that_brings_points(seed: int) -> None:
    """mv-2p-harvest-far-ahead: far ahead (a win chance about 0.98) with 35 mana, it
    ended its Harvest although Starfall Cathedral (3 sky, 1 VP, no decay) was there."""
    state, seat = position("mv-2p-harvest-far-ahead.json")
    action = ai.decide(GAME, state, seat, Level.STRONG, seed=seed, budget=SMALL)
    assert action.kind == "buy", action.key


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_push_that_may_spoil_for_nothing_is_not_made(seed: int) -> None:
    """mv-2p-push-for-nothing: far behind, with 15 cards in the field and nothing in the
    commons it would buy, it pushed into a 3-in-4 chance to Spoil, turn after turn: the
    Harvest and the Spoil judged alike, and the tie went to the push."""
    state, seat = position("mv-2p-push-for-nothing.json")
    assert ai.decide(GAME, state, seat, Level.STRONG, seed=seed, budget=SMALL).kind == "stop"


def test_a_playout_buys_only_what_raises_the_evaluation_best_first() -> None:
    judge = MysticValeJudge()
    for name in ("mv-2p-harvest-unspent.json", "mv-2p-harvest-far-ahead.json"):
        state, seat = position(name)
        hunch = judge.hunch(GAME, state, seat, random.Random(0))
        assert hunch is not None and hunch[-1] == Action(kind="done")
        now = judge.score(state, seat)
        gains = []
        for action in hunch[:-1]:
            after, _ = GAME.apply(state, seat, action, random.Random(0))
            gains.append(judge.score(after, seat) - now)
        assert gains and all(g > 0 for g in gains), (name, gains)
        vales = sum(a.kind == "vale" for a in hunch)
        # Vales first (none can be bought after an advancement), each kind best first.
        assert gains[:vales] == sorted(gains[:vales], reverse=True)
        assert gains[vales:] == sorted(gains[vales:], reverse=True)


def test_a_playout_answers_an_ability_with_the_choice_the_evaluation_values_most() -> None:
    """Wayfarer Cairn, bought, lets its buyer take a card for free: the playout takes the
    one that raises the evaluation most, not one at random."""
    judge = MysticValeJudge()
    state, seat = position("mv-2p-harvest-far-ahead.json")
    cairn = next(a for a in GAME.legal_actions(state, seat) if a.key == "buy|67")
    state, _ = GAME.apply(state, seat, cairn, random.Random(0))
    assert isinstance(state, State) and state.frames
    legal = GAME.legal_actions(state, seat)
    hunch = judge.hunch(GAME, state, seat, random.Random(0))
    assert hunch is not None and sorted(a.key for a in hunch) == sorted(a.key for a in legal)

    def worth(action: Action) -> float:
        after, _ = GAME.apply(state, seat, action, random.Random(0))
        return judge.score(after, seat)

    assert worth(hunch[0]) == max(worth(a) for a in legal)


def test_far_ahead_a_bigger_lead_still_counts_for_more() -> None:
    """Where the win chance has saturated, the lead still orders positions: the AI plays
    for points when far ahead or far behind (VP tokens given to one side or the other)."""
    state, seat = position("mv-2p-harvest-far-ahead.json")
    judge = MysticValeJudge()
    values = []
    for tokens in (-160, -150, 70, 80):  # it leads by about 30 as saved
        given = state.model_copy(deep=True)
        gets = seat if tokens > 0 else 1 - seat
        given.players[gets].vp += abs(tokens)
        values.append(judge.value(GAME, given, seat))
    assert values[1] - values[0] > 1e-3 and values[3] - values[2] > 1e-3
    assert values[0] < 0.06 and values[3] > 0.94  # still a chance to win, mostly


def test_far_ahead_the_points_count_by_the_next_turn_not_by_putting_the_end_off() -> None:
    """Far ahead with the better deck, a card with a VP symbol takes the pool down faster
    and shortens the game; the lead over the whole game ahead would count that against
    it, so the margin counts the next turn only, where the card brings points."""
    state, seat = position("mv-2p-harvest-far-ahead.json")
    judge = MysticValeJudge()
    parts = _standings(state)
    cathedral = next(
        a
        for a in GAME.legal_actions(state, seat)
        if a.kind == "buy" and advancement_of(state, int(a.args[0])).name == "Starfall Cathedral"
    )
    card = advancement_of(state, int(cathedral.args[0]))
    deck, points = parts[seat]
    bought = {**parts, seat: (deck.with_bought(state.pack, card), points)}
    assert card.symbols.vp > 0 and card.symbols.decay == 0
    assert judge._lead(state, seat, bought, MARGIN_TURNS) > judge._lead(
        state, seat, parts, MARGIN_TURNS
    )
    assert judge._judged(state, seat, bought) > judge._judged(state, seat, parts)


def test_the_shortlist_searches_every_buy_and_vale() -> None:
    judge = MysticValeJudge()
    state, seat = position("mv-2p-harvest-unspent.json")
    legal = GAME.legal_actions(state, seat)
    assert len(legal) > SHORTLIST
    kept = judge.shortlist(GAME, state, seat, legal)
    assert {a.key for a in legal if a.kind in ("buy", "vale")} <= {a.key for a in kept}
