"""The bench's measures of the AI's conduct (`tests.bench.behaviour`) count exactly what
they say: a swap undone is self-undoing, a swap of twins is empty, leaving Phase II or a
Harvest or the Action Step with something useful still there wastes the turn, and only
then. Positions from `tests/ai/positions/` (saved where the strong AI of b3a8efc played
badly) and small walks of the rules."""

from __future__ import annotations

import random
from pathlib import Path

from pydantic import BaseModel

from rules.command_of_nature import State as NatureState
from rules.core import Action, Game, SeatSpec, rng_for
from rules.mystic_vale import State as ValeState
from rules.mystic_vale.symbols import advancement_of
from rules.registry import GAMES
from rules.tooth_and_nail import State as NailState
from tests.bench.behaviour import Conduct, Watch, attack_lands, position, wastes_turn

POSITIONS = Path(__file__).parent / "positions"
ROOT = Path(__file__).resolve().parents[2]
NATURE = GAMES["command-of-nature"]
VALE = GAMES["mystic-vale"]
NAIL = GAMES["tooth-and-nail"]


def saved(name: str) -> tuple[BaseModel, int]:
    """A saved position and the seat that decides in it."""
    game = VALE if name.startswith("mv-") else NATURE
    state = game.state_model.model_validate_json((POSITIONS / name).read_text())
    return state, sorted(game.to_act(state))[0]


def act(state: BaseModel, seat: int, key: str, game: Game = NATURE) -> BaseModel:
    after, _ = game.apply(state, seat, Action.from_key(key), random.Random(0))
    return after


def test_a_swap_and_the_same_swap_back_is_one_self_undoing_move_and_nothing_empty() -> None:
    state, seat = saved("con-2p-noop-swaps.json")
    watch, conduct = Watch(NATURE), Conduct()
    swapped = act(state, seat, "swap|0.0|1.0")
    watch.move(state, seat, Action.from_key("swap|0.0|1.0"), swapped, conduct)
    assert (conduct.self_undoing, conduct.empty) == (0, 0)
    back = act(swapped, seat, "swap|0.0|1.0")
    watch.move(swapped, seat, Action.from_key("swap|0.0|1.0"), back, conduct)
    assert (conduct.self_undoing, conduct.empty) == (1, 0)
    assert (conduct.moves, conduct.turns) == (2, 1)


def test_a_swap_of_twin_elementals_is_an_empty_move_though_the_cards_moved() -> None:
    state, seat = saved("con-2p-noop-swaps.json")
    assert isinstance(state, NatureState)
    # The rules no longer offer this swap (it changes nothing): made by hand, as an AI
    # playing older rules could make it.
    twins = state.model_copy(deep=True)
    swapped = twins.sides[state.active].formation.rows[1]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    twins.sides[state.active].ap -= 1
    row = twins.sides[state.active].formation.rows[1]
    assert [e.card for e in row] == [e.card for e in reversed(state.sides[0].formation.rows[1])]
    assert twins.sides[state.active].ap == state.sides[state.active].ap - 1
    watch, conduct = Watch(NATURE), Conduct()
    watch.move(state, seat, Action.from_key("swap|1.0|1.1"), twins, conduct)
    assert (conduct.empty, conduct.self_undoing) == (1, 0)


def test_a_swap_that_changes_the_formation_is_neither_empty_nor_undoing() -> None:
    state, seat = saved("con-2p-noop-swaps.json")
    watch, conduct = Watch(NATURE), Conduct()
    assert position(act(state, seat, "swap|0.0|1.0")) != position(state)
    after = act(state, seat, "swap|0.0|1.0")
    watch.move(state, seat, Action.from_key("swap|0.0|1.0"), after, conduct)
    assert (conduct.empty, conduct.self_undoing, conduct.moves) == (0, 0, 1)


def test_a_move_out_of_the_ais_turn_is_booked_but_its_turn_is_not_counted() -> None:
    """The AI lets an attack through in the enemy's turn: a move, not a turn of its own."""
    state, ai_seat = saved("con-2p-swap-back.json")
    watch, conduct = Watch(NATURE), Conduct()
    ended = act(state, ai_seat, "end")
    watch.move(state, ai_seat, Action.from_key("end"), ended, conduct)
    enemy = sorted(NATURE.to_act(ended))[0]
    attack = Action.from_key("attack|close-strike|0.0|0.0")
    attacked = act(ended, enemy, attack.key)
    watch.move(ended, enemy, attack, attacked)  # not the AI's move: not booked
    assert NATURE.to_act(attacked) == {ai_seat}
    let = Action(kind="let")
    watch.move(attacked, ai_seat, let, act(attacked, ai_seat, "let"), conduct)
    assert (conduct.moves, conduct.turns, conduct.empty, conduct.self_undoing) == (2, 1, 0, 0)


def test_leaving_phase_two_with_ap_while_an_attack_would_land_wastes_the_turn() -> None:
    state, seat = saved("con-2p-noop-swaps.json")
    assert isinstance(state, NatureState)
    assert state.sides[state.active].ap == 3
    assert attack_lands(NATURE, state, seat, Action.from_key("attack|far-strike|1.0|0.0"))
    for leaving in ("phase|market", "end", "buy|commands|focused-fury", "sell|cobble"):
        assert wastes_turn(NATURE, state, seat, Action.from_key(leaving)), leaving
    for staying in ("swap|0.0|1.0", "draw", "attack|far-strike|1.0|0.0", "play|sling-toss"):
        assert not wastes_turn(NATURE, state, seat, Action.from_key(staying)), staying
    watch, conduct = Watch(NATURE), Conduct()
    watch.move(state, seat, Action.from_key("end"), act(state, seat, "end"), conduct)
    assert (conduct.wasted, conduct.turns) == (1, 1)


def test_leaving_phase_two_wastes_nothing_without_ap_or_without_an_attack_that_lands() -> None:
    state, seat = saved("con-2p-noop-swaps.json")
    assert isinstance(state, NatureState)
    spent = state.model_copy(deep=True)
    spent.sides[state.active].ap = 0
    assert not wastes_turn(NATURE, spent, seat, Action.from_key("phase|market"))
    # Without the Attack Command in hand no attack is legal at all.
    attacks = {c for c, name in enumerate(state.cards) if name == "far-strike"}
    unarmed = state.model_copy(deep=True)
    unarmed.players[seat].hand = [c for c in state.players[seat].hand if c not in attacks]
    assert not any(a.kind == "attack" for a in NATURE.legal_actions(unarmed, seat))
    assert not wastes_turn(NATURE, unarmed, seat, Action.from_key("phase|market"))


def test_an_attack_for_no_damage_does_not_land() -> None:
    """The enemy Sage with shields enough takes no DMG from Far Strike."""
    state, seat = saved("con-2p-noop-swaps.json")
    assert isinstance(state, NatureState)
    attack = Action.from_key("attack|far-strike|1.0|0.0")
    shielded = state.model_copy(deep=True)
    enemy = shielded.sides[1 - state.active].formation.at((0, 0))
    assert enemy is not None
    enemy.shields = 20
    assert attack in NATURE.legal_actions(shielded, seat)
    assert not attack_lands(NATURE, shielded, seat, attack)
    assert not wastes_turn(NATURE, shielded, seat, Action.from_key("end"))


def test_ending_a_harvest_with_mana_and_a_vale_or_clean_advancement_to_buy_is_wasted() -> None:
    state, seat = saved("mv-2p-harvest-unspent.json")
    assert isinstance(state, ValeState) and state.harvest is not None
    assert state.harvest.mana == 28
    legal = {a.kind for a in VALE.legal_actions(state, seat)}
    assert {"vale", "buy", "done"} <= legal
    assert wastes_turn(VALE, state, seat, Action(kind="done"))
    assert not wastes_turn(VALE, state, seat, Action.from_key("vale|132"))
    watch, conduct = Watch(VALE), Conduct()
    watch.move(state, seat, Action(kind="done"), act(state, seat, "done", VALE), conduct)
    assert (conduct.wasted, conduct.turns, conduct.empty) == (1, 1, 0)


def test_ending_a_harvest_with_nothing_affordable_or_only_decay_to_buy_is_not_wasted() -> None:
    state, seat = saved("mv-2p-harvest-unspent.json")
    assert isinstance(state, ValeState) and state.harvest is not None
    broke = state.model_copy(deep=True)
    assert broke.harvest is not None
    for symbol in ("mana", "sky", "animal", "water", "plant", "guardian"):
        setattr(broke.harvest, symbol, 0)
    assert [a.kind for a in VALE.legal_actions(broke, seat)] == ["done"]
    assert not wastes_turn(VALE, broke, seat, Action(kind="done"))
    # 20 mana but no spirits for a vale, and only advancements that show decay on offer.
    decayed = broke.model_copy(deep=True)
    assert decayed.harvest is not None
    decayed.harvest.mana = 20
    commons = decayed.commons

    def dirty(instance: int | None) -> bool:
        return instance is not None and advancement_of(decayed, instance).symbols.decay > 0

    for level, row in commons.rows.items():
        commons.rows[level] = [i if dirty(i) else None for i in row]
    commons.level4 = [i for i in commons.level4 if dirty(i)]
    commons.fertile = [i for i in commons.fertile if dirty(i)]
    decayed.players[seat].reserved = [i for i in decayed.players[seat].reserved if dirty(i)]
    buys = [a for a in VALE.legal_actions(decayed, seat) if a.kind == "buy"]
    assert buys and all(dirty(int(a.args[0])) for a in buys)
    assert not wastes_turn(VALE, decayed, seat, Action(kind="done"))
    # A clean advancement it could afford (for mana alone) back, and the Harvest is wasted.
    rich = broke.model_copy(deep=True)
    assert rich.harvest is not None
    rich.harvest.mana = 20
    clean = next(
        int(a.args[0])
        for a in VALE.legal_actions(rich, seat)
        if a.kind == "buy"
        and not dirty(int(a.args[0]))
        and advancement_of(rich, int(a.args[0])).cost.vp == 0
    )
    for level, row in rich.commons.rows.items():
        rich.commons.rows[level] = [i if dirty(i) or i == clean else None for i in row]
    rich.commons.level4 = [i for i in rich.commons.level4 if dirty(i) or i == clean]
    rich.commons.fertile = [i for i in rich.commons.fertile if dirty(i) or i == clean]
    rich.players[seat].reserved = [i for i in rich.players[seat].reserved if dirty(i)]
    clean_buys = [
        a for a in VALE.legal_actions(rich, seat) if a.kind == "buy" and not dirty(int(a.args[0]))
    ]
    assert [int(a.args[0]) for a in clean_buys] == [clean]
    assert wastes_turn(VALE, rich, seat, Action(kind="done"))


def test_a_clean_advancement_that_would_only_cover_an_eclipse_is_not_a_wasted_buy() -> None:
    """mv-2p-clean-buys-only-over-an-eclipse: the clean advancements on offer go into the
    top slot, and the only card of the field with room there holds Eclipsed Moonwell
    (3 end VP), which they would cover; ending the Harvest wastes nothing. With that
    card's slot empty, it would."""
    state, seat = saved("mv-2p-clean-buys-only-over-an-eclipse.json")
    assert isinstance(state, ValeState)
    assert not any(a.kind == "vale" for a in VALE.legal_actions(state, seat))
    assert not wastes_turn(VALE, state, seat, Action(kind="done"))
    moonwell = next(
        c
        for c in state.players[seat].field
        if any(
            isinstance(i, int) and advancement_of(state, i).eclipse
            for i in state.card(c).slots["top"]
        )
    )
    emptied = state.model_copy(deep=True)
    emptied.card(moonwell).slots["top"] = []
    assert wastes_turn(VALE, emptied, seat, Action(kind="done"))


def first_chance_to_attack() -> tuple[NailState, int]:
    """A Tooth & Nail 2p game played at random until a seat in its Action Step has AP
    and an attack that would shorten the enemy deck."""
    state = NAIL.setup("2p", [SeatSpec(seat=i, name=f"P{i}") for i in range(2)], {}, 3)
    rng = random.Random(5)
    for n in range(200):
        assert isinstance(state, NailState)
        seat = sorted(NAIL.to_act(state))[0]
        legal = NAIL.legal_actions(state, seat)
        if state.phase == "action" and not state.frames and state.players[seat].ap > 0:
            attacks = [a for a in legal if a.kind == "attack"]
            if any(attack_lands(NAIL, state, seat, a) for a in attacks):
                return state, seat
        moves = [a for a in legal if a.kind != "end"] or legal
        state, _ = NAIL.apply(state, seat, rng.choice(moves), rng_for(3, n))
    raise AssertionError("no attack found")


def test_ending_the_action_step_with_ap_while_an_attack_would_score_is_wasted() -> None:
    state, seat = first_chance_to_attack()
    assert wastes_turn(NAIL, state, seat, Action(kind="end"))
    playing = next(a for a in NAIL.legal_actions(state, seat) if a.kind == "play")
    assert not wastes_turn(NAIL, state, seat, playing)
    spent = state.model_copy(deep=True)
    spent.players[seat].ap = 0
    assert not wastes_turn(NAIL, spent, seat, Action(kind="end"))


def test_ending_the_action_step_that_wins_the_game_wastes_nothing() -> None:
    """With one card left in the enemy deck, ending the turn wins as surely as an attack
    would: the enemy cannot draw for its turn."""
    state, seat = first_chance_to_attack()
    last = state.model_copy(deep=True)
    enemy = next(t for t in last.teams if t.team != last.team_of(seat).team)
    del enemy.deck[1:]
    attacks = [a for a in NAIL.legal_actions(last, seat) if a.kind == "attack"]
    assert any(attack_lands(NAIL, last, seat, a) for a in attacks)
    assert NAIL.outcome(act(last, seat, "end", NAIL)) is not None
    assert not wastes_turn(NAIL, last, seat, Action(kind="end"))


def test_the_baseline_ai_is_the_benchs_alone() -> None:
    """Nothing of the product imports the frozen baseline AI (or anything of the tests)."""
    for folder in ("ai", "bot", "cogs", "league", "rules"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line in path.read_text(encoding="utf-8").splitlines():
                words = line.split()
                if len(words) >= 2 and words[0] in ("import", "from"):
                    assert words[1].split(".")[0] != "tests", f"{path}: {line}"


def test_a_harvest_ended_in_the_last_round_or_leaving_only_a_card_that_costs_vp_is_not_wasted():
    """A clean advancement bought in the player's last turn never shows in a Harvest,
    and Bloodmoon Pact costs 2 VP: neither is a buy sure to be of use. A vale still is."""
    state, seat = saved("mv-2p-harvest-far-ahead.json")
    assert isinstance(state, ValeState)
    clean = [
        a
        for a in VALE.legal_actions(state, seat)
        if a.kind == "buy" and advancement_of(state, int(a.args[0])).symbols.decay == 0
    ]
    assert clean and not any(a.kind == "vale" for a in VALE.legal_actions(state, seat))
    assert wastes_turn(VALE, state, seat, Action(kind="done"))
    last = state.model_copy(update={"last_round": True})
    no_vp = [a for a in clean if advancement_of(state, int(a.args[0])).symbols.end_vp == 0]
    assert no_vp == clean  # Wayfarer Cairn, Starfall Cathedral: VP only when they show
    assert not wastes_turn(VALE, last, seat, Action(kind="done"))
    # Bloodmoon Pact the only clean advancement left, and no vale: nothing sure of use.
    pact, seat = saved("mv-2p-harvest-unspent.json")
    assert isinstance(pact, ValeState)
    pact = pact.model_copy(deep=True)
    commons = pact.commons
    commons.vale_rows = {level: [None] * len(row) for level, row in commons.vale_rows.items()}

    def kept(instance: int | None) -> bool:
        if instance is None:
            return False
        card = advancement_of(pact, instance)
        return card.symbols.decay > 0 or card.id == "bloodmoon-pact"

    for level, row in commons.rows.items():
        commons.rows[level] = [i if kept(i) else None for i in row]
    commons.level4 = [i for i in commons.level4 if kept(i)]
    commons.fertile = [i for i in commons.fertile if kept(i)]
    pact.players[seat].reserved = [i for i in pact.players[seat].reserved if kept(i)]
    legal = VALE.legal_actions(pact, seat)
    buys = {advancement_of(pact, int(a.args[0])).id for a in legal if a.kind == "buy"}
    assert "bloodmoon-pact" in buys
    assert not wastes_turn(VALE, pact, seat, Action(kind="done"))
