"""A turn of Command of Nature: Phase I (daybreak), Phase II (actions), Phase III (the
markets) and Phase IV (clean up), and the standard actions that need no card effect.

Card effects (daybreak and triggered effects, Commands, faction actions) resolve in
`effects.py`; this module moves cards, gold and Action Points as the rulebook says.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from rules.command_of_nature.cards import CommandCard, ElementalCard
from rules.command_of_nature.formation import Elemental, Pos, connected, summon_spaces
from rules.command_of_nature.setup import HAND_SIZE, Events, _ev, card_of, draw
from rules.command_of_nature.state import Market, Side, State
from rules.command_of_nature.table import (
    TURN_PHASES,
    active_side,
    entered,
    hand_card,
    in_required_row,
    require_phase,
    swap_cards,
)
from rules.core import IllegalAction
from rules.core.contract import fresh_copy
from rules.core.text import listed

MARKET_SIZE = 3
INTO_FORMATION_GOLD = 2  # bought Elementals may go straight into an empty space
REFRESH_GOLD = 1


def _name(state: State, seat: int) -> str:
    return state.players[seat].name


# --------------------------------------------------------------------------- the turn


def begin_turn(state: State) -> Events:
    """A side's turn begins: its Action Points are set and Phase I opens."""
    side = active_side(state)
    side.ap = state.limits["ap"]
    side.attacked = []
    side.daybreak = daybreak_ready(state)
    for seat in side.seats:
        state.players[seat].faction_action_used = False
    state.phase = "daybreak"
    names = " & ".join(_name(state, s) for s in side.seats)
    events = [_ev("turn", f"Turn {state.turn}: {names}.")]
    return events + daybreak_over(
        state, "No Elemental stands ready with a daybreak effect: Phase II begins."
    )


def daybreak_over(state: State, why: str = "No daybreak effect is left to use") -> Events:
    """Phase I ends by itself once no daybreak effect is left to use (nothing else is done
    in it: no decision to wait for)."""
    usable = [c for c in active_side(state).daybreak if in_required_row(state, c)]
    if state.phase != "daybreak" or state.frames or state.queue or usable:
        return []
    active_side(state).daybreak = []  # any left stand outside their rows now
    state.phase = "actions"
    text = why if why.endswith(".") else f"{why}: Phase II begins."
    return [_ev("phase", text)]


def daybreak_ready(state: State) -> list[int]:
    """Phase I: the Elementals with a daybreak effect standing in one of its rows as the
    turn begins; each may use it once this turn."""
    formation = active_side(state).formation
    ready = []
    for pos in formation.occupied():
        elemental = formation.at(pos)
        assert elemental is not None
        definition = card_of(state, elemental.card)
        if (
            isinstance(definition, ElementalCard)
            and definition.daybreak
            and pos[0] + 1 in definition.rows
        ):
            ready.append(elemental.card)
    return ready


def go_to_actions(state: State, seat: int) -> Events:
    """Phase II: daybreak effects not used by now are lost for this turn."""
    require_phase(state, seat, "daybreak")
    state.phase = "actions"
    active_side(state).daybreak = []
    return [_ev("phase", f"{_name(state, seat)} moves on to Phase II.", seat)]


def go_to_market(state: State, seat: int) -> Events:
    """Phase III: unspent Action Points do not roll over."""
    side = require_phase(state, seat, "actions")
    side.ap = 0
    state.phase = "market"
    return [_ev("phase", f"{_name(state, seat)} moves on to Phase III.", seat)]


def go_to_cleanup(state: State, seat: int) -> Events:
    require_phase(state, seat, "market")
    state.phase = "cleanup"
    return [_ev("phase", f"{_name(state, seat)} moves on to Phase IV.", seat)]


MOVE_ON = {"actions": go_to_actions, "market": go_to_market}


# --------------------------------------------------------------------------- End turn


def end_turn_choices(state: State, seat: int) -> Iterator[tuple[str, ...]]:
    """The discards an End turn may name: none while the hand holds 5 cards or fewer,
    else each set of exactly the cards above 5 (card ids in order, one choice per set)."""
    hand = sorted(state.cards[c] for c in state.players[seat].hand)
    excess = len(hand) - HAND_SIZE
    if excess <= 0:
        yield ()
        return
    yield from dict.fromkeys(combinations(hand, excess))


def check_end_turn(state: State, seat: int, discards: list[str]) -> None:
    """End turn, from any phase: what is left of the turn is passed over and the clean-up
    done at once, the cards above 5 discarded (the player names them)."""
    require_phase(state, seat, *TURN_PHASES)
    if state.frames or state.queue:
        raise IllegalAction("under-way", "Finish what is under way first.")
    hand = Counter(state.cards[c] for c in state.players[seat].hand)
    excess = hand.total() - HAND_SIZE
    if excess <= 0 and state.phase == "cleanup":
        raise IllegalAction("done", "In Phase IV your turn ends when you finish: draw up to 5.")
    if excess <= 0 and discards:
        raise IllegalAction("keep", f"You hold {HAND_SIZE} cards or fewer: you keep them all.")
    if excess > 0 and len(discards) != excess:
        raise IllegalAction(
            "hand",
            f"You hold {hand.total()} cards: name the {excess} you discard to keep {HAND_SIZE}.",
        )
    if discards != sorted(discards) or Counter(discards) > hand:
        raise IllegalAction("not-in-hand", "Name cards of your hand, each once, in order.")


def end_turn_now(state: State, seat: int, discards: list[str], rng: random.Random) -> Events:
    """End turn: daybreak effects and Action Points left are lost, no market is visited;
    the named cards are discarded and the clean-up finished (the turn passes once every
    player of the side has finished theirs)."""
    check_end_turn(state, seat, discards)
    side = active_side(state)
    events: Events = []
    if state.phase != "cleanup":
        side.daybreak = []
        side.ap = 0
        state.phase = "cleanup"
        events.append(_ev("phase", f"{_name(state, seat)} ends the turn.", seat))
    if discards:
        player = state.players[seat]
        names = []
        for card_id in discards:
            card = hand_card(state, seat, card_id)
            player.hand.remove(card)
            player.discard.append(card)
            names.append(card_of(state, card).name)
        events.append(_ev("discard", f"{player.name} discards {listed(names)}.", seat))
    return events + clean_up(state, seat, rng)


def clean_up(state: State, seat: int, rng: random.Random) -> Events:
    """A player finishes Phase IV: they draw up to 5; once every player of the side has,
    the other side's turn begins."""
    events = [_ev("cleanup", f"{_name(state, seat)} finishes cleaning up.", seat)]
    events += finish_cleanup(state, seat, rng)
    state.cleaned_up.append(seat)
    if set(state.cleaned_up) >= set(active_side(state).seats):
        state.cleaned_up = []
        events += end_turn(state)
    return events


# --------------------------------------------------------------------------- Phase II


def _spend_ap(side: Side) -> None:
    if side.ap < 1:
        raise IllegalAction("no-ap", "Your side has no Action Point left this turn.")
    side.ap -= 1


def check_summon(state: State, seat: int, card_id: str, pos: Pos) -> int:
    """Summoning costs 1 AP and puts an Elemental in the frontmost row with space."""
    side = require_phase(state, seat, "actions", ahead=True)
    card = hand_card(state, seat, card_id)
    if not isinstance(card_of(state, card), ElementalCard):
        raise IllegalAction("not-elemental", "Only an Elemental can be summoned.")
    if pos not in summon_spaces(side.formation):
        raise IllegalAction(
            "frontmost", "Summon into an empty space of the frontmost row that has one."
        )
    if side.ap < 1:
        raise IllegalAction("no-ap", "Your side has no Action Point left this turn.")
    return card


def summon(state: State, seat: int, card_id: str, pos: Pos) -> Events:
    card = check_summon(state, seat, card_id, pos)
    side = active_side(state)
    _spend_ap(side)
    state.players[seat].hand.remove(card)
    side.formation.put(pos, Elemental(card=card, owner=seat))
    entered(state, card)
    row = ("I", "II", "III")[pos[0]]
    return [
        _ev(
            "summon",
            f"{_name(state, seat)} summons {card_of(state, card).name} into Row {row}.",
            seat,
        )
    ]


def check_swap(state: State, seat: int, a: Pos, b: Pos) -> None:
    """Swapping costs 1 AP and needs two connected Elementals of one's own formation."""
    side = require_phase(state, seat, "actions", ahead=True)
    if not connected(side.formation, a, b):
        raise IllegalAction("not-connected", "Only two connected Elementals can swap places.")
    if side.ap < 1:
        raise IllegalAction("no-ap", "Your side has no Action Point left this turn.")
    if _twins(state, side, a, b) and not _swap_triggers(state, a, b):
        raise IllegalAction(
            "twins", "Those two Elementals are alike: swapping them would change nothing."
        )


def _twins(state: State, side: Side, a: Pos, b: Pos) -> bool:
    """Whether two Elementals can't be told apart: the same card, owner and tokens, and
    alike in what they did this turn (attacked, daybreak used)."""
    first, second = side.formation.at(a), side.formation.at(b)
    if first is None or second is None or state.cards[first.card] != state.cards[second.card]:
        return False
    if first.model_dump(exclude={"card"}) != second.model_dump(exclude={"card"}):
        return False
    return all(
        (first.card in cards) == (second.card in cards) for cards in (side.attacked, side.daybreak)
    )


def _swap_triggers(state: State, a: Pos, b: Pos) -> bool:
    """Whether swapping the Elementals at `a` and `b` (of the active side) sets off any
    effect: only an Elemental entering another row can."""
    if a[0] == b[0]:
        return False
    probe = fresh_copy(state)
    side = active_side(probe)
    swap_cards(probe, side.formation.at(a).card, side.formation.at(b).card)  # type: ignore[union-attr]
    return probe.queue != state.queue


def swap_elementals(state: State, seat: int, a: Pos, b: Pos) -> Events:
    check_swap(state, seat, a, b)
    side = active_side(state)
    _spend_ap(side)
    first = card_of(state, side.formation.at(a).card).name  # type: ignore[union-attr]
    second = card_of(state, side.formation.at(b).card).name  # type: ignore[union-attr]
    swap_cards(state, side.formation.at(a).card, side.formation.at(b).card)  # type: ignore[union-attr]
    return [_ev("swap", f"{_name(state, seat)} swaps {first} and {second}.", seat)]


def draw_action(state: State, seat: int, rng: random.Random) -> Events:
    """Drawing costs 1 AP (an empty deck is replaced by the shuffled discard pile)."""
    side = require_phase(state, seat, "actions")
    player = state.players[seat]
    if not player.deck and not player.discard:
        raise IllegalAction("no-cards", "Your deck and discard pile are both empty.")
    _spend_ap(side)
    return draw(state, seat, 1, rng)


# --------------------------------------------------------------------------- Phase III


def _market(state: State, which: str) -> Market:
    if which == "elementals":
        return state.elementals
    if which == "commands":
        return state.commands
    raise IllegalAction("market", "There is an Elemental Market and a Command Market.")


def refill(market: Market) -> bool:
    """There are three cards in each market at all times, while its deck lasts. Whether a
    card was turned face up."""
    turned = False
    while len(market.row) < MARKET_SIZE and market.deck:
        market.row.append(market.deck.pop())
        turned = True
    market.shown_under = min(market.shown_under, len(market.deck))
    return turned


def check_buy(
    state: State, seat: int, which: str, card_id: str, into: Pos | None
) -> tuple[Market, int, int]:
    """Buying pays the card's cost (an Elemental straight into the formation: +2)."""
    side = require_phase(state, seat, "market", ahead=True)
    market = _market(state, which)
    card = next((c for c in market.row if state.cards[c] == card_id), None)
    if card is None:
        raise IllegalAction("not-in-market", "That card isn't face up in that market.")
    price = card_of(state, card).cost
    if into is not None:
        if not isinstance(card_of(state, card), ElementalCard):
            raise IllegalAction("not-elemental", "Only an Elemental can go into your formation.")
        if into not in summon_spaces(side.formation):
            raise IllegalAction(
                "frontmost", "It goes into an empty space of the frontmost row that has one."
            )
        price += INTO_FORMATION_GOLD
    if side.gold < price:
        raise IllegalAction("gold", f"That costs {price} gold; your side has {side.gold}.")
    return market, card, price


def buy(state: State, seat: int, which: str, card_id: str, into: Pos | None) -> Events:
    """Pay, take the card to the discard pile (or the formation), refill the market."""
    market, card, price = check_buy(state, seat, which, card_id, into)
    side = active_side(state)
    side.gold -= price
    market.row.remove(card)
    turned = refill(market)  # the next card of the market deck turns face up
    name = card_of(state, card).name
    if into is None:
        state.players[seat].discard.append(card)
        text = f"{_name(state, seat)} buys {name} for {price} gold."
        return [_ev("buy", text, seat, reveals=turned)]
    side.formation.put(into, Elemental(card=card, owner=seat))
    entered(state, card)
    text = f"{_name(state, seat)} buys {name} for {price} gold, straight into the formation."
    return [_ev("buy", text, seat, reveals=turned)]


def sell_price(definition: ElementalCard | CommandCard) -> int:
    """Half the cost, rounded up; a Sage-pack card sells for 1."""
    return 1 if definition.in_sage_pack else (definition.cost + 1) // 2


def sell(state: State, seat: int, card_id: str) -> Events:
    """Sell a card from hand: it leaves the game; the wallet never exceeds its cap."""
    side = require_phase(state, seat, "market")
    card = hand_card(state, seat, card_id)
    state.players[seat].hand.remove(card)
    state.removed.append(card)
    gained = min(sell_price(card_of(state, card)), state.limits["gold"] - side.gold)
    side.gold += gained
    name = card_of(state, card).name
    return [_ev("sell", f"{_name(state, seat)} sells {name} for {gained} gold.", seat)]


def refresh(state: State, seat: int, which: str) -> Events:
    """Pay 1 gold: the face-up cards go under the deck and three new ones turn up."""
    side = require_phase(state, seat, "market")
    market = _market(state, which)
    if side.gold < REFRESH_GOLD:
        raise IllegalAction("gold", "Refreshing a market costs 1 gold.")
    side.gold -= REFRESH_GOLD
    # With cards in the deck, new ones turn up; with none, the same ones come back.
    hidden = bool(market.deck)
    market.deck[0:0] = list(reversed(market.row))
    market.shown_under += len(market.row)
    market.row = []
    refill(market)
    label = "Elemental" if which == "elementals" else "Command"
    text = f"{_name(state, seat)} refreshes the {label} Market."
    return [_ev("refresh", text, seat, reveals=hidden)]


# --------------------------------------------------------------------------- Phase IV


def cleanup_discard(state: State, seat: int, card_id: str) -> Events:
    """Discard any number of cards from hand."""
    require_phase(state, seat, "cleanup")
    card = hand_card(state, seat, card_id)
    player = state.players[seat]
    player.hand.remove(card)
    player.discard.append(card)
    name = card_of(state, card).name
    return [_ev("discard", f"{player.name} discards {name}.", seat)]


def finish_cleanup(state: State, seat: int, rng: random.Random) -> Events:
    """Draw up to five; above five, discard down first."""
    require_phase(state, seat, "cleanup")
    player = state.players[seat]
    if len(player.hand) > HAND_SIZE:
        raise IllegalAction("hand", f"Discard down to {HAND_SIZE} cards first.")
    return draw(state, seat, HAND_SIZE - len(player.hand), rng)


def end_turn(state: State) -> Events:
    """The other side's turn begins."""
    state.active = 1 - state.active
    state.turn += 1
    return begin_turn(state)
