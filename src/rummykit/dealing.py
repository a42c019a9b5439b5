"""Shuffling and dealing, in the order RECORD.md fixes (V3, K3).

The deck is a list, top card first. Dealing takes one card at a time from the
top, förhand (the dealer's left, ``(dealer + 1) % n``) first, clockwise, until
every player has ``per_player`` cards; what remains is the stock, top first.

>>> from rummykit.cards import parse_cards
>>> hands, stock = deal(parse_cards("As 2s 3s 4s 5s"), 2, 2, dealer=1)
>>> [" ".join(map(str, h)) for h in hands], [str(c) for c in stock]
(['As 3s', '2s 4s'], ['5s'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from rummykit.cards import Card, full_deck

__all__ = ["deal", "deal_indices", "forhand", "shuffled_deck"]

T = TypeVar("T")


def shuffled_deck(packs: int, jokers: int, seed: int | None) -> list[Card]:
    """``packs`` packs and ``jokers`` jokers shuffled by a seeded generator (reproducible)."""
    deck = full_deck(packs, jokers)
    random.Random(seed).shuffle(deck)
    return deck


def forhand(dealer: int, players: int) -> int:
    """The seat that is dealt first and plays first: the dealer's left."""
    return (dealer + 1) % players


def deal(
    deck: Sequence[T], players: int, per_player: int, dealer: int
) -> tuple[list[list[T]], list[T]]:
    """Hands (indexed by seat) and the stock (top first) dealt from ``deck``."""
    need = players * per_player
    if len(deck) < need:
        raise ValueError(f"a deck of {len(deck)} cards cannot deal {per_player} to {players}")
    hands: list[list[T]] = [[] for _ in range(players)]
    first = forhand(dealer, players)
    for i in range(need):
        hands[(first + i) % players].append(deck[i])
    return hands, list(deck[need:])


def deal_indices(
    deck_size: int, players: int, per_player: int, dealer: int
) -> tuple[list[list[int]], list[int]]:
    """Like :func:`deal`, but of the deck positions: each physical card's id."""
    return deal(range(deck_size), players, per_player, dealer)
