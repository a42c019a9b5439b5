"""Statistics for the arena: win rates with confidence intervals, and Elo-style ratings.

Everything here is plain Python (no numpy) and deterministic: the bootstrap
draws from a seeded generator.

- :func:`wilson` is the Wilson score interval of a proportion, which stays
  inside [0, 1] and behaves at 0 and at 100%.
- :func:`cluster_bootstrap` resamples whole *clusters* (in the arena: every
  game played from one deck, in all its seat rotations), because duplicate
  games of one deck are not independent of each other.
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
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Z95",
    "Cluster",
    "cluster_bootstrap",
    "fit_elo",
    "mean_interval",
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


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) of sorted values, linearly interpolated."""
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] * (1 - frac) + sorted_values[hi] * frac


def cluster_bootstrap(
    clusters: Mapping[str, Sequence[Cluster]],
    *,
    seed: int,
    resamples: int = 2000,
) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """Percentile 95% intervals of each bot's win rate and mean score, resampling clusters.

    ``clusters[bot][k]`` is bot's sums in cluster ``k``; every bot lists the
    same clusters in the same order. Each resample draws the clusters with
    replacement (the same draw for every bot) and computes each bot's
    ``sum(wins) / sum(games)`` and ``sum(score) / sum(games)``. Returns, per
    bot, ``((win_lo, win_hi), (score_lo, score_hi))``.

    >>> data = {"a": [Cluster(2, 1, 0.0), Cluster(2, 2, 4.0)]}
    >>> ci = cluster_bootstrap(data, seed=1, resamples=200)["a"]
    >>> ci[0][0] >= 0.5 and ci[0][1] <= 1.0
    True
    """
    names = list(clusters)
    if not names:
        return {}
    k = len(clusters[names[0]])
    rng = random.Random(seed)
    rates: dict[str, list[float]] = {name: [] for name in names}
    means: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(resamples):
        picks = [rng.randrange(k) for _ in range(k)] if k else []
        for name in names:
            data = clusters[name]
            games = wins = score = 0.0
            for i in picks:
                c = data[i]
                games += c.games
                wins += c.wins
                score += c.score
            if games > 0:
                rates[name].append(wins / games)
                means[name].append(score / games)
    out: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    lo_q, hi_q = 0.025, 0.975
    for name in names:
        r = sorted(rates[name])
        m = sorted(means[name])
        out[name] = (
            (_percentile(r, lo_q), _percentile(r, hi_q)),
            (_percentile(m, lo_q), _percentile(m, hi_q)),
        )
    return out


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
