"""The commons: three face-up advancements of each level 1-3, the level-4 row, the
Fertile Soil supply, and four face-up vales of each level, refilled from their decks.

- A level-4 advancement revealed while refilling moves to the level-4 row, and the
  refill goes on; the level-4 row is never refilled (rulebook, "Level 4 Advancements").
- A card that needs more players than the game has (Avatar of the Soulless God in a
  2-player game; in a solitaire game every card whose effect refers to other players)
  goes back to the box when it is revealed, and the refill goes on; in a solitaire game
  a level-1 advancement sent back is replaced by a level-1 advancement from the box
  (the ones set aside at set-up), as the rulebook says.
- A row whose deck has run out is refilled from the deck of the next level up (level 1
  from level 2, level 2 from level 3; a level-1 vale row from the level-2 vale deck):
  the notes' suggested default, the rule the solitaire variant states.
"""

from __future__ import annotations

from rules.mystic_vale.cards import Advancement, Vale
from rules.mystic_vale.state import State
from rules.mystic_vale.symbols import advancement_of, pack_of

ROW_SIZE = 3
VALE_ROW_SIZE = 4


def _fits_table(state: State, instance: int) -> bool:
    card = pack_of(state).card(state.cards[instance])
    return not isinstance(card, Advancement | Vale) or card.min_players <= len(state.players)


def _from_the_box(state: State) -> int | None:
    """A level-1 advancement set aside at set-up that fits the table, taken out of the box."""
    for instance in state.boxed:
        card = pack_of(state).card(state.cards[instance])
        level_one = isinstance(card, Advancement) and card.level == 1 and not card.fertile_soil
        if level_one and _fits_table(state, instance):
            state.boxed.remove(instance)
            return instance
    return None


def draw_advancement(state: State, level: int) -> int | None:
    """The next advancement for a row of this level: from its deck, else the next level's
    (a level 4 revealed on the way goes to the level-4 row; one that needs more players
    goes back to the box)."""
    decks = state.commons.decks
    for source in range(level, 4):
        deck = decks[source]
        while deck:
            instance = deck.pop()
            if not _fits_table(state, instance):
                replacement = _from_the_box(state) if source == 1 and state.nemesis else None
                state.boxed.append(instance)
                if replacement is not None:
                    return replacement
                continue
            if advancement_of(state, instance).level == 4:
                state.commons.level4.append(instance)
                continue
            return instance
    return None


def draw_vale(state: State, level: int) -> int | None:
    """The next vale for a row of this level (from the level-2 deck once level 1 ran out;
    one that needs more players goes back to the box)."""
    for source in range(level, 3):
        deck = state.commons.vale_decks[source]
        while deck:
            instance = deck.pop()
            if _fits_table(state, instance):
                return instance
            state.boxed.append(instance)
    return None


def refill(state: State) -> None:
    """Fill every empty space of the commons (Discard Phase)."""
    for level, row in state.commons.rows.items():
        for i, instance in enumerate(row):
            if instance is None:
                row[i] = draw_advancement(state, level)
    for level, row in state.commons.vale_rows.items():
        for i, instance in enumerate(row):
            if instance is None:
                row[i] = draw_vale(state, level)


def offered(state: State) -> list[int]:
    """Every advancement of the commons a player may buy (rows, level 4, Fertile Soils:
    one of each slot)."""
    rows = [i for row in state.commons.rows.values() for i in row if i is not None]
    soils: dict[str, int] = {}
    for instance in state.commons.fertile:
        soils.setdefault(advancement_of(state, instance).slot, instance)
    return [*rows, *one_of_each(state, state.commons.level4), *soils.values()]


def one_of_each(state: State, instances: list[int]) -> list[int]:
    """One instance of each card among these (copies are the same choice)."""
    seen: dict[str, int] = {}
    for instance in instances:
        seen.setdefault(state.cards[instance], instance)
    return list(seen.values())


def take(state: State, instance: int) -> None:
    """An advancement or vale leaves the commons (bought, Reserved or claimed): its space
    stays empty until the Discard Phase refills it."""
    commons = state.commons
    for row in (*commons.rows.values(), *commons.vale_rows.values()):
        if instance in row:
            row[row.index(instance)] = None
            return
    for pile in (commons.level4, commons.fertile):
        if instance in pile:
            pile.remove(instance)
            return
    raise AssertionError(f"{instance} is not in the commons")
