"""Optimality against an independent brute force on many small random positions (V9-V12)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, Meld, MeldRules
from rummykit.solver import best_play
from solver_oracle import assert_valid_meld, best_score
from solver_positions import random_position

ROUNDS = 100
RULES = {"vatikanen": VATIKANEN, "kontrakt": KONTRAKT, "rummikub": RUMMIKUB}


def check_table(table: list[Meld], old: list[Meld], played: list, rules: MeldRules) -> None:
    """Every meld valid, and the table holds exactly the old table plus the play."""
    for meld in table:
        assert_valid_meld(meld, rules)
    new = Counter(c.plain() for m in table for c in m.cards)
    want = Counter(c.plain() for m in old for c in m.cards) + Counter(c.plain() for c in played)
    assert new == want


@pytest.mark.parametrize("name", list(RULES))
@pytest.mark.parametrize("objective", ["cards", "points"])
def test_V12_best_play_matches_brute_force(name: str, objective: str) -> None:
    _compare(name, objective, ROUNDS, f"{name}-{objective}")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULES))
@pytest.mark.parametrize("objective", ["cards", "points"])
def test_V12_best_play_matches_brute_force_many(name: str, objective: str) -> None:
    _compare(name, objective, 2000, f"many-{name}-{objective}")


def _compare(name: str, objective: str, rounds: int, seed: str) -> None:
    rules = RULES[name]
    rng = random.Random(seed)
    for i in range(rounds):
        table, hand = random_position(
            rng,
            rules,
            melds=rng.randint(0, 3),
            hand=rng.randint(1, 4),
            ranks=(1, 6) if i % 2 else (8, 13),
        )
        free = i % 3 == 0
        want = best_score(table, hand, rules, objective, free_jokers=free)
        got = best_play(table, hand, rules=rules, objective=objective, free_jokers=free)
        where = f"{[str(m) for m in table]} + {[str(c) for c in hand]} free={free}"
        if want is None:
            assert got is None, where
            continue
        assert got is not None, where
        assert (got.count, got.points) == want, where
        check_table(list(got.table), table, list(got.cards), rules)
