"""Historia's Ways of Command module: Arbiter referees the Command tokens of a Historia
table. The table reports what the module's rule reads (territories, Military and
Technology levels, cubes, turns); Arbiter decides who may activate a token, applies
the four powers and takes them back at the end of the Era. The rest of Historia is
played on the table."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rules.core import (
    Action,
    Event,
    OptionInfo,
    Outcome,
    PreferenceInfo,
    SeatSpec,
    VariantInfo,
    fresh_copy,
)
from rules.historia_command import actions, labels
from rules.historia_command.powers import POWER_NAMES, claims, holders, roman, shared_of
from rules.historia_command.reports import PAIRS, disputable, host, inverse_ok, pair_name
from rules.historia_command.standings import (
    CATEGORY_NAMES,
    Standing,
    civ_name,
    eligible_by,
    level,
    standings,
    why_not,
)
from rules.historia_command.state import (
    CATEGORIES,
    TRACKS,
    TURNS,
    Category,
    Civilization,
    State,
    Token,
)

SUMMARY = """\
**What Arbiter does.** It referees the Command tokens of a Historia table: the rest of \
Historia is played on the table, and each player reports what the token's rule reads — \
territories held, Military and Technology levels, cubes moved, each new turn.
**Activating.** Your token shows two of Territory, Military and Technology. You may \
activate it when you are *strictly* first in one of them and not *strictly* last in the \
other: a tie for first blocks it, a tie for last does not. Put a cube on it from the \
Bank, the Used Pool or your reserve (where Arbiter counts none, on your word that your \
table has one), and choose a power: up to 2 \
cubes from the general supply (your reserve); score shared territories; +2 Technology; \
+2 Military.
**End of the Era.** Reported after turn 4, it takes effect once the others agree: the \
cubes go back, the +2 levels lapse, used tokens leave the game.
**Disputes.** Anyone may dispute another's report: the match pauses until it is settled. \
A reporter may take back their own recent report."""


def _variant(count: int) -> VariantInfo:
    return VariantInfo(
        id=f"{count}p",
        name=f"{count} civilizations",
        min_players=count,
        max_players=count,
        blurb=f"A Historia table of {count}: Arbiter keeps the standings and the Command tokens.",
    )


class HistoriaCommand:
    """The Game contract for Historia's Ways of Command."""

    id: ClassVar[str] = "historia-command"
    name: ClassVar[str] = "Historia: The Ways of Command"
    variants: ClassVar[dict[str, VariantInfo]] = {f"{n}p": _variant(n) for n in range(2, 7)}
    options: ClassVar[dict[str, OptionInfo]] = {}
    open_kinds: ClassVar[frozenset[str]] = actions.OPEN_KINDS
    preferences: ClassVar[dict[str, PreferenceInfo]] = {}  # no standing answers
    state_model: ClassVar[type[State]] = State
    rules_summary: ClassVar[str] = SUMMARY
    default_pack: ClassVar[str | None] = None

    def setup(
        self, variant: str, seats: list[SeatSpec], options: dict[str, Any], seed: int
    ) -> State:
        ordered = sorted(seats, key=lambda s: s.seat)
        civs = [
            Civilization(
                seat=s.seat, player=s.name, token=Token(symbols=PAIRS[s.seat % len(PAIRS)])
            )
            for s in ordered
        ]
        return State(variant=variant, civs=civs)

    def to_act(self, state: State) -> set[int]:  # type: ignore[override]
        return actions.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return actions.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: Action, rng: random.Random
    ) -> tuple[State, list[Event]]:  # type: ignore[override]
        actions.check(state, seat, action)
        new = fresh_copy(state)
        return new, actions.apply_action(new, seat, action)

    def concede(self, state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:  # type: ignore[override]
        new = fresh_copy(state)
        return new, actions.concede(new, seat)

    def outcome(self, state: State) -> Outcome | None:  # type: ignore[override]
        if state.phase != "over":
            return None
        conceded = any(c.conceded for c in state.civs) and len(state.in_play()) == 1
        return Outcome(
            winners=list(state.winners),
            losers=[c.seat for c in state.civs if c.seat not in state.winners],
            reason="concession" if conceded else "reported",
            text=state.end_text,
        )

    def describe(self, action: Action, state: State) -> str:  # type: ignore[override]
        return labels.describe(state, action)

    def acknowledge(self, action: Action, state: State, seat: int) -> str:  # type: ignore[override]
        return labels.acknowledge(state, action, seat)

    def explain(self, action: Action, state: State, seat: int | None = None) -> str:  # type: ignore[override]
        return labels.explain(state, action, seat)

    def question(self, state: State, seat: int) -> str | None:  # type: ignore[override]
        return labels.question(state, seat)

    def candidates(self, state: State, seat: int) -> list[Action]:  # type: ignore[override]
        return actions.candidates(state, seat)

    def standing_answer(  # type: ignore[override]
        self, state: State, seat: int, chosen: frozenset[str]
    ) -> Action | None:
        return None

    def card_texts(self, pack: str | None) -> dict[str, str]:
        return {}  # no cards to look up

    def team_of(self, state: State, seat: int) -> int:  # type: ignore[override]
        return seat

    def active_seat(self, state: State) -> int | None:  # type: ignore[override]
        return None  # nobody's turn: the table reports as it plays

    def timeout_action(self, state: State, seat: int) -> Action:  # type: ignore[override]
        return actions.timeout_action(state, seat)

    def redeal(self, state: State, seat: int, rng: random.Random) -> State:  # type: ignore[override]
        """Nothing at a Ways of Command table is hidden: the same state."""
        return fresh_copy(state)

    def rename(self, state: State, seat: int, name: str) -> State:  # type: ignore[override]
        new = fresh_copy(state)
        new.civs[seat].player = name
        return new

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return view(state, seat)


def _civ_view(
    state: State,
    civ: Civilization,
    table: dict[Category, Standing],
    held: dict[str, list[int]],
) -> dict[str, Any]:
    token = civ.token
    in_era = state.phase == "era" and not civ.conceded
    by = eligible_by(state, civ.seat, table) if in_era else None
    return {
        "seat": civ.seat,
        "player": civ.player,
        "name": civ_name(civ),
        "named": bool(civ.name),
        "territories": list(civ.territories),
        "shared": shared_of(state, civ.seat, held),
        "levels": dict(civ.levels),
        "effective": {t: level(civ, t) for t in TRACKS},
        "cubes": dict(civ.cubes),
        "token": {
            "symbols": list(token.symbols),
            "label": pair_name(token.symbols),
            "status": token.status,
            "power": POWER_NAMES[token.power] if token.power else None,
            "cube_from": token.cube_from,
            "cubes_taken": token.cubes_taken,
            "eligible": by is not None and token.status == "available",
            "by": CATEGORY_NAMES[by] if by else None,
            "why_not": why_not(state, civ.seat, table)
            if by is None and token.status == "available" and not civ.conceded
            else None,
        },
        "conceded": civ.conceded,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Everything at a Ways of Command table is public; a seat's view adds its own
    decision."""
    table = standings(state)
    held = holders(state)
    out: dict[str, Any] = {
        "game": HistoriaCommand.id,
        "variant": state.variant,
        "phase": state.phase,
        "era": state.era,
        "era_name": roman(state.era),
        "turn": state.turn,
        "turns": TURNS,
        "host": host(state),
        "prompt": labels.prompt(state),
        "to_act": sorted(actions.to_act(state)),
        "civs": [_civ_view(state, c, table, held) for c in state.civs],
        "standings": {
            c: {
                "name": CATEGORY_NAMES[c],
                "values": {str(s): v for s, v in table[c].values.items()},
                "first": list(table[c].first),
                "last": list(table[c].last),
            }
            for c in CATEGORIES
        },
        "claims": claims(state),
        "reports": [r.model_dump() for r in state.reports[-5:]],
        "dispute": state.dispute.model_dump() if state.dispute else None,
        "proposal": state.proposal.model_dump() if state.proposal else None,
        "history": [h.model_dump() for h in state.history],
        "outcome": {"winners": state.winners, "text": state.end_text}
        if state.phase == "over"
        else None,
        # Buttons anyone may press under the latest public line: dispute the latest
        # report (for every seat but its reporter).
        "for_anyone": _for_anyone(state),
    }
    if seat is not None:
        out["me"] = seat
        out["question"] = labels.question(state, seat)
        out["disputable"] = [r.number for r in disputable(state, seat)]
        out["retractable"] = actions.retractable(state, seat)
        dispute = state.dispute
        if dispute is not None and (report := state.report(dispute.report)) is not None:
            out["can_retract"] = report.seat == seat and _retractable(state)
    return out


def _retractable(state: State) -> bool:
    dispute = state.dispute
    assert dispute is not None
    report = state.report(dispute.report)
    if report is None:
        return False
    state = fresh_copy(state)
    state.phase = dispute.resume
    return inverse_ok(state, report)


def _for_anyone(state: State) -> list[dict[str, str]]:
    if state.phase not in ("setup", "era") or not state.reports:
        return []
    latest = state.reports[-1]
    if latest.status or state.civ(latest.seat).conceded:
        return []
    return [
        {
            "key": f"dispute|{latest.number}",
            "label": f"Dispute #{latest.number}",
            "style": "secondary",
            "not_seat": str(latest.seat),
        }
    ]


GAME = HistoriaCommand()

__all__ = ["GAME", "HistoriaCommand", "State", "view"]
