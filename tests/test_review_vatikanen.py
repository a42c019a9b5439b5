"""The review of Vatikanen records (rummykit.review): crafted positions by rule id, the
solver's answer on every turn of bot games, and the play it shows."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from review_helpers import BO, RUN5, played
from rummykit import games, solver
from rummykit.cards import parse_cards
from rummykit.games.vatikanen import Play, Session, VatikanenGame
from rummykit.games.vatikanen.table import check_table
from rummykit.melds import VATIKANEN, Meld, read_meld
from rummykit.record import GameRecord, IllegalAction, parse_record
from rummykit.review import review
from rummykit.review.keeping import HAND, MOVED, STAYED, keep_most, marks, shown_play
from rummykit.review.vatikanen import judge

SPEC = games.get("vatikanen")


def position(hand: str, *table: str, opened: bool = True) -> dict[str, object]:
    """Seat 0's view of a two-seat position: ``hand``, the ``table``'s melds."""
    game = VatikanenGame.from_position(
        [hand, "2c 2d 9s Kh Qc 5d"], list(table), opened=[opened, True]
    )
    return dict(game.view(0))


def test_V7_review_finds_a_missed_opening_run() -> None:
    view = position("5h 6h 7h 8h Kc 2d Js", "9c Tc Jc", opened=False)
    judged = judge(view)
    assert judged.best == 4
    assert judged.play is not None
    assert judged.play["add"] == ["5h", "6h", "7h", "8h"]
    assert judged.play["table"] == [["9c", "Tc", "Jc"], ["5h", "6h", "7h", "8h"]]
    assert judged.play["marks"] == [[STAYED] * 3, [HAND] * 4]
    assert judged.play["moved"] == 0
    # once opened, the same hand lays more: the Jack goes onto the clubs run too (V8)
    assert judge(position("5h 6h 7h 8h Kc 2d Jc", "9c Tc Jc")).best == 4


def test_V7_an_opening_is_one_run_only_not_a_group() -> None:
    view = position("5h 5d 5s 9c Kd 2d Js", "9h Th Jh", opened=False)
    assert judge(view).best == 0
    assert judge(view).play is None


def test_judge_refuses_a_spectators_view_it_has_no_seat_to_judge() -> None:
    game = VatikanenGame.from_position(["5h 6h 7h 8h Kc 2d Js", "2c 2d 9s Kh Qc 5d"], ["9c Tc Jc"])
    with pytest.raises(ValueError, match="spectator"):
        judge(game.spectator_view(log=False))
    with pytest.raises(ValueError, match="not a vatikanen view"):
        judge({**game.view(0, log=False), "game": "kontrakt"})


def test_V7_a_missed_opening_in_a_record_counts_its_cards() -> None:
    record = played([RUN5, BO], [{"seat": 0, "type": "draw"}])
    (turn,) = review(record).turns
    assert (turn.seat, turn.kind, turn.played, turn.best, turn.missed) == (0, "draw", 0, 5, ())
    assert review(record).players[0].cards_missed == 5


def test_V9_review_finds_a_missed_rearrangement() -> None:
    # RULES.md V9's example: the Ts moves from the group to the run, the Js follows it
    judged = judge(position("Js 2c", "Tc Th Th Ts", "7s 8s 9s"))
    assert judged.best == 1
    assert judged.play is not None
    table = judged.play["table"]
    assert sorted(map(tuple, table)) == [("7s", "8s", "9s", "Ts", "Js"), ("Tc", "Th", "Th")]
    run = table.index(["7s", "8s", "9s", "Ts", "Js"])
    assert judged.play["marks"][run] == [STAYED, STAYED, STAYED, MOVED, HAND]
    assert judged.play["moved"] == 1


def test_V9_the_play_shown_leaves_alone_what_it_can() -> None:
    # the solver may rebuild every meld; the play shown only grows the hearts run
    judged = judge(position("Th Kd", "7h 8h 9h", "7c 7d 7s", "8c 8d 8s", "Jc Jd Js Jh"))
    assert judged.play is not None
    assert judged.play["moved"] == 0
    assert judged.play["add"] == ["Th"]
    assert ["7h", "8h", "9h", "Th"] in judged.play["table"]


def test_V11_a_freed_joker_counts_as_moved() -> None:
    # the 7h from the hand takes the joker's place; the joker must go on, here to 9c Tc Jc
    judged = judge(position("7h Qc", "6h *:7h 8h", "9c Tc Jc"))
    assert judged.best == 2
    assert judged.play is not None
    assert judged.play["moved"] == 1
    flat = [m for row in judged.play["marks"] for m in row]
    assert flat.count(HAND) == 2 and flat.count(MOVED) == 1


def test_V13_review_finds_a_missed_going_out() -> None:
    # Anna holds thirteen hearts in a row: her opening run (V7) empties her hand (V13)
    hearts = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    record = played([hearts, BO], [{"seat": 0, "type": "draw"}, {"seat": 1, "type": "draw"}])
    result = review(record)
    first = result.turns[0]
    assert (first.played, first.best, first.missed) == (0, 13, ("go_out",))
    assert result.players[0].go_out_missed == 1
    assert result.players[0].best_turns == 0


def test_V13_going_out_by_rearranging_is_found() -> None:
    judged = judge(position("Ts Js", "Tc Th Th Ts", "7s 8s 9s"))
    assert judged.best == 2 and judged.out


def test_V13_a_turn_that_goes_out_misses_nothing() -> None:
    hearts = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    add = hearts.split()
    record = played([hearts, BO], [{"seat": 0, "type": "play", "add": add}])
    (turn,) = review(record).turns
    assert (turn.played, turn.best, turn.missed) == (13, 13, ())
    assert review(record).players[0].best_turns == 1


def test_review_json_is_protocol_md_document() -> None:
    record = played([RUN5, BO], [{"seat": 0, "type": "draw"}])
    doc = review(record).to_json()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["game"] == "vatikanen"
    (turn,) = doc["turns"]
    for key in ("deal", "action", "seat", "played", "best", "best_play", "missed"):
        assert key in turn
    assert turn["best_play"]["type"] == "play"
    (player, other) = doc["players"]
    assert player == {
        "seat": 0,
        "name": "Anna",
        "turns": 1,
        "best_turns": 0,
        "cards_missed": 5,
        "go_out_missed": 0,
    }
    assert other["turns"] == 0


def test_review_of_one_seat_holds_only_its_turns() -> None:
    record = played(
        [RUN5, BO],
        [{"seat": 0, "type": "draw"}, {"seat": 1, "type": "draw"}, {"seat": 0, "type": "draw"}],
    )
    result = review(record, seat=1)
    assert [t.seat for t in result.turns] == [1]
    assert [p.seat for p in result.players] == [1]
    with pytest.raises(ValueError, match="no seat 2"):
        review(record, seat=2)


def test_review_stops_at_an_illegal_action_like_replay() -> None:
    record = played([RUN5, BO], [])
    bad = record.to_json()
    bad["deals"][0]["actions"] = [{"seat": 1, "type": "draw"}]
    with pytest.raises(IllegalAction) as info:
        review(parse_record(bad))
    assert (info.value.deal, info.value.action, info.value.rule) == (0, 0, "V4")


# ---------------------------------------------------------------- the play shown


def test_marks_match_melds_one_to_one_for_the_fewest_moved() -> None:
    old = [read_meld(parse_cards(t), VATIKANEN) for t in ("7c 7d 7h", "7s 7c 7d")]
    new = [read_meld(parse_cards("7c 7c 7d 7d 7h 7s 7h"), VATIKANEN)]
    marked = marks(old, new, parse_cards("7h"))
    assert marked.moved == 3  # two groups became one: one of them moved whole
    assert marked.rows[0].count(HAND) == 1
    assert marked.whole == frozenset()


def test_V11_the_play_shown_is_not_always_the_one_keeping_the_largest_meld() -> None:
    # keeping the five-card clubs run whole would move eleven cards to lay Qd Kh (both
    # diamond runs and 8s 9s Ts broken into groups); taking its
    # joker (*:Jc) into the jacks moves three
    table = [
        read_meld(parse_cards(t), VATIKANEN)
        for t in (
            "7c 8c *:9c Tc *:Jc",
            "8d 9d Td",
            "9d Td Jd",
            "8s 9s Ts",
            "Ad As As",
            "5c 5c 5h 5s 5s",
            "8h 8h 8s",
            "Tc Th Th",
            "Jh Jh Js",
            "Qc Qd Qh",
        )
    ]
    hand = parse_cards("Kh 6d 4s Ks 3h 4s 7c 2c Qd")
    found = solver.best_play(table, hand)
    assert found is not None and found.count == 2
    largest = keep_most(table, hand, 2)
    assert largest is not None
    assert marks(table, largest.table, largest.add).moved == 11
    shown, marked = shown_play(table, hand, found)
    assert marked.moved == 3
    check_table(table, shown.add, [m.cards for m in shown.table])


def test_keep_most_lays_the_solvers_count_on_a_legal_table() -> None:
    table = [read_meld(parse_cards(t), VATIKANEN) for t in ("Tc Th Th Ts", "7s 8s 9s")]
    hand = parse_cards("Js Qs 2c")
    best = solver.best_play(table, hand)
    assert best is not None
    shown = keep_most(table, hand, best.count)
    assert shown is not None and len(shown.add) == best.count == 2
    check_table(table, shown.add, [m.cards for m in shown.table])


# ---------------------------------------------------------------- bot games


def bot_record(seed: int) -> tuple[GameRecord, int]:
    n = 2 + seed % 4
    game = SPEC.new(n, seed=seed, options={"free_jokers": seed % 5 == 4})
    bots = [SPEC.make_bot(("greedy", "random")[s % 2], seed * 10 + s) for s in range(n)]
    while (s := game.to_act) is not None:
        game.apply(bots[s].choose(game.view(s)))
    return game.to_record(), n


def check_against_engine(record: GameRecord) -> int:
    """Every turn's ``best`` is the solver's best play for that seat then, asked by the
    engine on its own state; the play shown is legal and lays it. Returns the turns."""
    result = review(record)
    (deal,) = record.deals
    game = SPEC.from_record(replace(record, deals=(replace(deal, actions=()),), result=None))
    assert isinstance(game, Session)
    assert len(result.turns) == len(deal.actions)
    for turn, raw in zip(result.turns, deal.actions, strict=True):
        seat, inner = turn.seat, game.game
        best = inner.best_play(seat)
        assert turn.best == (0 if best is None else len(best.add))
        assert 0 <= turn.played <= turn.best
        out = turn.best == len(inner.hand(seat))
        assert ("go_out" in turn.missed) == (out and turn.played < turn.best)
        if turn.best_play is not None:
            shown = SPEC.action_from_json(turn.best_play)
            assert isinstance(shown, Play) and len(shown.add) == turn.best
            game.copy().apply(shown)  # the engine takes it
            if best is not None and best.table is not None and inner.opened(seat):
                solved = [read_meld(m, VATIKANEN) for m in best.table]
                moved = marks(list(inner.table), solved, best.add).moved
                assert turn.best_play["moved"] <= moved  # never more than the solver's own
        game.apply(SPEC.action_from_json(raw))
    return len(deal.actions)


@pytest.mark.parametrize("block", range(6))
def test_review_equals_the_solver_on_every_turn_of_bot_games(block: int) -> None:
    seeds = range(block * 15, block * 15 + 15)
    assert sum(check_against_engine(bot_record(seed)[0]) for seed in seeds) > 300


@pytest.mark.slow
@pytest.mark.parametrize("block", range(20))
def test_review_equals_the_solver_on_every_turn_of_many_bot_games(block: int) -> None:
    for seed in range(1000 + block * 15, 1000 + block * 15 + 15):
        check_against_engine(bot_record(seed)[0])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_review_never_puts_best_below_played(seed: int) -> None:
    record, _ = bot_record(seed)
    for turn in review(record).turns:
        assert 0 <= turn.played <= turn.best
        assert (turn.best_play is None) == (turn.best == 0)


def melds(*texts: str) -> list[Meld]:
    return [read_meld(parse_cards(t), VATIKANEN) for t in texts]


def test_marks_a_card_whose_meld_broke_up_as_moved_even_into_a_meld_of_its_suit() -> None:
    # Q K A of diamonds is broken up: its ace now ends A 2 3, in another place of another
    # run; it left its meld as much as the queen and the king did
    old = melds("Qd Kd Ad", "Qc Qh Qs", "Kc Kh Ks")
    new = melds("Ad 2d 3d", "Qc Qd Qh Qs", "Kc Kd Kh Ks")
    marked = marks(old, new, parse_cards("2d 3d"))
    assert marked.rows == [
        [MOVED, HAND, HAND],
        [STAYED, MOVED, STAYED, STAYED],
        [STAYED, MOVED, STAYED, STAYED],
    ]
    assert marked.moved == 3


def test_marks_a_group_card_that_went_into_a_run_as_moved() -> None:
    old = melds("8c 8d *:8", "9d Td Jd")
    new = melds("8c 9c *:Tc Jc", "8d 9d Td Jd")
    marked = marks(old, new, parse_cards("9c Jc"))
    assert marked.rows == [[MOVED, HAND, MOVED, HAND], [MOVED, STAYED, STAYED, STAYED]]
    assert marked.moved == 3
    assert marked.was == ((0, 2, "*:8"),)  # the joker stood for an 8, now for 10♣


def test_a_joker_that_keeps_what_it_stands_for_has_no_was() -> None:
    old = melds("6h *:7h 8h 9h", "9c Tc Jc")
    new = melds("6h *:7h 8h", "9h 9c 9s")
    marked = marks(old, new, parse_cards("9s"))
    assert marked.was == ()
    assert marked.rows[0] == [STAYED, STAYED, STAYED]


def test_V11_a_joker_that_now_stands_for_another_card_says_what_it_stood_for() -> None:
    judged = judge(position("7h Qc", "6h *:7h 8h", "9c Tc Jc"))
    assert judged.play is not None
    (meld, place, was) = judged.play["was"][0]
    assert was == "*:7h"
    assert judged.play["table"][meld][place].startswith("*:")
    assert judged.play["table"][meld][place] != "*:7h"


def test_marks_agree_with_the_tables_before_and_after_on_every_turn_of_a_bot_game() -> None:
    # every card marked as staying lies in one old meld at the same place, each new meld
    # keeps cards of one old meld only; the hand cards are the cards laid
    game = SPEC.new(["Anna", "Bo"], seed=0)
    bots = [SPEC.make_bot(level, s) for s, level in enumerate(["random", "greedy"])]
    before: list[list[list[str]]] = []
    while (seat := game.to_act) is not None:
        before.append(dict(game.view(seat))["table"])
        game.apply(bots[seat].choose(game.view(seat)))
    checked = 0
    for turn in review(game.to_record()).turns:
        play = turn.best_play
        if play is None or "marks" not in play:
            continue
        old = melds(*(" ".join(m) for m in before[turn.action]))
        new = melds(*(" ".join(m) for m in play["table"]))
        flat = [m for row in play["marks"] for m in row]
        assert flat.count(HAND) == len(play["add"])
        assert flat.count(MOVED) == play["moved"]
        for meld, row in zip(new, play["marks"], strict=True):
            places = {
                (str(c), meld.start + j if meld.kind.value == "run" else 0)
                for j, (c, mark) in enumerate(zip(meld.cards, row, strict=True))
                if mark == STAYED
            }
            if not places:
                continue
            homes = [
                o
                for o in old
                if places
                <= {
                    (str(c), o.start + j if o.kind.value == "run" else 0)
                    for j, c in enumerate(o.cards)
                }
            ]
            assert homes, (turn.action, meld, row, before[turn.action])
            checked += 1
    assert checked > 20
