"""The arena's statistics: Wilson intervals, deck-clustered intervals and the Elo fit."""

from __future__ import annotations

import math
import random

import pytest

from rummykit.arena.stats import (
    Cluster,
    clustered_mean,
    clustered_rate,
    fit_elo,
    mean_interval,
    ratio_variance,
    wilson,
)


@pytest.mark.parametrize(
    ("wins", "games", "lo", "hi"),
    [
        (60, 100, 0.5020, 0.6906),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (600, 1000, 0.5693, 0.6299),
    ],
)
def test_wilson_known_values(wins: float, games: float, lo: float, hi: float) -> None:
    got = wilson(wins, games)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_takes_shared_wins_and_no_games() -> None:
    lo, hi = wilson(2.5, 5)
    assert lo < 0.5 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert (lo + hi) / 2 == pytest.approx(2.5)
    assert hi - lo == pytest.approx(2 * 1.959964 * math.sqrt(5 / 3 / 4), rel=1e-5)


def test_ratio_variance_of_independent_games_is_binomial() -> None:
    rng = random.Random(3)
    pairs = [(1.0, float(rng.random() < 0.6)) for _ in range(4000)]
    p = sum(y for _, y in pairs) / 4000
    assert ratio_variance(pairs) == pytest.approx(p * (1 - p) / 4000, rel=0.01)


def test_clustered_rate_is_wilson_for_independent_games() -> None:
    rng = random.Random(3)
    clusters = [Cluster(2, sum(rng.random() < 0.6 for _ in range(2)), 0.0) for _ in range(400)]
    lo, hi, deff = clustered_rate(clusters)
    wins = sum(c.wins for c in clusters)
    wlo, whi = wilson(wins, 800)
    assert deff < 1.2
    assert lo == pytest.approx(wlo, abs=0.01) and hi == pytest.approx(whi, abs=0.01)


def test_clustered_rate_widens_for_correlated_clusters() -> None:
    # Both games of a cluster have the same result: the effective sample halves,
    # so the interval is about sqrt(2) times wider than Wilson's.
    rng = random.Random(4)
    clusters = [Cluster(2, 2 * float(rng.random() < 0.5), 0.0) for _ in range(300)]
    lo, hi, deff = clustered_rate(clusters)
    wins = sum(c.wins for c in clusters)
    wlo, whi = wilson(wins, 600)
    assert deff == pytest.approx(2, rel=0.05)
    assert (hi - lo) == pytest.approx(math.sqrt(2) * (whi - wlo), rel=0.05)


def test_clustered_rate_is_never_narrower_than_wilson_and_handles_extremes() -> None:
    # Duplicate deals that cancel perfectly (one win per deck of 2) have zero
    # cluster variance: the interval stays Wilson's.
    even = [Cluster(2, 1, 0.0)] * 50
    assert clustered_rate(even) == (*wilson(50, 100), 1.0)
    all_won = [Cluster(2, 2, 0.0)] * 50
    lo, hi, _ = clustered_rate(all_won)
    assert hi == 1.0 and lo == pytest.approx(wilson(100, 100)[0])


def test_clustered_mean() -> None:
    values = [10.0, -10.0] * 50
    clusters = [Cluster(2, 1, 0.0)] * 50
    lo, hi = clustered_mean(clusters, values)
    assert (lo, hi) == pytest.approx(mean_interval(values))
    same = [Cluster(2, 1, 20.0), Cluster(2, 1, -20.0)] * 25
    lo2, hi2 = clustered_mean(same, [10.0, 10.0, -10.0, -10.0] * 25)
    assert hi2 - lo2 > 1.3 * (hi - lo)


def test_elo_recovers_a_synthetic_tournament() -> None:
    truth = {"anchor": 1500.0, "strong": 1700.0, "weak": 1350.0, "mid": 1480.0}
    names = list(truth)
    results = {}
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
            results[(a, b)] = (1000 * p, 1000.0)
    got = fit_elo(names, results, prior=0.0)
    for name, rating in truth.items():
        assert got[name] == pytest.approx(rating, abs=0.5)


def test_elo_from_sampled_games_and_a_bot_that_never_loses() -> None:
    rng = random.Random(1)
    p = 1 / (1 + 10 ** (-100 / 400))  # b is 100 points stronger than a
    score = sum(rng.random() < p for _ in range(4000))
    got = fit_elo(["a", "b"], {("b", "a"): (float(score), 4000.0)})
    assert got["a"] == 1500
    assert got["b"] == pytest.approx(1600, abs=20)
    always = fit_elo(["a", "b"], {("a", "b"): (10.0, 10.0)})
    assert math.isfinite(always["b"]) and always["b"] < 1500 - 200
