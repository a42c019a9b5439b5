"""The arena's statistics: Wilson intervals, the cluster bootstrap and the Elo fit."""

from __future__ import annotations

import math
import random

import pytest

from rummykit.arena_stats import Cluster, cluster_bootstrap, fit_elo, mean_interval, wilson


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


def test_bootstrap_is_deterministic_and_near_wilson_for_independent_games() -> None:
    rng = random.Random(3)
    clusters = {
        "a": [Cluster(2, sum(rng.random() < 0.6 for _ in range(2)), 0.0) for _ in range(400)]
    }
    one = cluster_bootstrap(clusters, seed=9, resamples=1000)
    assert one == cluster_bootstrap(clusters, seed=9, resamples=1000)
    (lo, hi), _ = one["a"]
    wins = sum(c.wins for c in clusters["a"])
    wlo, whi = wilson(wins, 800)
    assert lo == pytest.approx(wlo, abs=0.015)
    assert hi == pytest.approx(whi, abs=0.015)


def test_bootstrap_sees_correlated_clusters() -> None:
    # Both games of a cluster have the same result: the effective sample halves,
    # so the interval is wider than Wilson's, which takes the games as independent.
    rng = random.Random(4)
    data = []
    for _ in range(300):
        w = float(rng.random() < 0.5)
        data.append(Cluster(2, 2 * w, 0.0))
    (lo, hi), _ = cluster_bootstrap({"a": data}, seed=1, resamples=1000)["a"]
    wins = sum(c.wins for c in data)
    wlo, whi = wilson(wins, 600)
    assert (hi - lo) > 1.25 * (whi - wlo)


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
