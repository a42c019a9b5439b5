"""The best opening: one run of at least three cards from the hand alone (V7)."""

from __future__ import annotations

from collections import Counter

from rummykit.cards import Card, Meaning, Suit
from rummykit.melds import Meld, MeldKind, MeldRules


def best_run(hand: list[Card], rules: MeldRules, objective: str) -> Meld | None:
    """The run from ``hand`` with the most cards (ties: points) or points (ties: cards).

    Every window of positions of every suit is tried; a missing card is a joker.
    Ties go to the lowest suit, then the lowest start, then the shortest run.
    """
    have = Counter((c.rank, c.suit) for c in hand if not c.is_joker)
    jokers = sum(1 for c in hand if c.is_joker)
    jv = rules.value(Card(0, None))
    npos = rules.max_run_length
    best: tuple[tuple[int, int], Meld] | None = None
    for suit in Suit:
        for start in range(1, npos - rules.min_size + 2):
            used: Counter[tuple[int, Suit | None]] = Counter()
            cards: list[Card] = []
            need = 0
            naturals = 0
            points = 0
            for p in range(start, npos + 1):
                rank = 1 if p == 14 else p
                key = (rank, suit)
                if have[key] > used[key]:
                    used[key] += 1
                    card = Card(rank, suit)
                    naturals += 1
                    points += rules.value(card)
                else:
                    need += 1
                    if need > jokers:
                        break
                    card = Card(0, None, Meaning(rank, suit))
                    points += jv
                cards.append(card)
                if len(cards) < rules.min_size or naturals == 0:
                    continue
                score = (len(cards), points) if objective == "cards" else (points, len(cards))
                if best is None or score > best[0]:
                    best = (score, Meld(MeldKind.RUN, tuple(cards), start))
    return None if best is None else best[1]
