"""The chance that a Kontrakt hand completes its contract before the deal ends.

The ``strong`` bot uses it to decide when to give up building and shed its
highest card: a hand caught before its contract is down pays for every card
it holds (K13), mostly the low cards it was building with.

The chance is a logistic model of what the view shows: the deal (K4), how
many cards the hand still misses and its outs (:func:`~rummykit.bots.kontrakt_strong.distance`,
after the discard), the stock, the danger of the deal's end, how many other
players have their contract down and the fewest cards any of them holds.
Its weights were fitted by ``tools/fit_kontrakt_odds.py`` to the outcomes of
the strong bot's own games against three ``basic`` players, where it
builds to the end; ``docs/bots.md`` (the twelfth look) gives the data and
how well the model separates the hands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["FEATURES", "WEIGHTS", "DealState", "completion_odds"]


@dataclass(frozen=True, slots=True)
class DealState:
    """What the model reads: the hand after its discard, and the deal around it."""

    deal: int  # 0-6: the deal's index (K4)
    missing: int  # cards the hand still misses for its contract
    outs: int  # unseen cards that would bring it nearer
    stock: int  # cards left in the stock
    danger: float  # how near the deal is to its end (0 to 3)
    completed: int  # other players with their contract down
    fewest: int  # the fewest cards such a player holds (12 when there is none)


FEATURES = ("missing", "outs", "stock", "danger", "completed", "fewest")

# Fitted by tools/fit_kontrakt_odds.py: one intercept per deal, then a weight per FEATURE.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "deal": (-3.0023, -3.0367, -2.5746, -3.7061, -3.8671, -3.5413, -3.2879),
    "features": (-1.5287, 0.0615, 0.0319, 0.4503, -0.0834, 0.2491),
}


def completion_odds(state: DealState) -> float:
    """The chance (0-1) that the hand completes its contract before the deal ends."""
    z = WEIGHTS["deal"][state.deal]
    for weight, name in zip(WEIGHTS["features"], FEATURES, strict=True):
        z += weight * float(getattr(state, name))
    return 1.0 / (1.0 + math.exp(-z))
