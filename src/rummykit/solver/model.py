"""From melds and cards to the counts the dynamic programme works on (V11, V12).

Table jokers keep standing for their card (V11): a run joker counts as that
card, a group joker as a group-only card of its rank. Which of them a play
frees is enumerated here: each freed joker becomes wild, and the final table
must then hold a distinct natural copy of what it stood for (V12).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from rummykit.cards import JOKER, Card, Suit
from rummykit.melds import Meld, MeldRules
from rummykit.solver.counts import SUITS, Counts

BIG = 4096
"""Weight of the first criterion over the second (more than any points total)."""


@dataclass(slots=True)
class Position:
    """The cards of one question: what must stay on the table, what may be added."""

    table: list[list[int]] = field(default_factory=lambda: _grid())
    hand: list[list[int]] = field(default_factory=lambda: _grid())
    run_jokers: list[tuple[int, int]] = field(default_factory=list)
    group_jokers: list[int] = field(default_factory=list)
    wild_table: int = 0
    wild_hand: int = 0


def _grid() -> list[list[int]]:
    """Zero per rank 0..13 and suit."""
    return [[0] * SUITS for _ in range(14)]


def position_from(
    table: Iterable[Meld] | Iterable[Sequence[Card]] | Iterable[Card],
    hand: Iterable[Card],
    *,
    free_jokers: bool,
    hand_mandatory: bool = False,
) -> Position:
    """Count the cards; table jokers become fixed jokers unless ``free_jokers``.

    ``table``: melds, the cards of each meld, or cards.
    """
    pos = Position()
    cards: list[Card] = []
    for item in table:
        if isinstance(item, Meld):
            cards.extend(item.cards)
        elif isinstance(item, Card):
            cards.append(item)
        else:
            cards.extend(item)
    for card in cards:
        if card.suit is not None:
            pos.table[card.rank][card.suit] += 1
        elif free_jokers or card.stands_for is None:
            pos.wild_table += 1
        elif card.stands_for.suit is None:
            pos.group_jokers.append(card.stands_for.rank)
        else:
            pos.run_jokers.append((card.stands_for.rank, int(card.stands_for.suit)))
    for card in hand:
        if card.suit is None:
            if hand_mandatory:
                pos.wild_table += 1
            else:
                pos.wild_hand += 1
        elif hand_mandatory:
            pos.table[card.rank][card.suit] += 1
        else:
            pos.hand[card.rank][card.suit] += 1
    return pos


@dataclass(slots=True)
class Freeing:
    """Which table jokers are freed in one case: by index into the position's lists."""

    runs: tuple[int, ...]
    groups: tuple[int, ...]


def freeing_cases(
    pos: Position, *, fewest_first: bool = False
) -> Iterator[tuple[Freeing, Counts | None]]:
    """Every choice of freed table jokers, most freed first (V11, V12), or the reverse."""
    nr, ng = len(pos.run_jokers), len(pos.group_jokers)
    total = nr + ng
    sizes = range(total + 1) if fewest_first else range(total, -1, -1)
    for size in sizes:
        choices = list(itertools.combinations(range(total), size))
        if fewest_first:
            choices.reverse()
        for chosen in choices:
            fr = Freeing(
                tuple(i for i in chosen if i < nr), tuple(i - nr for i in chosen if i >= nr)
            )
            yield fr, _counts(pos, fr)


def _counts(pos: Position, fr: Freeing) -> Counts | None:
    """The counts of one freeing case of ``pos``, or None when the hand and table lack the
    natural cards that free its jokers (V12)."""
    mand = [row[:] for row in pos.table]
    opt = [row[:] for row in pos.hand]
    fixed = _grid()
    gmand = [0] * 14
    natmin = [0] * 14
    forced = _grid()
    freed_cell = _grid()
    for i, (rank, suit) in enumerate(pos.run_jokers):
        if i in fr.runs:
            freed_cell[rank][suit] += 1
            natmin[rank] += 1
        else:
            mand[rank][suit] += 1
            fixed[rank][suit] += 1
    for i, rank in enumerate(pos.group_jokers):
        if i in fr.groups:
            natmin[rank] += 1
        else:
            gmand[rank] += 1
    for rank in range(1, 14):
        naturals = 0
        for s in range(SUITS):
            need = freed_cell[rank][s] - pos.table[rank][s]
            if need > 0:
                if need > opt[rank][s]:
                    return None
                forced[rank][s] = need
                opt[rank][s] -= need
                mand[rank][s] += need
            naturals += pos.table[rank][s] + pos.hand[rank][s]
        if natmin[rank] > naturals:
            return None
    freed = len(fr.runs) + len(fr.groups)
    cp = Counts(
        ace_high=False,
        big_groups=True,
        max_group=0,
        distinct=False,
        mand=mand,
        opt=opt,
        fixed=fixed,
        gmand=gmand,
        natmin=natmin,
        wild_mand=pos.wild_table + freed,
        wild_opt=pos.wild_hand,
        weight=[0] * 14,
        wjoker=0,
        joker_runs=pos.wild_table + pos.wild_hand + len(pos.run_jokers) + len(pos.group_jokers)
        >= 3,
    )
    return cp


def configure(cp: Counts, rules: MeldRules, objective: str) -> None:
    """Set the game's meld rules and the objective's weights on ``cp``."""
    cp.ace_high = rules.ace_high
    cp.big_groups = rules.max_group_size is None and not rules.group_distinct_suits
    cp.max_group = rules.max_group_size or 10**6
    cp.distinct = rules.group_distinct_suits
    gains, cp.wjoker = weights(rules, objective)
    cp.weight = list(gains)


@functools.lru_cache(maxsize=16)
def weights(rules: MeldRules, objective: str) -> tuple[tuple[int, ...], int]:
    """The gain of a card per rank, and of a joker: the objective first, then the other."""
    gains = [0] * 14
    for rank in range(1, 14):
        value = rules.value(Card(rank, Suit.CLUBS))
        gains[rank] = BIG + value if objective == "cards" else value * BIG + 1
    jv = rules.value(JOKER)
    return tuple(gains), BIG + jv if objective == "cards" else jv * BIG + 1


def forced_cards(pos: Position, fr: Freeing) -> list[list[int]]:
    """Hand cards a freeing case forces onto the table (per rank and suit)."""
    forced = _grid()
    for i, (rank, suit) in enumerate(pos.run_jokers):
        if i in fr.runs:
            forced[rank][suit] += 1
    for rank in range(14):
        for s in range(SUITS):
            forced[rank][s] = max(0, forced[rank][s] - pos.table[rank][s])
    return forced
