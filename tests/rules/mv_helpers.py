"""Builders for hand-made Mystic Vale positions, used by the rules tests.

A position always starts as a real game, set up through the public API (with the leader
choice driven by actions when leaders are on). The tests then arrange it through the
state models by *moving* things, never inventing or dropping one:

- a player's 20 cards move between their deck, on-deck card, field and discard pile;
- advancement and vale instances move between the box, the commons' decks and rows,
  the Fertile Soil supply, a player's cards (sleeved), vales and Reserve;
- VP tokens come out of the pool (as the game takes them), curse tokens out of the
  endless curse pool.

`assert_conserved` checks all three. Seat 0 is always the first player: Ada.
"""

from __future__ import annotations

import random
from collections import Counter

from rules.core import Action, Event, SeatSpec, rng_for
from rules.mystic_vale import GAME, State
from rules.mystic_vale.cards import SLOTS, Advancement, Vale
from rules.mystic_vale.commons import draw_advancement, draw_vale
from rules.mystic_vale.moves import sleeve, slot_takes
from rules.mystic_vale.state import CURSED_LAND, FERTILE_SOIL, Harvest
from rules.mystic_vale.symbols import advancements_on, pack_of

PLAYERS = {"2p": 2, "3p": 3, "4p": 4}
NAMES = ["Ada", "Basil", "Cleo", "Dov"]
ADA, BASIL, CLEO, DOV = 0, 1, 2, 3


# --------------------------------------------------------------------------- games


def seed_with_first(variant: str, first: int = 0, start: int = 0) -> int:
    """The smallest match seed (from `start` on) whose set-up makes `first` the first
    player (the set-up's first draw picks the starred mana token)."""
    n = PLAYERS[variant]
    return next(s for s in range(start, start + 1000) if int(rng_for(s, 0).random() * n) == first)


def new_game(
    variant: str = "2p",
    *,
    seed: int | None = None,
    leaders: dict[int, str] | None = None,
    first: int = 0,
) -> State:
    """A game after its set-up and opening Preps: the first player (`first`, Ada unless
    told) is in their Planting Phase. `leaders` plays with leaders, each seat keeping the
    one named (dealt to it in place of one of its two), the others their first."""
    seats = [SeatSpec(seat=i, name=NAMES[i]) for i in range(PLAYERS[variant])]
    seed = seed_with_first(variant, first) if seed is None else seed
    options = {"leaders": "on"} if leaders is not None else {}
    state = GAME.setup(variant, seats, options, seed)
    assert state.first == first
    if leaders is None:
        return state
    for seat, wanted in leaders.items():
        deal(state, seat, wanted)
    for player in list(state.players):
        wanted = leaders.get(player.seat, player.leader_options[0])
        state, _ = act(state, f"leader|{wanted}", player.seat)
    assert state.phase == "planting"
    return state


def deal(state: State, seat: int, leader_id: str) -> None:
    """Make `leader_id` one of the two leaders dealt to `seat` (swapped with whoever was
    dealt it, or with a leader left in the box)."""
    mine = state.players[seat].leader_options
    if leader_id in mine:
        return
    for other in state.players:
        if leader_id in other.leader_options:
            other.leader_options[other.leader_options.index(leader_id)] = mine[-1]
            other.leader_options.sort()
            break
    mine[-1] = leader_id
    mine.sort()


def rng(state: State) -> random.Random:
    return rng_for(1000 + state.turn, sum(len(p.discard) for p in state.players))


def act(state: State, key: str, seat: int | None = None) -> tuple[State, list[Event]]:
    """Apply one action by key; the seat defaults to the only seat the game waits for."""
    if seat is None:
        waiting = GAME.to_act(state)
        assert len(waiting) == 1, f"several seats may act: {waiting}"
        (seat,) = waiting
    return GAME.apply(state, seat, Action.from_key(key), rng(state))


def play(state: State, *keys: str) -> State:
    """Apply several actions in a row (each by the only seat the game waits for)."""
    for key in keys:
        state, _ = act(state, key)
    return state


def keys(state: State, seat: int | None = None) -> list[str]:
    """The legal action keys of a seat (default: the only seat the game waits for)."""
    if seat is None:
        (seat,) = GAME.to_act(state)
    return [a.key for a in GAME.legal_actions(state, seat)]


def frame_kind(state: State) -> str | None:
    return state.frames[-1].kind if state.frames else None


def choose(state: State, option: object) -> State:
    """Answer the decision on top of the stack with this option."""
    return play(state, f"choose|{option}")


def settle(state: State, limit: int = 60) -> State:
    """Answer every open decision (skip an ability that asks, else the first option) until
    none is left; the state then waits for an ordinary action (or the game is over)."""
    for _ in range(limit):
        if not state.frames or state.phase == "over":
            return state
        options = keys(state)
        state = play(state, "skip" if "skip" in options else options[0])
    raise AssertionError("the decisions never end")


# --------------------------------------------------------------------------- cards


def cards_of(state: State, seat: int) -> list[int]:
    """A seat's 20 physical cards (ids)."""
    return [c.id for c in state.physical if c.owner == seat]


def kind_of(state: State, card_id: int) -> str:
    """'blank', 'cursed:<slot>', 'fertile:<slot>', 'leader' or 'sleeved' (advancements)."""
    card = state.card(card_id)
    if card.leader is not None:
        return "leader"
    if advancements_on(state, card):
        return "sleeved"
    for slot in SLOTS:
        for layer in card.slots[slot]:
            if layer == CURSED_LAND:
                return f"cursed:{slot}"
            if layer == FERTILE_SOIL:
                return f"fertile:{slot}"
    return "blank"


def pick(state: State, seat: int, kind: str, n: int = 1, *, avoid: tuple = ()) -> list[int]:
    """`n` of the seat's cards of this kind (see `kind_of`; 'cursed' and 'fertile' alone
    take any slot), skipping `avoid`."""
    found = [
        c
        for c in cards_of(state, seat)
        if c not in avoid and (kind_of(state, c) == kind or kind_of(state, c).split(":")[0] == kind)
    ]
    assert len(found) >= n, f"seat {seat} has only {len(found)} {kind} cards"
    return found[:n]


def one(state: State, seat: int, kind: str, *, avoid: tuple = ()) -> int:
    return pick(state, seat, kind, avoid=avoid)[0]


def leader_card(state: State, seat: int) -> int:
    """The card the seat's leader is sleeved into."""
    player = state.players[seat]
    return next(c.id for c in state.physical if c.leader is not None and c.leader == player.leader)


def arrange(
    state: State,
    seat: int,
    field: list[int] | tuple = (),
    on_deck: int | None = None,
    deck_top: list[int] | tuple = (),
    discard: list[int] | tuple | None = None,
) -> None:
    """Lay out a seat's 20 cards: `field` left to right, `on_deck` face up on the deck,
    `deck_top` under it (the first named on top). Every other card goes into the deck
    under those, in id order, unless `discard` names the discard pile (then the deck
    holds exactly `deck_top` and every card not named goes to the discard pile)."""
    player = state.players[seat]
    named = [*field, *([on_deck] if on_deck is not None else []), *deck_top, *(discard or [])]
    assert len(named) == len(set(named)), "a card is named twice"
    assert all(state.card(c).owner == seat for c in named)
    rest = [c for c in cards_of(state, seat) if c not in named]
    player.field = list(field)
    player.on_deck = on_deck
    if discard is None:
        player.deck = rest + list(reversed(deck_top))
        player.discard = []
    else:
        player.deck = list(reversed(deck_top))
        player.discard = list(discard) + rest


# --------------------------------------------------------------------------- instances


def take(state: State, name: str) -> int:
    """Take an instance of this advancement or vale out of the box, a deck, the Fertile
    Soil supply, the level-4 row or a row of the commons (a row's space is refilled)."""
    card_id = pack_of(state).card(name).id
    commons = state.commons
    piles = [
        state.boxed,
        *commons.decks.values(),
        *commons.vale_decks.values(),
        commons.level4,
        commons.fertile,
    ]
    for pile in piles:
        for instance in pile:
            if state.cards[instance] == card_id:
                pile.remove(instance)
                return instance
    for level, row in commons.rows.items():
        for i, instance in enumerate(row):
            if instance is not None and state.cards[instance] == card_id:
                row[i] = draw_advancement(state, level)
                return instance
    for level, row in commons.vale_rows.items():
        for i, instance in enumerate(row):
            if instance is not None and state.cards[instance] == card_id:
                row[i] = draw_vale(state, level)
                return instance
    raise AssertionError(f"no spare {name} in the game")


def put(state: State, card_id: int, name: str, *, force: bool = False) -> int:
    """Sleeve an advancement into a player card (into its slot, as the rules sleeve it:
    over an eclipse, or an eclipse under what is there); returns the instance."""
    instance = take(state, name)
    card = state.card(card_id)
    advancement = pack_of(state).advancement(name)
    assert force or slot_takes(state, card, advancement, over_land=False), (
        f"{name} doesn't fit card {card_id}"
    )
    sleeve(state, card_id, instance)
    return instance


def made(state: State, seat: int, *names: str, avoid: tuple = ()) -> int:
    """A blank card of the seat with these advancements sleeved into it."""
    card = one(state, seat, "blank", avoid=avoid)
    for name in names:
        put(state, card, name)
    return card


def in_row(state: State, name: str, position: int = 0) -> int:
    """Lay an advancement (or vale) face up in the commons: its level's row, at `position`
    (the card there goes to the bottom of its deck); a level-4 card joins the level-4 row.
    Returns the instance."""
    card = pack_of(state).card(name)
    instance = take(state, name)
    commons = state.commons
    if isinstance(card, Vale):
        row, deck = commons.vale_rows[card.level], commons.vale_decks[card.level]
    elif isinstance(card, Advancement) and card.level == 4:
        commons.level4.append(instance)
        return instance
    else:
        row, deck = commons.rows[card.level], commons.decks[card.level]
    if row[position] is not None:
        deck.insert(0, row[position])
    row[position] = instance
    return instance


def on_top(state: State, name: str) -> int:
    """Put an advancement (or vale) on top of its level's deck in the commons."""
    card = pack_of(state).card(name)
    instance = take(state, name)
    if isinstance(card, Vale):
        state.commons.vale_decks[card.level].append(instance)
    else:
        state.commons.decks[min(card.level, 3)].append(instance)  # type: ignore[attr-defined]
    return instance


def give_vale(state: State, seat: int, name: str) -> int:
    instance = take(state, name)
    state.players[seat].vales.append(instance)
    return instance


def reserve(state: State, seat: int, name: str) -> int:
    """Put an advancement into the seat's Reserve."""
    instance = take(state, name)
    state.players[seat].reserved.append(instance)
    return instance


def give(state: State, seat: int, *, vp: int = 0, curses: int = 0, token: bool = False) -> None:
    """VP tokens from the pool, curse tokens from the curse pool, an active mana token."""
    player = state.players[seat]
    assert state.pool >= vp
    state.pool -= vp
    state.from_pool += vp
    player.vp += vp
    player.curses += curses
    player.mana_token = player.mana_token or token


def pool_to(state: State, pool: int) -> None:
    """Leave this many VP tokens in the pool (the others go to the box)."""
    state.pool_start += pool - state.pool
    state.pool = pool


def fund(state: State, **amounts: int) -> Harvest:
    """Add mana, spirits or guardians to the Harvest under way."""
    harvest = state.harvest
    assert harvest is not None and state.phase == "harvest"
    for key, n in amounts.items():
        setattr(harvest, key, getattr(harvest, key) + n)
    return harvest


def upgraded_aside(state: State, seat: int) -> None:
    """The seat's titan upgraded on an earlier turn: out of its sleeve, beside the play
    area (its card stays where it is, a blank card now)."""
    player = state.players[seat]
    card = leader_card(state, seat)
    state.card(card).leader = None
    player.leader_upgraded = True
    player.titan_aside = True
    player.upgraded_on_turn = state.turn - 1


# --------------------------------------------------------------------------- positions


def harvesting(state: State) -> State:
    """Stop pushing: the active player harvests (abilities that ask are left open)."""
    assert state.phase == "planting"
    return play(state, "stop")


def instance_places(state: State) -> Counter[int]:
    """How many places hold each advancement and vale instance."""
    commons = state.commons
    found: Counter[int] = Counter()
    piles = [
        state.boxed,
        *commons.decks.values(),
        *commons.vale_decks.values(),
        commons.level4,
        commons.fertile,
        *([i for i in row if i is not None] for row in commons.rows.values()),
        *([i for i in row if i is not None] for row in commons.vale_rows.values()),
    ]
    for p in state.players:
        piles += [p.vales, p.reserved]
    if state.nemesis is not None:
        piles.append(state.nemesis.pile)
    if state.harvest is not None:
        piles.append(state.harvest.bought)
    for card in state.physical:
        piles.append(advancements_on(state, card))
    for pile in piles:
        found.update(pile)
    return found


def assert_conserved(state: State) -> None:
    """Every player card in exactly one pile of its owner; every advancement and vale
    instance in exactly one place; every VP token accounted for."""
    for p in state.players:
        piles = [*p.deck, *p.field, *p.discard, *([p.on_deck] if p.on_deck is not None else [])]
        assert sorted(piles) == sorted(cards_of(state, p.seat)), f"{p.name}'s cards"
        assert len(piles) == 20
    places = instance_places(state)
    assert sorted(places) == list(range(len(state.cards))), "an instance was lost"
    assert set(places.values()) == {1}, "an instance is in two places"
    assert state.pool_start + state.pool_added == state.pool + state.from_pool
    held = sum(p.vp for p in state.players) + (state.nemesis.vp if state.nemesis else 0)
    assert held == state.from_pool + state.from_box - state.spent_vp


def copies_to_choose(variant: str) -> list[State]:
    """Harvests where copies of one card are one choice, listed once (`apply` must refuse
    the other copy's key): Ada holds two Reserved copies of an advancement, then has bought
    both, with Stormbrew Titan upgraded (she may sleeve one of them at once)."""
    if variant not in PLAYERS:
        return []
    state = new_game(variant, leaders={ADA: "stormbrew-titan"})
    upgraded_aside(state, ADA)
    # A card of two copies: their instances are numbered in a row.
    first, second = (reserve(state, ADA, "Bristleback Charger") for _ in range(2))
    arrange(state, ADA, field=pick(state, ADA, "blank", 3), on_deck=one(state, ADA, "fertile"))
    state = harvesting(state)
    fund(state, mana=20)
    return [state, play(state, f"buy|{first}", f"buy|{second}")]
