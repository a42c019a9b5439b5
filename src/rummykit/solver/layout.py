"""Turn a solution on counts back into melds of physical cards (V11).

Runs are cut per suit with the canonical rule of the programme (start where
the count of cells in runs rises, end the oldest where it falls); each cell
gets table jokers that keep their meaning first, then natural cards, then
wild jokers. What is left of a rank forms its group (or groups, where a group
has at most four distinct suits).
"""

from __future__ import annotations

from collections import deque

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.melds import Meld, MeldKind, MeldRules
from rummykit.solver.dp import SUITS, Solution


def build_melds(
    sol: Solution,
    pools: list[list[list[Card]]],
    group_only: list[list[Card]],
    rules: MeldRules,
) -> list[Meld]:
    """The melds of ``sol``; ``pools[rank][suit]`` holds the cell's cards, used in order.

    ``group_only[rank]`` holds table jokers that stand for a rank (group only).
    Wild jokers are created as needed (the caller counts them).
    """
    npos = 14 if rules.ace_high else 13
    taken = [[0] * SUITS for _ in range(14)]
    runs: list[Meld] = []
    for s in range(SUITS):
        suit = Suit(s)
        open_runs: deque[list[Card]] = deque()
        starts: deque[int] = deque()
        finished: list[tuple[int, list[Card]]] = []
        for p in range(1, npos + 2):
            x = 0 if p > npos else sol.run_cards[p][s] + sol.run_jokers[p][s]
            while len(open_runs) > x:
                finished.append((starts.popleft(), open_runs.popleft()))
            while len(open_runs) < x:
                open_runs.append([])
                starts.append(p)
            if p > npos:
                break
            rank = 1 if p == 14 else p
            cell = pools[rank][s]
            cards: list[Card] = []
            for _ in range(sol.run_cards[p][s]):
                cards.append(cell[taken[rank][s]])
                taken[rank][s] += 1
            joker = Card(0, None, Meaning(rank, suit))
            cards += [joker] * sol.run_jokers[p][s]
            # wild jokers last, to the youngest runs; naturals to the oldest
            for run, card in zip(open_runs, cards, strict=True):
                run.append(card.with_meaning(Meaning(rank, suit)) if card.is_joker else card)
        for start, cards_ in finished:
            runs.append(Meld(MeldKind.RUN, tuple(cards_), start))
    groups: list[Meld] = []
    for rank in range(1, 14):
        naturals: list[Card] = []
        for s in range(SUITS):
            cell = pools[rank][s]
            k = sol.group_cards[rank][s]
            naturals += cell[taken[rank][s] : taken[rank][s] + k]
            taken[rank][s] += k
        jokers = list(group_only[rank]) + [Card(0, None, Meaning(rank))] * sol.group_jokers[rank]
        if not naturals and not jokers:
            continue
        for cards_ in _split_group(naturals, jokers, rules):
            groups.append(Meld(MeldKind.GROUP, tuple(cards_), rank))
    runs.sort(key=lambda m: (m.suit or 0, m.start, len(m)))
    return runs + groups


def _split_group(naturals: list[Card], jokers: list[Card], rules: MeldRules) -> list[list[Card]]:
    """One group, or the fewest groups of 3-4 distinct suits (Rummikub)."""
    naturals.sort(key=lambda c: (c.suit or 0, str(c)))
    fixed_first = sorted(jokers, key=lambda c: c.stands_for is None or c.stands_for.suit is None)
    if rules.max_group_size is None and not rules.group_distinct_suits:
        return [naturals + fixed_first]
    total = len(naturals) + len(jokers)
    size = rules.max_group_size or total
    per_suit = [sum(1 for c in naturals if c.suit == s) for s in range(SUITS)]
    k = max(1, -(-total // size), max(per_suit) if rules.group_distinct_suits else 1)
    out: list[list[Card]] = [[] for _ in range(k)]
    for card in naturals:
        options = [g for g in out if not (rules.group_distinct_suits and _has_suit(g, card.suit))]
        min(options, key=len).append(card)
    for card in fixed_first:
        min(out, key=len).append(card)
    return out


def _has_suit(cards: list[Card], suit: Suit | None) -> bool:
    return any(c.suit == suit for c in cards)


__all__ = ["JOKER", "build_melds"]
