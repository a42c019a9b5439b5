"""The question on counts that every path shares, and the one way a path declines it.

Because the table may be rebuilt at will, only the multiset of cards counts
(V12): a question becomes counts per (rank, suit) cell (:class:`Counts`), and
an answer says how many cards of each cell go into runs and groups
(:class:`Solution`). A suit's runs in progress are kept canonical: runs start
only where the number of cells in runs rises and end only where it falls, the
oldest first. A suit's state is then ``(n1, n2, n3)``: open runs of length 1,
2 and 3 or more, numbered once in :data:`RUN_STATES`; :data:`NEXT` is the
step from one position to the next. Every search of the solver uses these
states (see docs/solver.md).

A path that cannot answer a question within its limits raises
:class:`TooHard`, and the next path of the chain answers (:mod:`.chain`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "CLOSED",
    "MAX_OPEN",
    "MUST",
    "NEXT",
    "OPEN",
    "RUN_STATES",
    "SUITS",
    "Counts",
    "Solution",
    "TooHard",
]


class TooHard(Exception):
    """This path does not answer the question within its limits: the next path answers.

    Raised past a search's budget, for more jokers or copies of a card than a
    path's states hold, or where the split search cannot settle a position.
    """


SUITS = 4
MAX_OPEN = 8
"""Most runs of one suit open at once (copies of a card plus jokers)."""


def _run_states() -> list[tuple[int, int, int]]:
    """Every ``(n1, n2, n3)`` with at most :data:`MAX_OPEN` runs open."""
    out = []
    for total in range(MAX_OPEN + 1):
        for n1 in range(total + 1):
            for n2 in range(total - n1 + 1):
                out.append((n1, n2, total - n1 - n2))
    return out


RUN_STATES = _run_states()
"""Every suit state ``(n1, n2, n3)``; a suit's state is its index here."""
_INDEX = {st: i for i, st in enumerate(RUN_STATES)}
OPEN = [n1 + n2 + n3 for n1, n2, n3 in RUN_STATES]
"""Runs open in each state."""
MUST = [n1 + n2 for n1, n2, _ in RUN_STATES]
"""Runs in each state that must go on (shorter than three)."""


def _next(i: int, x: int) -> int:
    """State ``i`` after ``x`` cells in runs at the next position (the oldest runs end
    first), or -1 when a run shorter than three would end."""
    n1, n2, n3 = RUN_STATES[i]
    have = n1 + n2 + n3
    if x < n1 + n2 or x > MAX_OPEN:
        return -1
    if x >= have:
        return _INDEX[(x - have, n1, n2 + n3)]
    return _INDEX[(0, n1, n2 + n3 - (have - x))]


NEXT = [[_next(i, x) for x in range(MAX_OPEN + 1)] for i in range(len(RUN_STATES))]
"""``NEXT[state][x]``: the suit's state after ``x`` cells in runs at the next position, or -1."""
CLOSED = frozenset(i << 1 for i, (n1, n2, _) in enumerate(RUN_STATES) if n1 == 0 and n2 == 0)
"""Suit states (with the jokers-only flag clear) where every open run may end."""


@dataclass(slots=True)
class Counts:
    """One solver problem on counts. Lists are indexed ``[rank][suit]``, rank 1..13.

    ``mand`` cards must be placed (table cards, table jokers that keep standing
    for a card, hand cards forced in to free a joker); ``opt`` cards may be
    (hand cards). ``fixed`` counts the table jokers inside ``mand``. ``gmand``
    are table jokers that stand for a rank (group only, V11); ``natmin`` the
    fewest natural cards a rank must have on the final table (to free them).
    Wild jokers: ``wild_mand`` must be placed, ``wild_opt`` may be.
    ``weight[rank]`` is the gain of an optional card, ``wjoker`` of a joker.
    """

    ace_high: bool
    big_groups: bool
    max_group: int
    distinct: bool
    mand: list[list[int]]
    opt: list[list[int]]
    fixed: list[list[int]]
    gmand: list[int]
    natmin: list[int]
    wild_mand: int
    wild_opt: int
    weight: list[int]
    wjoker: int
    base: int = 0
    joker_runs: bool = False
    """Whether three or more jokers are in play, so a run could hold jokers only."""


@dataclass(slots=True)
class Solution:
    """Where the cards go: per position and suit, per rank and suit."""

    score: int
    run_cards: list[list[int]] = field(default_factory=list)
    run_jokers: list[list[int]] = field(default_factory=list)
    group_cards: list[list[int]] = field(default_factory=list)
    group_jokers: list[int] = field(default_factory=list)
    hand_jokers: int = 0
