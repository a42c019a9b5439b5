"""The table solver, rule by rule (V5, V6, V7, V9, V11, V12, K5)."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.cards import Card, parse_cards
from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, Meld, MeldKind, MeldRules, read_meld
from rummykit.solver import (
    Play,
    arrange,
    arrange_play,
    best_opening,
    best_play,
    chain,
    dp,
    programme,
    split,
)
from solver_oracle import assert_valid_meld


def melds(text: str, rules: MeldRules = VATIKANEN) -> list[Meld]:
    return [read_meld(parse_cards(part), rules) for part in text.split("|") if part.strip()]


def texts(table: list[Meld] | tuple[Meld, ...]) -> list[str]:
    return sorted(str(m) for m in table)


def played(play: Play | None) -> str:
    assert play is not None
    return " ".join(str(c) for c in play.cards)


def holds(table: list[Meld] | tuple[Meld, ...], cards: list[Card], rules: MeldRules) -> None:
    for m in table:
        assert_valid_meld(m, rules)
    assert Counter(c.plain() for m in table for c in m.cards) == Counter(c.plain() for c in cards)


def test_V9_seed_example_move_ten_to_run() -> None:
    table = melds("Tc Th Th Ts | 7s 8s 9s")
    play = best_play(table, parse_cards("Js"))
    assert played(play) == "Js"
    assert play is not None
    assert texts(play.table) == ["7s 8s 9s Ts Js", "Tc Th Th"]


def test_V9_nothing_playable_is_none() -> None:
    assert best_play(melds("7s 8s 9s"), parse_cards("2c Kd")) is None


def test_V9_arrange_play_adds_all_or_none() -> None:
    table = melds("Tc Th Th Ts | 7s 8s 9s")
    new = arrange_play(table, parse_cards("Js"))
    assert new is not None
    holds(new, parse_cards("Tc Th Th Ts 7s 8s 9s Js"), VATIKANEN)
    assert arrange_play(table, parse_cards("Js 2d")) is None


def test_V5_ace_low_and_high() -> None:
    assert texts(arrange(parse_cards("Ah 2h 3h"), VATIKANEN) or []) == ["Ah 2h 3h"]
    assert texts(arrange(parse_cards("Qh Kh Ah"), VATIKANEN) or []) == ["Qh Kh Ah"]


def test_V5_no_wrap_king_ace_two() -> None:
    assert arrange(parse_cards("Kh Ah 2h"), VATIKANEN) is None
    assert arrange(parse_cards("Qh Kh Ah 2h 3h"), VATIKANEN) is None


def test_V5_two_aces_close_a_fourteen_card_run() -> None:
    cards = parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    table = arrange(cards, VATIKANEN)
    assert table is not None and len(table) <= 2
    holds(table, cards, VATIKANEN)
    one_run = best_play(melds("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"), parse_cards("Ah Ah"))
    assert played(one_run) == "Ah Ah"


def test_V5_one_ace_is_never_both_ends() -> None:
    assert best_play(melds("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"), parse_cards("Ah")) is not None
    # 13 cards K..A..Q would need the ace at both ends
    assert arrange(parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"), VATIKANEN) is not None


def test_V6_groups_with_repeated_suits() -> None:
    assert texts(arrange(parse_cards("Tc Th Th Ts"), VATIKANEN) or []) == ["Tc Th Th Ts"]
    assert texts(arrange(parse_cards("8c 8c 8d 8h 8s"), VATIKANEN) or []) == ["8c 8c 8d 8h 8s"]
    play = best_play(melds("8c 8d 8h"), parse_cards("8c 8s"))
    assert played(play) == "8c 8s"


def test_V6_rummikub_groups_are_distinct_colours_of_at_most_four() -> None:
    assert arrange(parse_cards("Tc Th Th"), RUMMIKUB) is None
    assert arrange(parse_cards("8c 8d 8h 8s 8c"), RUMMIKUB) is None
    assert arrange(parse_cards("8c 8d 8h 8s 8c 8d 8h"), RUMMIKUB) is not None


def test_V7_best_opening_is_one_run_from_the_hand() -> None:
    play = best_opening(parse_cards("5h 6h 7h 8h 9c 9d 9s Kc"))
    assert play is not None and texts(play.table) == ["5h 6h 7h 8h"]
    assert play.count == 4
    assert best_opening(parse_cards("9c 9d 9s Kc")) is None


def test_V7_best_opening_with_a_joker_and_points() -> None:
    play = best_opening(parse_cards("5h 6h * Qs Ks"), objective="cards")
    assert play is not None and play.count == 3
    assert texts(play.table) == ["*:Js Qs Ks"]  # ties on cards go to points
    by_points = best_opening(parse_cards("5h 6h 7h Qs Ks *"), objective="points")
    assert by_points is not None
    assert by_points.table[0].kind is MeldKind.RUN
    assert "Ks" in str(by_points.table[0])


def test_V11_table_joker_stays_fixed() -> None:
    # the joker stands for Th: it cannot become the 9s the hand needs
    table = melds("7h 8h 9h *:Th | 6s 7s 8s")
    assert best_play(table, parse_cards("Ts")) is None
    assert best_play(table, parse_cards("Ts"), free_jokers=True) is not None


def test_V11_table_joker_freed_by_a_real_copy() -> None:
    table = melds("7h *:8h 9h | 6s 7s 8s")
    play = best_play(table, parse_cards("8h Ts"))
    assert played(play) == "8h Ts"
    assert play is not None
    holds(play.table, [*parse_cards("7h 9h 6s 7s 8s * 8h Ts")], VATIKANEN)


def test_V11_group_joker_freed_by_any_card_of_its_rank() -> None:
    table = melds("Kc Kd *")  # the joker stands for a king
    assert best_play(table, parse_cards("5s 6s")) is None
    play = best_play(table, parse_cards("Ks 5s 6s"))
    assert played(play) == "5s 6s Ks"


def test_V11_fixed_joker_counts_as_its_card_in_a_group() -> None:
    table = melds("5d *:6d 7d | 6c 6s 6h")
    play = best_play(table, parse_cards("8d 9d"))
    assert played(play) == "8d 9d"


def test_V12_only_the_multiset_matters() -> None:
    a = best_play(melds("Tc Th Th Ts | 7s 8s 9s"), parse_cards("Js"))
    b = best_play(melds("Tc Th Th | 7s 8s 9s Ts"), parse_cards("Js"))
    assert a is not None and b is not None and a.count == b.count


def test_V12_objective_points_prefers_high_cards() -> None:
    table = melds("2c 2d 2h | Kc Kd Kh")
    hand = parse_cards("2s 2s Ks")
    assert played(best_play(table, hand, objective="cards")) == "2s 2s Ks"
    assert played(best_play(table, parse_cards("Ks"), objective="points")) == "Ks"


def test_K5_ace_is_low_only() -> None:
    assert arrange(parse_cards("Ah 2h 3h"), KONTRAKT) is not None
    assert arrange(parse_cards("Qh Kh Ah"), KONTRAKT) is None
    assert best_play(melds("Jh Qh Kh", KONTRAKT), parse_cards("Ah"), rules=KONTRAKT) is None
    assert best_play(melds("Jh Qh Kh"), parse_cards("Ah")) is not None


def test_K5_three_packs_and_three_jokers() -> None:
    cards = parse_cards("7h 7h 7h 8h 8h 8h 9h 9h 9h * * *")
    table = arrange(cards, KONTRAKT)
    assert table is not None
    holds(table, cards, KONTRAKT)


def test_arrange_is_deterministic() -> None:
    cards = parse_cards("Ah 2h 3h 4h 5c 5d 5h 5s 5s * Kh Qh Jh")
    first = arrange(cards, VATIKANEN)
    assert first is not None
    for _ in range(3):
        assert texts(arrange(list(reversed(cards)), VATIKANEN) or []) == texts(first)
    assert arrange(parse_cards("* * 5h"), VATIKANEN) is not None
    assert arrange(parse_cards("* *"), VATIKANEN) is None


def test_V11_a_group_of_table_jokers_needs_a_natural_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run jokers may move into a group of their rank, but never make one alone (V11):
    the split search branches on a natural card rather than give the position up,
    and finds what the joint programme finds."""
    melds = (
        "Qc *:Kc Ac | 4d 5d 6d | Jd Qd Kd | Jd Qd Kd Ad | 2d 2h 2h | 3c 3d 3h 3s"
        " | 6c 6c 6h | 7c 7d 7s | Tc Th Ts | 2s *:3s 4s 5s"
    )
    table = [read_meld(parse_cards(m), VATIKANEN) for m in melds.split("|")]
    hand = parse_cards("Qs Th 5h 8h")

    first = best_play(table, hand, rules=VATIKANEN)  # the programme over ranks
    monkeypatch.setattr(programme, "ask", lambda *a, **k: None)  # the paths in Python
    with monkeypatch.context() as m:
        m.setattr(chain, "CASE_PATHS", (dp.solve_case,))  # the joint programme alone
        want = best_play(table, hand, rules=VATIKANEN)
    # the split search alone: giving the position up fails the chain
    monkeypatch.setattr(chain, "CASE_PATHS", (split.solve_case,))
    play = best_play(table, hand, rules=VATIKANEN)
    assert play is not None and want is not None and first is not None
    assert (play.count, play.points) == (want.count, want.points) == (2, 20)
    assert (first.count, first.points) == (2, 20)
    for answer in (first, play):
        for meld in answer.table:
            assert any(not c.is_joker for c in meld.cards)
