"""The AI never peeks: it decides from what its seat may see. `Game.redeal` keeps every
seat's view (and everything else it can see) and each card once; the AI, given two
states its seat can't tell apart, decides the same way; games with AI seats end in
every variant, and replaying them gives their state back."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import BaseModel

import ai
from ai import Budget, Level, partners
from rules.command_of_nature import State as NatureState
from rules.command_of_nature.state import Player as NaturePlayer
from rules.core import Action, Game, SeatSpec, rng_for
from rules.core.rng import shuffle
from rules.mystic_vale import State as ValeState
from rules.registry import GAMES
from rules.tooth_and_nail import State as NailState
from rules.tooth_and_nail.state import Player as NailPlayer

VARIANTS = {
    ("tooth-and-nail", "2p"): 2,
    ("tooth-and-nail", "3p"): 3,
    ("tooth-and-nail", "alliance"): 2,
    ("tooth-and-nail", "4p"): 4,
    ("command-of-nature", "2p"): 2,
    ("command-of-nature", "4p"): 4,
    ("mystic-vale", "2p"): 2,
    ("mystic-vale", "3p"): 3,
    ("mystic-vale", "4p"): 4,
}
IDS = [f"{g}-{v}" for g, v in VARIANTS]
QUICK = Budget(playouts=30, worlds=3, per_choice=5)  # no time limit: decisions repeat
MAX_ACTIONS = 4000
ENOUGH = 14  # decisions compared per variant


def new_game(game_id: str, variant: str, seed: int) -> tuple[Game, BaseModel]:
    game = GAMES[game_id]
    seats = [SeatSpec(seat=i, name=f"P{i}") for i in range(VARIANTS[game_id, variant])]
    options = {"leaders": "on"} if game_id == "mystic-vale" and seed % 2 else {}
    return game, game.setup(variant, seats, options, seed)


def positions(game_id: str, variant: str, seed: int, every: int) -> Iterator[BaseModel]:
    """Every `every`th state of a quick random game (the judges' own playout policy)."""
    game, state = new_game(game_id, variant, seed)
    judge = ai.JUDGES[game_id]
    chooser = random.Random(seed)
    for n in range(MAX_ACTIONS):
        if game.outcome(state) is not None:
            return
        if n % every == 0:
            yield state
        seat = chooser.choice(sorted(game.to_act(state)))
        action = judge.quick(game, state, seat, game.legal_actions(state, seat), chooser)
        state, _ = game.apply(state, seat, action, rng_for(seed, n))
    raise AssertionError("the game did not end")


def unseen_cards(state: BaseModel) -> list[int]:
    """Every card in a place some seat can't see (hands, decks, face-down piles)."""
    match state:
        case NailState():
            return [
                *(c for t in state.teams for c in (*t.deck, *t.face_down)),
                *(c for p in state.players for c in p.hand),
            ]
        case NatureState():
            return [
                *(c for p in state.players for c in (*p.deck, *p.hand)),
                *state.elementals.deck,
                *state.commands.deck,
            ]
        case ValeState():
            decks = [*state.commons.decks.values(), *state.commons.vale_decks.values()]
            return [*(c for p in state.players for c in p.deck), *(c for d in decks for c in d)]
    raise AssertionError(type(state))


def scramble(state: BaseModel, seat: int, rng: random.Random) -> BaseModel:
    """Another state `seat` can't tell from this one, dealt by the rulebooks' reading of
    what a player sees (not by `Game.redeal`): the cards of each pile it can't see
    shuffled, and an opponent's hand mixed with their deck (a team's deck in Tooth &
    Nail, with the hands of everyone else on that team)."""
    other = state.model_copy(deep=True)
    match other:
        case NailState():
            for team in other.teams:
                hands = [other.players[s] for s in team.seats if s != seat]
                deck = (team.deck, unseen_part(team.deck, team.shown_under))
                mix_unseen([deck, (team.face_down, slice(None))], hands, rng)
        case NatureState():
            mine = other.players[seat].team
            for p in other.players:
                top = len(shown_to_all(other)[p.seat][1])  # type: ignore[index]
                deck = (p.deck, unseen_part(p.deck, 0, top))
                mix_unseen([deck], [] if p.team == mine else [p], rng)
            for market in (other.elementals, other.commands):
                mix_unseen([(market.deck, unseen_part(market.deck, market.shown_under))], [], rng)
        case ValeState():
            looked_at = {f.subject for f in other.frames if f.kind == "free_top"}
            commons = other.commons
            decks = [(p.deck, p.shown_under) for p in other.players]
            decks += [(d, 0) for d in (*commons.decks.values(), *commons.vale_decks.values())]
            for deck, under in decks:
                top = 1 if deck and deck[-1] in looked_at else 0
                mix_unseen([(deck, unseen_part(deck, under, top))], [], rng)
    return other


def shown_to_all(state: BaseModel) -> dict[object, object]:
    """Where the whole table saw hidden cards go, still there: cards into a hand or
    onto a deck face up, cards put under a deck (a Refresh, Mend, a card to the bottom)."""
    found: dict[object, object] = {}
    match state:
        case NatureState():
            for p in state.players:
                top = p.shown_on_top
                n = next(
                    (k for k in range(len(top), 0, -1) if p.deck[-k:] == top[-k:]),
                    0,
                )
                found[p.seat] = (known_in_hand(p), p.deck[len(p.deck) - n :] if n else [])
            for name, market in (("elementals", state.elementals), ("commands", state.commands)):
                found[name] = market.deck[: market.shown_under]
        case NailState():
            for t in state.teams:
                found[t.team] = t.deck[: t.shown_under]
            for p in state.players:
                found[p.seat] = known_in_hand(p)
        case ValeState():
            for p in state.players:
                found[p.seat] = p.deck[: p.shown_under]
    return found


def known_in_hand(player: NailPlayer | NaturePlayer) -> list[int]:
    return sorted(c for c in player.shown_in_hand if c in player.hand)


def unseen_part(deck: list[int], under: int, top: int = 0) -> slice:
    """The part of a deck nobody saw: above its `under` bottom cards, below `top`."""
    return slice(min(under, len(deck)), len(deck) - top)


def mix_unseen(piles: list[tuple[list[int], slice]], hands: list[Any], rng: random.Random) -> None:
    """`mix` the unseen parts of decks (each with its slice) and the cards of hands
    nobody saw go in."""
    parts = [deck[part] for deck, part in piles]
    unseen = [[c for c in p.hand if c not in p.shown_in_hand] for p in hands]
    mix([*parts, *unseen], rng)
    for (deck, part), cards in zip(piles, parts, strict=True):
        deck[part] = cards
    for p, cards in zip(hands, unseen, strict=True):
        dealt = iter(cards)
        p.hand = [c if c in p.shown_in_hand else next(dealt) for c in p.hand]


def mix(piles: list[list[int]], rng: random.Random) -> None:
    pool = [c for pile in piles for c in pile]
    shuffle(pool, rng)
    for pile in piles:
        pile[:], pool = pool[: len(pile)], pool[len(pile) :]


def seen_by(game: Game, state: BaseModel, seat: int) -> tuple[object, ...]:
    """Everything a seat is shown: its view, the public view, its question and choices."""
    legal = [a.key for a in game.legal_actions(state, seat)]
    return game.view(state, seat), game.view(state, None), game.question(state, seat), legal


@pytest.mark.parametrize(("game_id", "variant"), list(VARIANTS), ids=IDS)
def test_a_redeal_keeps_what_the_seat_sees_and_every_card_once(game_id: str, variant: str) -> None:
    game = GAMES[game_id]
    changed = 0
    for seed in range(3):
        for state in positions(game_id, variant, seed, every=7):
            for seat in range(VARIANTS[game_id, variant]):
                world = game.redeal(state, seat, random.Random(seed))
                assert seen_by(game, world, seat) == seen_by(game, state, seat)
                assert shown_to_all(world) == shown_to_all(state)
                assert sorted(unseen_cards(world)) == sorted(unseen_cards(state))
                changed += unseen_cards(world) != unseen_cards(state)
    assert changed > 20  # the hidden cards really move


@pytest.mark.parametrize(("game_id", "variant"), list(VARIANTS), ids=IDS)
def test_the_ai_decides_the_same_whatever_the_cards_it_cannot_see(
    game_id: str, variant: str
) -> None:
    """Non-interference: two states a seat can't tell apart lead it to one decision."""
    game = GAMES[game_id]
    compared = 0
    for seed in range(2):
        for state in positions(game_id, variant, seed, every=11):
            if compared >= ENOUGH:
                break
            rng = random.Random(seed)
            for seat in sorted(game.to_act(state)):
                if len(game.legal_actions(state, seat)) < 2:
                    continue
                other = scramble(state, seat, rng)
                assert seen_by(game, other, seat) == seen_by(game, state, seat)
                if unseen_cards(other) == unseen_cards(state):
                    continue
                mine = ai.decide(game, state, seat, Level.STRONG, seed=seed, budget=QUICK)
                theirs = ai.decide(game, other, seat, Level.STRONG, seed=seed, budget=QUICK)
                assert mine == theirs, (seed, seat, mine.key, theirs.key)
                compared += 1
    assert compared >= 8


def play_with_ai(
    game_id: str, variant: str, seed: int, level: Callable[[int], Level]
) -> tuple[BaseModel, list[tuple[int, Action]]]:
    """A game every seat of which the AI plays (at `level(seat)`), to its end."""
    game, state = new_game(game_id, variant, seed)
    log: list[tuple[int, Action]] = []
    # Small budgets: the games need only end (a Mystic Vale playout weighs every buy).
    budgets = {Level.EASY: Budget(6, 1, 1), Level.STRONG: Budget(4, 2, 1)}
    while game.outcome(state) is None:
        assert len(log) < MAX_ACTIONS, "the game did not end"
        for seat in sorted(game.to_act(state)):  # as the bot asks: see `ai.partners.hands_over`
            action = ai.decide(
                game, state, seat, level(seat), seed=len(log), budget=budgets[level(seat)]
            )
            if not partners.hands_over(game, state, seat, action):
                break
        assert action in game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, action, rng_for(seed, len(log)))
        log.append((seat, action))
    return state, log


@pytest.mark.parametrize(("game_id", "variant"), list(VARIANTS), ids=IDS)
def test_games_with_ai_seats_end_and_replay_to_their_state(game_id: str, variant: str) -> None:
    game = GAMES[game_id]
    state, log = play_with_ai(game_id, variant, 7, lambda s: [Level.STRONG, Level.EASY][s % 2])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners
    _, replayed = new_game(game_id, variant, 7)
    for n, (seat, action) in enumerate(log):
        replayed, _ = game.apply(replayed, seat, action, rng_for(7, n))
    assert replayed == state


def test_a_redeal_keeps_a_refreshed_markets_cards_under_its_deck() -> None:
    """Command of Nature, Refresh: the three cards shown go under the market deck in
    front of everyone; imagining the hidden cards leaves them there."""
    game, state = nature_in_market()
    state, _ = game.apply(
        state, state.players[0].seat, Action(kind="refresh", args=("elementals",)), rng_for(1, 1)
    )
    under = state.elementals.deck[:3]
    assert state.elementals.shown_under == 3
    for seed in range(20):
        world = game.redeal(state, 1, random.Random(seed))
        assert world.elementals.deck[:3] == under  # type: ignore[attr-defined]


def test_a_redeal_keeps_a_card_taken_into_a_hand_face_up() -> None:
    """Command of Nature: an Elemental that went back to its owner's hand from the
    formation (in front of everyone) stays in that hand when the other side imagines
    the hidden cards, until it leaves it."""
    from rules.command_of_nature.effects import move_to_pile

    game, state = nature_in_market()
    owner = state.players[0]
    formation = state.sides[owner.team].formation
    card = next(
        e.card for pos in formation.occupied() if (e := formation.at(pos)) and e.owner == owner.seat
    )
    move_to_pile(state, card, "hand")
    assert card in state.players[0].shown_in_hand
    for seed in range(20):
        world = game.redeal(state, 1, random.Random(seed))
        assert card in world.players[0].hand  # type: ignore[attr-defined]


def nature_in_market() -> tuple[Game, NatureState]:
    """A 2-player Command of Nature game in the first side's Phase III."""
    from tests.rules.test_command_of_nature_turn import in_phase

    state, _ = in_phase("market")
    state.sides[state.active].gold = 5
    return GAMES["command-of-nature"], state
