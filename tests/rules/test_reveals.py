"""Undo that respects what was seen: in every game, an action is marked as revealing
exactly when it shows someone a card that was hidden.

`Event.reveals`: "True when this event showed someone a card that was hidden: taking it
back would not hide it again"; the service refuses to undo, without `force`, an action
one of whose events says so. So whether an action showed a hidden card is decided here
again, without reading its events, from the positions before and after it: where every
card is, who may see it there, and whether someone sees a card after the action that
they could not see before. `any(e.reveals for e in events)` must be True then, and only
then (but for the few kinds of event listed in `MARKED_WITHOUT_A_CARD_SHOWN`, with why).

Who may see a card there (`Table.seen`), game by game, as the views show it:

- Tooth & Nail: a hand, its owner (not a teammate); a deck and the Alliance game's ten
  cards removed unseen, nobody, but a deck being searched, its searcher (the search's
  choices are what it holds); the discard piles, the zones and the cards removed from
  the game, everyone (face up).
- Command of Nature: a hand, its owner's side (teammates see each other's); a deck and
  a market deck, nobody; the markets, the formations, the discard piles (every card
  enters one face up, in view or named) and the box, everyone. A Champion waiting face
  down on a Sage board is no secret: a Sage pack holds one Champion of each level (the
  pack check says so), so which one waits is printed in the pack.
- Mystic Vale: a deck and the commons' decks, nobody, but the top card a player looks
  at (a free card to take or put back: their private view names it, nothing public
  does), and a deck being searched or picked from (a Nightvale Agent's final Harvest),
  its player; the on-deck card, the fields,
  the discard piles (every card enters one from the field or the on-deck spot), the
  commons' rows, vales, Reserves and advancements bought or sleeved, everyone; the box,
  nobody (nothing comes out of it). Leaders: the two dealt, their player; a chosen one,
  everyone; those Gargoyle Summoner drew, the player choosing among them; the rest,
  nobody (they are in the box).
- Historia (Ways of Command): nothing is hidden at that table, so nothing is revealed.

A card in a pile that is shuffled into the deck once it runs out (a discard pile in
Command of Nature and Mystic Vale) is taken as hidden before an action that drew at
random and took it out of that pile: it went through the shuffled deck. What the model
says a seat sees in a place its view lists is checked against that view every few
actions (`check_against_views`), so the model can't drift away from the views.

The walk plays seeded random games of every variant (and option) of every game, and
must take every kind of action each game has (`ACTION_KINDS`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import pytest
from pydantic import BaseModel

from rules.core import Action, Game, IllegalAction, SeatSpec, rng_for
from rules.core.rng import TrackingRandom
from rules.registry import GAMES

Viewer = int | None  # a seat, or None: the public (spectators, the board)
Token = tuple[str, int | str]  # a card: what kind of thing, and which one
Seen = dict[Token, frozenset[Viewer]]  # who may see each card
Listed = dict[Viewer, list[str]]  # names or ids each viewer's view must show
NOBODY: frozenset[Viewer] = frozenset()

GAMES_PER_VARIANT = {  # seeded random games per variant (and option)
    "tooth-and-nail": 12,  # short games
    "command-of-nature": 2,
    "mystic-vale": 2,
    "historia-command": 2,
}
MAX_ACTIONS = 1200  # a random game is cut short after this many actions
VIEWS_EVERY = 9  # compare the model with the views every Nth action
ANYONE = 0.1  # how often a seat the game doesn't wait for is tried

# An action with one of these kinds of event may be marked as revealing although the
# positions around it show no card newly seen, and why. (A shuffle of two cards or more
# draws at random: the service refuses to undo it without `force` whatever the mark.)
MARKED_WITHOUT_A_CARD_SHOWN: dict[str, dict[str, str]] = {
    "tooth-and-nail": {
        "shuffle": "the decks are shuffled as they are built (the first draws follow)",
        "search": "the searcher looked through their deck, which is then shuffled",
    },
    "command-of-nature": {
        "reshuffle": "a card may go round through the deck the discard pile was shuffled "
        "into (or that pile held one card, face up, drawn again at once)",
    },
    "mystic-vale": {
        "shuffle": "a card may go round through the deck the discard pile was shuffled "
        "into (or that pile held one card, face up, turned up again at once)",
        "search": "the searcher looked through their deck (shuffled if searched)",
        "final": "a Nightvale Agent's player picks from all their cards, their deck's too",
    },
    "historia-command": {},
}

# Every kind of action each game's `legal_actions` lists (read from its dispatch).
ACTION_KINDS: dict[str, frozenset[str]] = {
    "tooth-and-nail": frozenset(
        {
            *("faction", "command_card", "play", "ability", "faction_ability", "attack"),
            *("formation", "end", "recharge", "ready", "keep", "discard", "revenge"),
            *("target", "opponent", "deploy", "search"),
        }
    ),
    "command-of-nature": frozenset(
        {
            *("sage", "formation", "let", "instant", "choose", "daybreak", "play", "faction"),
            *("fill", "phase", "summon", "attack", "swap", "draw", "buy", "refresh", "sell"),
            *("discard", "done", "end"),
        }
    ),
    "mystic-vale": frozenset(
        {
            *("leader", "push", "stop", "buy", "vale", "upgrade", "sleeve", "done", "use"),
            *("skip", "choose"),
        }
    ),
    "historia-command": frozenset(
        {
            *("civ", "token", "begin", "territory", "level", "cubes", "command", "vouch"),
            *("dispute", "turn", "era", "withdraw", "retract", "result", "agree", "object"),
        }
    ),
}


# --------------------------------------------------------------------------- who sees what


class Table(NamedTuple):
    seen: Seen
    listed: Listed
    shuffled_in: frozenset[Token]  # cards of piles shuffled into the deck when it runs out


class Model:
    """Who sees each card of one position, built place by place."""

    def __init__(self, n_seats: int) -> None:
        self.everyone: frozenset[Viewer] = frozenset([*range(n_seats), None])
        self.seen: Seen = {}
        self.listed: Listed = {v: [] for v in self.everyone}
        self.shuffled_in: set[Token] = set()

    def see(self, tokens: list[Token], who: frozenset[Viewer], listed: Sequence[str] = ()) -> None:
        """These cards are seen by `who`; `listed`: what their views show of them."""
        seen = self.seen
        for token in tokens:
            seen[token] = seen[token] | who if token in seen else who
        for viewer in who:
            self.listed[viewer] += listed

    def public(self, tokens: list[Token], listed: Sequence[str] = ()) -> None:
        self.see(tokens, self.everyone, listed)

    def table(self) -> Table:
        return Table(self.seen, self.listed, frozenset(self.shuffled_in))


def tooth_and_nail(state: Any) -> Table:
    from rules.tooth_and_nail.rules import card_def

    def named(cards: list[int]) -> list[str]:
        return [card_def(state, c).shown_name for c in cards]

    model = Model(len(state.players))
    frame = state.frames[-1] if state.frames else None
    searcher = frozenset(frame.deciders) if frame is not None and frame.kind == "search" else NOBODY
    for team in state.teams:
        cards = [("card", c) for c in team.deck]
        model.see(cards, searcher & frozenset(team.seats))
        model.see([("card", c) for c in team.face_down], NOBODY)
        model.public([("card", c) for c in team.discard], named(team.discard))
        model.public([("card", c) for c in team.removed])
    for player in state.players:
        model.see([("card", c) for c in player.hand], frozenset([player.seat]), named(player.hand))
        troops = [t.card for t in (*player.command_zone, *player.war_zone)]
        model.public([("card", c) for c in troops], named(troops))
    return model.table()


def command_of_nature(state: Any) -> Table:
    from rules.command_of_nature.setup import card_of

    def named(cards: list[int]) -> list[str]:
        return [card_of(state, c).shown_name for c in cards]

    model = Model(len(state.players))
    for player in state.players:
        side = frozenset(state.sides[player.team].seats)
        model.see([("card", c) for c in player.hand], side, named(player.hand))
        model.see([("card", c) for c in player.deck], NOBODY)
        model.public([("card", c) for c in player.discard], named(player.discard[-1:]))
        model.shuffled_in.update(("card", c) for c in player.discard)
        model.public([("card", c) for c in player.champions.values()])
    for market in (state.elementals, state.commands):
        model.see([("card", c) for c in market.deck], NOBODY)
        model.public([("card", c) for c in market.row], named(market.row))
    for side in state.sides:
        cards = [side.formation.at(p).card for p in side.formation.occupied()]
        model.public([("card", c) for c in cards], named(cards))
    model.public([("card", c) for c in state.removed])
    model.public([("card", played.card) for played in state.in_play])
    if state.attack is not None and not state.attack.landed:
        model.public([("card", state.attack.command)])
    return model.table()


def mystic_vale(state: Any) -> Table:
    from rules.mystic_vale.moves import name_of
    from rules.mystic_vale.symbols import pack_of

    def ids(kind: str, things: list[int]) -> list[Token]:
        return [(kind, t) for t in things]

    model = Model(len(state.players))
    frame = state.frames[-1] if state.frames else None
    deciders = frozenset(frame.deciders) if frame is not None else NOBODY
    browsing = deciders if frame is not None and frame.kind in ("search", "final_pick") else NOBODY
    commons = state.commons
    for player in state.players:
        model.see(ids("card", player.deck), browsing & {player.seat})
        face_up = [*([player.on_deck] if player.on_deck is not None else []), *player.field]
        model.public(ids("card", face_up), [f'"id": {c},' for c in face_up])
        model.public(ids("card", player.discard))
        model.shuffled_in.update(ids("card", player.discard))
        model.public(ids("adv", player.reserved), [f'"instance": {i},' for i in player.reserved])
        model.public(ids("adv", player.vales))
        model.see(ids("leader", player.leader_options), frozenset([player.seat]))
        model.public(ids("leader", [player.leader] if player.leader else []))
    model.public(ids("card", state.final_picks))
    for card in state.physical:
        model.public([("adv", i) for s in card.slots.values() for i in s if isinstance(i, int)])
        model.public(ids("leader", [card.leader] if card.leader else []))
    drawn = frame is not None and frame.kind == "gargoyle_leader"  # the choices show them
    model.see(ids("leader", state.gargoyle), deciders if drawn else NOBODY)
    model.see(ids("leader", [leader.id for leader in pack_of(state).leaders]), NOBODY)
    looked = frame.subject if frame is not None and frame.kind == "free_top" else None
    for deck in (*commons.decks.values(), *commons.vale_decks.values()):
        model.see(ids("adv", deck), NOBODY)
        if deck and deck[-1] == looked:  # the top card its taker looks at, alone
            model.see(ids("adv", deck[-1:]), deciders, [name_of(state, looked)])
    for row in (*commons.rows.values(), *commons.vale_rows.values()):
        shown = [i for i in row if i is not None]
        model.public(ids("adv", shown), [f'"instance": {i},' for i in shown])
    model.public(ids("adv", commons.level4), [f'"instance": {i},' for i in commons.level4])
    model.public(ids("adv", commons.fertile))
    model.public(ids("adv", state.harvest.bought if state.harvest is not None else []))
    model.see(ids("adv", state.boxed), NOBODY)
    return model.table()


def historia_command(state: Any) -> Table:
    return Model(len(state.civs)).table()  # every report is public: no card is hidden


MODELS = {
    "tooth-and-nail": tooth_and_nail,
    "command-of-nature": command_of_nature,
    "mystic-vale": mystic_vale,
    "historia-command": historia_command,
}


def newly_seen(before: Table, after: Table, drew: bool) -> list[tuple[Token, set[Viewer]]]:
    """The cards someone sees after an action and could not see before it."""
    seen = dict(before.seen)
    if drew:  # out of a pile shuffled into the deck: through the shuffled deck
        for token in before.shuffled_in - after.shuffled_in:
            seen[token] = NOBODY
    return [
        (token, set(who - seen.get(token, NOBODY)))
        for token, who in after.seen.items()
        if who - seen.get(token, NOBODY)
    ]


def check_against_views(game: Game, state: BaseModel, listed: Listed, seat: int) -> None:
    """What the model says the public and `seat` see in a place `view` lists, their views
    show."""
    for viewer in (None, seat):
        view = json.dumps(game.view(state, viewer), default=str, ensure_ascii=False)
        missing = sorted({n for n in listed.get(viewer, []) if n not in view})
        assert not missing, f"the model shows {viewer} {missing}; its view does not"


# --------------------------------------------------------------------------- the walk


def tracking(seed: int, number: int) -> TrackingRandom:
    rng = TrackingRandom()
    rng.setstate(rng_for(seed, number).getstate())
    return rng


Case = tuple[str, str, tuple[tuple[str, str], ...]]  # game, variant, options


def cases() -> Iterator[Case]:
    """Every variant of every game with its options: every combination of the options
    with two choices, and each choice of a larger option (a solitaire game's nemesis)
    in turn across them, so every choice is walked at least once."""
    for game_id, game in GAMES.items():
        for variant in game.variants:
            own = [o for o in game.options.values() if o.belongs_to(variant)]
            settings: list[dict[str, str]] = [{}]
            for option in (o for o in own if len(o.choices) <= 2):
                settings = [{**s, option.id: v} for s in settings for v in option.choices]
            larger = [o for o in own if len(o.choices) > 2]
            count = max([len(settings), *(len(o.choices) for o in larger)])
            for i in range(count):
                options = dict(settings[i % len(settings)])
                options |= {o.id: list(o.choices)[i % len(o.choices)] for o in larger}
                yield game_id, variant, tuple(options.items())


CASES = list(cases())


def case_id(case: Case) -> str:
    game_id, variant, options = case
    return "-".join([game_id, variant, *(v for _, v in options)])


# Words a Historia table types for its open kinds, tried beside the menu.
TYPED = {
    "historia-command": (
        *(f"civ|{name}" for name in ("Romans", "Greeks", "Carthage", "Persians", "Huns")),
        *(f"civ|{name}" for name in ("Egyptians", "Maya", "Gauls")),
        *(f"territory|add|{name}" for name in ("Gaul", "Sicily", "Egypt", "Iberia")),
        *(f"level|{track}|{n}" for track in ("military", "technology") for n in (0, 2, 4)),
        "cubes|1|supply|used",
        "cubes|2|reserve|map",
    ),
}


def choose(
    game: Game, state: BaseModel, seat: int, legal: list[Action], chooser: random.Random
) -> Action | None:
    """A kind of action first, each kind as likely (so rare ones come up), then one of it;
    ending a turn or a phase only now and then. A game with open kinds also types."""
    typed = TYPED.get(game.id)
    if typed and (not legal or chooser.random() < 0.4):
        action = Action.from_key(chooser.choice(typed))
        try:
            game.apply(state, seat, action, rng_for(0, 0))
            return action
        except IllegalAction:
            pass
    if not legal:
        return None
    kinds = sorted({a.kind for a in legal})
    onward = [k for k in kinds if k not in ("end", "phase", "done")]
    kind = chooser.choice(onward if onward and chooser.random() < 0.8 else kinds)
    return chooser.choice([a for a in legal if a.kind == kind])


class Walk(NamedTuple):
    kinds: frozenset[str]  # kinds of action taken
    unmarked: list[str]  # a card was shown, no event says so
    marked: list[str]  # an event says so, no card was shown


def walk(case: Case) -> Walk:
    """Seeded random games of one variant: every action checked."""
    game_id, variant, options = case
    game, model = GAMES[game_id], MODELS[game_id]
    n = game.variants[variant].max_players
    excused = set(MARKED_WITHOUT_A_CARD_SHOWN[game_id])
    kinds: set[str] = set()
    unmarked: list[str] = []
    marked: list[str] = []
    for seed in range(GAMES_PER_VARIANT[game_id]):
        seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(n)]
        state = game.setup(variant, seats, dict(options), seed)
        chooser = random.Random(seed)
        before = model(state)
        for number in range(1, MAX_ACTIONS + 1):
            if game.outcome(state) is not None:
                break
            waiting = sorted(game.to_act(state))
            if not waiting or chooser.random() < ANYONE:
                seat = chooser.randrange(n)  # a seat may act uncalled (a Historia report)
            else:
                seat = chooser.choice(waiting)
            action = choose(game, state, seat, game.legal_actions(state, seat), chooser)
            if action is None:
                continue
            rng = tracking(seed, number)
            state, events = game.apply(state, seat, action, rng)
            after = model(state)
            kinds.add(action.kind)
            shown = newly_seen(before, after, rng.used)
            where = f"seed {seed}, action {number} ({action.key}): {[e.kind for e in events]}"
            if shown and not any(e.reveals for e in events):
                unmarked.append(f"{where} shows {shown[:3]}")
            excuse = excused & {e.kind for e in events}
            if not shown and any(e.reveals for e in events) and not excuse:
                marked.append(f"{where} shows nothing")
            if number % VIEWS_EVERY == 0:
                check_against_views(game, state, after.listed, number // VIEWS_EVERY % n)
            before = after
    return Walk(frozenset(kinds), unmarked, marked)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_an_action_is_marked_revealing_exactly_when_it_shows_someone_a_hidden_card(
    game_id: str,
) -> None:
    """Every action of the walk through every variant of the game (the walk takes every
    kind of action the game has)."""
    taken: set[str] = set()
    for case in (c for c in CASES if c[0] == game_id):
        found = walk(case)
        where = case_id(case)
        assert not found.unmarked, f"{where}: shown, not marked:\n" + "\n".join(found.unmarked[:9])
        assert not found.marked, f"{where}: marked, nothing shown:\n" + "\n".join(found.marked[:9])
        taken |= found.kinds
    assert ACTION_KINDS[game_id] - taken == set(), "kinds of action the walk never took"
    assert taken <= ACTION_KINDS[game_id], "kinds of action this test doesn't know"


def market_phase(seed: int = 0) -> BaseModel:
    """A Command of Nature game in a Phase III where its side may buy and refresh."""
    game = GAMES["command-of-nature"]
    state = game.setup("2p", [SeatSpec(seat=i, name=f"P{i}") for i in range(2)], {}, seed)
    chooser = random.Random(seed)
    for number in range(1, MAX_ACTIONS + 1):
        seat = chooser.choice(sorted(game.to_act(state)))
        kinds = {a.kind for a in game.legal_actions(state, seat)}
        if state.phase == "market" and {"buy", "refresh"} <= kinds:
            return state
        onward = [a for a in game.legal_actions(state, seat) if a.kind not in ("buy", "sell")]
        state, _ = game.apply(state, seat, chooser.choice(onward), rng_for(seed, number))
    raise AssertionError("no market phase with gold to spend")


@pytest.mark.parametrize("kind", ["buy", "refresh"])
def test_a_market_action_that_turns_up_no_card_is_not_marked_revealing(kind: str) -> None:
    """With its deck run out, a market refills nothing after a buy, and a refresh brings
    the same cards back face up: nothing hidden is shown, so nothing is marked (with a
    deck to draw from, the walk sees both marked)."""
    game = GAMES["command-of-nature"]
    state = market_phase()
    for market in (state.elementals, state.commands):
        state.removed += market.deck  # (into the box: every card stays in one place)
        market.deck = []
    seat = sorted(game.to_act(state))[0]
    action = next(a for a in game.legal_actions(state, seat) if a.kind == kind)
    after, events = game.apply(state, seat, action, rng_for(0, 1))
    assert [e.kind for e in events] == [kind]
    assert not any(e.reveals for e in events)
    assert not newly_seen(command_of_nature(state), command_of_nature(after), drew=False)
