"""Command of Nature's phases, standard actions, markets, clean-up and levels."""

from __future__ import annotations

import pytest

from rules.command_of_nature import GAME, table, turn
from rules.command_of_nature.formation import Elemental
from rules.command_of_nature.setup import card_of
from rules.command_of_nature.state import State
from rules.core import Action, IllegalAction, rng_for
from tests.rules.test_command_of_nature_setup import PACK, set_up


def first_seat(state: State) -> int:
    return state.sides[state.active].seats[0]


def in_phase(phase: str, variant: str = "2p", sages: tuple[str, ...] = ()) -> tuple[State, int]:
    """The first side's turn, in `phase` (its first seat chose the first of `sages`)."""
    state = set_up(variant, sages=sages)
    turn.begin_turn(state)
    seat = first_seat(state)
    if phase in ("actions", "market", "cleanup") and state.phase == "daybreak":
        turn.go_to_actions(state, seat)
    if phase in ("market", "cleanup"):
        turn.go_to_market(state, seat)
    if phase == "cleanup":
        turn.go_to_cleanup(state, seat)
    return state, seat


@pytest.mark.parametrize(("variant", "ap"), [("2p", 4), ("4p", 6)])
def test_phase_two_gives_four_ap_or_six_for_a_team(variant: str, ap: int):
    """Phase II: "You can spend up to 4 AP" — a team: "a combined 6 AP"."""
    state, _ = in_phase("actions", variant)
    assert state.sides[state.active].ap == ap


def test_unspent_ap_do_not_roll_over():
    """Phase II: "Unspent AP do not roll over to your next turn"."""
    state, _seat = in_phase("market")
    assert state.sides[state.active].ap == 0


def test_only_the_side_whose_turn_it_is_acts():
    state, _seat = in_phase("actions")
    other = state.sides[1 - state.active].seats[0]
    with pytest.raises(IllegalAction, match="isn't your side's turn"):
        turn.draw_action(state, other, rng_for(1, 1))


def test_drawing_costs_one_ap_and_reshuffles_the_discard_pile_when_the_deck_is_empty():
    """Standard actions: draw a card; "If ... there are no remaining cards in your deck,
    shuffle your discard pile ... then draw a card"."""
    state, seat = in_phase("actions")
    player = state.players[seat]
    player.discard, player.deck = player.deck, []
    events = turn.draw_action(state, seat, rng_for(1, 2))
    assert state.sides[state.active].ap == 3
    assert len(player.hand) == 6 and len(player.deck) == 2 and player.discard == []
    assert events[0].text.endswith("shuffles their discard pile into a new deck.")


def test_a_summon_goes_into_the_frontmost_row_with_space_for_one_ap():
    """Standard actions: summon "only ... if there is an empty space"; "place it in the
    frontmost row that has an empty space"."""
    state, seat = in_phase("actions")
    player = state.players[seat]
    formation = state.sides[state.active].formation
    formation.put((0, 0), None)  # Row I is empty now
    elemental = next(
        c for c in player.deck + player.hand if card_of(state, c).kind in ("basic", "warrior")
    )
    if elemental in player.deck:
        player.deck.remove(elemental)
        player.hand.append(elemental)
    card_id = state.cards[elemental]
    with pytest.raises(IllegalAction, match="frontmost"):
        turn.summon(state, seat, card_id, (2, 0))
    turn.summon(state, seat, card_id, (0, 0))
    assert formation.at((0, 0)).card == elemental  # type: ignore[union-attr]
    assert state.sides[state.active].ap == 3


def test_only_connected_elementals_swap():
    """Standard actions: "Swap the positions of 2 connected Elementals"."""
    state, seat = in_phase("actions")
    formation = state.sides[state.active].formation
    front, behind = formation.at((1, 1)), formation.at((2, 1))  # Timber and the Sage
    turn.swap_elementals(state, seat, (1, 1), (2, 1))
    assert formation.at((1, 1)) == behind and formation.at((2, 1)) == front
    with pytest.raises(IllegalAction, match="connected"):
        turn.swap_elementals(state, seat, (0, 0), (2, 2))


def test_buying_pays_the_cost_and_the_market_refills_at_once():
    """Phase III, Buy: pay its cost, add it to your discard pile; "immediately fill the
    empty space with the top card from that market's deck"."""
    state, seat = in_phase("market")
    side = state.sides[state.active]
    side.gold = 12
    card = state.commands.row[0]
    price = card_of(state, card).cost
    turn.buy(state, seat, "commands", state.cards[card], None)
    assert side.gold == 12 - price and state.players[seat].discard[-1] == card
    assert len(state.commands.row) == 3


def test_an_elemental_bought_into_the_formation_costs_two_more():
    """Phase III, Buy: "you may spend 2 additional gold to bring it directly into your
    formation if you have an empty space"."""
    state, seat = in_phase("market")
    side = state.sides[state.active]
    side.gold = 12
    side.formation.put((0, 0), None)
    card = state.elementals.row[0]
    price = card_of(state, card).cost + 2
    turn.buy(state, seat, "elementals", state.cards[card], (0, 0))
    assert side.gold == 12 - price and side.formation.at((0, 0)).card == card  # type: ignore[union-attr]


def test_buying_needs_the_gold():
    state, seat = in_phase("market")
    state.sides[state.active].gold = 0
    card = state.cards[state.commands.row[0]]
    with pytest.raises(IllegalAction, match="gold"):
        turn.buy(state, seat, "commands", card, None)


def test_selling_gives_half_the_cost_rounded_up_and_sage_pack_cards_one():
    """Phase III, Sell: "collect gold equal to half that card's cost (rounded up)" and 1
    for a Sage-pack card; sold cards leave the game."""
    state, seat = in_phase("market")
    side = state.sides[state.active]
    side.gold = 0
    starter = state.players[seat].hand[0]
    turn.sell(state, seat, state.cards[starter])
    assert side.gold == 1 and starter in state.removed
    bought = state.commands.row[0]
    state.commands.row.remove(bought)
    state.players[seat].hand.append(bought)
    turn.sell(state, seat, state.cards[bought])
    assert side.gold == 1 + (card_of(state, bought).cost + 1) // 2


@pytest.mark.parametrize(("variant", "cap"), [("2p", 12), ("4p", 20)])
def test_gold_never_goes_above_the_cap(variant: str, cap: int):
    """Phase III: "You cannot have more than 12 gold" (a team: 20)."""
    state, seat = in_phase("market", variant)
    side = state.sides[state.active]
    side.gold = cap
    turn.sell(state, seat, state.cards[state.players[seat].hand[0]])
    assert side.gold == cap


def test_refreshing_a_market_costs_one_gold_and_turns_up_three_new_cards():
    """Phase III, Refresh: "spend 1 gold to move all available cards ... to the bottom
    of that market's deck, then flip the top 3 cards"."""
    state, seat = in_phase("market")
    state.sides[state.active].gold = 1
    old = list(state.elementals.row)
    turn.refresh(state, seat, "elementals")
    assert state.sides[state.active].gold == 0
    assert set(state.elementals.row).isdisjoint(old) and state.elementals.deck[:3] == old[::-1]


def test_clean_up_discards_down_to_five_then_draws_up_to_five():
    """Phase IV: discard any number, then draw until 5; above 5 you must discard."""
    state, seat = in_phase("cleanup")
    player = state.players[seat]
    player.hand.append(player.deck.pop())
    with pytest.raises(IllegalAction, match="Discard down"):
        turn.finish_cleanup(state, seat, rng_for(1, 9))
    turn.cleanup_discard(state, seat, state.cards[player.hand[0]])
    turn.cleanup_discard(state, seat, state.cards[player.hand[0]])
    turn.finish_cleanup(state, seat, rng_for(1, 9))
    assert len(player.hand) == 5


def test_levels_unlock_champions_into_the_discard_pile_at_four_six_and_eight():
    """Sage Boards: each defeat raises the level by 1; at 4, 6 and 8 the Champion moves
    to the top of the discard pile; 8 is the maximum."""
    state, seat = in_phase("actions")
    player = state.players[seat]
    champions = dict(player.champions)
    for _ in range(3):
        table.level_up(state, seat)
    assert player.level == 4 and player.discard[-1] == champions[4]
    for _ in range(6):
        table.level_up(state, seat)
    assert player.level == 8 and player.champions == {}
    assert [c for c in player.discard if c in champions.values()] == [
        champions[4],
        champions[6],
        champions[8],
    ]
    assert table.level_up(state, seat) == []


def test_a_player_whose_sage_fell_gains_no_levels():
    """4 players: "you cannot use any faction actions or increase your level"."""
    state, seat = in_phase("actions", "4p")
    state.players[seat].sage_defeated = True
    assert table.level_up(state, seat) == [] and state.players[seat].level == 1


def test_the_turn_passes_to_the_other_side():
    state, _ = in_phase("cleanup")
    first = state.active
    turn.end_turn(state)
    assert state.active == 1 - first and state.phase == "daybreak" and state.turn == 2


def test_pack_is_the_bundled_one():
    assert PACK.name and len(PACK.sages()) == 4


@pytest.mark.parametrize(
    "key",
    [
        "swap|-1.0|0.0",  # Row "-1" would be Row III counted from the back
        "swap|2.-1|2.0",  # space "-1" would be the far end of Row III
        "swap|3.0|0.0",  # there is no Row IV
        "swap|0.0|0.5",  # Row I has one space
        "attack|close-strike|0.0|5.0",
        "attack|close-strike|0.0|0.0+",
        "summon|timber|1.99999999999999999999",
        "buy|elementals|timber|x.y",
    ],
)
def test_positions_outside_the_formation_are_refused_and_change_nothing(key: str):
    """A formation has three rows of 1, 2 and 3 spaces (a team: 2, 4, 6): any other
    space in an action is refused as not being one, whatever the phase."""
    state, seat = in_phase("actions")
    before = state.model_dump_json()
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, Action.from_key(key), rng_for(1, 1))
    assert state.model_dump_json() == before


# --------------------------------------------------------------------------- no ceremony


def keys(state: State, seat: int) -> set[str]:
    return {a.key for a in GAME.legal_actions(state, seat)}


def act(state: State, seat: int, key: str) -> tuple[State, list[str]]:
    after, events = GAME.apply(state, seat, Action.from_key(key), rng_for(1, 9))
    return after, [e.text for e in events]


@pytest.mark.parametrize("phase", ["daybreak", "actions", "market"])
def test_end_turn_from_any_phase_passes_the_rest_and_cleans_up(phase: str):
    """Phase II: "Unspent AP do not roll over"; Phase I: a daybreak effect not used is
    lost; Phase IV: draw until you have 5. End turn takes all of it in one decision, and
    the other side's turn begins."""
    state, seat = in_phase(phase, sages=("cedar",))
    assert state.phase == phase and len(state.players[seat].hand) == 5
    after, told = act(state, seat, "end")
    name = state.players[seat].name
    assert told[:2] == [f"{name} ends the turn.", f"{name} finishes cleaning up."]
    assert after.active == 1 - state.active and after.turn == state.turn + 1
    assert len(after.players[seat].hand) == 5 and after.sides[state.active].ap == 0


def test_end_turn_above_five_cards_names_exactly_the_cards_discarded():
    """Phase IV: "If you have more than 5 cards ... you must discard cards until you have
    no more than 5": End turn with 7 cards names the 2 discarded, once per set of cards."""
    state, seat = in_phase("actions")
    player = state.players[seat]
    player.hand += [player.deck.pop(), player.deck.pop()]
    offered = sorted(k for k in keys(state, seat) if k.startswith("end"))
    hand = sorted(state.cards[c] for c in player.hand)
    assert "end" not in offered and len(offered) == len({(a, b) for a, b in _pairs(hand)})
    for bad in ("end", f"end|{hand[0]}", f"end|{hand[2]}+{hand[1]}", "end|sootstripe+timber"):
        if bad not in offered:
            with pytest.raises(IllegalAction):
                act(state, seat, bad)
    chosen = offered[0]
    after, told = act(state, seat, chosen)
    gone = chosen.split("|")[1].split("+")
    assert [after.cards[c] for c in after.players[seat].discard[-2:]] == gone
    assert len(after.players[seat].hand) == 5 and after.active == 1 - state.active
    assert any(line.startswith(f"{player.name} discards ") for line in told)


def _pairs(hand: list[str]) -> list[tuple[str, str]]:
    return [(hand[i], hand[j]) for i in range(len(hand)) for j in range(i + 1, len(hand))]


def test_a_phase_two_action_is_offered_in_phase_one_and_moves_on():
    """Phase I: "If you continue to Phase II without using a daybreak effect, you may not
    use it later": a Phase II action taken in Phase I moves on first, and says so."""
    state, seat = in_phase("daybreak", sages=("cedar",))
    assert state.phase == "daybreak" and state.sides[state.active].daybreak
    assert "draw" in keys(state, seat)
    assert not any(k.startswith(("buy|", "sell|")) for k in keys(state, seat))
    assert GAME.explain(Action(kind="draw"), state, seat).startswith(
        "Ends Phase I (1 daybreak effect unused) · 1 AP"
    )
    after, told = act(state, seat, "draw")
    name = state.players[seat].name
    assert after.phase == "actions" and after.sides[state.active].daybreak == []
    assert told[0] == f"{name} moves on to Phase II." and after.sides[state.active].ap == 3


def test_buying_is_offered_in_phase_two_and_its_unspent_ap_are_lost():
    """Phase II: "Unspent AP do not roll over": a buy taken in Phase II ends it."""
    state, seat = in_phase("actions")
    side = state.sides[state.active]
    side.gold = 12
    card = state.cards[state.commands.row[0]]
    key = f"buy|commands|{card}"
    assert key in keys(state, seat) and f"sell|{state.cards[state.players[seat].hand[0]]}" in (
        keys(state, seat)
    )
    assert GAME.explain(Action.from_key(key), state, seat).startswith("Ends Phase II (4 AP unused)")
    after, told = act(state, seat, key)
    assert after.phase == "market" and after.sides[state.active].ap == 0
    assert told[0].endswith("moves on to Phase III.") and "buys" in told[1]


def test_phase_one_ends_by_itself_once_its_last_daybreak_effect_is_used():
    """Nothing is left to do in Phase I once every daybreak effect was used: no "go on to
    Phase II" is asked."""
    state, seat = in_phase("daybreak", sages=("cedar",))
    (card,) = state.sides[state.active].daybreak
    after, told = act(state, seat, f"daybreak|{card}")
    assert after.phase == "actions" and told[-1].endswith("Phase II begins.")


def test_a_clock_running_out_in_ones_turn_ends_it_in_one_decision():
    """What the game does for a seat that timed out in its turn: End turn (the first
    cards above 5 discarded), not one phase per deadline."""
    state, seat = in_phase("actions")
    assert GAME.timeout_action(state, seat).key == "end"
    player = state.players[seat]
    player.hand.append(player.deck.pop())
    assert GAME.timeout_action(state, seat).key.startswith("end|")


def test_in_a_team_end_turn_leaves_the_partner_their_own_clean_up():
    """4 players: each player cleans up their own hand; the team's turn passes once both
    have."""
    state, seat = in_phase("actions", "4p")
    partner = next(s for s in state.sides[state.active].seats if s != seat)
    after, _ = act(state, seat, "end")
    assert after.phase == "cleanup" and GAME.to_act(after) == {partner}
    assert "end" not in keys(after, partner) and "done" in keys(after, partner)
    final, _ = act(after, partner, "done")
    assert final.active == 1 - state.active


def _twins(state: State, card_id: str, spaces: list[tuple[int, int]]) -> None:
    """Put Elementals of one card, alike in every token, at `spaces` of the active side."""
    formation = state.sides[state.active].formation
    owner = first_seat(state)
    for pos in spaces:
        state.cards.append(card_id)
        formation.put(pos, Elemental(card=len(state.cards) - 1, owner=owner))


def _swaps(state: State, seat: int) -> set[str]:
    return {a.key for a in GAME.legal_actions(state, seat) if a.kind == "swap"}


def test_swapping_two_alike_elementals_that_would_change_nothing_is_not_offered():
    """Standard actions: swap 2 connected Elementals. Two of one card with the same
    tokens trading places, where no effect is set off, changes nothing but the AP: it is
    not offered, and asked for it is refused in words."""
    state, seat = in_phase("actions")
    _twins(state, "cobble", [(1, 0), (1, 1), (2, 0)])
    swaps = _swaps(state, seat)
    assert "swap|1.0|1.1" not in swaps  # one row
    assert "swap|1.0|2.0" not in swaps  # two rows, nothing enters_row
    with pytest.raises(IllegalAction, match="alike"):
        GAME.apply(state, seat, Action(kind="swap", args=("1.0", "1.1")), rng_for(1, 1))


def test_swapping_alike_elementals_is_offered_when_it_matters():
    """A swap of two alike Elementals is offered when one has attacked this turn (the
    other could attack from its space) or when entering a row sets an effect off."""
    state, seat = in_phase("actions")
    _twins(state, "cobble", [(1, 0), (1, 1)])
    side = state.sides[state.active]
    side.attacked.append(side.formation.at((1, 0)).card)  # type: ignore[union-attr]
    assert "swap|1.0|1.1" in _swaps(state, seat)
    state, seat = in_phase("actions")
    _twins(state, "riptide-tiger", [(0, 0), (1, 0)])  # entering Row I: draw 1
    assert "swap|0.0|1.0" in _swaps(state, seat)
