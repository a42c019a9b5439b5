"""Guessing the other Kontraktsrummy hands as a careful player would read them.

:func:`~rummykit.bots.sampling.sample_kontrakt` deals the unseen cards at
random. Real hands are not random: a player keeps the cards that serve the
contract and lets the others go, so a hand that has drawn many cards from
the stock holds more pairs and neighbours than a random one, and a player
who passed over a card (or let one go) while collecting groups most likely
holds none of its rank. :func:`sample_kontrakt_read` shapes its guesses so:

- every other hand gets the cards known to be in it, its unknown cards, and
  one more unseen card per stock draw it made this deal (up to ``extra``);
  it then lets the extra cards go by the ``basic`` bot's discard rule (least
  useful for its contract, then highest), and they go back among the unseen;
- while a player still needs groups, its guessed hand avoids (as far as a
  few redraws can) the rank of the last pile top it passed over and of its
  last discard.

The guess stays consistent with the view exactly as
:func:`~rummykit.bots.sampling.sample_kontrakt`'s does (hand sizes, known
cards, the stock size); only which unseen card lands where changes.
Measured (``docs/bots.md``, the seventh and eighth looks): a search of the
draw alone on such guesses did as well as the heuristic, where random
guesses lost clearly; a search of the draw and the discard on them lost to
the heuristic, though on the true hands it would gain much.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rummykit.bots.kontrakt_basic import _needs, usefulness
from rummykit.bots.sampling import Deal, _current_log, kontrakt_known_cards, kontrakt_unseen
from rummykit.cards import Card, kontrakt_value

__all__ = ["passed_ranks", "sample_kontrakt_read"]

_REDRAWS = 4


def passed_ranks(view: Mapping[str, Any]) -> list[set[int]]:
    """Per seat, the ranks it most likely lacks: those of the last pile top it passed over
    (it drew from the stock instead) and of its last discard, while it still needs groups.

    A careful player takes a card that pairs one of the hand (K8) and lets go
    a card without a mate, so both say the rank is not in the hand.
    """
    n = len(view["hand_sizes"])
    passed: list[str | None] = [None] * n
    let_go: list[str | None] = [None] * n
    top: tuple[int, str] | None = None
    for entry in _current_log(view):
        kind, seat = entry.get("type"), int(entry.get("seat", -1))
        if kind == "discard":
            let_go[seat] = entry["card"]
            top = (seat, entry["card"])
        elif kind == "draw":
            if entry.get("from") == "stock" and top is not None and top[0] == (seat - 1) % n:
                passed[seat] = top[1]
            top = None
    out: list[set[int]] = []
    for seat in range(n):
        ranks: set[int] = set()
        if _needs(view, seat)[0] > 0:
            for text in (passed[seat], let_go[seat]):
                if text is not None:
                    card = Card.parse(text)
                    if not card.is_joker:
                        ranks.add(card.rank)
        out.append(ranks)
    return out


def _let_go_extras(
    known: list[Card], got: list[Card], extra: int, needs: tuple[int, int]
) -> list[Card]:
    """Remove ``extra`` cards from ``got`` by the basic rule (least useful, then highest);
    the removed cards, in the order let go."""
    out: list[Card] = []
    for _ in range(extra):
        hand = known + got
        best: tuple[int, int] | None = None
        pick = 0
        for k, card in enumerate(got):
            others = hand[: len(known) + k] + hand[len(known) + k + 1 :]
            key = (usefulness(card, others, *needs), -kontrakt_value(card))
            if best is None or key < best:
                best, pick = key, k
        out.append(got.pop(pick))
    return out


def sample_kontrakt_read(view: Mapping[str, Any], rng: random.Random, *, extra: int = 8) -> Deal:
    """Deal the unseen cards of a Kontrakt view the way the other players' play suggests.

    The same constraints as :func:`~rummykit.bots.sampling.sample_kontrakt`;
    the module's docstring says how the hands are shaped.
    """
    seat = view["seat"]
    known = kontrakt_known_cards(view)
    pool = kontrakt_unseen(view)
    rng.shuffle(pool)
    draws = Counter(
        e["seat"]
        for e in _current_log(view)
        if e.get("type") == "draw" and e.get("from") == "stock"
    )
    sizes = view["hand_sizes"]
    lacks = passed_ranks(view)
    hands: list[list[Card]] = [[] for _ in sizes]
    order = [i for i in range(len(sizes)) if i != seat]
    rng.shuffle(order)
    for i in order:
        fill = sizes[i] - len(known[i])
        if fill < 0:
            raise ValueError(f"seat {i} is known to hold more cards than its hand size")
        more = max(0, min(draws[i], extra, len(pool) - fill))
        got = [pool.pop() for _ in range(fill + more)]
        if lacks[i]:
            for k, card in enumerate(got):
                for _try in range(_REDRAWS):
                    if card.is_joker or card.rank not in lacks[i] or not pool:
                        break
                    j = rng.randrange(len(pool))
                    got[k], pool[j] = pool[j], card
                    card = got[k]
        for card in _let_go_extras(known[i], got, more, _needs(view, i)[:2]):
            pool.insert(rng.randrange(len(pool) + 1), card)
        hands[i] = known[i] + got
    hands[seat] = known[seat]
    if len(pool) != view["stock_size"]:
        raise ValueError("the view's hand and stock sizes do not add up to the unseen cards")
    return Deal(hands, pool)
