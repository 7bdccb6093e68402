"""The end of the game: every player's score, and who wins.

A score is the VP tokens held, the end-of-game VP of every advancement on the player's
20 cards (wherever the card is; a covered eclipse advancement scores nothing), of their
vales and of their leader's face-up side, what End of Game abilities add, less one per
curse token held. The highest score wins; between tied players, each level-3
advancement owned counts 1 and each level-4 one counts 2, and the most wins; players
still tied share the win. In a solitaire game the player wins only with more points
than the nemesis (see `nemesis.py`); a tie loses, and so does a concession.
"""

from __future__ import annotations

from rules.mystic_vale.abilities import abilities_of, count
from rules.mystic_vale.cards import Gain, Special
from rules.mystic_vale.nemesis import nemesis_card, nemesis_score
from rules.mystic_vale.setup import Events, _ev
from rules.mystic_vale.state import Pending, State
from rules.mystic_vale.symbols import advancement_of, layers, pack_of
from rules.mystic_vale.text import listed

MOST_CURSES_TITAN_VP = 8  # Hailburst Titan, upgraded, with the most curse tokens
Sources = list[tuple[str, int | None]]  # a seat's sources of End of Game abilities


def owned_advancements(state: State, seat: int) -> list[tuple[int, bool]]:
    """Every advancement on the seat's cards, with whether it is covered."""
    found = []
    for card in state.physical:
        if card.owner != seat:
            continue
        for layer, covered in layers(state, card):
            if isinstance(layer, int):
                found.append((layer, covered))
    return found


def _leader_sources(state: State, seat: int) -> list[tuple[str, int | None]]:
    """The seat's leaders with the side they show: the one chosen at set-up (sleeved, or
    beside the play area once an upgraded titan), and any a Gargoyle Summoner sleeved."""
    player = state.players[seat]
    found: list[tuple[str, int | None]] = []
    for card in state.physical:
        if card.owner == seat and card.leader is not None:
            upgraded = card.upgraded or (card.leader == player.leader and player.leader_upgraded)
            found.append((f"l:{card.leader}:{'upgraded' if upgraded else 'start'}", card.id))
    if player.leader and player.titan_aside:
        found.append((f"l:{player.leader}:upgraded", None))
    return found


def end_sources(state: State, seat: int, owned: list[tuple[int, bool]] | None = None) -> Sources:
    """Everything of the seat's that may have an End of Game ability, with the player
    card it is on: advancements wherever their cards are (`owned`, when known),
    vales, leaders."""
    if owned is None:
        owned = owned_advancements(state, seat)
    holders = {
        layer: card.id
        for card in state.physical
        if card.owner == seat
        for stack in card.slots.values()
        for layer in stack
        if isinstance(layer, int)
    }
    sources: list[tuple[str, int | None]] = [(f"a:{i}", holders.get(i)) for i, _ in owned]
    sources += [(f"v:{v}", None) for v in state.players[seat].vales]
    return sources + _leader_sources(state, seat)


def end_abilities(state: State, seat: int, sources: Sources | None = None) -> list[str]:
    """The End of Game rules of the seat's cards, vales and leaders (by special name;
    `sources`: the seat's `end_sources`, when known)."""
    names = []
    for source, _ in sources if sources is not None else end_sources(state, seat):
        for ability in abilities_of(state, source):
            if ability.when == "end":
                names += [op.name for op in ability.ops if isinstance(op, Special)]
    return names


def end_gains(state: State, seat: int, sources: Sources) -> int:
    """The points End of Game abilities give by the general `gain` op (VP, per count)."""
    total = 0
    for source, card in sources:
        for index, ability in enumerate(abilities_of(state, source)):
            if ability.when != "end":
                continue
            for op in ability.ops:
                if isinstance(op, Gain) and op.symbols.vp:
                    pending = Pending(seat=seat, source=source, ability=index, card=card)
                    total += op.symbols.vp * count(state, pending, op.per)
    return total


def base_score(state: State, seat: int, owned: list[tuple[int, bool]], sources: Sources) -> int:
    """A score before the End of Game rules that look at the whole score (Bramble
    Tumbleworld) or at every player's curses (Hailburst Titan), from the seat's
    advancements (`owned_advancements`) and `end_sources`."""
    player = state.players[seat]
    pack = pack_of(state)
    total = player.vp - player.curses
    total += sum(advancement_of(state, i).symbols.end_vp for i, covered in owned if not covered)
    total += sum(pack.vale(state.cards[v]).symbols.end_vp for v in player.vales)
    for source, _ in _leader_sources(state, seat):
        _, key, side = source.split(":")
        leader = pack.leader(key)
        total += (leader.upgraded if side == "upgraded" else leader.start).symbols.end_vp
    return total + end_gains(state, seat, sources)


def most_curses(state: State, seat: int) -> bool:
    """More curse tokens than every other player (those stored on a titan count); never
    in a solitaire game, where an effect that refers to other players can't be used."""
    if len(state.players) == 1:
        return False
    mine = state.players[seat].curses + state.players[seat].stored_curses
    return all(mine > p.curses + p.stored_curses for p in state.players if p.seat != seat)


def score(state: State, seat: int) -> int:
    """A player's final score: Bramble Tumbleworld doubles it last, once every other
    addition is counted."""
    owned = owned_advancements(state, seat)
    sources = end_sources(state, seat, owned)
    total = base_score(state, seat, owned, sources)
    names = end_abilities(state, seat, sources)
    if "most_curses_titan" in names and most_curses(state, seat):
        total += MOST_CURSES_TITAN_VP * names.count("most_curses_titan")
    for _ in range(names.count("worth_total")):
        total += max(0, total)
    return total


def tiebreak(state: State, seat: int) -> int:
    """Level-3 advancements owned, each level-4 one counting as two."""
    levels = [advancement_of(state, i).level for i, _ in owned_advancements(state, seat)]
    return sum(1 for lv in levels if lv == 3) + 2 * sum(1 for lv in levels if lv == 4)


def finishing_order(state: State) -> list[list[int]]:
    """The players in the order they finished: the winners, then the others by score
    (ties broken as for the win, by `tiebreak`), then those who conceded."""
    if state.nemesis is not None or not state.scores:
        return []
    rest = [p.seat for p in state.players if p.seat not in state.winners and not p.conceded]

    def rank(seat: int) -> tuple[int, int]:
        return state.scores[str(seat)], tiebreak(state, seat)

    order = [sorted(state.winners)]
    for key in sorted({rank(s) for s in rest}, reverse=True):
        order.append([s for s in rest if rank(s) == key])
    gone = [p.seat for p in state.players if p.conceded and p.seat not in state.winners]
    return order + ([gone] if gone else [])


def finish_game(state: State, *, by_concession: bool = False) -> Events:
    """Score the game and say who won (players who conceded score but cannot win)."""
    state.phase = "over"
    state.frames.clear()
    state.pending.clear()
    every = {p.seat: score(state, p.seat) for p in state.players}
    state.scores = {str(s): v for s, v in every.items()}
    if state.nemesis is not None:
        return _solitaire_end(state, every[0], by_concession=by_concession)
    scores = {s: v for s, v in every.items() if not state.players[s].conceded}
    if by_concession:
        (seat,) = scores
        state.winners = [seat]
        state.losers = [p.seat for p in state.players if p.seat != seat]
        name = state.players[seat].name
        gone = listed([p.name for p in state.players if p.conceded])
        state.end_text = f"{gone} conceded: {name} wins."
        return [_ev("over", state.end_text)]
    best = max(scores.values())
    top = [s for s, v in scores.items() if v == best]
    if len(top) > 1:
        most = max(tiebreak(state, s) for s in top)
        top = [s for s in top if tiebreak(state, s) == most]
    winners = set(top)
    if len(state.players) >= 3:  # Avatar of the Soulless God: the lowest score shares the win
        for seat in scores:
            lowest = all(scores[seat] < v for s, v in scores.items() if s != seat)
            if lowest and "avatar_shared_win" in end_abilities(state, seat):
                winners.add(seat)
    state.winners = sorted(winners)
    state.losers = [p.seat for p in state.players if p.seat not in winners]
    ranked = sorted(every.items(), key=lambda item: -item[1])
    names = ", ".join(f"{state.players[s].name} {v}" for s, v in ranked)
    won = " & ".join(state.players[s].name for s in state.winners)
    verb = "wins" if len(state.winners) == 1 else "share the win"
    state.end_text = f"The VP pool ran out and the last round is over: {won} {verb} ({names})."
    return [_ev("over", state.end_text)]


def _solitaire_end(state: State, mine: int, *, by_concession: bool) -> Events:
    """The player against the nemesis: strictly more points wins."""
    assert state.nemesis is not None
    theirs = nemesis_score(state)
    state.nemesis.score = theirs
    player = state.players[0]
    nemesis = nemesis_card(state).shown_name
    won = not by_concession and mine > theirs
    state.winners = [0] if won else []
    state.losers = [] if won else [0]
    if by_concession:
        state.end_text = f"{player.name} concedes: {nemesis} wins."
    elif won:
        state.end_text = f"{player.name} defeats {nemesis}, {mine} to {theirs}."
    else:
        tie = " (a tie goes to the nemesis)" if mine == theirs else ""
        state.end_text = f"{nemesis} wins, {theirs} to {mine}{tie}."
    return [_ev("over", state.end_text)]
