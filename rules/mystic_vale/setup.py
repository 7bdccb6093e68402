"""Setting up Mystic Vale (the base game's set-up, as the notes give it, with the Nemesis
cards in the decks).

- Each player's 20 cards: 8 blank, 9 with a Cursed Land printed (3 in each slot), 3 with
  a Fertile Soil printed (one in each slot).
- The commons: the level-1 deck counted out by player count (12 / 15 / 18 for 2 / 3 / 4
  players, the rest back in the box), the whole level-2 deck, the whole level-3 deck
  with the level-4 advancements shuffled in; three of each turned face up; the 18
  Fertile Soils apart; four vales of each level face up.
- The VP pool: 23 / 28 / 33 tokens.
- The first player holds the starred mana token (drawn from the seed); every mana token
  starts inactive.
- Leaders (an option): two dealt to each player, who keeps one and sleeves it into a
  blank card before shuffling.
- Then every player carries out a Prep Phase, in turn order, and the first turn begins.
- Solitaire (`solo`): one player, 12 level-1 advancements, 23 VP tokens; the nemesis
  (chosen or drawn) is sleeved over one of their Cursed Lands before the deck is
  shuffled, and the hourglass goes on the Start space of the chosen side of the
  corruption track (see `nemesis.py`).
"""

from __future__ import annotations

import random

from rules.core import Event, IllegalAction
from rules.core.rng import pick, shuffle
from rules.mystic_vale.cards import SLOTS, Advancement
from rules.mystic_vale.commons import ROW_SIZE, VALE_ROW_SIZE, draw_advancement, draw_vale
from rules.mystic_vale.state import CURSED_LAND, FERTILE_SOIL, Card, Nemesis, Player, State
from rules.mystic_vale.symbols import pack_of

PLAYERS = {"solo": 1, "2p": 2, "3p": 3, "4p": 4}
LEVEL_ONE_DECK = {1: 12, 2: 12, 3: 15, 4: 18}
VP_POOL = {1: 23, 2: 23, 3: 28, 4: 33}
RANDOM = "random"  # the nemesis drawn at set-up
BLANKS, CURSED_LANDS_PER_SLOT = 8, 3

Events = list[Event]


# Events that always show someone a card that was hidden: the top card of a deck turned
# face up, a deck shuffled, a deck searched, the Nightvale Agent's picks among all of a
# player's cards (their deck's included), the leaders Gargoyle Summoner draws from the
# box. A kind that shows one only sometimes (the commons refilled, a card placed in the
# field, a free card from the top of a deck, a leader chosen) says so where it happens;
# so does an action that leaves a question showing hidden cards (see `actions`).
REVEALING = frozenset({"reveal", "shuffle", "search", "final", "gargoyle"})


def _ev(
    kind: str, text: str, seat: int | None = None, *, reveals: bool = False, **private: str
) -> Event:
    return Event(
        kind=kind, text=text, seat=seat, private=private, reveals=reveals or kind in REVEALING
    )


def deal_cards(state: State, seat: int) -> list[int]:
    """A player's 20 cards, newly made (their ids)."""
    made = []
    printed: list[tuple[str | None, str]] = [(None, "")] * BLANKS
    printed += [(CURSED_LAND, slot) for slot in SLOTS for _ in range(CURSED_LANDS_PER_SLOT)]
    printed += [(FERTILE_SOIL, slot) for slot in SLOTS]
    for mark, slot in printed:
        card = Card(id=len(state.physical), owner=seat)
        if mark is not None:
            card.slots[slot].append(mark)  # type: ignore[index]
        state.physical.append(card)
        made.append(card.id)
    return made


def _instances(state: State, cards: list[Advancement] | list, rng: random.Random) -> list[int]:
    made = []
    for card in cards:
        for _ in range(card.copies):
            made.append(len(state.cards))
            state.cards.append(card.id)
    shuffle(made, rng)
    return made


def setup_game(
    variant: str,
    names: list[str],
    pack: str,
    mix: str,
    leaders: bool,
    rng: random.Random,
    *,
    nemesis: str = RANDOM,
    side: str = "easy",
) -> State:
    """A new game, dealt from `rng`: the commons, the vales, the pool, the players' cards
    and mana tokens (and in a solitaire game the nemesis, by id or drawn, and the side of
    the corruption track); then the leader choice, or the opening Prep Phases."""
    if variant not in PLAYERS or len(names) != PLAYERS[variant]:
        raise IllegalAction(
            "players", f"This variant needs exactly {PLAYERS.get(variant)} players."
        )
    n = len(names)
    first = int(rng.random() * n)
    state = State(
        variant=variant,  # type: ignore[arg-type]
        pack=pack,
        mix=mix,
        leaders=leaders,
        players=[Player(seat=s, name=names[s]) for s in range(n)],
        pool=VP_POOL[n],
        pool_start=VP_POOL[n],
        first=first,
        active=first,
    )
    cards = pack_of(state)
    if mix not in cards.mixes():
        raise IllegalAction("mix", f"This card pack has no {mix!r} mix.")
    sources = {"nemesis", "project"} | ({"base"} if mix == "mixed" else set())
    advancements = [a for a in cards.advancements if a.source in sources]
    by_level = {
        lv: [a for a in advancements if a.level == lv and not a.fertile_soil] for lv in (1, 2, 3, 4)
    }
    level_one = _instances(state, by_level[1], rng)
    keep = LEVEL_ONE_DECK[n]
    state.boxed += level_one[keep:]
    state.commons.decks[1] = level_one[:keep]
    state.commons.decks[2] = _instances(state, by_level[2], rng)
    state.commons.decks[3] = _instances(state, by_level[3] + by_level[4], rng)
    state.commons.fertile = _instances(state, [a for a in advancements if a.fertile_soil], rng)
    for level in (1, 2, 3):
        state.commons.rows[level] = [draw_advancement(state, level) for _ in range(ROW_SIZE)]
    for level in (1, 2):
        vales = [v for v in cards.vales if v.source in sources and v.level == level]
        state.commons.vale_decks[level] = _instances(state, vales, rng)
        state.commons.vale_rows[level] = [draw_vale(state, level) for _ in range(VALE_ROW_SIZE)]
    for player in state.players:
        player.deck = deal_cards(state, player.seat)
    if variant == "solo":
        place_nemesis(state, nemesis, side, rng)
    if not leaders:  # each player shuffles their 20 cards (with leaders: once one is sleeved)
        shuffle_decks(state, rng)
    if leaders:
        dealt = [leader.id for leader in cards.leaders]
        shuffle(dealt, rng)
        if len(dealt) < 2 * n:
            raise IllegalAction("leaders", "This card pack has too few leaders for the table.")
        for player in state.players:
            player.leader_options = sorted(dealt[2 * player.seat : 2 * player.seat + 2])
        state.phase = "leaders"  # every player chooses, in any order
    return state


def place_nemesis(state: State, nemesis: str, side: str, rng: random.Random) -> None:
    """Sleeve the nemesis over the player's first Cursed Land (it covers the whole card,
    so every Cursed Land is the same choice), and put the hourglass on Start."""
    nemeses = pack_of(state).nemeses
    if not nemeses:
        raise IllegalAction("nemesis", "This card pack has no nemesis for a solitaire game.")
    if nemesis == RANDOM:
        nemesis = nemeses[pick(len(nemeses), rng)].id
    elif all(n.id != nemesis for n in nemeses):
        raise IllegalAction("nemesis", f"This card pack has no nemesis {nemesis!r}.")
    player = state.players[0]
    covered = next(c for c in player.deck if CURSED_LAND in state.card(c).slots["top"])
    state.card(covered).nemesis = nemesis
    state.nemesis = Nemesis(card=nemesis, physical=covered, side=side)  # type: ignore[arg-type]


def turn_order(state: State) -> list[Player]:
    """The players from the first player on, clockwise."""
    n = len(state.players)
    return [state.players[(state.first + i) % n] for i in range(n)]


def sleeve_leader(state: State, seat: int, leader_id: str) -> Events:
    """Keep one of the two leaders dealt, sleeved into a blank card (the other goes back
    to the box)."""
    player = state.players[seat]
    if leader_id not in player.leader_options:
        raise IllegalAction("leader", "Choose one of the two leaders you were dealt.")
    player.leader = leader_id
    blank = next(c for c in player.deck if not any(state.card(c).slots.values()))
    state.card(blank).leader = leader_id
    name = pack_of(state).leader(leader_id).shown_name
    # The two leaders dealt were shown to their player alone: the one kept is now shown.
    text = f"{player.name} chooses {name} as their leader."
    return [_ev("leader", text, seat, reveals=True)]


def shuffle_decks(state: State, rng: random.Random) -> Events:
    """Every player shuffles their 20 cards into a deck."""
    for player in state.players:
        shuffle(player.deck, rng)
    if len(state.players) == 1:
        text = f"{state.players[0].name} shuffles their 20 cards into a deck."
    else:
        text = "Every player shuffles their 20 cards into a deck."
    return [_ev("shuffle", text)]
