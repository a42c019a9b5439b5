"""The best opening: one run of at least three cards from the hand alone (V7)."""

from __future__ import annotations

import functools

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.melds import Meld, MeldKind, MeldRules


def best_run(hand: list[Card], rules: MeldRules, objective: str) -> Meld | None:
    """The run from ``hand`` with the most cards (ties: points) or points (ties: cards).

    Every window of positions of every suit is tried; a missing card is a joker.
    Ties go to the lowest suit, then the lowest start, then the shortest run.
    (The cards are counted per suit and rank, and only the winner is built.)
    """
    have = [[0] * 14 for _ in range(4)]
    jokers = 0
    for c in hand:
        if c.suit is None:
            jokers += 1
        else:
            have[c.suit][c.rank] += 1
    values = _values(rules)
    jv = values[0]
    npos = rules.max_run_length
    least = rules.min_size
    by_cards = objective == "cards"
    best: tuple[int, int] | None = None
    found = (0, 0, 0)
    for suit in range(4):
        row = have[suit]
        if not any(row):
            continue  # a run needs a natural card
        for start in range(1, npos - least + 2):
            aces = 0  # the ace is the only rank a window may hold twice (V5)
            need = naturals = points = length = 0
            for p in range(start, npos + 1):
                rank = 1 if p == 14 else p
                if row[rank] > (aces if rank == 1 else 0):
                    if rank == 1:
                        aces += 1
                    naturals += 1
                    points += values[rank]
                else:
                    need += 1
                    if need > jokers:
                        break
                    points += jv
                length += 1
                if length < least or naturals == 0:
                    continue
                score = (length, points) if by_cards else (points, length)
                if best is None or score > best:
                    best = score
                    found = (suit, start, length)
    if best is None:
        return None
    suit, start, length = found
    row = have[suit]
    aces = 0
    cards: list[Card] = []
    for p in range(start, start + length):
        rank = 1 if p == 14 else p
        if row[rank] > (aces if rank == 1 else 0):
            aces += 1 if rank == 1 else 0
            cards.append(Card(rank, Suit(suit)))
        else:
            cards.append(Card(0, None, Meaning(rank, Suit(suit))))
    return Meld(MeldKind.RUN, tuple(cards), start)


@functools.lru_cache(maxsize=16)
def _values(rules: MeldRules) -> tuple[int, ...]:
    """A joker's points, then each rank's (card points depend on the rank only)."""
    return (rules.value(JOKER), *(rules.value(Card(r, Suit.CLUBS)) for r in range(1, 14)))
