"""Setting up Command of Nature, as "How to Start" describes it.

Each player chooses a Sage (the rulebook's order is free; here it is turn order), then
sets up their formation: three Basics in Rows I and II, the Sage in the centre of Row
III with two chosen Warriors beside it. The rest of the Sage pack (the third Warrior,
the fourth Basic and the Commands) is shuffled into the deck and five are drawn; the
Champions wait face down on the Sage board. Both markets are shuffled and three cards
of each turned face up. The first side starts with 0 gold, the second with 3 (a team:
4). Who goes first ("the most house plants") is drawn from the seed.
"""

from __future__ import annotations

import random
from itertools import permutations

from rules.command_of_nature.cards import CommandCard, ElementalCard, Pack, get_pack
from rules.command_of_nature.formation import HALF_SIZES, Elemental, Formation
from rules.command_of_nature.state import Frame, Player, Side, State
from rules.core import Event, IllegalAction
from rules.core.rng import pick, shuffle

PLAYERS = {"2p": 2, "4p": 4}
HAND_SIZE = 5
SECOND_SIDE_GOLD = {"2p": 3, "4p": 4}

Events = list[Event]


# Events that always show someone a card that was hidden (in a deck or a hand): a card
# drawn, a card leaving a hand face up (summoned, played, answered, sold, discarded), the
# markets' first cards. A kind that shows one only sometimes (a buy that refills a market,
# a refresh, an attack, a card moved or brought into the formation) says so where it
# happens.
REVEALING = frozenset({"draw", "summon", "command", "instant", "sell", "discard", "markets"})


def _ev(
    kind: str, text: str, seat: int | None = None, *, reveals: bool = False, **private: str
) -> Event:
    return Event(
        kind=kind, text=text, seat=seat, private=private, reveals=reveals or kind in REVEALING
    )


def pack_of(state: State) -> Pack:
    return get_pack(state.pack)


def card_of(state: State, card: int) -> ElementalCard | CommandCard:
    return pack_of(state)._by_name_or_id[state.cards[card]]


def setup_game(variant: str, names: list[str], pack: str, rng: random.Random) -> State:
    """Seats and sides; the first side drawn from the seed; the Sage choice opens.

    Four players sit as two teams by joining order (1st & 3rd, 2nd & 4th)."""
    if variant not in PLAYERS:
        raise IllegalAction("variant", f"Command of Nature has no variant {variant!r}.")
    if len(names) != PLAYERS[variant]:
        raise IllegalAction("players", f"This variant needs exactly {PLAYERS[variant]} players.")
    n = len(names)
    team_of = [s % 2 for s in range(n)]
    halves = 1 if variant == "2p" else 2
    players = [Player(seat=s, name=names[s], team=team_of[s]) for s in range(n)]
    sides = [
        Side(
            team=t,
            seats=[s for s in range(n) if team_of[s] == t],
            formation=Formation.empty(halves),
        )
        for t in (0, 1)
    ]
    first = pick(2, rng)
    state = State(
        variant=variant,  # type: ignore[arg-type]
        pack=pack,
        players=players,
        sides=sides,
        start_team=first,
        active=first,
    )
    state.frames = [Frame(kind="sage", deciders=[turn_order(state)[0]], prompt="choose your Sage")]
    return state


def turn_order(state: State) -> list[int]:
    """Seats in the order they set up: the first side's players, then the second's."""
    first, second = state.sides[state.start_team], state.sides[1 - state.start_team]
    return [*first.seats, *second.seats]


def sage_options(state: State) -> list[str]:
    """The Sages nobody has chosen yet."""
    taken = {p.sage for p in state.players}
    return [s.id for s in pack_of(state).sages() if s.id not in taken]


def sage_of(sage: ElementalCard) -> str:
    """A Sage with its faction, as a sentence names it: "Cedar, the Twig Sage"."""
    return f"{sage.name}, the {sage.faction.capitalize()} Sage"


def choose_sage(state: State, seat: int, sage_id: str) -> Events:
    """Take a Sage, its board and its Sage pack."""
    if sage_id not in sage_options(state):
        raise IllegalAction("sage-taken", "That Sage is not available.")
    player = state.players[seat]
    player.sage = sage_id
    sage = pack_of(state).card(sage_id)
    events = [_ev("sage", f"{player.name} chooses {sage_of(sage)}.", seat)]
    waiting = [s for s in turn_order(state) if state.players[s].sage is None]
    if waiting and len(sage_options(state)) == 1:  # nothing left to choose: it is theirs
        last = state.players[waiting[0]]
        last.sage = sage_options(state)[0]
        taken = pack_of(state).card(last.sage)
        text = f"{last.name} takes {sage_of(taken)}, the last Sage left."
        events.append(_ev("sage", text, last.seat))
        waiting = waiting[1:]
    if waiting:
        state.frames = [Frame(kind="sage", deciders=[waiting[0]], prompt="choose your Sage")]
    else:
        state.phase = "formation"
        state.frames = [
            Frame(
                kind="formation",
                deciders=[turn_order(state)[0]],
                prompt="set up your formation: choose the two Warriors beside your Sage",
            )
        ]
    return events


def _deal_sage_pack(state: State, seat: int) -> dict[str, list[int]]:
    """Create the card instances of a player's Sage pack, by kind."""
    player = state.players[seat]
    assert player.sage is not None
    by_kind: dict[str, list[int]] = {}
    for card in pack_of(state).sage_pack(player.sage):
        by_kind.setdefault(card.kind if card.kind != "command" else "command", []).append(
            len(state.cards)
        )
        state.cards.append(card.id)
    return by_kind


def warriors_of(state: State, seat: int) -> list[str]:
    """The ids of the Warriors in a player's Sage pack."""
    sage = state.players[seat].sage
    assert sage is not None
    return [c.id for c in pack_of(state).sage_pack(sage) if c.kind == "warrior"]


def formation_options(state: State, seat: int) -> list[tuple[str, str]]:
    """(left, right) Warriors to place beside the Sage; the third goes into the deck."""
    return sorted(set(permutations(warriors_of(state, seat), 2)))


def set_up_formation(state: State, seat: int, left: str, right: str, rng: random.Random) -> Events:
    """Place Basics in Rows I and II, the Sage in the centre of Row III between the two
    chosen Warriors; shuffle the rest into the deck and draw five."""
    if (left, right) not in formation_options(state, seat):
        raise IllegalAction("warriors", "Choose two of your Sage pack's Warriors.")
    player = state.players[seat]
    side = state.side_of(seat)
    half = side.seats.index(seat)
    dealt = _deal_sage_pack(state, seat)
    basics = dealt["basic"]
    warriors = {state.cards[c]: c for c in dealt["warrior"]}
    placed = {
        (0, 0): basics[0],
        (1, 0): basics[1],
        (1, 1): basics[2],
        (2, 0): warriors.pop(left),
        (2, 1): dealt["sage"][0],
        (2, 2): warriors.pop(right),
    }
    for (row, offset), card in placed.items():
        space = half * HALF_SIZES[row] + offset
        side.formation.put((row, space), Elemental(card=card, owner=seat))
    for card in dealt["champion"]:
        player.champions[_champion_level(state, card)] = card
    player.deck = [*basics[3:], *warriors.values(), *dealt["command"]]
    shuffle(player.deck, rng)
    events = [_ev("formation", f"{player.name} sets up their formation.", seat)]
    events += draw(state, seat, HAND_SIZE, rng)
    waiting = [s for s in turn_order(state) if not _set_up(state.players[s])]
    if waiting:
        state.frames = [
            Frame(
                kind="formation",
                deciders=[waiting[0]],
                prompt="set up your formation: choose the two Warriors beside your Sage",
            )
        ]
        return events
    return events + open_markets(state, rng)


def _champion_level(state: State, card: int) -> int:
    champion = card_of(state, card)
    assert isinstance(champion, ElementalCard) and champion.champion_level is not None
    return champion.champion_level


def _set_up(player: Player) -> bool:
    """Whether a player has set up their formation (their Champions wait on the board)."""
    return bool(player.champions)


def open_markets(state: State, rng: random.Random) -> Events:
    """Shuffle both market decks, turn three of each face up, pay the second side, and
    begin the first turn."""
    pack = pack_of(state)
    for market, cards in (
        (state.elementals, pack.elemental_market()),
        (state.commands, pack.command_market()),
    ):
        for card in cards:
            market.deck.append(len(state.cards))
            state.cards.append(card.id)
        shuffle(market.deck, rng)
        market.row = [market.deck.pop() for _ in range(3)]
    second = state.sides[1 - state.start_team]
    second.gold = SECOND_SIDE_GOLD[state.variant]
    state.frames = []
    state.phase = "daybreak"
    state.turn = 1
    names = " & ".join(state.players[s].name for s in state.sides[state.start_team].seats)
    return [
        _ev("markets", "The markets open: three Elementals and three Commands face up."),
        _ev(
            "first",
            f"{names} go{'es' if len(names.split(' & ')) == 1 else ''} first; "
            f"the other side starts with {second.gold} gold.",
        ),
    ]


def draw(state: State, seat: int, n: int, rng: random.Random) -> Events:
    """Draw cards; an empty deck is replaced by the shuffled discard pile first."""
    player = state.players[seat]
    # A card seen going into the hand is known there only while it stays: drawn back
    # after it left, it is hidden again.
    player.shown_in_hand = [c for c in player.shown_in_hand if c in player.hand]
    drawn: list[int] = []
    events: Events = []
    for _ in range(n):
        if not player.deck:
            if not player.discard:
                break
            player.deck, player.discard = player.discard, []
            player.shown_on_top = []
            shuffle(player.deck, rng)
            events.append(
                _ev(
                    "reshuffle", f"{player.name} shuffles their discard pile into a new deck.", seat
                )
            )
        card = player.deck.pop()
        if player.shown_on_top and player.shown_on_top[-1] == card:  # everyone saw it go there
            player.shown_in_hand.append(player.shown_on_top.pop())
        drawn.append(card)
    player.hand += drawn
    if drawn:
        names = ", ".join(card_of(state, c).name for c in drawn)
        count = f"{len(drawn)} card{'s' if len(drawn) != 1 else ''}"
        events.append(
            _ev("draw", f"{player.name} draws {count}.", seat, **{str(seat): f"You draw {names}."})
        )
    return events
