"""Random realistic solver positions: a table of valid melds and a hand.

A table is grown meld by meld from a shuffled deck (runs and groups around a
random card, jokers placed now and then), as a table looks after many plays;
the hand is dealt from what is left. The same seed gives the same positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rummykit.cards import JOKER, Card, Suit, full_deck
from rummykit.melds import Meld, MeldError, MeldRules, read_meld


@dataclass(frozen=True)
class Position:
    """One solver question: the table's melds and a hand."""

    table: tuple[Meld, ...]
    hand: tuple[Card, ...]

    @property
    def table_size(self) -> int:
        """How many cards lie on the table."""
        return sum(len(m) for m in self.table)


def random_position(
    rng: random.Random,
    rules: MeldRules,
    table_cards: int,
    hand_cards: int,
    *,
    jokers: int | None = None,
    joker_rate: float = 0.3,
) -> Position:
    """A table of about ``table_cards`` cards (never fewer unless the deck runs dry) and a hand.

    ``jokers`` limits the jokers in the deck (default: the game's number).
    """
    n_jokers = rules.jokers if jokers is None else jokers
    deck = full_deck(rules.packs, n_jokers)
    rng.shuffle(deck)
    table: list[Meld] = []
    size = 0
    misses = 0
    while size < table_cards and misses < 200:
        meld = _grow_meld(rng, deck, rules, joker_rate)
        if meld is None:
            misses += 1
            continue
        table.append(meld)
        size += len(meld)
    hand = [deck.pop() for _ in range(min(hand_cards, len(deck)))]
    return Position(tuple(table), tuple(hand))


def _grow_meld(
    rng: random.Random, deck: list[Card], rules: MeldRules, joker_rate: float
) -> Meld | None:
    naturals = [c for c in deck if not c.is_joker]
    if not naturals:
        return None
    seed = rng.choice(naturals)
    assert seed.suit is not None
    use_joker = JOKER in deck and rng.random() < joker_rate
    cards: list[Card] = []
    if rng.random() < 0.55:
        npos = rules.max_run_length
        length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7))
        at = seed.rank if not (seed.rank == 1 and rules.ace_high and rng.random() < 0.5) else 14
        start = (
            rng.randint(max(1, at - length + 1), min(at, npos - length + 1))
            if length <= npos
            else 1
        )
        for p in range(start, start + length):
            card = Card(1 if p == 14 else p, seed.suit)
            if (card in deck and card not in cards) or cards.count(card) < deck.count(card):
                cards.append(card)
            elif use_joker:
                cards.append(JOKER)
                use_joker = False
            else:
                return None
    else:
        same = [c for c in naturals if c.rank == seed.rank]
        rng.shuffle(same)
        if rules.group_distinct_suits:
            first: dict[Suit | None, Card] = {}
            for c in same:
                first.setdefault(c.suit, c)
            same = list(first.values())
        cap = rules.max_group_size or 8
        size = rng.choice((3, 3, 4, 4, 5, 6))
        cards = same[: min(size, cap)]
        if use_joker and len(cards) < cap:
            cards.append(JOKER)
        if len(cards) < 3:
            return None
    if cards.count(JOKER) > deck.count(JOKER):
        return None
    try:
        meld = read_meld(cards, rules)
    except MeldError:
        return None
    for c in cards:
        deck.remove(c)
    return meld
