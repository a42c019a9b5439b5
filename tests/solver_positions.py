"""Random positions for the solver tests: a valid table of melds and a hand."""

from __future__ import annotations

import random

from rummykit.cards import JOKER, Card, Suit, full_deck
from rummykit.melds import Meld, MeldError, MeldRules, read_meld


def random_position(
    rng: random.Random,
    rules: MeldRules,
    *,
    melds: int,
    hand: int,
    jokers: bool = True,
    ranks: tuple[int, int] = (1, 13),
) -> tuple[list[Meld], list[Card]]:
    """A table of up to ``melds`` random melds and a hand of ``hand`` cards from one deck."""
    deck = [
        c
        for c in full_deck(rules.packs, rules.jokers)
        if c.is_joker or ranks[0] <= c.rank <= ranks[1]
    ]
    if not jokers:
        deck = [c for c in deck if not c.is_joker]
    rng.shuffle(deck)
    table: list[Meld] = []
    for _ in range(melds * 4):
        if len(table) >= melds:
            break
        meld = _try_meld(rng, deck, rules, ranks)
        if meld is not None:
            table.append(meld)
    hand_cards = [deck.pop() for _ in range(min(hand, len(deck)))]
    return table, hand_cards


def random_positions(
    seed: str, rules: MeldRules, count: int, *, melds: int, hand: int
) -> list[tuple[list[Meld], list[Card]]]:
    """``count`` positions of up to ``melds`` table melds and 3 to ``hand`` hand cards."""
    rng = random.Random(seed)
    return [
        random_position(rng, rules, melds=rng.randint(0, melds), hand=rng.randint(3, hand))
        for _ in range(count)
    ]


def _take(deck: list[Card], card: Card) -> bool:
    if card in deck:
        deck.remove(card)
        return True
    return False


def _try_meld(
    rng: random.Random, deck: list[Card], rules: MeldRules, ranks: tuple[int, int]
) -> Meld | None:
    want_joker = JOKER in deck and rng.random() < 0.3
    if rng.random() < 0.5:
        suit = Suit(rng.randrange(4))
        npos = 14 if rules.ace_high else 13
        lo, hi = ranks[0], min(ranks[1] + (1 if ranks[1] == 13 and rules.ace_high else 0), npos)
        length = rng.randint(3, 5)
        if hi - lo + 1 < length:
            return None
        start = rng.randint(lo, hi - length + 1)
        cards = [Card(1 if p == 14 else p, suit) for p in range(start, start + length)]
    else:
        rank = rng.randint(*ranks)
        size = rng.randint(3, 4)
        suits = (
            rng.sample(range(4), size)
            if rules.group_distinct_suits
            else [rng.randrange(4) for _ in range(size)]
        )
        cards = [Card(rank, Suit(s)) for s in suits]
    if want_joker:
        cards[rng.randrange(len(cards))] = JOKER
    taken: list[Card] = []
    for c in cards:
        if not _take(deck, c):
            deck.extend(taken)
            return None
        taken.append(c)
    try:
        return read_meld(cards, rules)
    except MeldError:
        deck.extend(taken)
        return None
