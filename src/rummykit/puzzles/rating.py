"""Puzzle ratings by Glicko-2 (Glickman, "Example of the Glicko-2 system"), through the
``glicko2`` package, never a formula of our own.

A try of a puzzle is one game of one rating period between the player and the puzzle:
the player wins when the answer is right, the puzzle wins otherwise. Both sides are
updated from the other's rating before the try.
"""

from __future__ import annotations

from dataclasses import dataclass

import glicko2

__all__ = ["Rating", "rate"]


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating: ``rating``, rating deviation ``rd`` and ``volatility``."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _updated(own: Rating, other: Rating, score: float) -> Rating:
    player = glicko2.Player(rating=own.rating, rd=own.rd, vol=own.volatility)
    player.update_player([other.rating], [other.rd], [score])
    return Rating(float(player.getRating()), float(player.getRd()), float(player.vol))


def rate(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's new ratings after the player's first try."""
    score = 1.0 if solved else 0.0
    return _updated(player, puzzle, score), _updated(puzzle, player, 1.0 - score)
