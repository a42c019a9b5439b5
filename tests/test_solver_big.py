"""The programme over ranks (:mod:`rummykit.solver.programme`) answers exactly (V5-V12).

It answers Vatikanen, Kontrakt and Rummikub questions with at most two jokers
in play; the split search (and the joint programme) are the reference here,
the brute force and the ILP in ``test_solver_oracle.py`` / ``test_solver_ilp.py``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rummykit import solver
from rummykit.bots import vatikanen_strong
from rummykit.bots.sampling import sample_vatikanen, vatikanen_unseen
from rummykit.cards import Card, parse_cards
from rummykit.games.vatikanen import VatikanenGame as Game
from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, Meld, MeldRules, read_meld
from rummykit.solver import arrange_play, best_play, can_arrange_play, programme
from rummykit.solver.counts import RUN_STATES, SUITS, Counts, TooHard
from rummykit.solver.dp import solve
from rummykit.solver.model import configure, forced_cards, freeing_cases, position_from
from rummykit.solver.programme import cards as codes
from rummykit.solver.programme import layout, state, tables
from rummykit.solver.programme.question import SEARCH_SIZES
from rummykit.solver.split import split_search
from solver_oracle import assert_valid_meld
from solver_positions import random_position

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import positions as full_positions
from record_positions import read

RULES = {"vatikanen": VATIKANEN, "kontrakt": KONTRAKT, "rummikub": RUMMIKUB}


def _questions(rules: MeldRules, seed: str, n: int) -> list[tuple[list[Meld], list[Card], bool]]:
    """Small tables and full ones, hands of 1-14, 0-2 jokers, free jokers now and then.

    (With three jokers in play, Kontrakt's, the split search answers: not asked here.)
    """
    rng = random.Random(seed)
    out: list[tuple[list[Meld], list[Card], bool]] = []
    i = 0
    while len(out) < n:
        i += 1
        if i % 2:
            table, hand = random_position(
                rng, rules, melds=rng.randint(0, 14), hand=rng.randint(1, 14)
            )
        else:
            size = rng.choice((0, 20, 40, 60, 80))
            pos = full_positions.random_position(
                rng, rules, size, rng.randint(1, 14), jokers=rng.randint(0, 2)
            )
            table, hand = list(pos.table), list(pos.hand)
        jokers = sum(c.is_joker for c in hand) + sum(c.is_joker for m in table for c in m.cards)
        free = rng.random() < 0.3
        if jokers <= 2:
            out.append((table, hand, free))
    return out


def _value(play: solver.Play | None) -> tuple[int, int] | None:
    return None if play is None else (play.count, play.points)


@pytest.mark.parametrize("name", list(RULES))
@pytest.mark.parametrize("objective", ["cards", "points"])
def test_V12_compiled_answers_equal_the_split_search_in_value(
    name: str, objective: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RULES[name]
    questions = _questions(rules, f"big-{name}-{objective}", 80)
    fast = [
        best_play(t, h, rules=rules, objective=objective, free_jokers=f)  # type: ignore[arg-type]
        for t, h, f in questions
    ]
    monkeypatch.setattr(programme, "ask", lambda *a, **k: None)  # the paths in Python
    slow = [
        best_play(t, h, rules=rules, objective=objective, free_jokers=f)  # type: ignore[arg-type]
        for t, h, f in questions
    ]
    assert [_value(p) for p in fast] == [_value(p) for p in slow]
    for (table, _hand, _f), play in zip(questions, fast, strict=True):
        if play is None:
            continue
        for meld in play.table:
            assert_valid_meld(meld, rules)
        new = Counter(c.plain() for m in play.table for c in m.cards)
        old = Counter(c.plain() for m in table for c in m.cards)
        assert new == old + Counter(c.plain() for c in play.cards)


def _cases(table: list[Meld], hand: list[Card], rules: MeldRules, free: bool) -> list[Counts]:
    pos = position_from(table, hand, free_jokers=free)
    out = []
    for fr, cp in freeing_cases(pos):
        if cp is None:
            continue
        configure(cp, rules, "cards")
        forced = forced_cards(pos, fr)
        cp.base = sum(forced[r][s] * cp.weight[r] for r in range(14) for s in range(SUITS))
        out.append(cp)
    return out


def _mirrored(cp: Counts) -> Counts:
    """The question with the run positions counted from the other end (the same value)."""

    def m(rank: int) -> int:
        if cp.ace_high:
            return rank if rank <= 1 else 15 - rank
        return 0 if rank == 0 else 14 - rank

    out = Counts(**{f: getattr(cp, f) for f in cp.__slots__})  # type: ignore[attr-defined]
    for name in ("mand", "opt", "fixed", "gmand", "natmin", "weight"):
        grid = getattr(cp, name)
        setattr(out, name, [grid[m(r)] for r in range(14)])
    return out


@pytest.mark.parametrize("name", ["vatikanen", "kontrakt"])
def test_V5_V12_search_from_either_end_finds_the_same_value(name: str) -> None:
    """The search walks the run positions from the bottom; mirrored, it walks them from the
    top, as it does in turn with the first when a question is hard (aces high and low: V5)."""
    rules = RULES[name]
    checked = 0
    for table, hand, free in _questions(rules, f"mirror-{name}", 60):
        for cp in _cases(table, hand, rules, free):
            if not programme.applies(cp):
                continue
            try:
                a = programme.solve(cp)
                b = programme.solve(_mirrored(cp))
            except TooHard:
                continue
            try:
                ref = split_search(cp).run(None)
            except TooHard:
                ref = solve(cp)
            want = None if ref is None else ref.score
            assert a == want
            assert b == want
            checked += 1
    assert checked > 40


def test_search_paused_and_resumed_gives_the_same_answer() -> None:
    """Past its budget a search pauses; called again with a larger one it goes on."""
    free, table, hand = read()[2201]
    (cp,) = _cases(table, hand, VATIKANEN, free)[:1]
    want = programme.solve(cp)
    assert want is not None
    path = programme.last_path()
    budget = 97
    value = programme.search_case(cp, None, budget, resume=False)
    pauses = 0
    while value == -state.NOTHING:
        pauses += 1
        budget += 97
        value = programme.search_case(cp, None, budget, resume=True)
    assert pauses > 3
    assert value + cp.base == want
    assert programme.last_path() == path


@pytest.mark.parametrize("name", list(RULES))
def test_V9_can_arrange_play_answers_as_arrange_play(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(f"can-{name}")
    for table, hand, free in _questions(rules, f"can-{name}", 60):
        add = rng.sample(hand, min(len(hand), rng.randint(1, 3)))
        want = arrange_play(table, add, rules=rules, free_jokers=free) is not None
        assert can_arrange_play(table, add, rules=rules, free_jokers=free) is want
        cards = [tuple(m.cards) for m in table]
        assert can_arrange_play(cards, add, rules=rules, free_jokers=free) is want


def test_V11_a_table_given_as_cards_is_the_table_of_melds() -> None:
    """The bots pass the view's cards of each meld; every joker keeps what it stands for."""
    for free, table, hand in read()[::40]:
        cards = [tuple(m.cards) for m in table]
        assert best_play(cards, hand, free_jokers=free) == best_play(table, hand, free_jokers=free)
    cards = [tuple(parse_cards("4c 5c 6c *:7c"))]
    assert not can_arrange_play(cards, parse_cards("Th Jh"))  # the joker keeps its card
    assert can_arrange_play(cards, parse_cards("Th Jh"), free_jokers=True)


def test_V12_answers_do_not_depend_on_numba() -> None:
    """The same function runs compiled or as plain Python: the same answers to the tie."""
    questions = [(t, h, f) for f, t, h in read()[::97]]
    here = [_text(best_play(t, h, free_jokers=f)) for t, h, f in questions]
    code = (
        "import json, sys; sys.path.insert(0, 'benchmarks'); sys.path.insert(0, 'tests');"
        "from record_positions import read; from test_solver_big import _text;"
        "from rummykit.solver import best_play, programme;"
        "qs = [(t, h, f) for f, t, h in read()[::97]];"
        "assert not programme.compiled();"
        "print(json.dumps([_text(best_play(t, h, free_jokers=f)) for t, h, f in qs]))"
    )
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "RUMMYKIT_PURE_PYTHON": "1"}
    got = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(got.stdout) == here


def _text(play: solver.Play | None) -> str:
    if play is None:
        return "-"
    return " ".join(map(str, play.cards)) + " => " + " | ".join(map(str, play.table))


def test_dominating_states_carry_on_at_least_as_well() -> None:
    table = tables.dominators()
    n = len(RUN_STATES)
    for st, (b1, b2, b3) in enumerate(RUN_STATES):
        for u in table[table[st] : table[st + 1]]:
            a1, a2, a3 = RUN_STATES[u]
            assert a3 >= b3 and a2 + a3 >= b2 + b3 and a1 + a2 + a3 >= b1 + b2 + b3
            assert a1 <= b1 and a1 + a2 <= b1 + b2
    assert table[n] == len(table)


def test_more_than_two_jokers_go_to_the_split_search() -> None:
    """Three jokers in play (Kontrakt's three packs): a run could be jokers only."""
    table = [read_meld(parse_cards("7h 8h *"), KONTRAKT)]
    play = best_play(table, parse_cards("* * 9h"), rules=KONTRAKT)
    assert play is not None and play.count == 3
    assert programme.ask([], codes.codes(parse_cards("* * *")), (0,) * 29, free=False,
                         all_table=False, high=False, layout=True) is None  # fmt: skip


def test_strong_bot_deals_as_sample_vatikanen() -> None:
    """The strong bot counts the unseen cards once per move; its deals are the same."""
    from rummykit.games.vatikanen import Draw

    game = Game(3, seed=4)
    for _ in range(12):
        game.apply(Draw(game.to_act))
    view = game.view(game.to_act)
    unseen = vatikanen_unseen(view)
    for seed in range(5):
        a = vatikanen_strong._sample(view, unseen, random.Random(seed))
        b = sample_vatikanen(view, random.Random(seed))
        assert a == b


def test_V5_spare_jokers_split_a_run_that_spans_every_position() -> None:
    """Two spare jokers and one run from ace to king (Kontrakt, K5): the run splits in two,
    each half takes a joker at the cut (a meld always has room for the spare jokers)."""
    path = [0] * state.MAX_STEPS
    for p in range(1, 14):
        path[(p - 1) * 5 + 2] = 1  # a heart in a run at every position
    scratch = [0] * state.SCRATCH
    for rank in range(1, 14):
        scratch[rank * 4 + 2] = 1  # the table's hearts, ace to king
    out = [0] * state.OUT_SIZE
    case = state.Search(*([0] * n for n in SEARCH_SIZES))
    case.params[:] = [0, 2, 4096, 0, 0, 0, RUN_STATES.index((0, 0, 0)), 0]  # two spare jokers
    question = state.Question([], [0] * 29, [0] * state.INFO)
    layout.lay_out(question, state.Work(path, scratch, out), case, 0)  # as plain Python
    melds = codes.melds_of(out[: out[3]])
    assert out[2] == 2  # both jokers laid
    assert sorted(len(m) for m in melds) == [7, 8]
    for meld in melds:
        assert_valid_meld(meld, KONTRAKT)
    assert sum(c.is_joker for m in melds for c in m.cards) == 2
