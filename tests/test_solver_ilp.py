"""Optimality against an integer programme (pulp + HiGHS) on full-size positions (V12)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, MeldRules
from rummykit.solver import best_play
from solver_ilp import ilp_best
from solver_oracle import assert_valid_meld

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from positions import random_position  # noqa: E402


def _check(rules: MeldRules, seed: int, n: int, sizes: tuple[int, ...], jokers: int) -> None:
    rng = random.Random(seed)
    for i in range(n):
        size = sizes[i % len(sizes)]
        pos = random_position(rng, rules, size, rng.randint(8, 14), jokers=jokers)
        objective = "points" if i % 3 == 2 else "cards"
        free = i % 4 == 3
        table, hand = list(pos.table), list(pos.hand)
        want = ilp_best(table, hand, rules, objective, free_jokers=free)
        got = best_play(table, hand, rules=rules, objective=objective, free_jokers=free)
        where = f"{rules.name} {[str(m) for m in table]} + {[str(c) for c in hand]}"
        where += f" {objective} free={free}"
        if want is None:
            assert got is None, where
            continue
        assert got is not None, where
        assert (got.count, got.points) == want, where
        for m in got.table:
            assert_valid_meld(m, rules)


@pytest.mark.parametrize("rules", [VATIKANEN, KONTRAKT, RUMMIKUB], ids=lambda r: r.name)
def test_V12_matches_ilp_without_jokers(rules: MeldRules) -> None:
    _check(rules, 1, 6, (10, 30, 50), jokers=0)


@pytest.mark.parametrize("rules", [VATIKANEN, RUMMIKUB], ids=lambda r: r.name)
def test_V11_matches_ilp_with_table_jokers(rules: MeldRules) -> None:
    _check(rules, 2, 4, (20, 30), jokers=2)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [VATIKANEN, KONTRAKT, RUMMIKUB], ids=lambda r: r.name)
def test_V12_matches_ilp_many(rules: MeldRules) -> None:
    _check(rules, 3, 60, (0, 20, 40, 60, 80, 90), jokers=2)
