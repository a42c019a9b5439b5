"""Groups of 3-4 distinct suits (Rummikub, V6 of its preset): the check and its automaton.

What a rank's groups can be depends only on how many cards each suit gives
them and on the jokers. :func:`group_fits` decides it directly;
:func:`group_automaton` turns that into a small automaton over the suits taken
in turn, whose classes the compiled programmes keep in their states (partial
choices that fit the same ways merge).
"""

from __future__ import annotations

import itertools

from rummykit.solver.counts import SUITS

__all__ = ["MAX_CELL", "MAX_JOKERS", "group_automaton", "group_fits"]

MAX_CELL = 4
"""Most cards of one cell the automaton counts (two natural copies and two fixed jokers)."""
MAX_JOKERS = 2
"""Most jokers in play the automaton counts (twice: a rank's groups may take both)."""


def group_fits(sizes: tuple[int, ...], jokers: int, max_group: int) -> bool:
    """Whether per-suit group cards ``sizes`` and ``jokers`` form groups of distinct suits."""
    total = sum(sizes) + jokers
    if total == 0:
        return True
    top = max(sizes)
    for k in range(max(top, 1), total // 3 + 1):
        # each suit's cards go to distinct groups: try every way for every suit
        ways = [list(itertools.combinations(range(k), g)) for g in sizes]
        for pick in itertools.product(*ways):
            naturals = [0] * k
            for chosen in pick:
                for i in chosen:
                    naturals[i] += 1
            if min(naturals) < 1 or max(naturals) > max_group:
                continue
            low = sum(max(0, 3 - n) for n in naturals)
            high = sum(max_group - n for n in naturals)
            if low <= jokers <= high:
                return True
    return False


def group_automaton(max_group: int) -> tuple[list[list[list[int]]], list[list[bool]]]:
    """The rank's group check as a small automaton over the suits, taken in turn.

    After ``s`` suits, partial multisets of group sizes that fit the same ways for
    every rest of the rank (sizes of the other suits, jokers) share one class, so
    the programme keeps one state for them. Returns ``step[s][class][g]`` (the
    class after the next suit gives ``g`` cards, -1 when no rest can fit) and
    ``fits[class][jokers]`` for the classes after the last suit.
    """
    values = range(MAX_CELL + 1)
    jokers = range(2 * MAX_JOKERS + 1)
    memo: dict[tuple[tuple[int, ...], int], bool] = {}

    def fits(sizes: tuple[int, ...], j: int) -> bool:
        """:func:`group_fits`, remembered by the sorted sizes."""
        key = (tuple(sorted(sizes)), j)
        if key not in memo:
            memo[key] = group_fits(key[0], j, max_group)
        return memo[key]

    classes: list[dict[tuple[int, ...], int]] = []
    for done in range(SUITS + 1):
        rests = list(itertools.combinations_with_replacement(values, SUITS - done))
        by_sig: dict[tuple[bool, ...], int] = {}
        ids: dict[tuple[int, ...], int] = {}
        for part in itertools.combinations_with_replacement(values, done):
            sig = tuple(fits(part + r, j) for r in rests for j in jokers)
            if any(sig):
                ids[part] = by_sig.setdefault(sig, len(by_sig))
        classes.append(ids)
    step: list[list[list[int]]] = []
    for done in range(SUITS):
        width = 1 + max(classes[done].values(), default=0)
        row = [[-1] * len(values) for _ in range(width)]
        for part, cid in classes[done].items():
            for g in values:
                nxt = classes[done + 1].get(tuple(sorted((*part, g))))
                row[cid][g] = -1 if nxt is None else nxt
        step.append(row)
    last = classes[SUITS]
    table = [[False] * len(jokers) for _ in range(1 + max(last.values(), default=0))]
    for part, cid in last.items():
        for j in jokers:
            table[cid][j] = fits(part, j)
    return step, table
