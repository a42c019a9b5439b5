"""The programme's card codes, both ways: cards to codes, and an answer's codes to melds.

A natural card is ``rank * 4 + suit``; a joker that stands for nothing
:data:`.state.WILD`, for a card ``RUN_JOKER + rank * 4 + suit``, for a rank
``GROUP_JOKER + rank`` (V11). The melds built from answers are kept (melds are
immutable), so that a question costs tens of microseconds outside the search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.melds import Meld, MeldKind
from rummykit.solver.counts import SUITS
from rummykit.solver.programme.state import GROUP_JOKER, OUT_MELDS, RUN_JOKER, WILD

__all__ = ["NATURAL", "code", "codes", "melds_of", "played_of", "table_codes"]

Table = Sequence[Meld] | Sequence[Sequence[Card]]
"""A table: its melds, or the cards of each meld (jokers standing for their cards, V11)."""

NATURAL = [[Card(max(rank, 1), Suit(s)) for s in range(SUITS)] for rank in range(14)]
"""Every natural card by [rank][suit] (cards are immutable, so one of each will do)."""


def _card_table() -> list[Card]:
    """The card of every code."""
    out = [JOKER] * (GROUP_JOKER + 14)
    for rank in range(1, 14):
        out[GROUP_JOKER + rank] = Card(0, None, Meaning(rank))
        for s in range(SUITS):
            out[rank * 4 + s] = NATURAL[rank][s]
            out[RUN_JOKER + rank * 4 + s] = Card(0, None, Meaning(rank, Suit(s)))
    return out


CARD = _card_table()
"""The card of each code."""


def code(card: Card) -> int:
    """A card's code."""
    suit = card.suit
    if suit is not None:
        return card.rank * 4 + suit
    meaning = card.stands_for
    if meaning is None:
        return WILD
    if meaning.suit is None:
        return GROUP_JOKER + meaning.rank
    return RUN_JOKER + meaning.rank * 4 + meaning.suit


def codes(cards: Iterable[Meld] | Iterable[Sequence[Card]] | Iterable[Card]) -> list[int]:
    """The codes (:func:`code`) of the cards of some melds (or of some cards)."""
    out: list[int] = []
    add = out.append
    for item in cards:
        if isinstance(item, Meld):
            group: Iterable[Card] = item.cards
        elif isinstance(item, Card):
            group = (item,)
        else:
            group = item
        for card in group:
            suit = card.suit
            if suit is not None:
                add(card.rank * 4 + suit)
                continue
            meaning = card.stands_for
            if meaning is None:
                add(WILD)
            elif meaning.suit is None:
                add(GROUP_JOKER + meaning.rank)
            else:
                add(RUN_JOKER + meaning.rank * 4 + meaning.suit)
    return out


_TABLES: dict[int, tuple[object, list[int]]] = {}
"""The codes of tables asked about lately, by identity (tuples of melds or of card tuples,
which cannot change): a bot asks about the same table again and again."""


def table_codes(table: Table | Iterable[Card]) -> list[int]:
    """The codes of a table's cards (see :func:`codes`), kept for tuples."""
    if type(table) is not tuple:
        return codes(table)
    known = _TABLES.get(id(table))
    if known is not None and known[0] is table:
        return known[1]
    got = codes(table)
    if all(type(m) is tuple or type(m) is Meld for m in table):
        if len(_TABLES) >= 64:
            _TABLES.clear()
        _TABLES[id(table)] = (table, got)
    return got


_MELDS: dict[tuple[int, ...], Meld] = {}
"""Melds already built from answers, by their codes (melds are immutable)."""
_MELDS_KEPT = 1 << 16


def melds_of(out: list[int]) -> list[Meld]:
    """The melds of an answer (``out``, see :data:`.state.OUT_MELDS`)."""
    melds = []
    at = OUT_MELDS
    known = _MELDS
    if len(known) > _MELDS_KEPT:
        known.clear()
    for _ in range(out[at - 1]):
        end = at + 3 + out[at + 2]
        key = tuple(out[at:end])
        meld = known.get(key)
        if meld is None:
            kind = MeldKind.RUN if key[0] == 0 else MeldKind.GROUP
            meld = Meld(kind, tuple([CARD[c] for c in key[3:]]), key[1])
            known[key] = meld
        melds.append(meld)
        at = end
    return melds


def played_of(out: list[int]) -> list[Card]:
    """The hand cards an answer lays: the natural ones by suit and rank, then the jokers."""
    at = OUT_MELDS
    for _ in range(out[at - 1]):
        at += 3 + out[at + 2]
    return [CARD[c] for c in out[at:]] + [JOKER] * out[2]
