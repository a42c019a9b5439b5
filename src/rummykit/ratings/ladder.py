"""The bots' ladder: every bot level of each game on the rating scale, fixed.

A game against bots is rated too (issue 42): each bot seat plays at its level's
*reference rating* and keeps it (:func:`rummykit.ratings.rate` with ``fixed``), so the
scale means the same thing whoever a player meets. The reference ratings are measured,
not set: ``benchmarks/ladder.py`` plays a round robin of two-player arena matches on
duplicate deals between every level a table can seat (each deck once in each seat
rotation), and :func:`fit` makes OpenSkill ratings of those games. The result is the
committed file ``ladder.json`` beside this module, read here.

:func:`fit` rates the games one at a time as they would be rated for people (the same
model and placing), every level starting as a newcomer; since such an update depends
on the order of the games, it does so for ``orders`` shuffles of them (seeded) and
keeps each level's mean ``mu`` and ``sigma`` over the orders. Every level starts at
the newcomer's 25, and the Plackett-Luce update keeps the sum of the means about
where it began, so the ladder's mean level sits near a newcomer's skill.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from rummykit.ratings.model import Rating, rate

__all__ = ["LADDER_FILE", "LadderGame", "Rung", "bot_rating", "fit", "ladder", "load"]

LADDER_FILE = "ladder.json"
"""The committed ladder, in this package (written by ``benchmarks/ladder.py``)."""

FORMAT = 1
"""The ladder file's format number."""


@dataclass(frozen=True, slots=True)
class LadderGame:
    """One arena game of the round robin: the level at each seat and each seat's place
    (1 the best, ties sharing); ``at`` orders the games of all matches into one
    sequence (a game's share of the way through its own match)."""

    levels: tuple[str, ...]
    places: tuple[int, ...]
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Rung:
    """A bot level's reference rating in one game."""

    level: str
    rating: Rating


def fit(games: Sequence[LadderGame], orders: int = 20, seed: int = 0) -> dict[str, Rating]:
    """Each level's rating from the round robin's ``games``: OpenSkill's update, game by
    game, from newcomers' ratings, in ``orders`` orders (the first by ``at``, the others
    shuffled from ``seed``), each level's mu and sigma the mean over the orders and its
    games the games it played.

    >>> won = [LadderGame(("a", "b"), (1, 2), i / 10) for i in range(10)]
    >>> ratings = fit(won, orders=3)
    >>> ratings["a"].mu > 25 > ratings["b"].mu, ratings["a"].games
    (True, 10)
    """
    if orders < 1:
        raise ValueError(f"orders is at least 1, not {orders}")
    levels = sorted({level for g in games for level in g.levels})
    played = {level: sum(g.levels.count(level) for g in games) for level in levels}
    rng = random.Random(seed)
    first = sorted(games, key=lambda g: g.at)
    mu = dict.fromkeys(levels, 0.0)
    sigma = dict.fromkeys(levels, 0.0)
    for n in range(orders):
        order = list(first)
        if n:
            rng.shuffle(order)
        now = {level: Rating() for level in levels}
        for g in order:
            after = rate([now[level] for level in g.levels], g.places)
            for level, rating in zip(g.levels, after, strict=True):
                now[level] = rating
        for level in levels:
            mu[level] += now[level].mu / orders
            sigma[level] += now[level].sigma / orders
    return {level: Rating(mu[level], sigma[level], played[level]) for level in levels}


@functools.cache
def load() -> Mapping[str, object]:
    """The committed ladder file, read once (plain JSON data)."""
    text = resources.files("rummykit.ratings").joinpath(LADDER_FILE).read_text("utf-8")
    data: object = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{LADDER_FILE} is not a ladder of format {FORMAT}")
    return data


def ladder(game: str) -> tuple[Rung, ...]:
    """Every bot level of ``game`` on the ladder, the strongest first (by shown figure);
    empty for a game the ladder does not hold."""
    entry = load().get("games", {})
    assert isinstance(entry, dict)
    levels = entry.get(game, {}).get("levels", {}) if isinstance(entry.get(game), dict) else {}
    rungs = [
        Rung(level, Rating(float(v["mu"]), float(v["sigma"]), int(v["games"])))
        for level, v in levels.items()
    ]
    return tuple(sorted(rungs, key=lambda r: (-r.rating.ordinal, r.level)))


def bot_rating(game: str, level: str) -> Rating | None:
    """The reference rating of bot ``level`` in ``game``; None for a level the ladder does
    not hold (a trained ``policy``, an external program)."""
    for rung in ladder(game):
        if rung.level == level:
            return rung.rating
    return None
