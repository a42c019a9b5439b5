"""Helpers for the review's tests: Vatikanen records dealt from chosen hands."""

from __future__ import annotations

from collections import Counter

from rummykit import games
from rummykit.cards import Card, full_deck, parse_cards
from rummykit.games.vatikanen import Session
from rummykit.record import GameRecord

BO = "2c 2d 4s 4h 6c 6d 8s 8h Tc Td Qs Qh Kc"
"""Bo's hand in the crafted records: no run at all, so Bo only draws."""
RUN5 = "5h 6h 7h 8h 9h Kc 2d Js 3c 4d Qs Ks Ad"
"""Anna's hand with a run of five hearts (V7)."""


def deck_dealing(hands: list[str], dealer: int, stock_top: str = "") -> list[Card]:
    """A full deck that deals ``hands`` (13 cards each) with ``stock_top`` on the stock."""
    n = len(hands)
    held = [parse_cards(h) for h in hands]
    first = (dealer + 1) % n
    dealt = [held[(first + i) % n][i // n] for i in range(13 * n)]
    rest = Counter(full_deck(2, 2))
    rest.subtract(dealt + parse_cards(stock_top))
    below = [c for c, k in sorted(rest.items(), key=lambda kv: str(kv[0])) for _ in range(k)]
    return dealt + parse_cards(stock_top) + below


def played(hands: list[str], actions: list[dict[str, object]]) -> GameRecord:
    """The record of a two-seat game (Anna, Bo) dealt ``hands`` (Anna plays first), after
    ``actions``."""
    spec = games.get("vatikanen")
    session = Session(["Anna", "Bo"], decks=[deck_dealing(hands, dealer=1)], dealer=1)
    for data in actions:
        session.apply(spec.action_from_json(data))
    return session.to_record()
