"""Mystic Vale as an AI player reckons it: the score as it would be counted now (VP
tokens, the cards' and vales' VP, curses), plus what the player's 20 cards will yield
in the turns left.

A turn's yield is what the field shows at Harvest, and the field is as long as the
decay allows: Prep stops at 3 decay, a push Spoils at 4, and growth cancels decay. So a
deck yields about (its symbols) × (cards a field holds) / 20 a turn, the field holding
about 3 × 20 / (its net decay) cards: growth lengthens every field, decay shortens it.
Spirits pay for vales only when enough of them meet in one field, so a few of a kind
count for less than many. The turns left are the VP pool over what the VP symbols of
both decks take from it each round; a lead counts the less, the more turns are left
(one ahead wants the game over). Whether to push is the chance that the next card
Spoils, counted from the cards the deck holds (their order is unknown)."""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import cache
from typing import ClassVar

from pydantic import BaseModel

from rules.core import Action, Game
from rules.mystic_vale.cards import SPIRITS, Gain, get_pack
from rules.mystic_vale.harvest import buyable, buys_left
from rules.mystic_vale.scoring import score
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import advancement_of, advancements_on, decay_count, shown
from rules.mystic_vale.turn import PREP_STOPS_AT, SPOIL_AT, can_spoil
from tests.bench.baseline_ai.judges import Judge

CARDS = 20  # a player's cards, all game
# What one symbol shown at a Harvest is worth, in VP.
WORTH = {"mana": 0.3, "vp": 1.0, "curse": -1.0, "guardian": 0.1}
SPIRIT = 0.7
SPIRITS_FOR_A_VALE = 3.0  # spirits of a kind a field needs before they buy vales readily
MANA_TURNS = 5.0  # mana is worth its full WORTH only with this many turns left to spend it
HORIZON = 25.0  # turns ahead at most counted
MANA_TOKEN = 0.6  # an active mana token
SPREAD = 8.0  # turns left over which a lead grows about √2 times less sure
DRAIN = 0.1  # VP a round leaves the pool by other means (vales, abilities)
# Worth of a card's symbol per Harvest it shows in, as the quick policy reckons
# (decay and growth: the field they shorten or lengthen).
QUICK = {**WORTH, **dict.fromkeys(SPIRITS, 0.5), "decay": -1.0, "growth": 1.0}
QUICK_PLAYS = 6.0  # Harvests a card bought now shows in, as the quick policy reckons


@cache
def _harvest_gain(pack: str, kind: str, card_id: str) -> dict[str, int]:
    """What an advancement's or vale's Harvest abilities gain each Harvest without a
    cost or sacrifice (a gain per something counted once)."""
    cards = get_pack(pack)
    card = cards.advancement(card_id) if kind == "a" else cards.vale(card_id)
    total: Counter[str] = Counter()
    for ability in card.abilities:
        if ability.when != "harvest" or ability.cost is not None or ability.sacrifice:
            continue
        for op in ability.ops:
            if isinstance(op, Gain):
                total.update(op.symbols.counts())
    return dict(total)


def _net(symbols: Counter[str] | dict[str, int]) -> int:
    return symbols.get("decay", 0) - symbols.get("growth", 0)


def spoil_chance(state: State, seat: int) -> float:
    """The chance a push Spoils now, from what the deck holds (not its order); none
    while a standing effect says the seat cannot Spoil, certain once the nemesis's
    Corrupted Centaur says the next Spoil test Spoils."""
    player = state.players[seat]
    pile = player.deck or player.discard
    if not pile or not can_spoil(state, seat):
        return 0.0
    if state.nemesis is not None and state.nemesis.forced_spoil:
        return 1.0
    now = decay_count(state, seat)
    bad = sum(now + _net(shown(state, state.card(c))) >= SPOIL_AT for c in pile)
    return bad / len(pile)


class Deck:
    """What a player's cards (and vales) show in all, and yield a turn."""

    def __init__(self, state: State, seat: int) -> None:
        totals: Counter[str] = Counter()
        extra = 0
        for card in state.physical:
            if card.owner != seat:
                continue
            totals.update(shown(state, card))
            for instance in advancements_on(state, card):
                totals.update(_harvest_gain(state.pack, "a", state.cards[instance]))
        harvest = state.harvest
        if harvest is not None and state.active == seat:  # bought, to be sleeved
            for instance in harvest.bought:
                card = advancement_of(state, instance)
                counts = card.symbols.counts()
                extra += counts.get("end_vp", 0)
                totals.update(counts)
                totals.update(_harvest_gain(state.pack, "a", card.id))
        vales: Counter[str] = Counter()
        for instance in state.players[seat].vales:
            vales.update(_harvest_gain(state.pack, "v", state.cards[instance]))
        net = max(0.3, totals["decay"] - totals["growth"])
        field = min(float(CARDS), max(2.0, PREP_STOPS_AT * CARDS / net - 0.5))
        share = field / CARDS
        self.turn = {k: totals[k] * share + vales[k] for k in (*WORTH, *SPIRITS)}
        self.unsleeved_vp = extra

    def worth(self, turns: float) -> float:
        """A turn's yield in VP (mana the less, the fewer turns are left to spend it)."""
        total = 0.0
        for symbol, worth in WORTH.items():
            if symbol == "mana":
                worth *= min(1.0, turns / MANA_TURNS)
            total += worth * self.turn[symbol]
        spirits = sum(self.turn[s] for s in SPIRITS)
        for kind in SPIRITS:
            mine = self.turn[kind]
            usable = min(1.0, (mine + 0.5 * (spirits - mine)) / SPIRITS_FOR_A_VALE)
            total += SPIRIT * mine * (0.4 + 0.6 * usable)
        return total


def turns_left(state: State, decks: list[Deck], seat: int) -> float:
    """About how many more turns a player gets after the turn under way: in the last
    round, one for each seat still to play before the round comes back to the first
    player, none for the others."""
    if state.phase in ("final", "over"):
        return 0.0
    if state.last_round:
        n = len(state.players)
        return float((seat - state.first) % n > (state.active - state.first) % n)
    drain = DRAIN + sum(max(0.0, d.turn["vp"]) for d in decks)
    return min(HORIZON, state.pool / drain)


# What one symbol on a card is worth to a newcomer, in VP, over a whole game still ahead.
NOVICE = {
    "mana": 1.2,
    **dict.fromkeys(SPIRITS, 0.9),
    "guardian": 0.5,
    "vp": 2.0,
    "growth": 0.6,
    "decay": -0.8,
    "curse": -0.6,
}
NOVICE_PUSH = (1.5, 0.8, 0.25, 0.03)  # a push's weight by the decay counted now


class MysticValeNovice(Judge):
    """The practice opponent: it counts each symbol at a flat worth, pushes by the decay
    it sees and buys whatever it can."""

    weights: ClassVar[dict[str, float]] = {
        "push": 3.0,
        "stop": 1.0,
        "buy": 4.0,
        "vale": 3.0,
        "upgrade": 3.0,
        "sleeve": 2.0,
    }
    scale = 6.0

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        others = [p.seat for p in state.players if p.seat != seat and not p.conceded]
        mine = _flat(state, seat)
        return mine - max(_flat(state, s) for s in others) if others else mine

    def settled(self, game: Game, state: BaseModel, seat: int) -> bool:
        assert isinstance(state, State)
        return state.phase not in ("planting", "harvest") or state.active != seat

    def weight(self, state: BaseModel, seat: int, action: Action) -> float:
        assert isinstance(state, State)
        if action.kind == "push":
            return NOVICE_PUSH[min(decay_count(state, seat), len(NOVICE_PUSH) - 1)]
        return super().weight(state, seat, action)


def _flat(state: State, seat: int) -> float:
    """A score now, and each symbol of the player's cards at a flat worth, the less as
    the VP pool empties."""
    left = state.pool / state.pool_start if state.pool_start else 0.0
    symbols: Counter[str] = Counter()
    for card in state.physical:
        if card.owner == seat:
            symbols.update(shown(state, card))
    if state.harvest is not None and state.active == seat:  # bought, to be sleeved
        for instance in state.harvest.bought:
            symbols.update(advancement_of(state, instance).symbols.counts())
    engine = sum(NOVICE.get(symbol, 0.0) * count for symbol, count in symbols.items())
    return score(state, seat) + left * engine


class MysticValeJudge(Judge):
    """Push while the deck makes it safe, buy the cards that grow the yield, then vales."""

    weights: ClassVar[dict[str, float]] = {"use": 2.0, "skip": 1.0}
    scale = 10.0
    sure_after = 2
    novice: Judge = MysticValeNovice()

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        players = [p.seat for p in state.players if not p.conceded]
        decks = {s: Deck(state, s) for s in players}
        turns = {s: turns_left(state, list(decks.values()), s) for s in players}

        def standing(s: int) -> float:
            deck, left = decks[s], turns[s]
            token = MANA_TOKEN * min(1.0, left) * state.players[s].mana_token
            return score(state, s) + deck.unsleeved_vp + left * deck.worth(left) + token

        mine = standing(seat) if seat in decks else float(score(state, seat))
        others = [standing(s) for s in players if s != seat]
        lead = mine - max(others) if others else mine
        # The more turns are left, the less sure a lead: one ahead wants the game over.
        return lead / math.sqrt(1.0 + max(turns.values(), default=0.0) / SPREAD)

    settled = MysticValeNovice.settled

    def instinct(
        self, game: Game, world: BaseModel, seat: int, legal: list[Action]
    ) -> Action | None:
        assert isinstance(world, State)
        frame = world.frames[-1] if world.frames else None
        if frame is not None and frame.kind == "sleeve":
            return max(legal, key=lambda a: self.glance(game, world, seat, a))
        skip = Action(kind="skip")
        # An ability that discards from the field, used when the deck is spent or in
        # Prep, only cycles the same cards through the field again and again.
        spent = world.phase == "planting" and not world.players[seat].deck
        if skip in legal and (world.phase == "prep" or spent):
            return skip
        push = Action(kind="push")
        if world.phase == "planting" and push in legal and spoil_chance(world, seat) == 0:
            return push
        return None

    def hunch(
        self, game: Game, state: BaseModel, seat: int, rng: random.Random
    ) -> list[Action] | None:
        assert isinstance(state, State)
        if state.frames or state.pending or state.active != seat:
            return None
        push, stop = Action(kind="push"), Action(kind="stop")
        if state.phase == "planting":
            risk = spoil_chance(state, seat)
            chance = 1.0 if risk == 0 else 0.6 if risk < 0.12 else 0.25 if risk < 0.25 else 0.03
            return [push, stop] if rng.random() < chance else [stop, push]
        if state.phase != "harvest":
            return None
        # Vales before advancements: once an advancement is bought no vale can be.
        assert state.harvest is not None
        vales_left, buys = buys_left(state.harvest)
        vales = [
            Action(kind="vale", args=(str(i),))
            for r in state.commons.vale_rows.values()
            for i in r
            if i is not None and vales_left
        ]
        advancements = [Action(kind="buy", args=(str(i),)) for i in buyable(state, seat) if buys]
        worth = {a.key: _buy_worth(state, a) for a in (*vales, *advancements)}

        def best(actions: list[Action]) -> list[Action]:
            return sorted((a for a in actions if worth[a.key] > 0), key=lambda a: -worth[a.key])

        return [*best(vales), *best(advancements), Action(kind="done")]


def _buy_worth(state: State, action: Action) -> float:
    """What buying this is worth, as the quick policy reckons (0: stop buying)."""
    cards = get_pack(state.pack)
    if action.kind == "vale":
        vale = cards.vale(state.cards[int(action.args[0])])
        gain = _harvest_gain(state.pack, "v", vale.id)
        return (
            1.0
            + vale.symbols.end_vp
            + QUICK_PLAYS * sum(QUICK.get(k, 0) * n for k, n in gain.items())
        )
    card = advancement_of(state, int(action.args[0]))
    counts = Counter(card.symbols.counts())
    counts.update(_harvest_gain(state.pack, "a", card.id))
    per_play = sum(QUICK.get(k, 0.0) * n for k, n in counts.items())
    return counts.get("end_vp", 0) + QUICK_PLAYS * per_play
