"""Mystic Vale as an AI player reckons it: the score as it would be counted now (VP
tokens, the cards' and vales' VP, curses), plus what the player's 20 cards will yield
in the turns left.

A turn's yield is what the field shows at Harvest, and the field is as long as the
decay allows: Prep stops at 3 decay, a push Spoils at 4, and growth cancels decay. So a
deck yields about (its symbols) × (cards a field holds) / 20 a turn, the field holding
about 3 × 20 / (its net decay) cards: growth lengthens every field, decay shortens it.
Spirits pay for vales only when enough of them meet in one field, so a few of a kind
count for less than many, and mana beyond what two buys spend for little. The turns
left are the VP pool over what the VP symbols of both decks take from it each round,
each further turn counted a little less (the deck will change); a lead counts the
less, the more turns are left (one ahead wants the game over), and a small share of a
position's value is the lead by the end of the next turn, so that far ahead or behind
the points still count (the lead over the whole game ahead would have the better deck
put the end off). Whether to push is the chance that the next card Spoils, counted from the cards
the deck holds (their order is unknown). A playout buys, and answers an ability's
questions, as this reckoning values the outcome."""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import cache
from typing import ClassVar

from pydantic import BaseModel

from ai.judges import Judge
from rules.core import Action, Game, IllegalAction
from rules.mystic_vale.abilities import can_pay
from rules.mystic_vale.cards import SPIRITS, Advancement, Gain, get_pack
from rules.mystic_vale.harvest import buyable, buys_left, price
from rules.mystic_vale.scoring import score
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import advancement_of, advancements_on, decay_count, shown
from rules.mystic_vale.turn import PREP_STOPS_AT, SPOIL_AT, can_spoil

CARDS = 20  # a player's cards, all game
# What one symbol shown at a Harvest is worth, in VP.
WORTH = {"mana": 0.3, "vp": 1.0, "curse": -1.0, "guardian": 0.1}
SPIRIT = 0.7
SPIRITS_FOR_A_VALE = 3.0  # spirits of a kind a field needs before they buy vales readily
MANA_TURNS = 5.0  # mana is worth its full WORTH only with this many turns left to spend it
# Mana a Harvest can put to use: two advancements (BUYS) of the dearer kinds cost about
# this much; mana beyond it buys nothing more.
MANA_USABLE = 20.0
SPARE_MANA = 0.1  # what mana beyond it is still worth (a dearer buy now and then)
HORIZON = 25.0  # turns ahead at most counted
# A turn's yield counts this much less than the turn's before it: the deck changes as it
# goes (buys to come dilute any one card's decay or worth), and far turns are guesses.
FADE = 0.9
MANA_TOKEN = 0.6  # an active mana token
SPREAD = 8.0  # turns left over which a lead grows about √2 times less sure
# A position's value is mostly the chance to win; this share of it is the score's margin
# on a scale MARGIN_SCALE times wider, so that it still orders positions where the
# chance has saturated.
MARGIN, MARGIN_SCALE = 0.05, 10.0
MARGIN_TURNS = 1.0  # the turns ahead that lead counts (`MysticValeJudge.value`)
DRAIN = 0.1  # VP a round leaves the pool by other means (vales, abilities)


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


def _add_bought(totals: Counter[str], pack: str, card: Advancement) -> int:
    """Add a bought advancement (not yet sleeved) to a deck's `totals`: its symbols and
    what its Harvest abilities gain; its end-of-game VP, which it brings wherever it is."""
    counts = card.symbols.counts()
    totals.update(counts)
    totals.update(_harvest_gain(pack, "a", card.id))
    return counts.get("end_vp", 0)


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
                extra += _add_bought(totals, state.pack, advancement_of(state, instance))
        vales: Counter[str] = Counter()
        for instance in state.players[seat].vales:
            vales.update(_harvest_gain(state.pack, "v", state.cards[instance]))
        self._count(totals, vales, extra)

    def _count(self, totals: Counter[str], vales: Counter[str], extra: int) -> None:
        """A turn's yield from the symbols of the cards and vales."""
        self.totals, self.vales = totals, vales
        net = max(0.3, totals["decay"] - totals["growth"])
        field = min(float(CARDS), max(2.0, PREP_STOPS_AT * CARDS / net - 0.5))
        share = field / CARDS
        self.turn = {k: totals[k] * share + vales[k] for k in (*WORTH, *SPIRITS)}
        self.unsleeved_vp = extra

    def with_bought(self, pack: str, card: Advancement) -> Deck:
        """This deck once `card` is bought (to be sleeved), as `Deck` counts it."""
        totals = self.totals.copy()
        extra = _add_bought(totals, pack, card)
        deck = Deck.__new__(Deck)
        deck._count(totals, self.vales, self.unsleeved_vp + extra)
        return deck

    def worth(self, turns: float) -> float:
        """A turn's yield in VP (mana the less, the fewer turns are left to spend it, and
        little beyond what a Harvest's buys can spend)."""
        total = 0.0
        for symbol, worth in WORTH.items():
            count = self.turn[symbol]
            if symbol == "mana":
                worth *= min(1.0, turns / MANA_TURNS)
                count = min(count, MANA_USABLE) + SPARE_MANA * max(0.0, count - MANA_USABLE)
            total += worth * count
        spirits = sum(self.turn[s] for s in SPIRITS)
        for kind in SPIRITS:
            mine = self.turn[kind]
            usable = min(1.0, (mine + 0.5 * (spirits - mine)) / SPIRITS_FOR_A_VALE)
            total += SPIRIT * mine * (0.4 + 0.6 * usable)
        return total


def turns_left(state: State, decks: list[Deck], seat: int) -> float:
    """About how many more turns a player gets after the turn under way: in the last
    round, one for each seat still to play before the round comes back to the first
    player, none for the others; and one more for the active player with an extra turn
    to come."""
    if state.phase in ("final", "over"):
        return 0.0
    extra = float(state.extra_turn and seat == state.active)
    if state.last_round:
        n = len(state.players)
        return float((seat - state.first) % n > (state.active - state.first) % n) + extra
    drain = DRAIN + sum(max(0.0, d.turn["vp"]) for d in decks)
    return min(HORIZON, state.pool / drain) + extra


def counted(turns: float) -> float:
    """The turns ahead a deck's yield is counted for: all of the first, each next one
    FADE times less."""
    return (1.0 - FADE**turns) / (1.0 - FADE)


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
    always = frozenset({"buy", "vale"})
    novice: Judge = MysticValeNovice()

    def score(self, state: BaseModel, seat: int) -> float:
        assert isinstance(state, State)
        return self._lead(state, seat, _standings(state))

    def _lead(
        self,
        state: State,
        seat: int,
        parts: dict[int, tuple[Deck, int]],
        horizon: float | None = None,
    ) -> float:
        """`score` from each playing seat's deck and score now (`_standings`); with
        `horizon`, counting that many more turns for each seat that has one left, however
        fast the pool drains."""
        decks = [deck for deck, _ in parts.values()]
        turns = {s: turns_left(state, decks, s) for s in parts}
        if horizon is not None:
            turns = {s: horizon if left > 0 else 0.0 for s, left in turns.items()}

        def standing(s: int) -> float:
            (deck, points), left = parts[s], turns[s]
            token = MANA_TOKEN * min(1.0, left) * state.players[s].mana_token
            return points + deck.unsleeved_vp + counted(left) * deck.worth(left) + token

        mine = standing(seat) if seat in parts else float(score(state, seat))
        others = [standing(s) for s in parts if s != seat]
        lead = mine - max(others) if others else mine
        # The more turns are left, the less sure a lead: one ahead wants the game over.
        return lead / math.sqrt(1.0 + max(turns.values(), default=0.0) / SPREAD)

    def value(self, game: Game, state: BaseModel, seat: int) -> float:
        """The chance to win, with a small share (MARGIN) for the lead itself: far
        ahead or far behind, the chance hardly moves, and the points still should. That
        lead counts the next turn only (MARGIN_TURNS): over the whole game ahead, the
        better deck would gain by putting the end off, which the chance does not want."""
        assert isinstance(state, State)
        if game.outcome(state) is not None:
            return super().value(game, state, seat)
        return self._judged(state, seat, _standings(state))

    def _judged(self, state: State, seat: int, parts: dict[int, tuple[Deck, int]]) -> float:
        """`value` of a game still going, from each playing seat's `_standings`."""
        chance = _logistic(self._lead(state, seat, parts) / self.scale)
        near = self._lead(state, seat, parts, MARGIN_TURNS)
        return (1.0 - MARGIN) * chance + MARGIN * _logistic(near / (MARGIN_SCALE * self.scale))

    settled = MysticValeNovice.settled

    def turn(self, state: BaseModel) -> int:
        assert isinstance(state, State)
        return state.turn

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
        if state.frames and state.frames[-1].kind != "sleeve":
            # An ability's choice (a card to take for free, whether to use it): the one
            # the evaluation values most, as a buy is chosen below.
            # Whether to use an ability is worth what it leads to: look one answer on.
            answers = int(state.frames[-1].kind == "use")
            return self._by_gain(game, state, seat, game.legal_actions(state, seat), answers)
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

        # The playout buys what the evaluation values, best first, and nothing that
        # lowers it: a cheap rule of thumb here would buy cards the judge then marks
        # down, and every buy would look worse than ending the Harvest.
        def best(actions: list[Action]) -> list[Action]:
            return self._by_gain(game, state, seat, actions, ANSWERS_AHEAD, only_gains=True)

        return [*best(vales), *best(advancements), Action(kind="done")]

    def _by_gain(
        self,
        game: Game,
        state: State,
        seat: int,
        actions: list[Action],
        answers: int,
        only_gains: bool = False,
    ) -> list[Action]:
        """`actions` by how much each raises the seat's `value` once up to `answers`
        questions it raises are answered (`ahead`), best first (with `only_gains`, only
        those that raise it); those the rules refuse left out."""
        parts = _standings(state)
        now = self._judged(state, seat, parts)
        gain: dict[str, float] = {}
        alike: dict[tuple[str, str], float] = {}  # copies of a card are worth the same
        for action in actions:
            card = _card_of(state, action)
            if card in alike:
                gain[action.key] = alike[card]
            elif (plain := _plain_buy(state, seat, action)) is not None:
                # Counted without playing it: the seat's deck with the card, less its VP.
                deck, points = parts[seat]
                mine = (deck.with_bought(state.pack, plain), points - plain.cost.vp)
                bought = {**parts, seat: mine}
                gain[action.key] = alike[card] = self._judged(state, seat, bought) - now
            elif (after := _after(game, state, seat, action)) is not None:
                gain[action.key] = alike[card] = self.ahead(game, after, seat, answers) - now
        kept = [a for a in actions if a.key in gain and (gain[a.key] > 0 or not only_gains)]
        return sorted(kept, key=lambda a: -gain[a.key])

    def ahead(self, game: Game, state: State, seat: int, answers: int) -> float:
        """The seat's `value` once it has answered, each as well as the value says, up
        to `answers` more of its own choices that an ability asks (whether to use it,
        which card to take): "use" is worth what it leads to."""
        frame = state.frames[-1] if state.frames else None
        if answers <= 0 or frame is None or frame.kind == "sleeve" or seat not in frame.deciders:
            return self.value(game, state, seat)
        outcomes = (_after(game, state, seat, a) for a in game.legal_actions(state, seat))
        values = [self.ahead(game, s, seat, answers - 1) for s in outcomes if s is not None]
        return max(values, default=self.value(game, state, seat))


# An ability's questions a playout looks through to judge a buy (whether to use it, then
# which card to take).
ANSWERS_AHEAD = 2


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-700.0, x)))  # e**700 is still a float


def _standings(state: State) -> dict[int, tuple[Deck, int]]:
    """Each playing seat's `Deck` and score now."""
    players = [p.seat for p in state.players if not p.conceded]
    return {s: (Deck(state, s), score(state, s)) for s in players}


def _plain_buy(state: State, seat: int, action: Action) -> Advancement | None:
    """The advancement a buy in the seat's Harvest takes, if buying it changes nothing
    but the seat's deck and VP (no ability when bought, no mana token spent); else
    None."""
    if action.kind != "buy" or state.harvest is None or state.active != seat:
        return None
    card = advancement_of(state, int(action.args[0]))
    if any(a.when == "bought" for a in card.abilities):
        return None
    cost = price(state, seat, card)
    if cost.mana > state.harvest.mana or not can_pay(state, seat, cost):  # a token pays
        return None  # (the mana token, a curse), or nothing can: played out, or refused
    return card


def _card_of(state: State, action: Action) -> tuple[str, str]:
    """The card a buy or vale action takes (any copy of it), else the action itself."""
    if action.kind in ("buy", "vale"):
        return (action.kind, state.cards[int(action.args[0])])
    return (action.kind, action.key)


def _after(game: Game, state: State, seat: int, action: Action) -> State | None:
    """The state after `action`, tried with a fixed luck (leaving a playout's own
    alone); None if the rules refuse it."""
    try:
        after, _ = game.apply(state, seat, action, random.Random(0))
    except IllegalAction:
        return None
    assert isinstance(after, State)
    return after
