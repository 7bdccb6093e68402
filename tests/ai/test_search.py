"""How the AI searches a decision: it never undoes its own move or makes one that
changes nothing, its shortlist keeps attacks, Commands and buys, a tie goes to moving
on, and a decision keeps to its time. The positions in `positions/` are saved states
where an earlier AI played badly (see their README in the shared notes)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from pydantic import BaseModel

import ai
from ai import BUDGETS, Budget, Level
from ai.command_of_nature import CommandOfNatureJudge, forgoes_attacks, lands
from ai.judges import SHORTLIST, Judge
from ai.search import Search
from ai.tooth_and_nail import ToothAndNailJudge
from rules.command_of_nature import State
from rules.command_of_nature.table import is_sage
from rules.core import Game, Seat, SeatSpec, rng_for
from rules.registry import GAMES

GAME = GAMES["command-of-nature"]
SMALL = Budget(playouts=120, worlds=4, per_choice=8)  # no time limit: decisions repeat
POSITIONS = Path(__file__).parent / "positions"


def position(name: str) -> tuple[State, Seat]:
    state = GAME.state_model.model_validate_json((POSITIONS / name).read_text())
    assert isinstance(state, State)
    return state, sorted(GAME.to_act(state))[0]


def test_the_ai_does_not_swap_back_and_plays_a_command_or_attack_instead():
    """con-2p-swap-back: with 1 AP left it swapped Acorn Squire and Timber back; Bramble
    Oath and Close Strike score higher when searched."""
    state, seat = position("con-2p-swap-back.json")
    action = ai.decide(GAME, state, seat, Level.STRONG, seed=10020050, budget=SMALL)
    assert action.key in {"play|bramble-oath", "attack|close-strike|0.0|0.0"}


def test_the_ai_does_not_swap_alike_elementals_and_uses_its_attack():
    """con-2p-noop-swaps: it spent all 3 AP swapping Cobble with Cobble, then discarded
    Far Strike and Sling Toss. Through the whole turn now: no move that changes nothing
    or brings back a position seen, and Far Strike or Sling Toss played."""
    state, seat = position("con-2p-noop-swaps.json")
    seen = [_position(state)]
    played: list[str] = []
    for n in range(40):
        if state.active != 0 or state.phase not in ("daybreak", "actions"):
            break
        who = sorted(GAME.to_act(state))[0]
        if who != seat:  # the defender lets an attack through, fills a gap
            legal = GAME.legal_actions(state, who)
            answer = next((a for a in legal if a.kind == "let"), legal[0])
            state, _ = GAME.apply(state, who, answer, random.Random(n))
            continue
        action = ai.decide(GAME, state, seat, Level.STRONG, seed=10000019 + n, budget=SMALL)
        played.append(action.key)
        state, _ = GAME.apply(state, seat, action, random.Random(n))
        assert isinstance(state, State)
        assert _position(state) not in seen, played
        seen.append(_position(state))
    assert any(k.startswith(("attack|far-strike", "play|sling-toss")) for k in played), played


def _position(state: State) -> str:
    """The state as a move leaves it, but for the AP spent."""
    return state.model_copy(
        update={"sides": [s.model_copy(update={"ap": 0}) for s in state.sides]}
    ).model_dump_json()


def test_a_swap_the_ai_searches_is_never_undone_by_one_it_searches_next():
    """A plain swap is searched only when it climbs, so its reverse never is: the AI
    can't swap back and forth within a turn."""
    judge = CommandOfNatureJudge()
    for name in ("con-2p-swap-back.json", "con-2p-noop-swaps.json"):
        state, seat = position(name)
        state.sides[state.active].ap = 4
        for action in judge.shortlist(GAME, state, seat, GAME.legal_actions(state, seat)):
            if action.kind != "swap":
                continue
            after, _ = GAME.apply(state, seat, action, random.Random(0))
            assert isinstance(after, State)
            searched = judge.shortlist(GAME, after, seat, GAME.legal_actions(after, seat))
            assert action not in searched, (name, action.key)


def test_the_shortlist_always_keeps_attacks_commands_and_buys():
    """Over the shortlist's size, no attack, Command or buy is dropped for a swap that
    looks as good one step ahead: every card is searched, in the form that looks best
    at least (a buy, which ends Phase II, once no attack would land)."""
    judge = CommandOfNatureJudge()
    for name in ("con-2p-swap-back.json", "con-2p-noop-swaps.json"):
        state, seat = position(name)
        legal = GAME.legal_actions(state, seat)
        assert len(legal) > SHORTLIST
        kept = judge.shortlist(GAME, state, seat, legal)
        wanted = {(a.kind, a.args[0]) for a in legal if a.kind in ("attack", "play")}
        if not any(a.kind == "attack" and lands(GAME, state, seat, a) for a in legal):
            wanted |= {(a.kind, a.args[1]) for a in legal if a.kind == "buy"}
        searched = {(a.kind, a.args[a.kind == "buy"]) for a in kept if a.args}
        assert wanted and wanted <= searched, (name, wanted - searched)


def test_the_ai_does_not_leave_phase_ii_while_an_attack_would_land():
    """con-2p-buys-before-attacking: with 3 AP and Distant Double Strike able to hit
    two Elementals, the AI judging after the enemy's turn bought Ranged Barrier, which
    ends Phase II. A person attacks first: no move that gives up this turn's attacks
    is searched, and whatever it chooses, an attack can still follow."""
    state, seat = position("con-2p-buys-before-attacking.json")
    legal = GAME.legal_actions(state, seat)
    assert any(a.kind == "attack" and lands(GAME, state, seat, a) for a in legal)
    forgoing = {a.key for a in legal if forgoes_attacks(GAME, state, seat, a)}
    assert {"end", "phase|market", "buy|commands|ranged-barrier"} <= forgoing
    kept = CommandOfNatureJudge().shortlist(GAME, state, seat, legal)
    assert kept and not forgoing & {a.key for a in kept}
    for seed in range(3):
        action = ai.decide(GAME, state, seat, Level.STRONG, seed=seed, budget=SMALL)
        assert action.key not in forgoing


class Indifferent(Judge):
    """Every position looks the same."""

    def value(self, game: Game, state: BaseModel, seat: Seat) -> float:
        return 0.5


def test_a_tie_goes_to_moving_on_not_to_the_first_listed():
    state, seat = position("con-2p-swap-back.json")
    legal = GAME.legal_actions(state, seat)
    search = Search(
        GAME, Indifferent(), state, seat, 1, Budget(playouts=60, worlds=2, per_choice=2)
    )
    assert search.best(legal).kind in ("phase", "end")


def test_the_clock_is_looked_at_before_the_first_tries():
    """A decision past its time stops at once, even before every choice was tried."""
    state, seat = position("con-2p-swap-back.json")
    ticks = itertools.count()
    budget = Budget(playouts=400, worlds=8, per_choice=24, seconds=0.8)
    search = Search(GAME, CommandOfNatureJudge(), state, seat, 1, budget, clock=lambda: next(ticks))
    decision = search.decide(GAME.legal_actions(state, seat))
    assert decision.playouts == 0
    assert decision.action in GAME.legal_actions(state, seat)


def test_a_strong_decision_keeps_to_its_time_and_counts_its_playouts():
    """The strong level's time (0.8 s), with a generous margin for a busy machine."""
    state, seat = position("con-2p-noop-swaps.json")
    decision = ai.deliberate(GAME, state, seat, Level.STRONG, seed=3)
    assert decision.seconds < 2.5
    assert decision.playouts > 0 and decision.choices > 0
    assert BUDGETS[Level.STRONG].seconds is not None


def test_tooth_and_nails_shortlist_keeps_every_troops_attack():
    """Over the shortlist's size, each troop that can attack is searched attacking (in
    the form that looks best at least), in positions reached by random play."""
    game = GAMES["tooth-and-nail"]
    judge = ai.JUDGES["tooth-and-nail"]
    checked = 0
    for seed in range(12):
        state = game.setup("2p", [SeatSpec(seat=i, name=f"P{i}") for i in range(2)], {}, seed)
        rng = random.Random(seed)
        for n in range(400):
            if game.outcome(state) is not None:
                break
            who = sorted(game.to_act(state))[0]
            legal = game.legal_actions(state, who)
            attackers = {a.args[0] for a in legal if a.kind == "attack"}
            if len(legal) > SHORTLIST and len(attackers) > 1:
                kept = judge.shortlist(game, state, who, legal)
                assert attackers <= {a.args[0] for a in kept if a.kind == "attack"}
                checked += 1
            state, _ = game.apply(state, who, rng.choice(legal), rng_for(seed, n))
    assert checked >= 12


def test_the_clock_is_looked_at_during_a_try_too():
    """A try that would run past the decision's time is cut short and not counted: the
    decision ends within a step of its time, however long one try is."""
    now = [0.0]

    class Slow(CommandOfNatureJudge):
        def settled(self, game: Game, state: BaseModel, seat: Seat) -> bool:
            now[0] += 0.1  # every step of a playout takes a tenth of a second
            return False

    state, seat = position("con-2p-noop-swaps.json")
    budget = Budget(playouts=400, worlds=8, per_choice=24, seconds=0.8)
    search = Search(GAME, Slow(), state, seat, 1, budget, clock=lambda: now[0])
    decision = search.decide(GAME.legal_actions(state, seat))
    assert decision.seconds <= 0.8 + 0.1 + 1e-9
    assert decision.action in GAME.legal_actions(state, seat)


def test_a_playout_ends_with_the_decisions_turn_or_the_judges_turns_after_it():
    """Every choice is judged at the same point: where the turn it is made in ends (a
    choice ending it at once included), or `turns_after` turns later (Tooth & Nail: the
    other side's turn too); sooner only when the game is over."""
    game = GAMES["tooth-and-nail"]
    assert ai.JUDGES["tooth-and-nail"].turns_after == 1
    checked = 0
    for after in (0, 1):

        class Judged(ToothAndNailJudge):
            turns_after = after

        state = game.setup("2p", [SeatSpec(seat=i, name=f"P{i}") for i in range(2)], {}, 4)
        rng = random.Random(after)
        for n in range(60):
            if game.outcome(state) is not None:
                break
            who = sorted(game.to_act(state))[0]
            legal = game.legal_actions(state, who)
            active = game.active_seat(state)
            if active is not None and who == active and len(legal) > 1:
                search = Search(game, Judged(), state, who, n, Budget(8, 1, 1))
                team = game.team_of(state, who)
                for action in legal:
                    luck = rng_for(n, 0)
                    start, _ = game.apply(state, who, action, luck)
                    end = search.play_out(start, luck)
                    assert end is not None
                    if game.outcome(end) is not None:
                        continue
                    now = game.active_seat(end)
                    assert now is not None
                    assert end.turn == state.turn + 1 + after, (after, action.key)
                    assert (game.team_of(end, now) == team) == (after == 1)
                    checked += 1
            state, _ = game.apply(state, who, rng.choice(legal), rng_for(4, n))
    assert checked >= 20


def test_a_boost_is_worth_one_attacks_dmg_unless_the_elemental_keeps_its_boosts():
    """Rulebook: each boost adds 1 DMG to one attack, and all boosts go after it; so the
    judge counts a boost below a point of lasting STR (it hoarded them otherwise), except
    on Calamity Leopard in its rows, which keeps its boosts (a boost there is STR)."""
    judge = CommandOfNatureJudge()
    state, seat = position("con-2p-swap-back.json")
    formation = state.side_of(seat).formation

    def worth_of_boosts(pos: tuple[int, int], card: int | None = None) -> float:
        boosted = state.model_copy(deep=True)
        elemental = boosted.side_of(seat).formation.at(pos)
        assert elemental is not None
        if card is not None:
            elemental.card = card
        plain = judge.score(boosted, seat)
        elemental.boosts += 3
        return judge.score(boosted, seat) - plain

    leopard = state.cards.index("calamity-leopard")
    for pos in formation.occupied():
        if is_sage(state, formation.at(pos).card):  # type: ignore[union-attr]
            continue
        plain, kept = worth_of_boosts(pos), worth_of_boosts(pos, leopard)
        assert plain > 0
        if pos[0] in (0, 1):  # Rows I and II, its rows: lasting STR, and more threat
            assert kept >= plain + 3 * (0.45 - 0.2)
        else:
            assert kept == pytest.approx(plain)
