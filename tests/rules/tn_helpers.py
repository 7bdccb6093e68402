"""Builders for hand-made Tooth & Nail positions, used by the rules tests.

A position always starts as a real game: set up through the public API, with the
faction draft and the Faction Command card choice driven by actions. The tests then
arrange it by *moving* card instances between piles (deck, hand, zones, discard),
never inventing or dropping one, so every card of the game stays in exactly one place.

Seat 0 is always the start player (the Alpha player of the first turn): Jeb.
"""

from __future__ import annotations

from rules.core import Action, Event, SeatSpec, rng_for
from rules.core.rng import pick
from rules.tooth_and_nail import GAME, State
from rules.tooth_and_nail.state import Troop

PLAYERS = {"2p": 2, "3p": 3, "alliance": 2, "4p": 4}
NAMES = {
    "2p": ["Jeb", "Justin"],
    "3p": ["Jeb", "Justin", "Scout"],
    "alliance": ["Jeb", "Justin"],
    # The rulebook's 4 player example: Jeb and John against Britt and Jackie.
    "4p": ["Jeb", "Britt", "John", "Jackie"],
}
JEB, JUSTIN, SCOUT = 0, 1, 2
BRITT, JOHN, JACKIE = 1, 2, 3

# Default drafts, in the order the factions are chosen.
DEFAULT_PICKS = {
    "2p": ["ostra-vulture", "marauders"],  # Justin, then Jeb (the start player)
    "3p": ["ostra-vulture", "loamshell-wardens", "marauders"],  # Justin, Scout, Jeb
    "alliance": ["ostra-vulture", "marauders", "loamshell-wardens", "scorchmane-riders"],
    "4p": [
        "ostra-vulture",
        "marauders",
        "loamshell-wardens",
        "scorchmane-riders",
        "skitterwen-brood",
        "quillspark-tinkerers",
    ],
}


def seed_with_start(variant: str, start: int = 0) -> int:
    """The smallest match seed whose set-up makes `start` the start player."""
    n = PLAYERS[variant]
    return next(seed for seed in range(1000) if pick(n, rng_for(seed, 0)) == start)


def new_game(variant: str = "2p", start: int = 0) -> State:
    """A freshly set-up game (faction choice open) whose start player is `start`."""
    seats = [SeatSpec(seat=i, name=name) for i, name in enumerate(NAMES[variant])]
    state = GAME.setup(variant, seats, {}, seed_with_start(variant, start))
    assert state.start_player == start
    return state


def act(state: State, key: str, seat: int | None = None) -> tuple[State, list[Event]]:
    """Apply one action by key; the seat defaults to the only seat the game waits for."""
    if seat is None:
        waiting = GAME.to_act(state)
        assert len(waiting) == 1, f"several seats may act: {waiting}"
        (seat,) = waiting
    return GAME.apply(state, seat, Action.from_key(key), rng_for(state.turn, len(state.cards)))


def play(state: State, *keys: str) -> State:
    """Apply several actions in a row (each by the only seat the game waits for)."""
    for key in keys:
        state, _ = act(state, key)
    return state


def keys(state: State, seat: int) -> list[str]:
    return [a.key for a in GAME.legal_actions(state, seat)]


def drafted(
    variant: str = "2p",
    picks: list[str] | None = None,
    commands: dict[int, str] | None = None,
) -> State:
    """A game driven through the draft (and Command card choice) to the first Action Step.

    `picks` are faction ids in draft order (in 4 players the first team member
    listed by the game picks). `commands` sets, per seat, the Faction Command card
    chosen in Alliance and The Enemy of My Enemy (default: the first on offer).
    """
    state = new_game(variant)
    for faction in picks or DEFAULT_PICKS[variant]:
        if state.phase != "faction_choice":
            # The last pick, with a single Faction left, was taken without a question.
            assert faction in {f for t in state.teams for f in t.factions}
            break
        seat = min(GAME.to_act(state))
        state, _ = act(state, f"faction|{faction}", seat)
    while state.phase == "command_choice":
        (seat,) = GAME.to_act(state)
        options = keys(state, seat)
        wanted = (commands or {}).get(seat)
        key = f"command_card|{wanted}" if wanted else options[0]
        state, _ = act(state, key, seat)
    assert state.phase == "action" and state.alpha == 0
    return state


# --------------------------------------------------------------------------- card moves


def all_cards(state: State) -> list[int]:
    """Every card instance wherever it is (each must appear exactly once)."""
    found: list[int] = []
    for team in state.teams:
        found += team.deck + team.discard + team.removed + team.face_down
    for p in state.players:
        found += p.hand + [t.card for t in p.command_zone + p.war_zone]
    return found


def assert_conserved(state: State) -> None:
    assert sorted(all_cards(state)) == list(range(len(state.cards))), "a card was lost or copied"


def troop_ids(state: State, cards: list[int]) -> list[str]:
    return [state.cards[c] for c in cards]


def take(state: State, team: int, troop_id: str) -> int:
    """Take one card instance of `troop_id` out of a team's deck (failing that: out of the
    Alliance face-down pile, then a team member's hand) and return it."""
    t = state.teams[team]
    piles = [t.deck, t.face_down] + [state.players[s].hand for s in t.seats]
    for pile in piles:
        for card in pile:
            if state.cards[card] == troop_id:
                pile.remove(card)
                return card
    raise AssertionError(f"team {team} has no spare {troop_id}")


def empty_hand(state: State, seat: int) -> None:
    """Put the hand back under the deck."""
    player = state.players[seat]
    state.team_of(seat).deck[0:0] = player.hand
    player.hand.clear()


def give(state: State, seat: int, *ids: str) -> list[int]:
    """Put cards of these Troops into a player's hand."""
    team = state.players[seat].team
    cards = [take(state, team, i) for i in ids]
    state.players[seat].hand.extend(cards)
    return cards


def set_hand(state: State, seat: int, *ids: str) -> list[int]:
    """Make a player's hand exactly these Troops."""
    empty_hand(state, seat)
    return give(state, seat, *ids)


def field(state: State, seat: int, zone: str, troop_id: str, *, drained: bool = False) -> int:
    """Put a card of this Troop into a player's Command (`command`) or War (`war`) Zone."""
    card = take(state, state.players[seat].team, troop_id)
    player = state.players[seat]
    (player.command_zone if zone == "command" else player.war_zone).append(
        Troop(card=card, drained=drained)
    )
    return card


def stack(state: State, team: int, *ids: str) -> list[int]:
    """Put cards of these Troops on top of a team's deck; the first one named ends on top."""
    cards = [take(state, team, i) for i in ids]
    state.teams[team].deck.extend(reversed(cards))
    return cards


def to_discard(state: State, team: int, *ids: str) -> list[int]:
    """Put cards of these Troops on a team's discard pile; the last one named ends on top."""
    cards = [take(state, team, i) for i in ids]
    state.teams[team].discard.extend(cards)
    return cards


def trim_deck(state: State, team: int, size: int) -> None:
    """Move cards from the bottom of a team's deck to its discard pile until `size` remain."""
    t = state.teams[team]
    while len(t.deck) > size:
        t.discard.append(t.deck.pop(0))


# --------------------------------------------------------------------------- a full board


def battlefield(faction_id: str, command: tuple[str, str] | None = None) -> State:
    """An Alliance game at Jeb's first Action Step with every kind of target on the board,
    so any Command Ability, Formation Attack or Faction Ability of `faction_id` (Jeb's
    Faction Command card) has something to act on.

    Jeb (`faction_id` + the next faction of the pack): two non-drained Troops of
    `faction_id` in the Command Zone (`command`, default its last Arcane and last Tech
    Troop) plus a drained one of the other faction; in the War
    Zone two non-drained Arcane and two non-drained Tech Troops, a drained Arcane and a
    drained Tech; a hand of two Arcane and two Tech Troops and one of the other faction;
    a discard pile of three, topped by a Tech Troop. Justin (the two factions after those): three
    cards in hand; Strength 1 Troops in both zones, drained and not.
    """
    from rules.tooth_and_nail.cards import bundled_pack

    pack = bundled_pack()
    order = [f.id for f in pack.factions]
    k = order.index(faction_id)
    mine, partner, theirs1, theirs2 = (order[(k + i) % 6] for i in range(4))
    state = drafted(
        "alliance",
        picks=[theirs1, mine, theirs2, partner],
        commands={JEB: mine, JUSTIN: theirs1},
    )
    own = pack.faction(mine).troops
    arcane = [t.id for t in own if t.type == "Arcane"]
    tech = [t.id for t in own if t.type == "Tech"]
    weak = [t.id for f in (theirs1, theirs2) for t in pack.faction(f).troops if t.strength == 1]

    others = [t.id for t in pack.faction(partner).troops]
    set_hand(state, JEB, arcane[0], arcane[1], tech[0], tech[1], others[0])
    for troop_id in command or (arcane[-1], tech[-1]):
        field(state, JEB, "command", troop_id)
    field(state, JEB, "command", others[0], drained=True)
    for troop_id in (arcane[0], arcane[1], tech[0], tech[1]):
        field(state, JEB, "war", troop_id)
    field(state, JEB, "war", arcane[-1], drained=True)
    field(state, JEB, "war", tech[-1], drained=True)
    to_discard(state, JEB, others[1], others[2], tech[0])  # a Tech Troop on top

    set_hand(state, JUSTIN, weak[0], weak[1], weak[2])
    field(state, JUSTIN, "command", weak[3])
    field(state, JUSTIN, "command", weak[0], drained=True)
    field(state, JUSTIN, "war", weak[1])
    field(state, JUSTIN, "war", weak[2])
    field(state, JUSTIN, "war", weak[3], drained=True)
    assert len(state.players[JEB].hand) == 5 and len(state.players[JUSTIN].hand) == 3
    assert_conserved(state)
    return state


def settle(state: State, limit: int = 30) -> tuple[State, list[Event]]:
    """Answer every open decision with the first legal choice until the Alpha player
    is back in their Action Step (or the game is over); return the state and events."""
    events: list[Event] = []
    for _ in range(limit):
        if GAME.outcome(state) is not None or not state.frames:
            return state, events
        seat = min(GAME.to_act(state))
        state, new = act(state, keys(state, seat)[0], seat)
        events += new
    raise AssertionError("decisions never ended")
