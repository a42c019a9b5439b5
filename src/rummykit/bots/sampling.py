"""Dealing the unseen cards consistently with a seat's view (for the strong bots).

A bot sees its own hand and everything public; the other hands and the stock
are hidden. A *determinization* is one guess at the hidden cards that agrees
with everything the view shows:

- every card of the game's deck is somewhere exactly once: the own hand, the
  table, the discard pile (Kontrakt), another hand or the stock;
- every other hand has the size the view gives (``hand_sizes``);
- a card another player was seen to take (Kontrakt: the first upcard, the top
  of the discard pile, a joker swapped off the table; K7, K8, K11) and has not
  been seen to give up again (discarded, laid down, laid off) is in that
  player's hand.

The rest of the unseen cards are dealt at random, the remainder is the stock
in random order. All randomness comes from the ``random.Random`` the caller
passes, so a bot's choices are reproducible from its seed.

>>> import random
>>> from rummykit.games.vatikanen import VatikanenGame
>>> game = VatikanenGame(3, seed=1)
>>> deal = sample_vatikanen(game.view(0), random.Random(5))
>>> [len(h) for h in deal.hands], len(deal.stock)
([13, 13, 13], 67)
>>> deal.hands[0] == [Card.parse(t) for t in game.view(0)["hand"]]
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit.bots.base import seat_and_hand
from rummykit.cards import Card, full_deck
from rummykit.games.kontrakt import deck_for
from rummykit.games.kontrakt.view import ActionEntry, KontraktView, is_action_entry, kontrakt_view
from rummykit.games.vatikanen.view import vatikanen_view

__all__ = [
    "Deal",
    "kontrakt_known_cards",
    "kontrakt_unseen",
    "sample_kontrakt",
    "sample_vatikanen",
    "vatikanen_unseen",
]


@dataclass(frozen=True, slots=True)
class Deal:
    """One guess at the hidden cards: every seat's hand (the viewer's as it is) and the stock.

    ``stock`` is top card first.
    """

    hands: list[list[Card]]
    stock: list[Card]


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t).plain() for t in texts]


def _subtract(pool: Counter[Card], cards: Sequence[Card], what: str) -> None:
    for card in cards:
        if pool[card] <= 0:
            raise ValueError(f"the view shows more {card} than the deck holds ({what})")
        pool[card] -= 1


def vatikanen_unseen(view: Mapping[str, object]) -> list[Card]:
    """The cards a Vatikanen seat cannot see: the other hands and the stock, sorted.

    The deck (V2) less the own hand and the table (jokers counted as jokers).
    """
    v = vatikanen_view(view)
    pool = Counter(full_deck(2, 2))
    _subtract(pool, _cards(seat_and_hand(v)[1]), "hand")
    _subtract(pool, [c for m in v["table"] for c in _cards(m)], "table")
    return sorted(pool.elements(), key=str)


def sample_vatikanen(view: Mapping[str, object], rng: random.Random) -> Deal:
    """Deal the unseen cards of a Vatikanen view: other hands by their sizes, the rest the stock."""
    v = vatikanen_view(view)
    seat, own = seat_and_hand(v)
    unseen = vatikanen_unseen(v)
    rng.shuffle(unseen)
    sizes = v["hand_sizes"]
    if sum(s for i, s in enumerate(sizes) if i != seat) + v["stock_size"] != len(unseen):
        raise ValueError("the view's hand and stock sizes do not add up to the unseen cards")
    hands: list[list[Card]] = []
    at = 0
    for i, size in enumerate(sizes):
        if i == seat:
            hands.append(_cards(own))
        else:
            hands.append(unseen[at : at + size])
            at += size
    return Deal(hands, unseen[at:])


def _current_log(view: KontraktView) -> list[ActionEntry]:
    deal = view["deal"]
    return [e for e in view.get("log") or [] if e["deal"] == deal and is_action_entry(e)]


def _given_up(entry: ActionEntry) -> list[Card]:
    """The cards an action takes out of its player's hand in view of everyone."""
    kind = entry["type"]
    if kind == "meld":
        return [c for m in entry["melds"] for c in _cards(m)]
    if kind in ("layoff", "swap_joker", "discard"):
        return _cards([entry["card"]])
    return []


def kontrakt_known_cards(view: Mapping[str, object]) -> list[list[Card]]:
    """Per seat, the cards seen to go into that hand this deal and not seen to leave it.

    The first upcard (taken or bought, K7), a card drawn from the discard pile
    (K8) and a joker taken by a swap (K11) are shown to everyone; a discard,
    a lay-down or a lay-off shows a card leaving the hand. The viewer's own
    entry is its whole hand. Needs the view's ``log``.
    """
    v = kontrakt_view(view)
    seat, own = seat_and_hand(v)
    n = len(v["hand_sizes"])
    known: list[Counter[Card]] = [Counter() for _ in range(n)]
    for entry in _current_log(v):
        actor = entry["seat"]
        for card in _given_up(entry):
            if known[actor][card] > 0:
                known[actor][card] -= 1
        for card in _cards(entry.get("shown") or []):
            known[actor][card] += 1
    out = [sorted(k.elements(), key=str) for k in known]
    out[seat] = _cards(own)
    return out


def kontrakt_unseen(view: Mapping[str, object]) -> list[Card]:
    """The cards a Kontrakt seat cannot place: not in its hand, on the table, in the pile,
    nor known to be in another hand (:func:`kontrakt_known_cards`); sorted."""
    v = kontrakt_view(view)
    packs, jokers = deck_for(len(v["hand_sizes"]))
    pool = Counter(full_deck(packs, jokers))
    for i, cards in enumerate(kontrakt_known_cards(v)):
        _subtract(pool, cards, "hand" if i == v["seat"] else f"seat {i}'s known cards")
    _subtract(pool, [c for m in v["table"] for c in _cards(m["cards"])], "table")
    _subtract(pool, _cards(v["discard_pile"]), "discard pile")
    return sorted(pool.elements(), key=str)


def sample_kontrakt(view: Mapping[str, object], rng: random.Random) -> Deal:
    """Deal the unseen cards of a Kontrakt view.

    Each other hand gets the cards known to be in it and random unseen cards
    up to its size; the rest is the stock in random order.
    """
    v = kontrakt_view(view)
    seat = v["seat"]
    known = kontrakt_known_cards(v)
    unseen = kontrakt_unseen(v)
    rng.shuffle(unseen)
    sizes = v["hand_sizes"]
    hands: list[list[Card]] = []
    at = 0
    for i, size in enumerate(sizes):
        if i == seat:
            hands.append(known[i])
            continue
        fill = size - len(known[i])
        if fill < 0:
            raise ValueError(f"seat {i} is known to hold more cards than its hand size")
        hands.append([*known[i], *unseen[at : at + fill]])
        at += fill
    stock = unseen[at:]
    if len(stock) != v["stock_size"]:
        raise ValueError("the view's hand and stock sizes do not add up to the unseen cards")
    return Deal(hands, stock)
