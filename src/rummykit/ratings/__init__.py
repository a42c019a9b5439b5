"""Ratings for players and bots (issue 42 item 2, issue 44 item 4); pure functions.

- :mod:`~rummykit.ratings.model`: a rating (OpenSkill's Plackett-Luce model through the
  ``openskill`` package), its update by a finished game's placing, the shown figure
  (the conservative ordinal) and when it is provisional;
- :mod:`~rummykit.ratings.ladder`: the bots' fixed reference ratings by level, measured
  by the arena's round robin (``benchmarks/ladder.py``) and kept in ``ladder.json``.

``docs/ratings.md`` says what the figure means and how to rerun the ladder.

>>> from rummykit.ratings import Rating, rate_finished
>>> anna, bo = rate_finished("vatikanen", {"scores": [46, -46]}, [Rating(), Rating()])
>>> anna.shown > 400 > bo.shown, anna.provisional
(True, True)
"""

from rummykit.ratings.ladder import LadderGame, Rung, bot_rating, fit, ladder
from rummykit.ratings.model import (
    ALPHA,
    PROVISIONAL_GAMES,
    TARGET,
    Rating,
    Z,
    rate,
    rate_finished,
)

__all__ = [
    "ALPHA",
    "PROVISIONAL_GAMES",
    "TARGET",
    "LadderGame",
    "Rating",
    "Rung",
    "Z",
    "bot_rating",
    "fit",
    "ladder",
    "rate",
    "rate_finished",
]
