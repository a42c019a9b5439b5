"""Kontraktsrummy rules K1-K15, one or more tests per rule id (RULES.md)."""

from __future__ import annotations

import pytest

from kontrakt_helpers import build_deck, conserved, engine_state, game_with, play_bots, to_deal
from rummykit.bots import make_bot
from rummykit.cards import JOKER, Card, kontrakt_value, parse_cards
from rummykit.errors import RuleError
from rummykit.games.kontrakt import (
    BuyUpcard,
    DealEnded,
    DeclineUpcard,
    Discard,
    Draw,
    KontraktGame,
    KontraktOptions,
    LayDown,
    LayOff,
    PassUpcard,
    Phase,
    SwapJoker,
    TakeUpcard,
    game_deck,
)
from rummykit.games.kontrakt.contracts import CONTRACTS


def C(text: str) -> Card:
    return Card.parse(text)


def M(*melds: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(parse_cards(m)) for m in melds)


def rule_of(game: KontraktGame, action: object) -> str:
    with pytest.raises(RuleError) as info:
        game.apply(action)  # type: ignore[arg-type]
    return info.value.rule


def hand_text(game: KontraktGame, seat: int) -> list[str]:
    return sorted(str(c) for c in game.hand(seat))


# Seat 0 is förhand when seat n-1 deals.
def g2(
    hands: dict[int, str], upcard: str | None = None, stock: str = "", **kw: object
) -> KontraktGame:
    return game_with(2, hands, upcard, stock, dealer=1, **kw)  # type: ignore[arg-type]


# ------------------------------------------------------------------- K1-K3


def test_K1_two_to_eight_players() -> None:
    for n in (2, 8):
        assert KontraktGame(n, seed=1).n_players == n
    for n in (1, 9):
        with pytest.raises(RuleError) as info:
            KontraktGame(n, seed=1)
        assert info.value.rule == "K1"


def test_K2_two_packs_up_to_four_players_three_from_five() -> None:
    for n, size, jokers in ((2, 106, 2), (4, 106, 2), (5, 159, 3), (8, 159, 3)):
        deck = game_deck(n, {})
        assert len(deck) == size and deck.count(JOKER) == jokers
        game = KontraktGame(n, seed=3)
        assert conserved(game) and len(game._s.deck) == size


def test_K3_ten_cards_each_and_one_upcard() -> None:
    for n in range(2, 9):
        game = KontraktGame(n, seed=n)
        assert [len(game.hand(s)) for s in range(n)] == [10] * n
        assert len(game.discard_pile) == 1
        assert len(game.stock) == len(game._s.deck) - 10 * n - 1


def test_K3_deal_order_forhand_first_then_upcard() -> None:
    deck = build_deck(3, {}, dealer=2)
    game = KontraktGame(3, decks=[deck], dealer=2)
    assert game.forhand == 0
    assert game.hand(0)[0] == deck[0] and game.hand(1)[0] == deck[1]
    assert game.hand(2)[0] == deck[2] and game.hand(0)[1] == deck[3]
    assert game.discard_pile == [deck[30]]
    assert game.stock[0] == deck[31]


# ---------------------------------------------------------------------- K4


def test_K4_contracts_table() -> None:
    texts = [str(c) for c in CONTRACTS]
    assert texts == [
        "2 groups",
        "1 group + 1 run",
        "2 runs",
        "3 groups",
        "2 groups + 1 run",
        "1 group + 2 runs",
        "3 groups or 3 runs, all at once",
    ]


def test_K4_seven_deals_dealer_passes_left_then_over() -> None:
    game = KontraktGame(3, seed=5, dealer=1)
    dealers = []
    deal = -1
    while not game.over:
        if game.deal != deal:
            deal = game.deal
            dealers.append(game.dealer)
            assert str(game.contract) == str(CONTRACTS[deal])
        play_bots(game, "b", 7, until_deal=deal + 1)
    assert dealers == [1, 2, 0, 1, 2, 0, 1]
    assert len(game.scores) == 7 and game.phase is Phase.OVER and game.to_act is None
    assert rule_of(game, Draw(0)) == "K4"


# ---------------------------------------------------------------------- K5


def test_K5_ace_low_only() -> None:
    game = g2({0: "Qs Ks As 2h 3h 4h 5d 5c 5s 9d"}, upcard="7c")
    game.take_upcard(TakeUpcard(0))
    assert rule_of(game, LayDown(0, M("Qs Ks As"))) in ("K5", "K10")
    with pytest.raises(RuleError) as info:
        game.verify_lay_down(LayDown(0, M("Qs Ks As")))
    assert "ace" in info.value.message


def test_K5_group_with_repeated_suits_and_two_groups_of_one_rank() -> None:
    game = g2({0: "7h 7h 7s 7c 7s 7d 2c 9d Jc Kd"}, upcard="3c")
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("7h 7h 7s", "7c 7s 7d")))
    assert game.laid(0) == (2, 0, True)
    assert [m.meld.kind.value for m in game.table] == ["group", "group"]


def test_K5_run_ace_low_is_a_run() -> None:
    game = to_deal(2, 1, build_deck(2, {0: "As 2s 3s 8h 8d 8c Kd Qc 4h 9c"}, dealer=1))
    seat = game.forhand
    assert seat == 0
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("As 2s 3s", "8h 8d 8c")))
    assert game.laid(0) == (1, 1, True)


# ---------------------------------------------------------------------- K6


def test_K6_penalty_values_at_the_end_of_a_deal() -> None:
    # Seat 0 goes out at once; seat 1 holds * As Kd Qc Jh Ts 9d 2c 2d 3h.
    game = g2(
        {0: "7h 7d 7s 8h 8d 8s 4c 4d 4s 5c", 1: "* As Kd Qc Jh Ts 9d 2c 2d 3h"},
        upcard="4h",
    )
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("7h 7d 7s", "8h 8d 8s", "4c 4d 4s 4h")))
    event = game.discard(Discard(0, C("5c")))
    assert isinstance(event, DealEnded)
    assert event.penalties == (0, 15 + 15 + 10 + 10 + 10 + 10 + 9 + 2 + 2 + 3)


# ---------------------------------------------------------------------- K7


def test_K7_forhand_takes_the_upcard_as_the_draw() -> None:
    game = g2({}, upcard="9s")
    assert game.phase is Phase.UPCARD and game.to_act == 0
    game.take_upcard(TakeUpcard(0))
    assert len(game.hand(0)) == 11 and game.discard_pile == []
    assert game.phase is Phase.PLAY
    assert rule_of(game, Draw(0)) == "K8"


def test_K7_only_forhand_takes_and_others_are_asked_in_turn() -> None:
    game = game_with(4, {}, upcard="9s", dealer=3)
    assert rule_of(game, TakeUpcard(1)) == "K7"
    assert rule_of(game, BuyUpcard(0)) == "K7"
    game.decline_upcard(DeclineUpcard(0))
    assert rule_of(game, BuyUpcard(2)) == "K7"  # seat 1 is asked first
    assert rule_of(game, TakeUpcard(1)) == "K7"
    game.pass_upcard(PassUpcard(1))
    assert game.to_act == 2


def test_K7_a_buyer_takes_upcard_and_stock_top_and_may_not_lay_down() -> None:
    game = game_with(3, {2: "9h 9d 2c 3c 4c 5c 6c 7c 8c Tc"}, upcard="9s", stock="Kh 2d", dealer=2)
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    event = game.buy_upcard(BuyUpcard(2))
    assert sorted(map(str, event.hidden)) == ["Kh"] and [str(c) for c in event.shown] == ["9s"]
    assert len(game.hand(2)) == 12 and [len(game.hand(s)) for s in (0, 1)] == [10, 10]
    # the buyer may not lay anything down at that moment
    assert rule_of(game, LayDown(2, M("9h 9d 9s"))) == "K7"
    # förhand now draws from the stock (the discard pile is empty)
    assert game.to_act == 0 and game.phase is Phase.DRAW
    assert rule_of(game, Draw(0, "discard")) == "K7"
    game.draw(Draw(0))
    assert [str(c) for c in game.hand(0)][-1] == "2d"


def test_K7_nobody_wants_it_it_stays_and_forhand_draws_from_the_stock() -> None:
    game = game_with(3, {}, upcard="9s", stock="Kh", dealer=2)
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    game.pass_upcard(PassUpcard(2))
    assert [str(c) for c in game.discard_pile] == ["9s"]
    assert game.to_act == 0 and game.phase is Phase.DRAW
    with pytest.raises(RuleError) as info:
        game.draw(Draw(0, "discard"))
    assert info.value.rule == "K7"
    game.draw(Draw(0, "stock"))
    assert str(game.hand(0)[-1]) == "Kh"


def test_K7_two_players_declined_then_other_asked() -> None:
    game = g2({}, upcard="9s")
    game.decline_upcard(DeclineUpcard(0))
    assert game.to_act == 1
    game.pass_upcard(PassUpcard(1))
    assert game.to_act == 0 and game.phase is Phase.DRAW


# ---------------------------------------------------------------------- K8


def test_K8_turn_draw_then_discard_passes_left() -> None:
    game = g2({0: "2c 4d 6h 8s Tc Qd Kh 3s 5s 7d"}, upcard="9s", stock="Jh")
    game.take_upcard(TakeUpcard(0))
    assert rule_of(game, Draw(1)) == "K8"
    game.discard(Discard(0, C("2c")))
    assert game.to_act == 1 and game.phase is Phase.DRAW
    assert rule_of(game, Discard(1, game.hand(1)[0])) == "K8"  # draw first
    game.draw(Draw(1, "discard"))
    assert str(game.hand(1)[-1]) == "2c"
    assert rule_of(game, Draw(1)) == "K8"  # once per turn


def test_K8_only_the_next_player_takes_the_discard() -> None:
    game = game_with(3, {}, upcard="9s", dealer=2)
    game.take_upcard(TakeUpcard(0))
    game.discard(Discard(0, game.hand(0)[0]))
    assert rule_of(game, Draw(2, "discard")) == "K8"
    game.draw(Draw(1, "discard"))


def test_K8_picked_up_card_kept_not_rediscarded() -> None:
    game = g2({0: "2c 4d 6h 8s Tc Qd Kh 3s 5s 7d"}, upcard="9s")
    game.take_upcard(TakeUpcard(0))
    with pytest.raises(RuleError) as info:
        game.discard(Discard(0, C("9s")))
    assert info.value.rule == "K8"
    game.discard(Discard(0, C("Kh")))  # the upcard need not be used at once
    assert "9s" in hand_text(game, 0)


def test_K8_rediscard_allowed_by_option() -> None:
    game = g2({}, upcard="9s", options=KontraktOptions(rediscard_pickup=True))
    game.take_upcard(TakeUpcard(0))
    game.discard(Discard(0, C("9s")))
    assert [str(c) for c in game.discard_pile] == ["9s"]


def test_K8_cannot_discard_a_card_not_held() -> None:
    game = g2({0: "2c 4d 6h 8s Tc Qd Kh 3s 5s 7d"}, upcard="9s")
    game.take_upcard(TakeUpcard(0))
    assert rule_of(game, Discard(0, C("Ah"))) == "K8"


# ---------------------------------------------------------------------- K9


def test_K9_contract_in_parts_over_turns() -> None:
    deck = build_deck(
        2, {0: "8h 8d 8s 4c 5c Kd Qc 2h 9s Jd"}, upcard="3d", stock="Ks 2d 6c", dealer=1
    )
    game = to_deal(2, 1, deck)
    assert game.forhand == 0 and str(game.contract) == "1 group + 1 run"
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    game.draw(Draw(0))  # Ks
    game.lay_down(LayDown(0, M("8h 8d 8s")))
    assert game.laid(0) == (1, 0, False)
    assert rule_of(game, LayDown(0, M("Kd Ks *"))) in ("K10", "K8", "K9")
    game.discard(Discard(0, C("Kd")))
    game.draw(Draw(1))
    game.discard(Discard(1, game.hand(1)[0]))
    game.draw(Draw(0))  # 6c
    game.lay_down(LayDown(0, M("4c 5c 6c")))
    assert game.laid(0) == (1, 1, True)
    assert [m.contract for m in game.table] == [True, True]


def test_K9_part_melds_must_belong_to_the_contract() -> None:
    game = g2({0: "4c 5c 6c 8h 8d 8s 2h 9s Jd Kd"}, upcard="3d")
    game.take_upcard(TakeUpcard(0))
    with pytest.raises(RuleError) as info:
        game.lay_down(LayDown(0, M("4c 5c 6c")))  # deal 1 asks 2 groups
    assert info.value.rule == "K10"


# --------------------------------------------------------------------- K10


def test_K10_no_extra_melds_or_lay_offs_before_the_contract() -> None:
    game = g2({0: "8h 8d 8s 4c 5c 6c 2h 9s Jd Kd", 1: "7h 7d 7s 3d 3h 3s Qc Qd Qs 2c"}, upcard="Td")
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d 8s")))
    assert rule_of(game, LayDown(0, M("4c 5c 6c"))) == "K10"
    assert rule_of(game, LayOff(0, C("9s"), 0)) == "K10"


def test_K10_extras_same_turn_and_on_others_melds_numbered_in_order() -> None:
    game = g2(
        {0: "8h 8d 8s 4c 5c 6c 2h 2s 2d Kd", 1: "7h 7d 7s 3d 3h 3s Qc Qd Qs 9c"},
        upcard="Td",
        stock="Jc 8c",
    )
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d 8s", "2h 2s 2d", "4c 5c 6c")))  # contract + an extra run
    assert [(m.number, m.owner, m.contract) for m in game.table] == [
        (0, 0, True),
        (1, 0, True),
        (2, 0, False),
    ]
    game.discard(Discard(0, C("Kd")))
    game.draw(Draw(1))  # Jc
    game.lay_down(LayDown(1, M("7h 7d 7s", "3d 3h 3s")))
    assert [m.number for m in game.table] == [0, 1, 2, 3, 4]
    assert rule_of(game, LayOff(1, C("9c"), 2)) == "K10"  # not at an end of 4c 5c 6c
    game.discard(Discard(1, C("9c")))
    game.draw(Draw(0))  # 8c
    game.lay_off(LayOff(0, C("8c"), 0))
    assert len(game.table[0].meld) == 4


def test_K10_lay_off_at_run_ends_and_joker_as() -> None:
    game = g2(
        {0: "8h 8d 8s 2h 2s 2d 4c 5c 6c 3c", 1: "Kd Qc 9d 9h 3h 4s 5d Ts Jh *"},
        upcard="7c",
    )
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d 8s", "2h 2s 2d", "4c 5c 6c")))
    game.lay_off(LayOff(0, C("7c"), 2))
    game.lay_off(LayOff(0, C("3c"), 2))
    assert str(game.table[2].meld) == "3c 4c 5c 6c 7c"


def test_K10_joker_lay_off_default_and_chosen_end() -> None:
    game = g2({0: "8h 8d 8s 2h 2s 2d 4c 5c 6c *", 1: "Kd Qc 9d 9h 3h 4s 5d Ts Jh 2c"}, upcard="*")
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d 8s", "2h 2s 2d", "4c 5c 6c")))
    game.lay_off(LayOff(0, JOKER, 2, C("3c")))
    assert str(game.table[2].meld) == "*:3c 4c 5c 6c"
    game.lay_off(LayOff(0, JOKER, 2))
    assert str(game.table[2].meld) == "*:3c 4c 5c 6c *:7c"


# --------------------------------------------------------------------- K11


def _joker_table() -> KontraktGame:
    game = g2(
        {0: "8h 8d * 2h 2s 2d 4c * 6c Kd", 1: "8c 5c 9d 9h 3h 4s 5d Ts Jh 2c"},
        upcard="Qd",
        stock="Ac",
    )
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d *", "2h 2s 2d", "4c * 6c")))
    game.discard(Discard(0, C("Kd")))
    return game


def test_K11_joker_swap_needs_the_whole_contract() -> None:
    game = _joker_table()
    game.draw(Draw(1))
    assert rule_of(game, SwapJoker(1, C("5c"), 2)) == "K11"


def test_K11_swap_in_run_needs_exact_card_in_group_any_suit() -> None:
    game = _joker_table()
    game.draw(Draw(1))
    game.discard(Discard(1, C("Jh")))
    game.draw(Draw(0, "stock"))  # Ac
    assert rule_of(game, SwapJoker(0, C("Ac"), 2)) == "K11"
    assert rule_of(game, SwapJoker(0, C("Qd"), 0)) in ("K11",)  # not holding / wrong rank


def test_K11_joker_goes_to_the_hand() -> None:
    game = g2(
        {0: "8h 8d * 2h 2s 2d 4c * 6c 5c", 1: "8c 9c 9d 9h 3h 4s 5d Ts Jh 2c"},
        upcard="8s",
    )
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d *", "2h 2s 2d", "4c * 6c")))
    game.swap_joker(SwapJoker(0, C("5c"), 2))
    assert str(game.table[2].meld) == "4c 5c 6c"
    game.swap_joker(SwapJoker(0, C("8s"), 0))  # any eight frees the joker of a group of eights
    assert sorted(str(c) for c in game.table[0].meld.cards) == ["8d", "8h", "8s"]
    assert hand_text(game, 0) == ["*", "*"]
    assert conserved(game)


def test_K11_joker_named_with_a_suit_in_a_group_stands_for_the_rank() -> None:
    game = g2(
        {0: "8h 8d * 2h 2s 2d 4c * 6c 5c", 1: "8c 9c 9d 9h 3h 4s 5d Ts Jh 2c"},
        upcard="8s",
    )
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d *:8c", "2h 2s 2d")))
    assert str(game.table[0].meld) == "8d 8h *:8"
    game.swap_joker(SwapJoker(0, C("8s"), 0))  # any eight, not only the eight of clubs
    assert sorted(str(c) for c in game.table[0].meld.cards) == ["8d", "8h", "8s"]
    assert conserved(game)


# --------------------------------------------------------------------- K12


def _seventh(hand0: str, upcard: str = "Kc") -> KontraktGame:
    """Deal 7 of a three-player game: seat 0 deals it, förhand (seat 1) holds ``hand0``."""
    deck = build_deck(3, {1: hand0}, upcard=upcard, dealer=0)
    game = to_deal(3, 6, deck)
    assert game.forhand == 1 and game.contract.all_at_once
    return game


def test_K12_nothing_until_the_whole_contract() -> None:
    game = _seventh("7h 7d 7s 8h 8d 8s 4c 4d Ks 2h")
    game.take_upcard(TakeUpcard(1))
    assert rule_of(game, LayDown(1, M("7h 7d 7s", "8h 8d 8s"))) == "K12"
    assert rule_of(game, LayDown(1, M("7h 7d 7s"))) == "K12"


def test_K12_three_groups_at_once_then_usual_rules() -> None:
    game = _seventh("7h 7d 7s 8h 8d 8s 4c 4d 4s 2h", upcard="8c")
    game.take_upcard(TakeUpcard(1))
    game.lay_down(LayDown(1, M("7h 7d 7s", "8h 8d 8s", "4c 4d 4s")))
    assert game.laid(1) == (3, 0, True)
    game.lay_off(LayOff(1, C("8c"), 1))


def test_K12_three_runs_at_once_and_no_mix() -> None:
    game = _seventh("4h 5h 6h 8d 9d Td 2s 3s 4s 5c", upcard="Kc")
    game.take_upcard(TakeUpcard(1))
    game.lay_down(LayDown(1, M("4h 5h 6h", "8d 9d Td", "2s 3s 4s")))
    assert game.laid(1) == (0, 3, True)
    game2 = _seventh("4h 5h 6h 8d 9d Td 2s 2c 2h 5c", upcard="Kc")
    game2.take_upcard(TakeUpcard(1))
    assert rule_of(game2, LayDown(1, M("4h 5h 6h", "8d 9d Td", "2s 2c 2h"))) == "K12"


# --------------------------------------------------------------------- K13


def test_K13_going_out_by_laying_down_without_discard() -> None:
    game = g2({0: "8h 8d 8s 2h 2s 2d 4c 5c 6c 7c"}, upcard="3c")
    game.take_upcard(TakeUpcard(0))
    event = game.lay_down(LayDown(0, M("8h 8d 8s", "2h 2s 2d", "3c 4c 5c 6c 7c")))
    assert isinstance(event, DealEnded) and event.out == 0
    assert event.penalties[0] == 0 and event.penalties[1] > 0
    assert game.phase is Phase.WAITING  # the test game has no deck for deal 2


def test_K13_going_out_by_the_last_discard() -> None:
    game = g2({0: "8h 8d 8s 2h 2s 2d 4c 5c 6c Kd"}, upcard="3c")
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d 8s", "2h 2s 2d", "3c 4c 5c 6c")))
    event = game.discard(Discard(0, C("Kd")))
    assert isinstance(event, DealEnded) and event.out == 0
    assert rule_of(game, Draw(1)) == "K13"


def test_K13_next_deal_starts_after_going_out() -> None:
    game = KontraktGame(3, seed=11)
    play_bots(game, "b", 3, until_deal=1)
    assert game.deal == 1 and game.phase is Phase.UPCARD and game.dealer == 1
    assert len(game.scores) == 1 and 0 in game.scores[0]


# --------------------------------------------------------------------- K14


def test_K14_totals_and_shared_win() -> None:
    game = KontraktGame(2, seed=2)
    play_bots(game, "bb", 2)
    assert game.over and len(game.scores) == 7
    assert game.totals == [sum(d[s] for d in game.scores) for s in range(2)]
    assert game.winners == [s for s in range(2) if game.totals[s] == min(game.totals)]
    game.scores = [(5, 5)] * 7
    assert game.winners == [0, 1]


# --------------------------------------------------------------------- K15


def _run_down_stock(game: KontraktGame) -> None:
    """Both players draw from the stock and discard what they drew until it is empty."""
    while game._s.stock:
        seat = game.to_act
        assert seat is not None
        game.draw(Draw(seat))
        game.discard(Discard(seat, game.hand(seat)[-1]))


def test_K15_empty_stock_shuffles_the_pile_but_its_top() -> None:
    game = g2({}, upcard="9s")
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    _run_down_stock(game)
    top = game.discard_pile[-1]
    pile = len(game.discard_pile)
    seat = game.to_act
    assert seat is not None
    event = game.draw(Draw(seat))
    assert not isinstance(event, DealEnded) and event.restock is not None
    assert len(event.restock) == pile - 1
    assert game.discard_pile == [top] and len(game.stock) == pile - 2
    assert conserved(game)


def test_K15_option_off_ends_the_deal_and_everyone_scores() -> None:
    game = g2({}, upcard="9s", options=KontraktOptions(reshuffle_stock=False))
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    _run_down_stock(game)
    seat = game.to_act
    assert seat is not None
    event = game.draw(Draw(seat))
    assert isinstance(event, DealEnded) and event.out is None
    assert all(p > 0 for p in event.penalties)


def test_K15_restock_order_from_a_record_is_checked() -> None:
    game = g2({}, upcard="9s")
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    _run_down_stock(game)
    seat = game.to_act
    assert seat is not None
    wrong = tuple(game.discard_pile)  # includes the top card
    assert rule_of(game, Draw(seat, "stock", wrong)) == "K15"
    right = tuple(reversed(game.discard_pile[:-1]))
    game.draw(Draw(seat, "stock", right))
    assert game.stock[0] == right[1] if len(right) > 1 else True


def test_K15_no_card_to_draw_ends_the_deal() -> None:
    # Unreachable in play (each stock draw adds a discard), so the state is set up by hand.
    game = g2({}, upcard="9s")
    game.take_upcard(TakeUpcard(0))
    game.discard(Discard(0, game.hand(0)[0]))
    s = game._s
    s.hands[0] += s.stock
    s.stock = []
    event = game.draw(Draw(1))
    assert isinstance(event, DealEnded) and event.out is None
    assert event.penalties[1] > 0 and len(event.hands[1]) == 10


# --------------------------------------------------------------- invariants


def test_rejected_actions_change_nothing() -> None:
    game = g2({0: "8h 8d 8s 2h 2s 2d 4c 5c 6c Kd"}, upcard="3c")
    before = engine_state(game)
    for action in (
        Draw(0),
        BuyUpcard(0),
        PassUpcard(1),
        TakeUpcard(1),
        LayDown(0, M("8h 8d 8s")),
        Discard(0, C("Kd")),
        DeclineUpcard(1),
    ):
        with pytest.raises(RuleError):
            game.apply(action)
        assert engine_state(game) == before


def test_K13_no_going_out_before_the_whole_contract() -> None:
    # Deal 4 asks 3 groups; two big groups would empty the hand with the contract unmet.
    deck = build_deck(2, {0: "7h 7h 7d 7d 7s 7s 8c 8c 8d 8d"}, upcard="8h", dealer=1)
    game = to_deal(2, 3, deck)
    assert game.forhand == 0 and str(game.contract) == "3 groups"
    game.take_upcard(TakeUpcard(0))
    with pytest.raises(RuleError) as info:
        game.lay_down(LayDown(0, M("7h 7h 7d 7d 7s 7s", "8c 8c 8d 8d 8h")))
    assert info.value.rule == "K13"
    with pytest.raises(RuleError):
        game.lay_down(LayDown(0, M("7h 7h 7d 7d 7s", "8c 8c 8d 8d 8h")))  # one card left: no
    game.lay_down(LayDown(0, M("7h 7h 7d 7d", "8c 8c 8d 8d 8h")))
    assert len(game.hand(0)) == 2


def test_K10_joker_as_written_with_its_meaning() -> None:
    game = g2({0: "8h 8d 8s 2h 2s 2d 4c 5c 6c *", 1: "Kd Qc 9d 9h 3h 4s 5d Ts Jh 2c"}, upcard="9s")
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, M("8h 8d 8s", "2h 2s 2d", "4c 5c 6c")))
    game.lay_off(LayOff(0, JOKER, 2, C("*:3c")))
    assert str(game.table[2].meld) == "*:3c 4c 5c 6c"
    assert rule_of(game, LayOff(0, C("9s"), 2, C("7c"))) == "K10"


def test_K15_a_deal_that_reaches_the_turn_limit_ends_as_an_empty_stock_ends_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/rules-decisions.md: no deal runs for ever; at the limit everyone scores the hand
    import rummykit.games.kontrakt.game as engine
    from rummykit.games.kontrakt import DealEnded

    monkeypatch.setattr(engine, "TURN_LIMIT", 2)
    game = KontraktGame(2, seed=5)
    bots = [make_bot("kontrakt", "random", s) for s in range(2)]
    assert game.view(0)["turns_left"] == 4
    while True:
        seat = game.to_act
        assert seat is not None
        event = game.apply(bots[seat].choose(game.view(seat)))
        if isinstance(event, DealEnded):
            break
    assert event.reason == "limit" and event.out is None and game.deal == 1
    assert list(event.penalties) == [sum(kontrakt_value(c) for c in h) for h in event.hands]
    assert sum(1 for a in game.to_record().deals[0].actions if a["type"] == "draw") == 5
    assert game.view(0)["log"][-2]["reason"] == "limit"


def test_K11_a_joker_laid_down_bare_is_logged_with_what_it_stands_for() -> None:
    """Issue 45, item 9: a joker laid through the page (sent as a bare ``*``) read as a bare
    ★ in the log, where the bots' lay-downs said ★=Q♣. The engine logs each meld as it read
    it, whoever sent it."""
    from rummykit.games.kontrakt import KontraktGame, LayDown
    from rummykit.narration import narrate_log

    for seed in range(40):
        game = KontraktGame(3, seed=seed)
        bots = [make_bot("kontrakt", "basic", seed=seed * 10 + s) for s in range(3)]
        while not game.over:
            seat = game.to_act
            assert seat is not None
            action = bots[seat].choose(game.view(seat))
            if isinstance(action, LayDown) and any(c.is_joker for m in action.melds for c in m):
                bare = LayDown(seat, tuple(tuple(c.plain() for c in m) for m in action.melds))
                if game.can(bare):
                    game.apply(bare)
                    entry = game.view(0)["log"][-1]
                    laid = [c for m in entry["melds"] for c in m if c.startswith("*")]
                    assert laid and all(c.startswith("*:") for c in laid), entry
                    said = narrate_log("kontrakt", [entry], list(game.players), "en")[0]
                    assert "★=" in said, said
                    return
            game.apply(action)
    pytest.fail("no lay-down with a joker in 40 games")
