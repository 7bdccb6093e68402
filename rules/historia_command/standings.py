"""The standings the Command token reads: territories held, Military level and
Technology level, with the Command powers in force counted, and who is first and last
in each."""

from __future__ import annotations

from dataclasses import dataclass

from rules.historia_command.state import CATEGORIES, Category, Civilization, State, Track

CATEGORY_NAMES: dict[Category, str] = {
    "territory": "Territory",
    "military": "Military",
    "technology": "Technology",
}
LEVEL_BONUS = 2  # the Technology and Military powers


def level(civ: Civilization, track: Track) -> int:
    """A track's level now: the reported level, plus 2 while its power is active."""
    active = civ.token.status == "active" and civ.token.power == track
    return civ.levels[track] + (LEVEL_BONUS if active else 0)


def value(civ: Civilization, category: Category) -> int:
    """A civilization's standing in a category: territories held (shared ones
    included), or a level."""
    if category == "territory":
        return len(civ.territories)
    return level(civ, category)


def civ_name(civ: Civilization) -> str:
    """The civilization's name, or its player's while it has none."""
    return civ.name or f"{civ.player}'s civilization"


def _plural(civ: Civilization) -> bool:
    """Whether a civilization's name is a people ("the Romans"), not a place ("Carthage")."""
    return a_people(civ.name)


def a_people(name: str) -> bool:
    """Whether a name is a people's ("Romans"), not a place's ("Carthage")."""
    return name.endswith("s") and not name.endswith("ss")


def does(civ: Civilization, verb: str) -> str:
    """The civilization and a verb agreeing with its name: "Romans add", "Carthage adds"."""
    irregular = {"have": "has", "don't": "doesn't", "reach": "reaches"}
    return f"{civ_name(civ)} {verb if _plural(civ) else irregular.get(verb, verb + 's')}"


def their(civ: Civilization) -> str:
    return "their" if _plural(civ) else "its"


def possessive(civ: Civilization) -> str:
    """ "the Romans'" token, "Carthage's" token."""
    name = civ_name(civ)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def names(civs: list[Civilization]) -> str:
    """Civilizations in words: "the Greeks", "the Greeks and the Persians"."""
    shown = [civ_name(c) for c in civs]
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


@dataclass(frozen=True)
class Standing:
    """One category: each civilization's value, and who is first and last (a list of
    more than one is a tie)."""

    category: Category
    values: dict[int, int]  # seat -> value
    first: tuple[int, ...]
    last: tuple[int, ...]

    def strictly_first(self, seat: int) -> bool:
        return self.first == (seat,)

    def strictly_last(self, seat: int) -> bool:
        return self.last == (seat,)


def standing(state: State, category: Category) -> Standing:
    """Who leads and who trails `category` among the civilizations in play."""
    values = {c.seat: value(c, category) for c in state.in_play()}
    top, bottom = max(values.values()), min(values.values())
    return Standing(
        category=category,
        values=values,
        first=tuple(s for s, v in values.items() if v == top),
        last=tuple(s for s, v in values.items() if v == bottom),
    )


def standings(state: State) -> dict[Category, Standing]:
    return {category: standing(state, category) for category in CATEGORIES}


def eligible_by(
    state: State, seat: int, table: dict[Category, Standing] | None = None
) -> Category | None:
    """The token category through which `seat` may activate its token now: strictly
    first in it and not strictly last in the other; None when neither works. `table`:
    the standings, when the caller has them already."""
    table = table or standings(state)
    first, second = state.civ(seat).token.symbols
    for lead, other in ((first, second), (second, first)):
        if table[lead].strictly_first(seat) and not table[other].strictly_last(seat):
            return lead
    return None


def why_not(state: State, seat: int, table: dict[Category, Standing] | None = None) -> str:
    """Why `seat`'s token can't be activated by the standings, in the rule's own terms,
    short: first in one symbol but last in the other ("first in Military but last in
    Territory (0)", which says all), else one reason per symbol ("tied for first in
    Territory with Greeks (2)": a tie for first blocks; "not first in Military (1;
    Greeks 3)")."""
    table = table or standings(state)
    civ = state.civ(seat)
    reasons = []
    for lead, other in (civ.token.symbols, tuple(reversed(civ.token.symbols))):
        row = table[lead]
        here = CATEGORY_NAMES[lead]
        mine = row.values[seat]
        if row.strictly_first(seat):
            last = f"{CATEGORY_NAMES[other]} ({table[other].values[seat]})"
            return f"first in {here} but last in {last}"
        if seat in row.first:
            others = [state.civ(s) for s in row.first if s != seat]
            reasons.append(f"tied for first in {here} with {names(others)} ({mine})")
        else:
            leaders = [state.civ(s) for s in row.first]
            top = row.values[row.first[0]]
            reasons.append(f"not first in {here} ({mine}; {names(leaders)} {top})")
    return "; ".join(reasons)
