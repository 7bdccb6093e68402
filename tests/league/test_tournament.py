"""Tournament pairings and standings: the Swiss rules checked over many random events
(no rematch while one can be avoided, the bye to the lowest ranked without one, every
entrant still in paired once a round), round robins where everyone meets everyone once,
elimination brackets by seed, and the tie-breaks worked by hand."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.tournament import (
    DRAW,
    ELIMINATION,
    LOSS,
    ROUND_ROBIN,
    SWISS,
    WIN,
    Game,
    bracket_order,
    champion,
    elimination_round,
    met,
    round_robin_round,
    rounds_needed,
    standings,
    swiss_pairings,
    swiss_round,
)


def clean_pairing_exists(players: list[int], met_pairs: set[frozenset[int]]) -> bool:
    """Brute force: can `players` (an even number) all be paired with no rematch?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, p)) not in met_pairs
        and clean_pairing_exists([q for q in rest if q != p], met_pairs)
        for p in rest
    )


def play(rng: random.Random, pairs: list[tuple[int, int | None]], round_no: int) -> list[Game]:
    return [
        Game(round_no, a, b, None if b is None else rng.choice((WIN, DRAW, LOSS))) for a, b in pairs
    ]


@settings(max_examples=300, deadline=None)
@given(
    entrants=st.integers(min_value=2, max_value=11),
    rounds=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_swiss_rules_hold_over_random_events(entrants: int, rounds: int, seed: int) -> None:
    """Random results, and now and then an entrant dropping out, round after round."""
    rng = random.Random(seed)
    seeds = list(range(100, 100 + entrants))
    games: list[Game] = []
    dropped: set[int] = set()
    for round_no in range(1, rounds_needed(SWISS, entrants, rounds) + 1):
        if rng.random() < 0.15 and len(seeds) - len(dropped) > 2:
            dropped.add(rng.choice([e for e in seeds if e not in dropped]))
        still_in = [e for e in seeds if e not in dropped]
        pairs = swiss_round(seeds, games, dropped)
        seated = [e for p in pairs for e in p if e is not None]
        assert sorted(seated) == sorted(still_in)  # each once, nobody who dropped
        byes = [a for a, b in pairs if b is None]
        assert len(byes) == len(still_in) % 2
        had_bye = {g.a for g in games if g.b is None}
        met_pairs = met(games)
        ranked = [s.entrant for s in standings(SWISS, seeds, games) if s.entrant in still_in]
        if byes:
            (bye,) = byes
            # The bye: the lowest ranked without one for whom the rest pair cleanly.
            eligible = [e for e in reversed(ranked) if e not in had_bye] or ranked[::-1]
            clean = [
                e
                for e in eligible
                if clean_pairing_exists([x for x in ranked if x != e], met_pairs)
            ]
            assert bye == (clean[0] if clean else eligible[0])
            playing = [e for e in ranked if e != bye]
        else:
            playing = ranked
        rematches = [(a, b) for a, b in pairs if b is not None and frozenset((a, b)) in met_pairs]
        if clean_pairing_exists(playing, met_pairs):
            assert rematches == []
        games += play(rng, pairs, round_no)


def test_a_swiss_round_pairs_the_top_half_of_a_score_group_with_its_bottom_half() -> None:
    """Round one: eight level entrants, 1 v 5, 2 v 6, 3 v 7, 4 v 8. Round two (the top
    seeds all won): the winners' group 1, 2, 3, 4 pairs 1 v 3 and 2 v 4, the losers'
    5 v 7 and 6 v 8."""
    seeds = [1, 2, 3, 4, 5, 6, 7, 8]
    first = swiss_round(seeds, [])
    assert first == [(1, 5), (2, 6), (3, 7), (4, 8)]
    games = [Game(1, a, b, WIN) for a, b in first]
    second = swiss_round(seeds, games)
    assert second == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    ranked = [1, 2, 3, 4, 5]
    assert swiss_pairings(ranked, set(), set())[-1] == (5, None)
    assert swiss_pairings(ranked, set(), {5})[-1] == (4, None)
    assert swiss_pairings(ranked, set(), {1, 2, 3, 4, 5})[-1] == (5, None)


def test_a_rematch_is_played_only_when_every_pairing_has_one() -> None:
    """Three players who have all met, plus one who met all three: no clean pairing."""
    ranked = [1, 2, 3, 4]
    all_met = {frozenset(p) for p in itertools.combinations(ranked, 2)}
    pairs = swiss_pairings(ranked, all_met, set())
    assert sorted(e for p in pairs for e in p if e is not None) == ranked
    avoidable = all_met - {frozenset((1, 4)), frozenset((2, 3))}
    assert swiss_pairings(ranked, avoidable, set()) == [(1, 4), (2, 3)]


@pytest.mark.parametrize("entrants", [2, 3, 4, 5, 6, 7, 8])
def test_a_round_robin_meets_everyone_once(entrants: int) -> None:
    seeds = list(range(1, entrants + 1))
    rounds = rounds_needed(ROUND_ROBIN, entrants)
    pairs = [p for r in range(1, rounds + 1) for p in round_robin_round(seeds, r)]
    meetings = [frozenset(p) for p in pairs if p[1] is not None]
    assert sorted(map(sorted, meetings)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(seeds, 2)))
    )
    byes = [a for a, b in pairs if b is None]
    assert sorted(byes) == (seeds if entrants % 2 else [])  # each sits out once
    for r in range(1, rounds + 1):
        seated = [e for p in round_robin_round(seeds, r) for e in p if e is not None]
        assert sorted(seated) == seeds


def test_an_elimination_bracket_by_seed() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    seeds = [10, 20, 30, 40, 50, 60]  # six: the top two seeds have byes
    first = elimination_round(seeds, [], 1)
    assert first == [(10, None), (40, 50), (20, None), (30, 60)]
    games = [Game(1, 10, None), Game(1, 40, 50, LOSS), Game(1, 20, None), Game(1, 30, 60, WIN)]
    second = elimination_round(seeds, games, 2)
    assert second == [(10, 50), (20, 30)]
    games += [Game(2, 10, 50, DRAW), Game(2, 20, 30, LOSS)]  # a draw: the better seed
    assert elimination_round(seeds, games, 3) == [(10, 30)]
    games.append(Game(3, 10, 30, LOSS))
    assert rounds_needed(ELIMINATION, 6) == 3
    assert champion(seeds, games) == 30
    table = standings(ELIMINATION, seeds, games)
    assert [s.entrant for s in table][:2] == [30, 10]
    assert [s.tiebreaks[0] for s in table][:2] == [3.0, 2.0]  # rounds won (a bye counts)


def test_a_drawn_elimination_game_sends_the_better_seed_through_in_the_standings() -> None:
    """1 draws with 4 (1 goes on), 3 beats 2, the final 1 v 3 drawn: 1 is champion and
    first, 3 second; of the two out in round one, 4 (a draw, ½ point) is ahead of 2."""
    seeds = [1, 2, 3, 4]
    games = [Game(1, 1, 4, DRAW), Game(1, 2, 3, LOSS), Game(2, 1, 3, DRAW)]
    assert champion(seeds, games) == 1
    table = standings(ELIMINATION, seeds, games)
    assert [s.entrant for s in table] == [1, 3, 4, 2]


def test_a_game_both_lost_gives_neither_a_point_and_counts_as_a_loss_for_each() -> None:
    """Issue 42 item 6: a pairing whose match was stopped before it had a result."""
    seeds = [1, 2, 3, 4]
    games = [Game(1, 1, 2, LOSS, both_lost=True), Game(1, 3, 4, WIN)]
    assert [g.points_of(e) for g in games[:1] for e in (1, 2)] == [0.0, 0.0]
    assert games[0].winner() is None
    table = {s.entrant: s for s in standings(SWISS, seeds, games)}
    assert [(table[e].points, table[e].wins, table[e].losses) for e in (1, 2)] == [
        (0.0, 0, 1),
        (0.0, 0, 1),
    ]
    assert [s.entrant for s in standings(SWISS, seeds, games)] == [3, 4, 1, 2]  # 4: Buchholz 1
    assert sorted(map(sorted, swiss_round(seeds, games))) == [[1, 3], [2, 4]]  # no rematch


def test_in_an_elimination_a_game_both_lost_sends_nobody_on() -> None:
    """The next opponent has a bye; a final both lost leaves no champion."""
    seeds = [1, 2, 3, 4]
    games = [Game(1, 1, 4, LOSS, both_lost=True), Game(1, 2, 3, WIN)]
    assert elimination_round(seeds, games, 2) == [(2, None)]
    assert champion(seeds, [*games, Game(2, 2, None)]) == 2
    table = standings(ELIMINATION, seeds, [*games, Game(2, 2, None)])
    assert table[0].entrant == 2 and table[0].tiebreaks[0] == 2.0
    assert champion([1, 2], [Game(1, 1, 2, LOSS, both_lost=True)]) is None


def test_swiss_tie_breaks_by_hand() -> None:
    """A, B, C, D over two rounds. Round 1: A beats B, C draws D. Round 2: A draws C,
    B beats D. Points: A 1.5, B 1, C 1, D 0.5. B and C tie on points; Buchholz: B met
    A (1.5) and D (0.5) = 2.0, C met D (0.5) and A (1.5) = 2.0, a tie again;
    Sonneborn-Berger: B beat D (0.5) = 0.5, C drew D and A = (0.5 + 1.5) / 2 = 1.0,
    so C is ahead of B."""
    a, b, c, d = 1, 2, 3, 4
    games = [
        Game(1, a, b, WIN),
        Game(1, c, d, DRAW),
        Game(2, a, c, DRAW),
        Game(2, b, d, WIN),
    ]
    table = standings(SWISS, [a, b, c, d], games)
    assert [(s.entrant, s.points) for s in table] == [(a, 1.5), (c, 1.0), (b, 1.0), (d, 0.5)]
    by = {s.entrant: s for s in table}
    assert by[b].tiebreaks == (2.0, 0.5, 1.0) and by[c].tiebreaks == (2.0, 1.0, 0.0)
    assert (by[a].wins, by[a].draws, by[a].losses) == (1, 1, 0)


def test_a_bye_is_a_win_and_adds_nothing_to_buchholz() -> None:
    games = [Game(1, 1, 2, WIN), Game(1, 3, None)]
    by = {s.entrant: s for s in standings(SWISS, [1, 2, 3], games)}
    assert by[3].points == 1.0 and by[3].byes == 1 and by[3].tiebreaks[0] == 0.0
    assert by[1].tiebreaks[0] == 0.0  # B has no points


def test_an_elimination_bye_is_a_round_won_while_the_round_is_played() -> None:
    """Three entrants: 1 has a bye, 2 and 3 play. Before their game ends, 1 has won a
    round (and 2 and 3 none); once 3 wins, 3 has too."""
    seeds = [1, 2, 3]
    assert elimination_round(seeds, [], 1) == [(1, None), (2, 3)]
    games = [Game(1, 1, None), Game(1, 2, 3)]
    by = {s.entrant: s for s in standings(ELIMINATION, seeds, games)}
    assert [by[e].tiebreaks[0] for e in seeds] == [1.0, 0.0, 0.0]
    assert by[1].points == 1.0 and by[1].rank == 1
    games[1] = Game(1, 2, 3, LOSS)
    by = {s.entrant: s for s in standings(ELIMINATION, seeds, games)}
    assert [by[e].tiebreaks[0] for e in seeds] == [1.0, 0.0, 1.0]
