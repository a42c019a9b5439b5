"""The solver's answers on 720 fixed positions: values always, ties pinned by a hash (issue 29).

The values (cards and points laid) are the optimum and must never change; the
hash covers the answers to the tie (which cards, which melds, what each joker
stands for), so that a change of tie-break is always a deliberate one: it
changes the bots' games. See ``tests/solver_ties.py``.
"""

from __future__ import annotations

import pytest

from rummykit.solver import Play
from solver_ties import VALUES, answers, digest, values

TIES = "5d19fa85287591d1"
"""The hash of the answers (``python tests/solver_ties.py`` prints it)."""


@pytest.fixture(scope="module")
def plays() -> list[Play | None]:
    return answers()


def test_V12_values_on_the_fixed_positions_are_unchanged(plays: list[Play | None]) -> None:
    want = VALUES.read_text(encoding="utf-8").split("\n")[:-1]
    got = values(plays)
    assert len(got) == len(want) == 720
    assert [i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b] == []


def test_answers_to_the_tie_on_the_fixed_positions(plays: list[Play | None]) -> None:
    assert digest(plays) == TIES
