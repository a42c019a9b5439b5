"""The summary of an arena match: win rates with intervals, scores, Elo, faults, speed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from rummykit.arena.match import ArenaConfig, GameResult
from rummykit.arena.stats import (
    Cluster,
    clustered_mean,
    clustered_rate,
    fit_elo,
    mean_interval,
    wilson,
)
from rummykit.game import Result

__all__ = [
    "MIN_CLUSTER_DECKS",
    "TIMING_KEYS",
    "BotFigures",
    "MatchSummary",
    "comparable",
    "summarize",
]

MIN_CLUSTER_DECKS = 10
"""With at least this many decks ``ci95`` allows for the decks' clusters, else plain Wilson."""


class BotFigures(TypedDict):
    """One bot's figures in a match summary (:func:`summarize` says what each is)."""

    games: int
    wins: float
    win_rate: float
    ci95: list[float]
    mean_score: float
    ci95_method: str
    ci95_wilson: list[float]
    design_effect: float
    score_ci95: list[float]
    elo: float
    faults: int
    fault_kinds: dict[str, int]
    substituted_moves: int
    ms_per_move: float
    cpu_ms_per_move: float
    errors: int


class MatchSummary(TypedDict):
    """A match's JSON summary (the shape ``rummykit simulate --json`` prints)."""

    game: str
    players: int
    games: int
    results: dict[str, BotFigures]
    seconds: float


@dataclass
class _Tally:
    games: float = 0.0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=dict)
    substituted: int = 0
    think: float = 0.0
    think_cpu: float = 0.0
    decisions: int = 0
    errors: int = 0


def summarize(
    config: ArenaConfig,
    results: Sequence[GameResult],
    *,
    seconds: float = 0.0,
) -> MatchSummary:
    """The match's JSON summary (the shape ``rummykit simulate --json`` prints).

    Per bot spec, over all the seats it held: ``games`` (seat-games), ``wins``
    (a tie for the win shares it: each of k winners gets 1/k), ``win_rate``,
    ``ci95`` (with at least :data:`MIN_CLUSTER_DECKS` decks, Wilson's interval
    widened by the design effect of the decks, :func:`~rummykit.arena.stats.clustered_rate`,
    else Wilson's; which is in ``ci95_method``, the effect in ``design_effect``),
    ``ci95_wilson``, ``mean_score`` and ``score_ci95``,
    ``elo`` (pairwise results by score, the first bot 1500), ``faults``,
    ``fault_kinds``, ``substituted_moves``, ``ms_per_move`` (wall clock per decision),
    ``cpu_ms_per_move`` (the deciding thread's CPU time per decision: the bot's own
    cost, steady on a busy machine) and ``errors``.
    """
    bots = config.bots
    tally = {b: _Tally() for b in bots}
    decks: dict[int, dict[str, list[float]]] = {}
    pairs: dict[tuple[str, str], list[float]] = {}
    for r in sorted(results, key=lambda r: r.index):
        for seat, spec in enumerate(r.bots):
            t = tally[spec]
            for kind, k in r.faults[seat].items():
                t.faults[kind] = t.faults.get(kind, 0) + k
            t.substituted += r.substituted[seat]
            t.think += r.think[seat]
            t.think_cpu += r.think_cpu[seat] if r.think_cpu else 0.0
            t.decisions += r.decisions[seat]
        if r.error is not None:
            for spec in set(r.bots):
                tally[spec].errors += 1
            continue
        cluster = decks.setdefault(r.deck, {b: [0.0, 0.0, 0.0] for b in bots})
        share = 1.0 / len(r.winners) if r.winners else 0.0
        for seat, spec in enumerate(r.bots):
            won = share if seat in r.winners else 0.0
            t = tally[spec]
            t.games += 1
            t.wins += won
            t.scores.append(r.scores[seat])
            c = cluster[spec]
            c[0] += 1
            c[1] += won
            c[2] += r.scores[seat]
        for i in range(len(r.bots)):
            for j in range(i + 1, len(r.bots)):
                a, b = r.bots[i], r.bots[j]
                if a == b:
                    continue
                s = Result(r.winners, r.scores, config.spec.higher_is_better).beats(i, j)
                key, s = ((a, b), s) if (a, b) in pairs or (b, a) not in pairs else ((b, a), 1 - s)
                entry = pairs.setdefault(key, [0.0, 0.0])
                entry[0] += s
                entry[1] += 1
    clustered = len(decks) >= MIN_CLUSTER_DECKS
    elo = fit_elo(bots, {k: (v[0], v[1]) for k, v in pairs.items()})
    out: dict[str, BotFigures] = {}
    for b in bots:
        t = tally[b]
        rate = t.wins / t.games if t.games else 0.0
        wilson_ci = wilson(t.wins, t.games)
        if clustered:
            clusters = [Cluster(*decks[d][b]) for d in sorted(decks)]
            lo, hi, deff = clustered_rate(clusters)
            ci, score_ci, method = (lo, hi), clustered_mean(clusters, t.scores), "deck-clustered"
        else:
            ci, score_ci, method, deff = wilson_ci, mean_interval(t.scores), "wilson", 1.0
        out[b] = {
            "games": int(t.games),
            "wins": _num(t.wins),
            "win_rate": _num(rate),
            "ci95": [_num(ci[0]), _num(ci[1])],
            "mean_score": _num(sum(t.scores) / len(t.scores)) if t.scores else 0.0,
            "ci95_method": method,
            "ci95_wilson": [_num(wilson_ci[0]), _num(wilson_ci[1])],
            "design_effect": round(deff, 3),
            "score_ci95": [_num(score_ci[0]), _num(score_ci[1])],
            "elo": round(elo.get(b, 1500.0), 1),
            "faults": sum(t.faults.values()),
            "fault_kinds": dict(sorted(t.faults.items())),
            "substituted_moves": t.substituted,
            "ms_per_move": round(1000 * t.think / t.decisions, 3) if t.decisions else 0.0,
            "cpu_ms_per_move": round(1000 * t.think_cpu / t.decisions, 3) if t.decisions else 0.0,
            "errors": t.errors,
        }
    return {
        "game": config.game,
        "players": config.players,
        "games": sum(1 for r in results if r.error is None),
        "results": out,
        "seconds": round(seconds, 3),
    }


def _num(x: float) -> float:
    """A figure rounded for JSON (6 decimals), an int when whole."""
    r = round(x, 6)
    return int(r) if r == int(r) else r


TIMING_KEYS = ("ms_per_move", "cpu_ms_per_move")
"""Keys of a results entry that measure time and so differ between runs."""


def comparable(summary: Mapping[str, object]) -> dict[str, object]:
    """The summary without what depends on the machine (seconds, think times): for checks."""
    out = json.loads(json.dumps(summary))
    out.pop("seconds", None)
    for entry in out["results"].values():
        for key in TIMING_KEYS:
            entry.pop(key, None)
    return dict(out)
