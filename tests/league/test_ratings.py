"""Ratings against the Plackett-Luce update as Weng and Lin publish it (Algorithm 4 of
"A Bayesian Approximation Method for Online Ranking", 2011), worked here by hand with
the library's stated defaults, for a 2-player game, a 3-player free-for-all and two
teams of two; and the rules of what is rated."""

from __future__ import annotations

import math

import pytest

from league.ratings import (
    ABANDONED,
    CONCEDED,
    FRESH,
    MODEL,
    PLAYED,
    RATED_BY_DEFAULT,
    RECORDED,
    REMOVED,
    TIMEOUT,
    Placing,
    Skill,
    counts,
    rate,
    replay,
)

MU, SIGMA = 25.0, 25 / 3  # a new player
BETA, TAU, KAPPA = 25 / 6, 25 / 300, 0.0001  # performance noise, dynamics, sigma floor


def published(teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    """Algorithm 4 (Plackett-Luce), step by step: sigma widened by tau; each team's
    mu and sigma^2 are its members' sums; c^2 = sum of (sigma_i^2 + beta^2); C_q sums
    exp(mu_i / c) over the teams ranked no better than q, A_q counts the teams tied with
    q; Omega_i and Delta_i sum over the teams q ranked no worse than i; gamma_i =
    sigma_i / c; each member moves in proportion to its share of the team's sigma^2."""
    widened = [[Skill(s.mu, math.sqrt(s.sigma**2 + TAU**2)) for s in team] for team in teams]
    mus = [sum(s.mu for s in team) for team in widened]
    vars_ = [sum(s.sigma**2 for s in team) for team in widened]
    c = math.sqrt(sum(v + BETA**2 for v in vars_))
    e = [math.exp(m / c) for m in mus]
    n = range(len(teams))
    big_c = [sum(e[i] for i in n if ranks[i] >= ranks[q]) for q in n]
    a = [sum(1 for i in n if ranks[i] == ranks[q]) for q in n]
    out = []
    for i in n:
        omega = sum(((q == i) - e[i] / big_c[q]) / a[q] for q in n if ranks[q] <= ranks[i])
        delta = sum(
            (e[i] / big_c[q]) * (1 - e[i] / big_c[q]) / a[q] for q in n if ranks[q] <= ranks[i]
        )
        omega *= vars_[i] / c
        delta *= (math.sqrt(vars_[i]) / c) * vars_[i] / c**2
        out.append(
            [
                Skill(
                    s.mu + s.sigma**2 / vars_[i] * omega,
                    s.sigma * math.sqrt(max(1 - s.sigma**2 / vars_[i] * delta, KAPPA)),
                )
                for s in widened[i]
            ]
        )
    return out


def close(a: Skill, b: Skill) -> bool:
    return math.isclose(a.mu, b.mu, abs_tol=1e-9) and math.isclose(a.sigma, b.sigma, abs_tol=1e-9)


def test_the_library_defaults_are_the_published_ones() -> None:
    assert (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.tau) == pytest.approx((MU, SIGMA, BETA, TAU))
    assert Skill(MU, SIGMA) == FRESH
    assert FRESH.shown == pytest.approx(0.0)  # a newcomer is shown 0: mu - 3 sigma


def test_a_two_player_game_by_hand() -> None:
    """Two new players, one wins. c = sqrt(2 (sigma'^2 + beta^2)) = 13.0171...; both
    teams equal, so the winner gains what the loser loses: 2.6354 each."""
    after = rate([Placing(1, 0, 1), Placing(2, 1, 2)], {})
    (winner,), (loser,) = published([[FRESH], [FRESH]], [1, 2])
    assert close(after[1], winner) and close(after[2], loser)
    assert after[1].mu == pytest.approx(27.6354, abs=1e-4)
    assert after[2].mu == pytest.approx(22.3646, abs=1e-4)
    assert after[1].sigma == pytest.approx(8.0659, abs=1e-4)


def test_a_three_player_free_for_all_with_a_tie_for_second() -> None:
    """One winner, two players tied behind (a partial ranking, as "the winner, then the
    rest"); the winner moves most, the tied pair alike."""
    before = {1: Skill(30.0, 6.0), 2: FRESH}
    after = rate([Placing(1, 0, 1), Placing(2, 1, 2), Placing(3, 2, 2)], before)
    expected = published([[before[1]], [FRESH], [FRESH]], [1, 2, 2])
    for user, (skill,) in zip((1, 2, 3), expected, strict=True):
        assert close(after[user], skill)
    assert after[2] == after[3]
    assert after[1].mu > 30.0 and after[2].mu < MU


def test_two_teams_of_two_by_hand() -> None:
    """Teammates share their side's result, each moving by their share of its
    uncertainty: the steadier teammate (smaller sigma) moves less."""
    before = {1: Skill(25.0, 3.0), 2: FRESH, 3: FRESH, 4: FRESH}
    placings = [Placing(1, 0, 1), Placing(2, 0, 1), Placing(3, 1, 2), Placing(4, 1, 2)]
    after = rate(placings, before)
    (w1, w2), (l1, l2) = published([[before[1], FRESH], [FRESH, FRESH]], [1, 2])
    for user, skill in zip((1, 2, 3, 4), (w1, w2, l1, l2), strict=True):
        assert close(after[user], skill)
    assert 0 < after[1].mu - 25.0 < after[2].mu - 25.0


def test_a_match_with_one_side_or_a_player_on_two_sides_is_not_rated() -> None:
    assert rate([Placing(1, 0, 1), Placing(2, 0, 1)], {}) == {}
    assert rate([Placing(1, 0, 1), Placing(1, 1, 2)], {}) == {}
    assert rate([Placing(1, 0, 1)], {}) == {}


def test_a_player_counted_once_on_their_side() -> None:
    """A seat handed to a teammate: the same person twice on one side counts once."""
    once = rate([Placing(1, 0, 1), Placing(2, 1, 2)], {})
    twice = rate([Placing(1, 0, 1), Placing(1, 0, 1), Placing(2, 1, 2)], {})
    assert once == twice


def test_a_match_played_to_its_end_is_always_rated_the_others_as_the_server_says() -> None:
    assert counts(PLAYED, ())
    assert all(not counts(e, ()) for e in (CONCEDED, TIMEOUT, ABANDONED, REMOVED, RECORDED))
    assert counts(CONCEDED, RATED_BY_DEFAULT) and counts(TIMEOUT, RATED_BY_DEFAULT)
    assert not counts(ABANDONED, RATED_BY_DEFAULT) and not counts(REMOVED, RATED_BY_DEFAULT)
    assert counts(REMOVED, {"moderators"}) and counts(RECORDED, {"moderators"})
    assert counts(ABANDONED, {"abandons"})


def test_replay_counts_games_and_gives_the_ratings_of_one_match_at_a_time() -> None:
    matches = [
        [Placing(1, 0, 1), Placing(2, 1, 2)],
        [Placing(2, 0, 1), Placing(3, 1, 2), Placing(1, 2, 3)],
        [Placing(1, 0, 1), Placing(1, 1, 2)],  # not rated
    ]
    skills, games = replay(matches)
    one = rate(matches[0], {})
    two = rate(matches[1], one)
    assert skills == {**one, **two}
    assert games == {1: 2, 2: 2, 3: 1}
