"""Tooth & Nail as an AI player reckons it: a deck is a life total (a side whose deck
runs out loses), a hand is what it will play, Troops are damage to come (War Zone)
and cards or Action Points every Recharge (Command Zone)."""

from __future__ import annotations

import random
from typing import ClassVar

from pydantic import BaseModel

from ai.judges import Judge
from rules.core import Action, Game, Seat
from rules.tooth_and_nail.rules import card_def
from rules.tooth_and_nail.state import State, Team

# What each thing is worth, in cards of deck.
HAND = 0.45
WAR_TROOP = 0.8  # and its strength on top
STRENGTH = 0.6
COMMAND_TROOP = 1.3  # the novice's; the strong judge counts what it brings (below)
AP = 0.25
ATTACKS = frozenset({"attack", "formation"})  # a Troop's attack, a Faction's Formation Attack
# The Factions best first for a race: damage straight to the deck (Scorchmane Riders),
# discard piles back under the deck (Loamshell Wardens), drains and recharges for tempo
# (Quillspark Tinkerers); searching one's own deck and drawing cost lives.
FACTIONS = {
    name: rank
    for rank, name in enumerate(
        (
            "scorchmane-riders",
            "loamshell-wardens",
            "quillspark-tinkerers",
            "marauders",
            "ostra-vulture",
            "skitterwen-brood",
        )
    )
}


class ToothAndNailNovice(Judge):
    """The practice opponent: it counts Troops, not when they can attack."""

    weights: ClassVar[dict[str, float]] = {
        "end": 0.15,
        "attack": 4.0,
        "formation": 4.0,
        "play": 2.0,
        "ability": 1.5,
    }
    scale = 4.0
    command_troop: ClassVar[float] = COMMAND_TROOP

    def score(self, state: BaseModel, seat: Seat) -> float:
        assert isinstance(state, State)
        mine = state.team_of(seat)
        others = [t for t in state.teams if t.team != mine.team and _alive(state, t)]
        if not others:
            return 0.0
        worth = self.command_troop
        theirs = sum(_strength(state, t, worth) for t in others) / len(others)
        return _strength(state, mine, worth) - theirs

    def weight(self, state: BaseModel, seat: Seat, action: Action) -> float:
        assert isinstance(state, State)
        if action.kind == "recharge":  # draw while the deck is long, AP once it runs short
            short = len(state.team_of(seat).deck) < 8
            return 3.0 if (action.args[0] == "ap") == short else 1.0
        return super().weight(state, seat, action)


class ToothAndNailJudge(ToothAndNailNovice):
    """The novice's reckoning, with a Faction chosen for the race."""

    novice: Judge = ToothAndNailNovice()
    # A Command Zone Troop is 1 AP or card every Recharge for the rest of the game, which
    # no playout reaches (they end with the other side's turn): counted at the novice's
    # 1.3 the AI spent its AP attacking and rarely built a Command Zone. Against the
    # baseline on seeds 1000-1099: 49 % at 1.3, 79 % at 2.5, 91 % at 3.5, 78 % of 45
    # at 5.0; 3.5 on seeds 1100-1199, 88 %.
    command_troop = 3.5
    always = frozenset({"attack"})  # each troop's attack, in its best-looking form
    # What a turn leaves is worth what the other side's attacks make of it: every
    # choice's playout plays the next turn out too (54 % against the baseline in 120
    # games, 47 % stopping where the turn ends).
    turns_after = 1

    def shortlist(
        self, game: Game, world: BaseModel, seat: Seat, legal: list[Action]
    ) -> list[Action]:
        """The choices worth searching (`Judge.shortlist`), never ending the turn with AP
        left while an attack would damage an opposing deck: the rulebook notes a player
        very rarely leaves Action Points unspent, and where ending the turn looks as good
        (the other side's Recharge would draw its last card) the attack is sure now."""
        assert isinstance(world, State)
        ending = world.players[seat].ap > 0 and any(a.kind == "end" for a in legal)
        if ending and any(a.kind in ATTACKS and damages(game, world, seat, a) for a in legal):
            legal = [a for a in legal if a.kind != "end"]
        return super().shortlist(game, world, seat, legal)

    def instinct(
        self, game: Game, world: BaseModel, seat: Seat, legal: list[Action]
    ) -> Action | None:
        factions = [a for a in legal if a.kind == "faction"]
        if factions:
            return min(factions, key=lambda a: FACTIONS.get(a.args[0], len(FACTIONS)))
        return None


def damages(game: Game, state: State, seat: Seat, attack: Action) -> bool:
    """Whether `attack` shortens an opposing team's deck."""
    after, _ = game.apply(state, seat, attack, random.Random(0))
    assert isinstance(after, State)
    mine = state.team_of(seat).team
    return any(len(after.teams[t.team].deck) < len(t.deck) for t in state.teams if t.team != mine)


def _alive(state: State, team: Team) -> bool:
    return any(not state.players[s].eliminated for s in team.seats)


def _strength(state: State, team: Team, command_troop: float) -> float:
    """A side's standing in cards of deck: its deck, and what its players hold (a
    Command Zone Troop counted at `command_troop`)."""
    total = float(len(team.deck))
    for seat in team.seats:
        player = state.players[seat]
        if player.eliminated:
            continue
        total += HAND * len(player.hand) + AP * player.ap
        total += command_troop * len(player.command_zone)
        for troop in player.war_zone:
            total += WAR_TROOP + STRENGTH * card_def(state, troop.card).strength
    return total
