"""Cards, decks, the text notation of RECORD.md, and card values (V13, K6).

A :class:`Card` is an immutable value: rank and suit, or a joker. Several
packs are shuffled together, so two physical cards can be equal; the engines
track physical cards by their place in the dealt deck, not by identity here.

A joker on the table stands for a card (V11, K11). That meaning travels with
the card as :attr:`Card.stands_for` but is *not* part of its identity: a joker
that stands for 7h equals a bare joker, so counting cards (card conservation)
works on plain multisets.

>>> Card.parse("10♥")
Card.parse('Th')
>>> str(Card.parse("*:7h")), Card.parse("*:7h") == JOKER
('*:7h', True)
>>> format_cards(parse_cards("as 7H th qd *"))
'As 7h Th Qd *'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

from rummykit.errors import MessageError, quoted
from rummykit.i18n import N_

__all__ = [
    "ACE",
    "JACK",
    "JOKER",
    "KING",
    "QUEEN",
    "RANKS",
    "Card",
    "CardError",
    "Meaning",
    "Suit",
    "format_cards",
    "full_deck",
    "kontrakt_value",
    "parse_cards",
    "pretty_cards",
    "sort_by_rank",
    "sort_by_suit",
    "vatikanen_value",
]

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS = tuple(range(1, 14))

_RANK_TEXT = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_RANK_FROM_TEXT = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANK_FROM_TEXT.update({str(n): n for n in range(2, 10)})
_SUIT_FROM_TEXT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_SUIT_FROM_TEXT.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})

NOT_A_CARD = N_(
    "{text} is not a card: write rank then suit, like 7h, Th, 10♥ or As;"
    " ranks A 2-9 T J Q K; suits c d h s; * is a joker"
)


class CardError(MessageError):
    """Text that is no card (a :class:`ValueError`); the message says how cards are written.

    >>> Card.parse("7x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.cards.CardError: '7x' is not a card: write rank then suit, like 7h, ...
    """


class Suit(IntEnum):
    """The four suits, in the order clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The canonical one-letter form: c, d, h or s."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The suit sign: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


def _rank_label(rank: int) -> str:
    """A rank for people: A 2-10 J Q K (an ace played high is an ace)."""
    return "10" if rank == 10 else rank_text(rank)


def rank_text(rank: int) -> str:
    """The canonical text of a rank 1-13 (or 14, an ace played high)."""
    if rank == 14:
        rank = ACE
    return _RANK_TEXT.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class Meaning:
    """What a joker stands for: a card (rank and suit, in a run) or a rank (in a group)."""

    rank: int
    suit: Suit | None = None

    def __str__(self) -> str:
        return rank_text(self.rank) + (self.suit.letter if self.suit is not None else "")

    def pretty(self) -> str:
        """What the joker stands for, for people: 8♥ (a card), 8 (a rank), 10♠."""
        return _rank_label(self.rank) + (self.suit.symbol if self.suit is not None else "")

    @property
    def card(self) -> Card | None:
        """The natural card meant, when the suit is known."""
        return None if self.suit is None else Card(self.rank, self.suit)


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: rank 1 (ace) to 13 (king) and a suit, or a joker (rank 0, no suit).

    ``stands_for`` is set only on a joker placed in a meld; it is left out of
    equality and hashing, so every joker is equal to every other joker.
    """

    rank: int
    suit: Suit | None
    stands_for: Meaning | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank != 0:
                raise ValueError(f"a card of rank {self.rank} needs a suit")
        elif not 1 <= self.rank <= 13:
            raise ValueError(f"rank {self.rank} is not a card rank (1-13)")
        if self.stands_for is not None and self.suit is not None:
            raise ValueError("only a joker can stand for another card")

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.suit is None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in the notation of RECORD.md (case-insensitive).

        Raises ``ValueError`` quoting the text when it is not a card. Cards
        are immutable, so the answers are remembered (bots read the same few
        card texts from every view).
        """
        return _parse_card(text)

    def with_meaning(self, meaning: Meaning | None) -> Card:
        """This joker standing for ``meaning`` (a natural card is returned unchanged)."""
        if not self.is_joker:
            return self
        return Card(0, None, meaning)

    def plain(self) -> Card:
        """The card without any joker meaning."""
        return JOKER if self.is_joker else self

    def __str__(self) -> str:
        if self.suit is None:
            return "*" if self.stands_for is None else f"*:{self.stands_for}"
        return rank_text(self.rank) + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def pretty(self) -> str:
        """The card for people, as every screen and message shows it: 7♥, 10♠, A♣, ★ for a
        joker, and a table joker with what it stands for: ★=8♥ in a run, ★=8 in a group."""
        if self.suit is None:
            return "★" if self.stands_for is None else f"★={self.stands_for.pretty()}"
        return _rank_label(self.rank) + self.suit.symbol


@functools.lru_cache(maxsize=4096)
def _parse_card(text: str) -> Card:
    s = text.strip().upper()
    if s.startswith("*"):
        rest = s[1:]
        if not rest:
            return JOKER
        if not rest.startswith(":"):
            raise CardError(NOT_A_CARD, text=quoted(text))
        meant = rest[1:]
        if meant in _RANK_FROM_TEXT:
            return Card(0, None, Meaning(_RANK_FROM_TEXT[meant]))
        card = _parse_natural(meant, text)
        return Card(0, None, Meaning(card.rank, card.suit))
    return _parse_natural(s, text)


def _parse_natural(s: str, original: str) -> Card:
    m = re.fullmatch(r"(10|[2-9TJQKA])([CDHS♣♦♥♠♧♢♡♤])", s)
    if m is None:
        raise CardError(NOT_A_CARD, text=quoted(original))
    return Card(_RANK_FROM_TEXT[m.group(1)], Suit(_SUIT_FROM_TEXT[m.group(2)]))


JOKER = Card(0, None)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, or an iterable of card texts."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical text, separated by spaces."""
    return " ".join(str(c) for c in cards)


def pretty_cards(cards: Iterable[Card]) -> str:
    """Cards for people, separated by spaces: what messages say (``10♠ Q♥ ★=8♥``).

    >>> pretty_cards(parse_cards("Ts qh *:8h *"))
    '10♠ Q♥ ★=8♥ ★'
    """
    return " ".join(c.pretty() for c in cards)


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted by suit, then rank; jokers last."""
    return sorted(cards, key=lambda c: (c.suit is None, c.suit or 0, c.rank))


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted by rank, then suit; jokers last."""
    return sorted(cards, key=lambda c: (c.suit is None, c.rank, c.suit or 0))


def full_deck(packs: int, jokers: int) -> list[Card]:
    """``packs`` 52-card packs and ``jokers`` jokers, unshuffled (pack by pack, suit by suit)."""
    one_pack = [Card(rank, suit) for suit in Suit for rank in RANKS]
    return one_pack * packs + [JOKER] * jokers


def vatikanen_value(card: Card) -> int:
    """V13: joker 25, ace 15, K Q J 10 ten each, 2-9 their face value."""
    if card.is_joker:
        return 25
    if card.rank == ACE:
        return 15
    return min(card.rank, 10)


def kontrakt_value(card: Card) -> int:
    """K6: joker and ace 15, K Q J 10 ten each, 9 down to 2 their face value."""
    if card.is_joker or card.rank == ACE:
        return 15
    return min(card.rank, 10)
