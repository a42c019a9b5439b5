"""Ratings: OpenSkill's Plackett-Luce model (Weng and Lin, JMLR 12, 2011) through the
``openskill`` package, one rating per player and game, updated by the final placing of
each finished rated game of 2-8 players, ties allowed.

A rating is a belief about a skill: ``mu`` its mean and ``sigma`` its uncertainty,
on OpenSkill's own scale (a newcomer is 25 and 25/3). What people are shown is the
*conservative ordinal*, skill less three uncertainties, put on a friendlier scale:

    shown = 400 + 50 × (mu − 3 sigma)          (openskill: ordinal(z=3, alpha=50, target=400))

- ``alpha`` 50 makes differences read like Elo's: between two well-known players
  (sigma near 1) 400 points are about 10 to 1 in openskill's own forecast of a
  two-player game (``predict_win``: a mu difference of 8 gives 0.907); 200 points
  about 3 to 1.
- ``target`` 400 puts a known player of a newcomer's skill (mu 25, sigma about 1)
  near 1500, where lichess's figures sit. A newcomer shows 400 and climbs as the
  uncertainty shrinks: the figure is a floor the player is 99.9% sure to be above,
  so it never flatters.

The first :data:`PROVISIONAL_GAMES` games are *provisional* (the figure is shown with a
mark): after 20 games against settled players sigma has fallen from 8.3 to about 3.9,
below half its start, at two players and at four (openskill's defaults; measured
in ``docs/ratings.md``); before that the figure moves hundreds of points a game.

Bots are fixed reference ratings (:mod:`rummykit.ratings.ladder`): a seat marked
``fixed`` takes part in the update of the others and keeps its own rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from rummykit import games

__all__ = [
    "ALPHA",
    "MAX_PLAYERS",
    "PROVISIONAL_GAMES",
    "TARGET",
    "Rating",
    "Z",
    "rate",
    "rate_finished",
]

Z = 3.0
"""Uncertainties taken off the skill for the shown figure (the conservative ordinal)."""
ALPHA = 50.0
"""Shown points per unit of OpenSkill's skill (400 points about 10:1, see above)."""
TARGET = 400.0
"""The shown figure of a skill of 0 less three uncertainties: a newcomer's figure."""
PROVISIONAL_GAMES = 20
"""A rating is provisional until this many rated games are played."""
MAX_PLAYERS = 8
"""The most seats a rated game has (Kontrakt's K1)."""

_MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3, beta 25/6,
tau 25/300): the scale the bots' ladder is measured on; changing it rescales every
rating."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one game: OpenSkill's ``mu`` and ``sigma`` and the number
    of rated games it rests on.

    >>> r = Rating()
    >>> r.shown, r.provisional
    (400, True)
    >>> Rating(25.0, 1.0, 120).shown
    1500
    """

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative ordinal on the shown scale: ``TARGET + ALPHA × (mu − Z sigma)``
        (openskill's ``ordinal(z, alpha, target)``)."""
        return TARGET + ALPHA * (self.mu - Z * self.sigma)

    @property
    def shown(self) -> int:
        """The figure people see: the ordinal, rounded."""
        return round(self.ordinal)

    @property
    def provisional(self) -> bool:
        """Whether the figure rests on too few games to mean much yet."""
        return self.games < PROVISIONAL_GAMES

    def to_json(self) -> dict[str, object]:
        """Plain data: mu, sigma, games, and the shown figure with its mark."""
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "rating": self.shown,
            "provisional": self.provisional,
        }


def rate(
    ratings: Sequence[Rating], places: Sequence[int], fixed: Sequence[bool] = ()
) -> tuple[Rating, ...]:
    """Every seat's rating after a game it finished at ``places`` (1 the best; equal
    places a tie), by OpenSkill's Plackett-Luce update, each seat a team of one.

    ``fixed[seat]`` true keeps that seat's rating as it was (a bot's reference rating):
    it still weighs in the others' update. ValueError for fewer than 2 or more than
    :data:`MAX_PLAYERS` seats, or places that do not fit them.

    >>> a, b = rate([Rating(), Rating()], [1, 2])
    >>> round(a.mu, 3), round(b.mu, 3), a.games
    (27.635, 22.365, 1)
    >>> a, bot = rate([Rating(), Rating(30.0, 1.0, 500)], [2, 1], fixed=[False, True])
    >>> bot == Rating(30.0, 1.0, 500), a.mu < 25
    (True, True)
    """
    n = len(ratings)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"a rated game has 2 to {MAX_PLAYERS} players, not {n}")
    if len(places) != n or any(not 1 <= p <= n for p in places):
        raise ValueError(f"places for {n} players are each from 1 to {n}, not {list(places)}")
    keep = list(fixed) + [False] * (n - len(fixed))
    if len(keep) != n:
        raise ValueError(f"fixed names {len(fixed)} seats for {n} players")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    new = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return tuple(
        old if keep[seat] else Rating(team[0].mu, team[0].sigma, old.games + 1)
        for seat, (old, team) in enumerate(zip(ratings, new, strict=True))
    )


def rate_finished(
    game: str,
    result: Mapping[str, object],
    ratings: Sequence[Rating],
    fixed: Sequence[bool] = (),
) -> tuple[Rating, ...]:
    """Every seat's rating after a finished unit of ``game`` (a Vatikanen session, a
    Kontrakt game), placed by the ``result`` its record ends with as the game's spec
    orders it (:meth:`rummykit.games.GameSpec.places`). ValueError for a result that
    does not fit the seats.

    >>> a, b = rate_finished("kontrakt", {"scores": [40, 95]}, [Rating(), Rating()])
    >>> a.mu > 25 > b.mu
    True
    """
    places = games.get(game).places(result, len(ratings))
    return rate(ratings, places, fixed)
