"""Vatikanen rules V1-V16, one group of tests per rule id (RULES.md)."""

from collections import Counter
from fractions import Fraction

import pytest

from rummykit import games
from rummykit.bots import make_bot
from rummykit.cards import Card, full_deck, parse_cards, vatikanen_value
from rummykit.errors import ActionError, RuleError
from rummykit.games.vatikanen import (
    Draw,
    Pass,
    Play,
    Session,
    VatikanenGame,
    action_from_json,
)
from rummykit.record import replay


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def table_of(*melds: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards(m) for m in melds)


def table_text(game: VatikanenGame) -> list[str]:
    return [" ".join(str(c) for c in m.cards) for m in game.table]


def rule_of(game: VatikanenGame, action: Play | Draw | Pass) -> str:
    with pytest.raises(RuleError) as info:
        game.verify(action)
    assert not game.can(action)
    return info.value.rule


def deck_dealing(hands: list[str], dealer: int, stock_top: str = "") -> list[Card]:
    """A full deck that deals ``hands`` (13 cards each) with ``stock_top`` on the stock."""
    n = len(hands)
    held = [parse_cards(h) for h in hands]
    assert all(len(h) == 13 for h in held)
    first = (dealer + 1) % n
    dealt = [held[(first + i) % n][i // n] for i in range(13 * n)]
    rest = Counter(full_deck(2, 2))
    rest.subtract(dealt + parse_cards(stock_top))
    below = [c for c, k in sorted(rest.items(), key=lambda kv: str(kv[0])) for _ in range(k)]
    return dealt + parse_cards(stock_top) + below


# ---------------------------------------------------------------- V1 players


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_V1_two_to_five_players(n: int) -> None:
    game = VatikanenGame(n, seed=1)
    assert game.n_players == n and len(game.view(0)["hand_sizes"]) == n


@pytest.mark.parametrize("n", [1, 6])
def test_V1_other_counts_refused(n: int) -> None:
    with pytest.raises(RuleError) as info:
        VatikanenGame(n, seed=1)
    assert info.value.rule == "V1"
    with pytest.raises(ValueError, match="V1"):
        games.get("vatikanen").check_players(n)


# ---------------------------------------------------------------- V2 cards


def test_V2_deck_is_two_packs_and_two_jokers() -> None:
    game = VatikanenGame(4, seed=3)
    assert len(game.deck) == 106
    assert Counter(game.deck) == Counter(full_deck(2, 2))
    assert sum(c.is_joker for c in game.deck) == 2


def test_V2_wrong_deck_refused() -> None:
    deck = full_deck(2, 2)
    deck[-1] = Card.parse("7h")
    with pytest.raises(RuleError) as info:
        VatikanenGame(2, deck=deck)
    assert info.value.rule == "V2"


def test_V2_same_seed_same_deck() -> None:
    assert VatikanenGame(3, seed=11).deck == VatikanenGame(3, seed=11).deck
    assert VatikanenGame(3, seed=11).deck != VatikanenGame(3, seed=12).deck


# ---------------------------------------------------------------- V3 deal


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_V3_thirteen_each_rest_is_stock(n: int) -> None:
    game = VatikanenGame(n, seed=5)
    assert all(len(game.hand(s)) == 13 for s in range(n))
    assert game.stock_size == 106 - 13 * n


def test_V3_dealing_order_one_at_a_time_forhand_first() -> None:
    deck = full_deck(2, 2)
    game = VatikanenGame(3, deck=deck, dealer=1)  # förhand is seat 2
    assert game.hand(2)[:2] == [deck[0], deck[3]]
    assert game.hand(0)[:2] == [deck[1], deck[4]]
    assert game.hand(1)[:2] == [deck[2], deck[5]]
    assert game.to_act == 2
    game.draw(Draw(2))
    assert game.hand(2)[-1] == deck[39]  # the stock's top is the next card


def test_V3_no_discard_pile() -> None:
    with pytest.raises(ActionError, match="no card is ever discarded \\(V3\\)"):
        action_from_json({"seat": 0, "type": "discard", "card": "7h"})
    assert "discard" not in VatikanenGame(2, seed=1).view(0)


# ---------------------------------------------------------------- V4 turn


def test_V4_turns_go_clockwise_from_forhand() -> None:
    game = VatikanenGame(4, seed=2, dealer=1)
    order = []
    for _ in range(5):
        seat = game.to_act
        assert seat is not None
        order.append(seat)
        game.draw(Draw(seat))
    assert order == [2, 3, 0, 1, 2]


def test_V4_out_of_turn_refused() -> None:
    game = VatikanenGame(3, seed=2)
    assert rule_of(game, Draw(1)) == "V4"
    assert rule_of(game, Play(1, cards("7h 8h 9h"))) == "V4"


def test_V4_draw_takes_top_card_and_ends_turn() -> None:
    game = VatikanenGame(2, seed=4)
    top = game.deck[game.stock_ids()[0]]
    event = game.draw(Draw(0))
    assert event.card == top and game.hand(0)[-1] == top and game.to_act == 1


def test_V4_draw_allowed_even_when_a_play_exists() -> None:
    game = VatikanenGame.from_position(["7h 8h 9h 2c", "3c 4c"])
    assert game.can_play(Play(0, cards("7h 8h 9h")))
    assert game.can_draw(Draw(0))


def test_V4_play_needs_cards_from_own_hand() -> None:
    game = VatikanenGame.from_position(["7h 8h 9h", "Tc Jc Qc"], opened=[False, False])
    assert rule_of(game, Play(0, cards("Tc Jc Qc"))) == "V4"
    assert rule_of(game, Play(0, ())) == "V4"
    game2 = VatikanenGame.from_position(["7h 8h 9h", "Tc"])
    assert rule_of(game2, Play(0, cards("7h 7h 8h 9h"))) == "V4"


# ---------------------------------------------------------------- V5 runs


@pytest.mark.parametrize("run", ["As 2s 3s", "Qs Ks As", "Jd Qd Kd Ad", "4c 5c 6c 7c 8c"])
def test_V5_runs_open(run: str) -> None:
    game = VatikanenGame.from_position([run + " 2h", "3c"], opened=[False, False])
    game.play(Play(0, cards(run)))
    assert len(game.table) == 1


@pytest.mark.parametrize("run", ["Ks As 2s", "7s 8h 9s", "7s 9s Ts"])
def test_V5_not_runs(run: str) -> None:
    game = VatikanenGame.from_position([run + " 2h", "3c"], opened=[False, False])
    assert rule_of(game, Play(0, cards(run))) == "V7"
    game = VatikanenGame.from_position([run + " 2h", "3c"])
    assert rule_of(game, Play(0, cards(run), table_of(run))) == "V9"


def test_V5_two_aces_close_a_fourteen_card_run() -> None:
    game = VatikanenGame.from_position(["As 2h", "3c"], ["2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"])
    game.play(Play(0, cards("As"), table_of("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")))
    assert len(game.table[0]) == 14


# ---------------------------------------------------------------- V6 groups


def test_V6_seed_group_with_repeated_suits() -> None:
    game = VatikanenGame.from_position(["Tc Th Th Ts 2d", "3c"], ["7s 8s 9s"])
    game.play(Play(0, cards("Tc Th Th Ts"), table_of("7s 8s 9s", "Tc Th Th Ts")))
    assert sorted(table_text(game)) == ["7s 8s 9s", "Tc Th Th Ts"]


def test_V6_seed_group_of_five_eights() -> None:
    game = VatikanenGame.from_position(["8h 8c 8d 2d", "3c 8s 8h 4d"], ["7s 8s 9s"])
    game.play(Play(0, cards("8h 8c 8d"), table_of("7s 8s 9s", "8h 8c 8d")))
    game.play(Play(1, cards("8s 8h"), table_of("7s 8s 9s", "8h 8c 8d 8s 8h")))
    assert sorted(len(m) for m in game.table) == [3, 5]


def test_V6_group_needs_three_of_one_rank() -> None:
    game = VatikanenGame.from_position(["8h 8c 9d 2d", "3c"], ["7s 8s 9s"])
    assert rule_of(game, Play(0, cards("8h 8c"), table_of("7s 8s 9s", "8h 8c"))) == "V9"
    bad = table_of("7s 8s 9s", "8h 8c 9d")
    assert rule_of(game, Play(0, cards("8h 8c 9d"), bad)) == "V9"


# ---------------------------------------------------------------- V7 opening


def test_V7_first_play_must_be_a_run() -> None:
    game = VatikanenGame.from_position(["8h 8c 8d 5s 6s 7s", "3c"], opened=[False, False])
    with pytest.raises(RuleError) as info:
        game.play(Play(0, cards("8h 8c 8d")))
    assert info.value.rule == "V7" and "run" in info.value.message
    game.play(Play(0, cards("5s 6s 7s")))
    assert game.opened(0) and not game.opened(1)


def test_V7_opening_needs_three_cards() -> None:
    game = VatikanenGame.from_position(["5s 6s 7s", "3c"], opened=[False, False])
    assert rule_of(game, Play(0, cards("5s 6s"))) == "V7"


def test_V7_exactly_one_run() -> None:
    game = VatikanenGame.from_position(["5s 6s 7s 2h 3h 4h", "3c"], opened=[False, False])
    assert rule_of(game, Play(0, cards("5s 6s 7s 2h 3h 4h"))) == "V7"
    two = table_of("5s 6s 7s", "2h 3h 4h")
    assert rule_of(game, Play(0, cards("5s 6s 7s 2h 3h 4h"), two)) == "V7"


def test_V7_table_not_touched() -> None:
    game = VatikanenGame.from_position(["Ts Js Qs 6s", "3c"], ["7s 8s 9s"], opened=[False, True])
    extend = table_of("7s 8s 9s Ts Js Qs")
    assert rule_of(game, Play(0, cards("Ts Js Qs"), extend)) == "V7"
    assert rule_of(game, Play(0, cards("6s"), table_of("6s 7s 8s 9s"))) == "V7"
    game.play(Play(0, cards("Ts Js Qs"), table_of("7s 8s 9s", "Ts Js Qs")))
    assert table_text(game) == ["7s 8s 9s", "Ts Js Qs"]


def test_V7_joker_may_be_part_of_the_opening() -> None:
    game = VatikanenGame.from_position(["5s * 7s 2c", "3c"], opened=[False, False])
    game.play(Play(0, cards("5s * 7s")))
    assert table_text(game) == ["5s *:6s 7s"]


def test_V7_later_plays_are_free() -> None:
    game = VatikanenGame.from_position(["5s 6s 7s 8h 8c 8d 2c", "3c"], opened=[False, False])
    game.play(Play(0, cards("5s 6s 7s")))
    game.draw(Draw(1))
    game.play(Play(0, cards("8h 8c 8d"), table_of("5s 6s 7s", "8h 8c 8d")))
    assert len(game.table) == 2


# ---------------------------------------------------------------- V8 later plays


def test_V8_extend_a_run_at_either_end() -> None:
    game = VatikanenGame.from_position(["3d 7d 2c", "3c"], ["4d 5d 6d"])
    game.play(Play(0, cards("3d 7d"), table_of("3d 4d 5d 6d 7d")))
    assert table_text(game) == ["3d 4d 5d 6d 7d"]


def test_V8_extend_a_group_and_lay_a_new_meld_at_once() -> None:
    game = VatikanenGame.from_position(["8d Ac 2c 3c 9h", "3c"], ["8h 8c 8s"])
    game.play(Play(0, cards("8d Ac 2c 3c"), table_of("8h 8c 8s 8d", "Ac 2c 3c")))
    assert game.hand(0) == [Card.parse("9h")]


def test_V8_engine_arranges_the_table() -> None:
    game = VatikanenGame.from_position(["3d 8c 2c", "3c"], ["4d 5d 6d", "8h 8d 8s"])
    game.play(Play(0, cards("3d 8c")))
    assert sorted(table_text(game)) == ["3d 4d 5d 6d", "8h 8d 8s 8c"] or sorted(
        len(m) for m in game.table
    ) == [4, 4]


def test_V8_play_that_fits_nowhere_refused() -> None:
    game = VatikanenGame.from_position(["Kc 2c", "3c"], ["4d 5d 6d"])
    with pytest.raises(RuleError) as info:
        game.play(Play(0, cards("Kc")))
    assert info.value.rule == "V9"
    assert table_text(game) == ["4d 5d 6d"]


# ---------------------------------------------------------------- V9 rearranging


def test_V9_seed_example_move_ten_and_add_jack() -> None:
    game = VatikanenGame.from_position(["Js 2c", "3c"], ["Tc Th Th Ts", "7s 8s 9s"])
    new = table_of("Tc Th Th", "7s 8s 9s Ts Js")
    event = game.play(Play(0, cards("Js"), new))
    assert table_text(game) == ["Tc Th Th", "7s 8s 9s Ts Js"]
    assert event.table is not None and game.hand(0) == [Card.parse("2c")]


def test_V9_seed_example_arranged_by_the_engine() -> None:
    game = VatikanenGame.from_position(["Js 2c", "3c"], ["Tc Th Th Ts", "7s 8s 9s"])
    game.play(Play(0, cards("Js")))
    assert sorted(table_text(game)) == ["7s 8s 9s Ts Js", "Tc Th Th"]


def test_V9_split_and_rebuild() -> None:
    game = VatikanenGame.from_position(["7h 2c", "3c"], ["4h 5h 6h 7h 8h 9h"])
    game.play(Play(0, cards("7h"), table_of("4h 5h 6h 7h", "7h 8h 9h")))
    assert len(game.table) == 2


def test_V9_needs_a_card_from_the_hand() -> None:
    game = VatikanenGame.from_position(["2c", "3c"], ["4h 5h 6h 7h 8h 9h"])
    assert rule_of(game, Play(0, (), table_of("4h 5h 6h", "7h 8h 9h"))) == "V9"  # V9a


def test_V9_no_card_leaves_the_table() -> None:
    game = VatikanenGame.from_position(["Th 2c", "3c"], ["4h 5h 6h 7h 8h 9h"])
    lost = table_of("5h 6h 7h 8h 9h Th")
    with pytest.raises(RuleError) as info:
        game.play(Play(0, cards("Th"), lost))
    assert info.value.rule == "V9" and "leaves out 4♥" in info.value.message
    extra = table_of("4h 5h 6h 7h 8h 9h Th", "2c 2c 2c")
    assert rule_of(game, Play(0, cards("Th"), extra)) == "V9"


def test_V9_table_must_hold_only_melds() -> None:
    game = VatikanenGame.from_position(["7h 2c", "3c"], ["4h 5h 6h 7h 8h 9h"])
    with pytest.raises(RuleError) as info:
        game.play(Play(0, cards("7h"), table_of("4h 5h 6h 7h 8h 9h 7h")))
    assert info.value.rule == "V9"
    with pytest.raises(RuleError) as info:
        game.play(Play(0, cards("7h"), table_of("5h 6h", "4h 7h 8h 9h 7h")))
    assert info.value.message.startswith("the table would hold 5♥ 6♥, which is no meld")


# ---------------------------------------------------------------- V10 shared table


def test_V10_anyone_extends_any_meld() -> None:
    game = VatikanenGame.from_position(["7h 8h 9h 2c", "Th 3c"], opened=[False, True])
    game.play(Play(0, cards("7h 8h 9h")))
    game.play(Play(1, cards("Th"), table_of("7h 8h 9h Th")))
    view = game.spectator_view()
    assert view["table"] == [["7h", "8h", "9h", "Th"]]


# ---------------------------------------------------------------- V11 jokers


def test_V11_joker_keeps_its_meaning() -> None:
    game = VatikanenGame.from_position(["3h 4h 2c", "3c"], ["5h 6h 7h *:8h"])
    assert table_text(game) == ["5h 6h 7h *:8h"]
    # the joker may not turn into 4h at the other end
    assert rule_of(game, Play(0, cards("3h"), table_of("3h * 5h 6h 7h"))) == "V11"
    game.play(Play(0, cards("4h"), table_of("4h 5h 6h 7h *")))
    assert table_text(game) == ["4h 5h 6h 7h *:8h"]


def test_V11_joker_freed_by_real_card_from_hand() -> None:
    game = VatikanenGame.from_position(["8h 5c 5d 2h", "3c"], ["7h * 9h"])
    assert table_text(game) == ["7h *:8h 9h"]
    moved = table_of("7h 8h 9h", "5c 5d *")
    game.play(Play(0, cards("8h 5c 5d"), moved))
    assert table_text(game) == ["7h 8h 9h", "5c 5d *:5"]


def test_V11_joker_moves_without_swap_is_V11() -> None:
    game = VatikanenGame.from_position(["5c 5d 2h", "3c"], ["6h 7h 8h 9h *"])
    moved = table_of("6h 7h 8h 9h", "5c 5d *")
    with pytest.raises(RuleError) as info:
        game.play(Play(0, cards("5c 5d"), moved))
    assert info.value.rule == "V11" and "10♥" in info.value.message
    assert table_text(game) == ["6h 7h 8h 9h *:Th"]


def test_V11_joker_swap_needs_the_very_card() -> None:
    game = VatikanenGame.from_position(["8d 5c 5d 2h", "3c"], ["7h * 9h", "8c 8s 8h"])
    moved = table_of("7h 8h 9h", "8c 8s 8d", "5c 5d *")  # 8h moves over, 8d fills the group
    game.play(Play(0, cards("8d 5c 5d"), moved))
    assert "5c 5d *:5" in table_text(game)
    game2 = VatikanenGame.from_position(["8d 5c 5d 2h", "3c"], ["7h * 9h", "8c 8s 8h"])
    wrong = table_of("7h 8d 9h", "8c 8s 8h", "5c 5d *")
    assert rule_of(game2, Play(0, cards("8d 5c 5d"), wrong)) == "V9"


def test_V11_swap_from_another_meld_on_the_table() -> None:
    game = VatikanenGame.from_position(["5c 5d 2h", "3c"], ["7h * 9h", "8h 8c 8s 8d"])
    moved = table_of("7h 8h 9h", "8c 8s 8d", "5c 5d *")
    game.play(Play(0, cards("5c 5d"), moved))
    assert sorted(table_text(game)) == ["5c 5d *:5", "7h 8h 9h", "8c 8d 8s"]


def test_V11_one_real_card_frees_one_joker() -> None:
    position = (["8h 5c 5d Kc Kd 2h", "3c"], ["7h * 9h", "5h 6h 7h *:8h"])
    game = VatikanenGame.from_position(*position)
    both = table_of("7h 8h 9h", "5h 6h 7h", "5c 5d *", "Kc Kd *")
    assert rule_of(game, Play(0, cards("8h 5c 5d Kc Kd"), both)) == "V11"
    one = table_of("7h 8h 9h", "5h 6h 7h *", "5c 5d *")
    game.play(Play(0, cards("8h 5c 5d"), one))
    assert sorted(table_text(game)) == ["5c 5d *:5", "5h 6h 7h *:8h", "7h 8h 9h"]
    game2 = VatikanenGame.from_position(["8h 8h 5c 5d Kc Kd 2h", "3c"], position[1])
    both2 = table_of("7h 8h 9h", "5h 6h 7h 8h", "5c 5d *", "Kc Kd *")
    game2.play(Play(0, cards("8h 8h 5c 5d Kc Kd"), both2))
    assert len(game2.table) == 4


def test_V11_free_jokers_option() -> None:
    game = VatikanenGame.from_position(["5c 5d 2h", "3c"], ["6h 7h 8h 9h *"], free_jokers=True)
    game.play(Play(0, cards("5c 5d"), table_of("6h 7h 8h 9h", "5c 5d *")))
    assert table_text(game) == ["6h 7h 8h 9h", "5c 5d *:5"]


def test_V11_joker_meaning_written_explicitly() -> None:
    game = VatikanenGame.from_position(["Jh 2h", "3c"], ["6h 7h 8h 9h *:Th"])
    assert rule_of(game, Play(0, cards("Jh"), table_of("*:5h 6h 7h 8h 9h Jh"))) == "V9"
    game.play(Play(0, cards("Jh"), table_of("6h 7h 8h 9h *:Th Jh")))
    assert table_text(game) == ["6h 7h 8h 9h *:Th Jh"]


def test_V11_group_joker_keeps_its_rank() -> None:
    game = VatikanenGame.from_position(["5h 6c 2h", "3c"], ["5c 5d *"])
    assert table_text(game) == ["5c 5d *:5"]
    assert rule_of(game, Play(0, cards("6c"), table_of("5c 5d", "* 6c"))) == "V9"
    game.play(Play(0, cards("5h"), table_of("5c 5d 5h *")))
    assert table_text(game) == ["5c 5d 5h *:5"]


# ---------------------------------------------------------------- V12 multiset legality


@pytest.mark.parametrize("new", [("4h 5h 6h 7h 8h 9h Th",), ("4h 5h 6h", "7h 8h 9h Th")])
def test_V12_any_arrangement_of_the_same_cards(new: tuple[str, ...]) -> None:
    game = VatikanenGame.from_position(["Th 2c", "3c"], ["4h 5h 6h 7h 8h 9h"])
    game.play(Play(0, cards("Th"), table_of(*new)))
    assert table_text(game) == list(new)


def test_V12_engine_finds_a_rearrangement() -> None:
    game = VatikanenGame.from_position(["8c Tc 2h", "3c"], ["9h 9d 9s 9c", "Jc Qc Kc"])
    game.play(Play(0, cards("8c Tc")))
    assert sorted(table_text(game)) == ["8c 9c Tc Jc Qc Kc", "9d 9h 9s"]
    game.check_invariants()


def test_V12_engine_refuses_when_no_arrangement_exists() -> None:
    game = VatikanenGame.from_position(["8c 2h", "3c"], ["9h 9d 9s 9c", "Jc Qc Kc"])
    assert rule_of(game, Play(0, cards("8c"))) == "V9"


# ---------------------------------------------------------------- V13 going out


def test_V13_card_values() -> None:
    values = [vatikanen_value(c) for c in parse_cards("* As Ks Qs Js Ts 9s 2s")]
    assert values == [25, 15, 10, 10, 10, 10, 9, 2]


def test_V13_first_out_wins_and_is_paid() -> None:
    game = VatikanenGame.from_position(["7h 8h 9h", "* As Kd 5c", "2c 3c"])
    event = game.play(Play(0, cards("7h 8h 9h"), table_of("7h 8h 9h")))
    assert game.over and game.to_act is None and event.end is not None
    assert event.end.reason == "out" and event.end.winners == (0,)
    assert game.balances == (Fraction(60), Fraction(-55), Fraction(-5))
    assert rule_of(game, Draw(1)) == "V13"
    assert game.view(1)["end"]["payments"] == [60, -55, -5]


# ---------------------------------------------------------------- V14 empty stock


def empty_stock(hands: list[str], n_table: int = 2, **options: bool) -> VatikanenGame:
    table = ["As 2s 3s", "5c 6c 7c"][:n_table]
    return VatikanenGame.from_position(hands, table, stock="", **options)


def test_V14_pass_only_with_empty_stock() -> None:
    game = VatikanenGame(2, seed=1)
    assert rule_of(game, Pass(0)) == "V14"
    game2 = empty_stock(["Kd", "4c 9d", "Jd Qd"])
    assert rule_of(game2, Draw(0)) == "V14"
    game2.pass_turn(Pass(0))
    assert game2.to_act == 1 and not game2.over


def test_V14_play_still_allowed_with_empty_stock() -> None:
    game = empty_stock(["Kd", "4c 9d", "Jd Qd"])
    game.pass_turn(Pass(0))
    game.play(Play(1, cards("4c"), table_of("As 2s 3s", "4c 5c 6c 7c")))
    assert game.passes_in_row == 0
    game.pass_turn(Pass(2))
    game.pass_turn(Pass(0))
    assert not game.over  # the play broke the succession of passes


# ---------------------------------------------------------------- V15 blocked game


def pass_round(game: VatikanenGame) -> None:
    for _ in range(game.n_players):
        seat = game.to_act
        assert seat is not None
        game.pass_turn(Pass(seat))


def test_V15_lowest_hand_wins_the_differences() -> None:
    game = empty_stock(["Kd", "4c 9d", "Jd Qd"])
    pass_round(game)
    assert game.over and game.end is not None and game.end.reason == "blocked"
    assert game.end.winners == (0,) and game.end.hand_values == (10, 13, 20)
    assert game.balances == (13, -3, -10)


def test_V15_tied_winners_share() -> None:
    game = empty_stock(["Kd", "Td", "Jd Qd"])
    pass_round(game)
    assert game.end is not None and game.end.winners == (0, 1)
    assert game.balances == (5, 5, -10)


def test_V15_split_payment_in_thirds() -> None:
    game = empty_stock(["Kd", "Td", "Qd", "Jd 2c"])
    pass_round(game)
    third = Fraction(2, 3)
    assert game.balances == (third, third, third, -2)
    assert sum(game.balances) == 0
    assert game.spectator_view()["balances"] == [float(third)] * 3 + [-2]


def test_V15_option_off_ends_without_a_winner() -> None:
    game = empty_stock(["Kd", "4c 9d", "Jd Qd"], blocked_game=False)
    pass_round(game)
    assert game.over and game.end is not None and game.end.reason == "no_winner"
    assert game.balances == (0, 0, 0)
    assert rule_of(game, Pass(0)) == "V15"


# ---------------------------------------------------------------- V16 sessions


def draw_then_pass(game: VatikanenGame) -> None:
    while (seat := game.to_act) is not None:
        game.apply(Draw(seat) if game.stock_size else Pass(seat))


def test_V16_balances_carry_over_zero_sum() -> None:
    session = Session(["Ann", "Bo", "Cy"], seed=9)
    assert session.game.dealer == 2 and session.game.to_act == 0
    with pytest.raises(RuleError) as info:
        session.next_part()
    assert info.value.rule == "V16"
    totals = [Fraction(0)] * 3
    for k in range(3):
        game = session.game
        assert game.dealer == (2 + k) % 3 and game.number == k + 1
        draw_then_pass(game)
        assert game.end is not None
        totals = [t + p for t, p in zip(totals, game.end.payments, strict=True)]
        assert list(session.balances) == totals and sum(session.balances) == 0
        if k < 2:
            session.next_part()
    record = session.to_record()
    assert len(record.deals) == 3
    result = replay(record)
    assert result.ok and result.deals == 3
    assert list(result.scores) == [float(t) if t.denominator > 1 else int(t) for t in totals]
    assert session.game.view(0)["balances"] == list(result.scores)


def test_V16_sessions_are_reproducible() -> None:
    a, b = Session(4, seed=3), Session(4, seed=3)
    assert a.game.deck == b.game.deck


def test_V11_group_joker_freed_by_a_real_card_of_its_rank() -> None:
    # A group joker stands for "a 5"; any real 5 on the new table can free it (V12).
    game = VatikanenGame.from_position(["6h 7h 2c", "3c"], ["5c 5d 5s *"])
    game.play(Play(0, cards("6h 7h"), table_of("5c 5d 5s", "* 6h 7h")))
    assert sorted(table_text(game)) == ["*:5h 6h 7h", "5c 5d 5s"]


def test_V11_each_freed_joker_needs_its_own_real_card() -> None:
    table = ["5c 5d 5s *", "8s 9s Ts *:Js"]
    game = VatikanenGame.from_position(["6h 7h Js 2c", "3c"], table)
    no_js = table_of("5c 5d 5s", "* 6h 7h *", "8s 9s Ts")
    assert rule_of(game, Play(0, cards("6h 7h"), no_js)) == "V11"
    with_js = table_of("5c 5d 5s", "* 6h 7h *", "8s 9s Ts Js")
    game.play(Play(0, cards("6h 7h Js"), with_js))
    assert "*:5h 6h 7h *:8h" in table_text(game)


def test_V7_opening_table_names_the_run_in_order() -> None:
    game = VatikanenGame.from_position(["7h 9h * 2c", "3c"], opened=[False, False])
    assert rule_of(game, Play(0, cards("7h 9h *"), table_of("7h 9h *"))) == "V7"
    game.play(Play(0, cards("7h 9h *"), table_of("7h * 9h")))
    assert table_text(game) == ["7h *:8h 9h"]


def test_V7_the_log_marks_each_players_opening_play() -> None:
    game = VatikanenGame(3, seed=4)
    bots = [make_bot("vatikanen", "greedy", seed=s) for s in range(3)]
    plays: dict[int, list[bool]] = {0: [], 1: [], 2: []}
    while (seat := game.to_act) is not None:
        event = game.apply(bots[seat].choose(game.view(seat)))
        if isinstance(event.action, Play):
            plays[seat].append(event.opening)
            assert game.spectator_view()["log"][-1]["opening"] is event.opening
    for marks in plays.values():
        if marks:
            assert marks[0] is True and not any(marks[1:])
    assert any(plays.values())
