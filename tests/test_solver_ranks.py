"""The rank programme answers Rummikub cases exactly (V9, V11, V12).

Under rules with groups of distinct suits (the ``rummikub`` preset) the cases
the programme over ranks declines go to :mod:`rummykit.solver.rank_kernel`: a
depth-first search, then past its budget a breadth-first one (or the split
search on full tables). Both searches are checked here against the split
search, the reference, and the groups' automaton against the direct check.
"""

from __future__ import annotations

import importlib
import itertools
import random

import pytest

from rummykit.cards import Card, parse_cards
from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, classify
from rummykit.solver import best_play, groups, programme
from rummykit.solver import rank_kernel as ranks
from rummykit.solver.counts import RUN_STATES, SUITS, Counts, TooHard
from rummykit.solver.dp import solve
from rummykit.solver.model import configure, forced_cards, freeing_cases, position_from
from rummykit.solver.split import split_search
from solver_positions import random_position, random_positions

np = pytest.importorskip("numpy", reason="the programme over ranks needs numpy and numba")
rank_search = importlib.import_module("rummykit.solver.rank_search")  # needs numpy
pytestmark = pytest.mark.skipif(
    not ranks.AVAILABLE, reason="the programme over ranks needs numba (pip install -e '.[fast]')"
)


def _cases(table: list, hand: list[Card], objective: str, free: bool) -> list[Counts]:
    pos = position_from(table, hand, free_jokers=free)
    out = []
    for fr, cp in freeing_cases(pos):
        if cp is None:
            continue
        configure(cp, RUMMIKUB, objective)
        forced = forced_cards(pos, fr)
        cp.base = sum(forced[r][s] * cp.weight[r] for r in range(14) for s in range(SUITS))
        out.append(cp)
    return out


def _reference(cp: Counts) -> int | None:
    try:
        sol = split_search(cp).run(None)
    except TooHard:  # the split search hands some positions to the joint programme
        sol = solve(cp)
    return None if sol is None else sol.score


@pytest.mark.parametrize("search", ["depth", "breadth"])
@pytest.mark.parametrize("objective", ["cards", "points"])
def test_V12_rank_programme_matches_the_split_search(
    objective: str, search: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if search == "breadth":  # the depth-first search gives up at once
        monkeypatch.setattr(ranks, "DEPTH_BUDGET", 0)
    rng = random.Random(f"ranks-{objective}")
    for _ in range(50):
        table, hand = random_position(
            rng, RUMMIKUB, melds=rng.randint(0, 14), hand=rng.randint(4, 14)
        )
        for cp in _cases(table, hand, objective, free=rng.random() < 0.3):
            assert ranks.applies(cp)
            try:
                got = ranks.solve(cp)
            except TooHard:
                assert search == "breadth" and sum(map(sum, cp.mand)) > ranks.BREADTH_TABLE
                continue
            assert (None if got is None else got.score) == _reference(cp)


@pytest.mark.parametrize("budget", [ranks.DEPTH_BUDGET, 0])
def test_V12_rank_programme_floor_keeps_only_better_answers(
    budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ranks, "DEPTH_BUDGET", budget)
    rng = random.Random("ranks-floor")
    checked = 0
    for _ in range(40):
        table, hand = random_position(rng, RUMMIKUB, melds=rng.randint(2, 10), hand=10)
        for cp in _cases(table, hand, "cards", free=False):
            best = ranks.solve(cp)
            if best is None:
                continue
            assert ranks.solve(cp, floor=best.score) is None
            again = ranks.solve(cp, floor=best.score - 1)
            assert again is not None and again.score == best.score
            checked += 1
    assert checked > 20


def test_V11_V12_best_play_under_rummikub_rules_is_a_valid_table() -> None:
    rng = random.Random("ranks-valid")
    for _ in range(60):
        table, hand = random_position(rng, RUMMIKUB, melds=rng.randint(0, 12), hand=12)
        play = best_play(table, hand, rules=RUMMIKUB)
        if play is None:
            continue
        for meld in play.table:
            assert classify([c.plain() for c in meld.cards], RUMMIKUB) is not None
        before = sorted(str(c.plain()) for m in table for c in m.cards)
        after = sorted(str(c.plain()) for m in play.table for c in m.cards)
        assert after == sorted(before + [str(c) for c in play.cards])


def test_V12_rank_programme_answers_equal_the_split_search_in_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without numba the split search answers: the same count and points (ties may differ)."""
    positions = random_positions("ranks-fallback", RUMMIKUB, 60, melds=12, hand=12)
    monkeypatch.setattr(programme, "ask", lambda *a, **k: None)  # past the first path
    fast = [best_play(t, h, rules=RUMMIKUB) for t, h in positions]
    monkeypatch.setattr(ranks, "AVAILABLE", False)
    slow = [best_play(t, h, rules=RUMMIKUB) for t, h in positions]
    value = [None if p is None else (p.count, p.points) for p in fast]
    assert value == [None if p is None else (p.count, p.points) for p in slow]


@pytest.mark.parametrize(
    ("sizes", "jokers", "fits"),
    [
        ((1, 1, 1, 0), 0, True),
        ((1, 1, 0, 0), 0, False),
        ((1, 1, 0, 0), 1, True),
        ((2, 1, 1, 0), 0, False),  # two of a suit need two groups: six cards at least
        ((2, 2, 1, 1), 0, True),
        ((1, 1, 1, 1), 1, False),  # five cards: too many for one group, too few for two
        ((1, 1, 1, 1), 2, True),
        ((2, 2, 2, 2), 0, True),
        ((3, 1, 1, 1), 2, False),  # three groups need nine cards
        ((3, 2, 1, 1), 2, True),
        ((0, 0, 0, 0), 1, False),
    ],
)
def test_V6_group_check_of_distinct_suits(sizes: tuple[int, ...], jokers: int, fits: bool) -> None:
    assert groups.group_fits(sizes, jokers, 4) is fits


def test_rank_programme_applies_only_to_distinct_suit_groups_and_two_jokers() -> None:
    table, hand = [], parse_cards("3h 4h 5h * *")
    (cp,) = _cases(table, hand, "cards", free=True)
    assert ranks.applies(cp)
    cp.wild_opt = 3
    assert not ranks.applies(cp)
    for rules in (VATIKANEN, KONTRAKT):
        (other,) = _cases(table, hand, "cards", free=True)
        configure(other, rules, "cards")
        assert not ranks.applies(other)


def test_V12_a_hand_card_no_meld_can_hold_is_left_out_at_once() -> None:
    (cp,) = _cases([], parse_cards("3h 4h 5h Kc"), "cards", free=True)
    ranks.warm()
    cells = np.zeros((14, SUITS, 3), dtype=np.int64)
    cells[:, :, 1] = cp.opt
    rank_search.set_aside(cells, np.array([cp.gmand, cp.natmin, cp.weight]), 0)
    assert cells[13, 0, 1] == 0  # the lone king of clubs
    assert [cells[r, 2, 1] for r in (3, 4, 5)] == [1, 1, 1]
    sol = ranks.solve(cp)
    assert sol is not None and sum(map(sum, sol.run_cards)) == 3


def test_V6_group_automaton_agrees_with_the_group_check() -> None:
    """Suit by suit in any order, the merged classes decide every rank as the check does."""
    step, fits = groups.group_automaton(4)
    values = range(groups.MAX_CELL + 1)
    for sizes in itertools.product(values, repeat=SUITS):
        cls = 0
        for s, g in enumerate(sizes):
            cls = step[s][cls][g] if cls >= 0 else -1
        for jokers in range(2 * groups.MAX_JOKERS + 1):
            want = groups.group_fits(tuple(sorted(sizes)), jokers, 4)
            assert (cls >= 0 and fits[cls][jokers]) is want, (sizes, jokers)


def test_V5_runs_in_progress_are_cut_to_what_the_next_rank_carries() -> None:
    """Short runs must go on (or the branch ends); longer ones past the room end now."""
    trim = ranks.trim_table()
    index = {st: i for i, st in enumerate(RUN_STATES)}
    assert trim[index[(0, 0, 2)]][1] == index[(0, 0, 1)]  # one card next: one run goes on
    assert trim[index[(0, 0, 2)]][0] == index[(0, 0, 0)]
    assert trim[index[(1, 0, 1)]][1] == index[(1, 0, 0)]  # the short run takes the room
    assert trim[index[(1, 1, 0)]][1] == -1  # two short runs, one card: dead
    assert trim[index[(0, 1, 3)]][8] == index[(0, 1, 3)]  # room to spare: unchanged
