"""Vatikanen puzzles (issue 43): made from a seat's view, re-solved, every best answer
accepted, a smaller legal answer told how many more, illegal ones told the rule, and
nothing in a puzzle its seat could not see."""

from __future__ import annotations

import fnmatch
import random
import time
import tomllib
from pathlib import Path

import pytest

from rummykit import games, solver
from rummykit.cards import Card
from rummykit.melds import VATIKANEN
from rummykit.puzzles import Puzzle, bot_records, check, from_record, load, shipped, write
from rummykit.puzzles.analysis import best_answers, obvious_most
from rummykit.puzzles.kind import kind_of
from rummykit.puzzles.maker import from_position
from test_review_secrecy import hidden_all_deal, swapped

ROOT = Path(__file__).resolve().parents[1]


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def melds(text: str) -> list[list[Card]]:
    return [cards(m) for m in text.split("|")]


def resolved(puzzle: Puzzle) -> None:
    """The solver finds the puzzle as it is stored: the most cards, the count of best
    answers, the stored answer among them, and the obvious play falling short."""
    table, hand = puzzle.melds(), puzzle.cards()
    found = solver.best_play(table, hand, rules=VATIKANEN, free_jokers=puzzle.free_jokers)
    assert found is not None and found.count == puzzle.best, puzzle.id
    answers = best_answers(table, hand, puzzle.best, free_jokers=puzzle.free_jokers, limit=100)
    assert len(answers) == puzzle.answers, puzzle.id
    stored = tuple(sorted((Card.parse(c) for c in puzzle.solution_add), key=str))
    assert stored in answers, puzzle.id
    assert obvious_most(table, hand) == puzzle.obvious < puzzle.best, puzzle.id
    marks = [m for row in puzzle.solution_marks for m in row]
    assert [len(r) for r in puzzle.solution_marks] == [len(m) for m in puzzle.solution_table]
    assert (marks.count("hand"), marks.count("moved")) == (puzzle.best, puzzle.moved)
    written = [[Card.parse(c) for c in m] for m in puzzle.solution_table]
    verdict = check(puzzle, [Card.parse(c) for c in puzzle.solution_add], written)
    assert verdict.right, (puzzle.id, verdict)


# ------------------------------------------------------------------ the shipped set


def test_the_shipped_set_has_2000_puzzles_from_easy_to_hard() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 2000
    assert len({p.id for p in puzzles}) == len(puzzles)
    ratings = sorted(p.rating for p in puzzles)
    assert ratings[len(ratings) // 10] <= 1000 and ratings[-len(ratings) // 10] >= 1600
    for theme in ("goes-out", "joker", "split", "rearrange"):
        assert any(p.theme == theme for p in puzzles), theme
    assert all(p.game == "vatikanen" and p.opened for p in puzzles)


def test_a_seeded_sample_of_shipped_puzzles_is_re_solved_as_stored() -> None:
    for puzzle in random.Random(43).sample(shipped(), 100):
        resolved(puzzle)


@pytest.mark.slow
def test_every_shipped_puzzle_is_re_solved_as_stored() -> None:
    for puzzle in shipped():
        resolved(puzzle)


def test_the_shipped_set_is_in_the_wheel() -> None:
    """pyproject's package-data takes the shipped files into the wheel."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["rummykit"]
    for name in (kind_of(game).shipped for game in games.names()):
        path = f"puzzles/data/{name}"
        assert (ROOT / "src" / "rummykit" / path).is_file()
        assert any(fnmatch.fnmatch(path, p) for p in patterns), path


def test_a_puzzle_file_round_trips(tmp_path: Path) -> None:
    some = list(shipped()[:25])
    assert write(some, tmp_path / "p.jsonl.gz") == 25
    assert load(tmp_path / "p.jsonl.gz") == some
    write(some, tmp_path / "p.jsonl")
    assert load(tmp_path / "p.jsonl") == some


# ------------------------------------------------------------------ checking answers

V9_EXAMPLE = "Tc Th Th Ts | 7s 8s 9s"
"""RULES.md V9's own example: the spade ten moves to the run."""


def test_the_v9_example_is_a_puzzle_that_needs_the_table_rearranged() -> None:
    puzzle = from_position([[str(c) for c in m] for m in melds(V9_EXAMPLE)], ["Js", "Qs", "5d"])
    assert puzzle is not None
    assert (puzzle.best, puzzle.answers, puzzle.obvious, puzzle.moved) == (2, 1, 0, 1)
    assert puzzle.theme == "rearrange"
    assert sorted(puzzle.solution_add) == ["Js", "Qs"]


def test_a_best_answer_that_is_not_the_stored_one_is_accepted() -> None:
    many = [p for p in shipped() if p.answers > 1][:5]
    assert many
    for puzzle in many:
        table, hand = puzzle.melds(), puzzle.cards()
        answers = best_answers(table, hand, puzzle.best, free_jokers=puzzle.free_jokers)
        stored = tuple(sorted((Card.parse(c) for c in puzzle.solution_add), key=str))
        other = next(a for a in answers if a != stored)
        assert check(puzzle, other).right  # the table arranged for the player
        laid = solver.arrange_play(table, other, rules=VATIKANEN)
        assert laid is not None
        assert check(puzzle, other, [list(m.cards) for m in reversed(laid)]).right


def test_a_legal_but_smaller_answer_is_refused_with_how_many_more() -> None:
    puzzle = from_position([[str(c) for c in m] for m in melds(V9_EXAMPLE)], ["Js", "Qs", "5d"])
    assert puzzle is not None
    verdict = check(puzzle, cards("Js"))
    assert (verdict.right, verdict.legal, verdict.laid, verdict.more) == (False, True, 1, 1)
    for p in random.Random(5).sample(shipped(), 10):
        answer = [Card.parse(c) for c in p.solution_add]
        for k in range(len(answer)):
            fewer = answer[:k] + answer[k + 1 :]
            if fewer and solver.can_arrange_play(p.melds(), fewer, rules=VATIKANEN):
                verdict = check(p, fewer)
                assert (verdict.right, verdict.legal, verdict.more) == (False, True, 1)
                break


def test_an_illegal_answer_names_the_rule() -> None:
    puzzle = from_position([[str(c) for c in m] for m in melds(V9_EXAMPLE)], ["Js", "Qs", "5d"])
    assert puzzle is not None
    assert check(puzzle, cards("Kd")).rule == "V4"  # not in the hand
    assert check(puzzle, cards("Js Js")).rule == "V4"  # one copy held
    assert check(puzzle, []).rule == "V4"
    assert check(puzzle, cards("5d")).rule == "V9"  # fits nowhere
    wrong = melds("Tc Th Th Ts | 7s 8s 9s Js")  # a run with a gap
    verdict = check(puzzle, cards("Js"), wrong)
    assert (verdict.right, verdict.rule) == (False, "V9")
    lost = melds("Tc Th Th | 7s 8s 9s Ts Js")  # fine, the ten moved
    assert check(puzzle, cards("Js"), lost).legal


def test_a_table_joker_that_is_not_freed_is_refused_by_v11() -> None:
    puzzle = from_position([["5h", "*:6h", "7h"], ["9c", "9d", "9s"]], ["6h", "3c", "4c"])
    assert puzzle is not None and puzzle.theme == "goes-out" and "joker" in puzzle.themes
    assert check(puzzle, cards("6h 3c 4c")).right
    assert check(puzzle, cards("3c 4c")).rule == "V9"  # no room for them
    end = from_position([["*:4h", "5h", "6h", "7h"]], ["3c", "4c", "4h"])
    assert end is not None and end.best == 3 and "joker" in end.themes
    assert check(end, cards("3c 4c")).rule == "V11"  # the joker is still the 4h


# ------------------------------------------------------------------ secrecy


def test_a_puzzle_holds_only_what_its_seat_saw() -> None:
    """Swap cards the seat never saw in a deal (other hands, the stock): its puzzles stay
    the same (as the review's swap test, tests/test_review_secrecy.py)."""
    spec = games.get("vatikanen")
    made = swaps = 0
    for record in bot_records(4, seed=11):
        rng = random.Random(len(record.players))
        for seat in range(len(record.players)):
            mine = [p.to_json() for p in from_record(record, seat=seat)]
            made += len(mine)
            unseen = sorted(hidden_all_deal(spec, record, 0, seat))
            deck = record.deals[0].deck
            a = rng.choice(unseen)
            b = rng.choice([x for x in unseen if deck[x] != deck[a]])
            twin = swapped(record, 0, a, b)
            assert [p.to_json() for p in from_record(twin, seat=seat)] == mine
            swaps += 1
    assert made > 0 and swaps > 0


def test_the_swap_test_catches_a_maker_that_peeks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A maker that read the stock would be caught by the test above."""
    from rummykit.games.vatikanen.game import VatikanenGame
    from rummykit.puzzles import maker

    honest = VatikanenGame.view

    def peeking(self: VatikanenGame, seat: int | None = None, **kw: bool) -> dict[str, object]:
        view = dict(honest(self, seat, **kw))
        if self.stock_size:
            view["hand"] = [*view["hand"], str(self.deck[max(self._stock)])]  # type: ignore[list-item]
        return view

    record = next(bot_records(1, seed=12))
    spec = games.get("vatikanen")
    monkeypatch.setattr(VatikanenGame, "view", peeking)
    seat = 0
    mine = [p.to_json() for p in maker.from_record(record, seat=seat)]
    unseen = sorted(hidden_all_deal(spec, record, 0, seat))
    stock_top = max(unseen)
    deck = record.deals[0].deck
    other = next(x for x in unseen if deck[x] != deck[stock_top])
    twin = swapped(record, 0, stock_top, other)
    assert [p.to_json() for p in maker.from_record(twin, seat=seat)] != mine


def test_making_puzzles_from_records_is_quick() -> None:
    started = time.perf_counter()
    found = [p for r in bot_records(3, seed=3) for p in from_record(r)]
    assert found and time.perf_counter() - started < 30
