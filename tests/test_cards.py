"""Cards, the text notation of RECORD.md, decks and values (V2, V13, K2, K6)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.cards import (
    JOKER,
    Card,
    Meaning,
    Suit,
    format_cards,
    full_deck,
    kontrakt_value,
    parse_cards,
    vatikanen_value,
)

naturals = st.builds(Card, st.integers(1, 13), st.sampled_from(list(Suit)))
cards = st.one_of(naturals, st.just(JOKER))


@given(cards)
def test_text_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("10h", "Th"), ("T♥", "Th"), ("as", "As"), ("QD", "Qd"), ("2♣", "2c"), ("*", "*")],
)
def test_parse_variants(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


def test_joker_meaning_is_not_identity() -> None:
    placed = Card.parse("*:7h")
    assert placed == JOKER and hash(placed) == hash(JOKER)
    assert placed.stands_for == Meaning(7, Suit.HEARTS)
    assert str(placed) == "*:7h"
    assert str(Card.parse("*:7")) == "*:7"


@pytest.mark.parametrize("bad", ["", "1h", "11h", "7x", "h7", "*7", "**", "Joker", "7hh", "*:1"])
def test_bad_text_quotes_it(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(bad)


def test_parse_cards_accepts_commas_and_spaces() -> None:
    assert format_cards(parse_cards("7h, 8h 9h")) == "7h 8h 9h"


def test_V2_deck_has_106_cards() -> None:
    deck = full_deck(2, 2)
    assert len(deck) == 106
    counts = Counter(deck)
    assert counts[JOKER] == 2
    assert all(n == 2 for c, n in counts.items() if not c.is_joker)


def test_K2_three_pack_deck() -> None:
    assert len(full_deck(3, 3)) == 159


def test_V13_values() -> None:
    values = [vatikanen_value(c) for c in parse_cards("* As Ks Qs Js Ts 9s 2s")]
    assert values == [25, 15, 10, 10, 10, 10, 9, 2]


def test_K6_values() -> None:
    values = [kontrakt_value(c) for c in parse_cards("* As Ks Qs Js Ts 9s 2s")]
    assert values == [15, 15, 10, 10, 10, 10, 9, 2]
