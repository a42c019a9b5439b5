"""Statistics for the arena: win rates with confidence intervals, and Elo-style ratings.

Everything here is plain Python (no numpy) and deterministic.

- :func:`wilson` is the Wilson score interval of a proportion, which stays
  inside [0, 1] and behaves at 0 and at 100%.
- :func:`clustered_rate` and :func:`clustered_mean` widen the intervals by
  the *design effect* of clusters (in the arena: the games played from one
  deck, in all its seat rotations), because duplicate games of one deck are
  not independent of each other.
- :func:`fit_elo` fits Bradley-Terry strengths to pairwise results by the
  MM algorithm (Hunter 2004) and writes them on the Elo scale.

>>> lo, hi = wilson(60, 100)
>>> round(lo, 4), round(hi, 4)
(0.502, 0.6906)
>>> ratings = fit_elo(["a", "b"], {("a", "b"): (76.0, 100.0)}, prior=0.0)
>>> round(ratings["b"] - ratings["a"])
-200
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Z95",
    "Cluster",
    "clustered_mean",
    "clustered_rate",
    "fit_elo",
    "mean_interval",
    "ratio_variance",
    "wilson",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(wins: float, games: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` out of ``games`` (fractional wins allowed).

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / games + z2 / (4 * games * games))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A normal-approximation interval of the mean of ``values`` (as if independent).

    >>> mean_interval([1.0, 1.0])
    (1.0, 1.0)
    """
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean - half, mean + half


@dataclass(frozen=True)
class Cluster:
    """One cluster's sums for one bot: games (seat-games), wins, and the sum of scores."""

    games: float
    wins: float
    score: float


def ratio_variance(pairs: Sequence[tuple[float, float]]) -> float:
    """The cluster-robust variance of ``sum(y) / sum(g)`` over clusters ``(g, y)``.

    The usual linearization (sandwich) estimator for a ratio of cluster
    totals: ``k/(k-1) * sum((y - r*g)**2) / sum(g)**2`` with ``r`` the ratio;
    0 with fewer than two clusters.

    >>> ratio_variance([(2, 1), (2, 1), (2, 1)])
    0.0
    >>> round(ratio_variance([(2, 2), (2, 0)]), 4)
    0.25
    """
    k = len(pairs)
    total = sum(g for g, _ in pairs)
    if k < 2 or total <= 0:
        return 0.0
    r = sum(y for _, y in pairs) / total
    return k / (k - 1) * sum((y - r * g) ** 2 for g, y in pairs) / (total * total)


def clustered_rate(clusters: Sequence[Cluster], z: float = Z95) -> tuple[float, float, float]:
    """A 95% interval of a win rate whose games come in correlated clusters, and its design effect.

    The interval is Wilson's with the effective number of games ``n / deff``,
    where the design effect ``deff`` is the cluster-robust variance of the
    rate (:func:`ratio_variance`) over the binomial one, ``p(1-p)/n``, and
    never below 1: the interval is never narrower than Wilson's for
    independent games, and wider when the games of one cluster (one deck)
    go together. At 0% or 100% it is Wilson's. Returns ``(lo, hi, deff)``.

    >>> lo, hi, deff = clustered_rate([Cluster(2, 2, 0), Cluster(2, 0, 0)] * 50)
    >>> deff > 1.9 and (hi - lo) > (wilson(100, 200)[1] - wilson(100, 200)[0]) * 1.35
    True
    """
    n = sum(c.games for c in clusters)
    wins = sum(c.wins for c in clusters)
    if n <= 0:
        return 0.0, 1.0, 1.0
    p = wins / n
    binomial = p * (1 - p) / n
    robust = ratio_variance([(c.games, c.wins) for c in clusters])
    deff = max(1.0, robust / binomial) if binomial > 0 else 1.0
    lo, hi = wilson(wins / deff, n / deff, z)
    return lo, hi, deff


def clustered_mean(
    clusters: Sequence[Cluster], values: Sequence[float], z: float = Z95
) -> tuple[float, float]:
    """A normal 95% interval of a mean score whose games come in correlated clusters.

    ``values`` are the single scores, ``clusters`` their sums by cluster. The
    variance is the larger of the cluster-robust one and the one for
    independent scores (see :func:`clustered_rate`).
    """
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    iid = sum((v - mean) ** 2 for v in values) / (n - 1) / n if n > 1 else 0.0
    robust = ratio_variance([(c.games, c.score) for c in clusters])
    half = z * math.sqrt(max(iid, robust))
    return mean - half, mean + half


def fit_elo(
    bots: Sequence[str],
    results: Mapping[tuple[str, str], tuple[float, float]],
    *,
    anchor: float = 1500.0,
    prior: float = 1.0,
    iterations: int = 10_000,
    tolerance: float = 1e-10,
) -> dict[str, float]:
    """Elo-style ratings fitted to pairwise results, the first bot anchored at ``anchor``.

    ``results[(a, b)] = (score, count)``: in ``count`` comparisons of ``a``
    with ``b``, ``a`` scored ``score`` (1 a win, 1/2 a draw, 0 a loss); the
    pair may appear either way round. The model is Bradley-Terry,
    ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``, fitted by
    maximum likelihood (draws count as half a win each way). ``prior`` adds
    that many virtual draws between every two bots, so that a bot which never
    lost still gets a finite rating.
    """
    names = list(dict.fromkeys(bots))
    if not names:
        return {}
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    wins = [[0.0] * n for _ in range(n)]
    count = [[0.0] * n for _ in range(n)]
    for (a, b), (score, games) in results.items():
        if a == b or a not in index or b not in index:
            continue
        i, j = index[a], index[b]
        wins[i][j] += score
        wins[j][i] += games - score
        count[i][j] += games
        count[j][i] += games
    for i in range(n):
        for j in range(n):
            if i != j:
                wins[i][j] += prior / 2
                count[i][j] += prior
    gamma = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            total = sum(wins[i][j] for j in range(n) if j != i)
            denom = sum(count[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            new.append(total / denom if denom > 0 and total > 0 else gamma[i])
        scale = new[0] if new[0] > 0 else 1.0
        new = [g / scale for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True) if a > 0)
        gamma = new
        if change < tolerance:
            break
    return {
        name: anchor + 400 * math.log10(gamma[i] / gamma[0]) if gamma[i] > 0 else -math.inf
        for name, i in index.items()
    }
