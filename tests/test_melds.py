"""Meld rules per game: V5, V6, V11 (joker meanings), K5, and the Rummikub preset."""

import pytest

from rummykit.cards import Meaning, Suit, parse_cards
from rummykit.melds import (
    KONTRAKT,
    RUMMIKUB,
    VATIKANEN,
    MeldError,
    MeldKind,
    classify,
    read_meld,
    rules_named,
)


def meld_text(text: str, rules=VATIKANEN) -> str | None:
    meld = classify(parse_cards(text), rules)
    return None if meld is None else str(meld)


def test_V5_ace_low_and_high() -> None:
    assert meld_text("As 2s 3s") == "As 2s 3s"
    assert meld_text("Qs Ks As") == "Qs Ks As"


def test_V5_no_wrap() -> None:
    assert meld_text("Ks As 2s") is None


def test_V5_two_aces_close_fourteen_card_run() -> None:
    text = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    meld = read_meld(parse_cards(text), VATIKANEN)
    assert meld.kind is MeldKind.RUN and len(meld) == 14 and meld.end == 14


def test_V5_run_needs_one_suit_and_three_cards() -> None:
    assert meld_text("7s 8h 9s") is None
    assert meld_text("7s 8s") is None
    assert meld_text("7s 9s Ts") is None


def test_V5_run_in_any_order_of_naturals() -> None:
    assert meld_text("9h 7h 8h") == "7h 8h 9h"


def test_V6_seed_examples() -> None:
    assert meld_text("Tc Th Th Ts") is not None
    assert meld_text("8h 8c 8d 8s 8h") is not None


def test_V6_group_mixed_ranks_rejected() -> None:
    with pytest.raises(MeldError, match="V6"):
        read_meld(parse_cards("8h 8c 9d"), VATIKANEN)


def test_V11_joker_meaning_from_place() -> None:
    meld = read_meld(parse_cards("7h * 9h"), VATIKANEN)
    assert meld.cards[1].stands_for == Meaning(8, Suit.HEARTS)
    group = read_meld(parse_cards("7h 7d *"), VATIKANEN)
    assert group.kind is MeldKind.GROUP
    assert group.cards[-1].stands_for == Meaning(7)


def test_V11_end_joker_may_stand_for_either_end() -> None:
    assert meld_text("* 7h 8h") == "*:6h 7h 8h"
    assert meld_text("7h 8h *") == "7h 8h *:9h"
    assert meld_text("7h 8h *:6h") == "*:6h 7h 8h"


def test_V11_joker_meaning_must_fit() -> None:
    assert meld_text("7h *:9h 9h") is None


def test_V12_joker_standing_for_a_card_sits_in_a_group_of_its_rank() -> None:
    # a run joker moved into a group keeps standing for its card (V11, V12)
    group = read_meld(parse_cards("*:6d 6c 6s"), VATIKANEN)
    assert group.kind is MeldKind.GROUP and group.rank == 6
    assert str(group) == "6c 6s *:6d"
    assert group.cards[-1].stands_for == Meaning(6, Suit.DIAMONDS)
    assert meld_text("6d 6d *:6d") == "6d 6d *:6d"  # suits may repeat (V6)
    assert meld_text("6c *:6 *:6d") == "6c *:6 *:6d"
    # still a run where the cards make one, and no joker of another rank
    assert read_meld(parse_cards("5d *:6d 7d"), VATIKANEN).kind is MeldKind.RUN
    assert meld_text("6c 6s *:7d") is None
    assert meld_text("6c 7c *:6d") is None


def test_K11_joker_in_a_group_stands_for_its_rank() -> None:
    group = read_meld(parse_cards("6c 6s *:6d"), KONTRAKT)
    assert str(group) == "6c 6s *:6"
    assert group.cards[-1].stands_for == Meaning(6)


def test_rummikub_joker_in_a_group_takes_its_colours_place() -> None:
    assert meld_text("6c 6s *:6d", RUMMIKUB) == "6c 6s *:6d"
    with pytest.raises(MeldError, match="repeats a colour"):
        read_meld(parse_cards("6c 6d *:6d"), RUMMIKUB)


def test_house_rule_meld_needs_a_natural_card() -> None:
    with pytest.raises(MeldError, match="natural"):
        read_meld(parse_cards("* * *"), VATIKANEN)


def test_K5_ace_low_only() -> None:
    assert meld_text("As 2s 3s", KONTRAKT) == "As 2s 3s"
    assert meld_text("Qs Ks As", KONTRAKT) is None
    assert meld_text("Qh Kh *", KONTRAKT) == "*:Jh Qh Kh"


def test_K5_group_suits_may_repeat() -> None:
    assert meld_text("5h 5h 5c", KONTRAKT) is not None


def test_rummikub_groups_distinct_and_small() -> None:
    assert meld_text("5h 5c 5d 5s", RUMMIKUB) is not None
    assert meld_text("5h 5h 5c", RUMMIKUB) is None
    assert meld_text("5h 5c 5d 5s *", RUMMIKUB) is None
    assert meld_text("Qs Ks As", RUMMIKUB) is None


def test_rules_named() -> None:
    assert rules_named("Vatikanen") is VATIKANEN
    with pytest.raises(ValueError, match="unknown rules"):
        rules_named("canasta")
