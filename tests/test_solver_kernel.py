"""The compiled suit programme answers exactly like the pure-Python one (V5, V6, V11, V12).

The split search solves each suit alone (``solver/split.py``); with numba
installed it runs :mod:`rummykit.solver.suit_kernel` instead of the Python
programme. The two must agree to the tie, so that the solver's answers (and
every bot game) do not depend on what is installed.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, MeldRules
from rummykit.solver import best_play, programme, split
from rummykit.solver import suit_kernel as kernel
from rummykit.solver.counts import SUITS, Counts
from solver_positions import random_positions

np = pytest.importorskip("numpy", reason="the compiled programme needs numpy and numba")
suit_search = pytest.importorskip("rummykit.solver.suit_search", reason="it needs numpy")

RULES = {"vatikanen": VATIKANEN, "kontrakt": KONTRAKT, "rummikub": RUMMIKUB}


@st.composite
def suits(draw: st.DrawFn) -> tuple[Counts, split.Bounds, int, int]:
    """One suit's cells with random group bounds, as the split search poses them."""
    high = draw(st.booleans())
    big = draw(st.booleans())
    jmax = draw(st.integers(0, 2))
    mand = [[0] * SUITS for _ in range(14)]
    opt = [[0] * SUITS for _ in range(14)]
    bounds = [(0, 0, 0)]
    for rank in range(1, 14):
        m = draw(st.integers(0, 2))
        o = draw(st.integers(0, 2 - m))
        mand[rank][0], opt[rank][0] = m, o
        hi = draw(st.integers(0, m + o))
        lo = draw(st.integers(0, hi))
        umin = draw(st.integers(0, m + o)) if draw(st.integers(0, 4)) == 0 else 0
        bounds.append((lo, hi, umin))
    cp = Counts(
        ace_high=high,
        big_groups=big,
        max_group=99 if big else 4,
        distinct=not big,
        mand=mand,
        opt=opt,
        fixed=[[0] * SUITS for _ in range(14)],
        gmand=[0] * 14,
        natmin=[0] * 14,
        wild_mand=0,
        wild_opt=jmax,
        weight=[0] + [4096 + draw(st.integers(1, 15)) for _ in range(13)],
        wjoker=4096 + 25,
    )
    return cp, tuple(bounds), jmax, 14 if high else 13


@settings(max_examples=300, deadline=None)
@given(suits())
def test_V12_suit_kernel_matches_python_programme(case: tuple) -> None:
    cp, bounds, jmax, npos = case
    want = split._suit(cp, 0, bounds, jmax, npos, {})
    base = kernel.suit_cells(cp)[0]
    got = kernel.solve_suit(base, bounds, npos, cp.ace_high, not cp.big_groups, jmax)
    assert got == want
    # the kernel's source, run as plain Python, is the same programme
    found, best, value, paths = suit_search.suit_programme(
        kernel._work(npos, jmax, base[1, 1]),
        base,
        np.array(bounds, dtype=np.int64),
        npos,
        cp.ace_high,
        not cp.big_groups,
        jmax,
        *kernel._tables(),
    )
    for j, answer in enumerate(want):
        assert bool(found[j]) == (answer is not None)
        if answer is not None:
            assert (int(best[j]), int(value[j])) == answer[:2]
            assert tuple(map(tuple, paths[j].tolist())) == answer[2]


def test_suit_kernel_is_compiled_where_ci_runs() -> None:
    """The dev extra installs numba; without it the solver is exact but slower."""
    if not kernel.AVAILABLE:
        pytest.skip("numba is not installed here (pip install -e '.[fast]')")
    assert kernel.ready()
    assert kernel.PROGRAMME.get().compiled


@pytest.mark.parametrize("name", list(RULES))
def test_V12_same_play_with_and_without_the_kernel(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules: MeldRules = RULES[name]
    positions = random_positions(f"kernel-{name}", rules, 30, melds=8, hand=10)
    monkeypatch.setattr(programme, "ask", lambda *a, **k: None)  # the split search answers
    fast = [best_play(t, h, rules=rules) for t, h in positions]
    monkeypatch.setattr(kernel, "AVAILABLE", False)
    slow = [best_play(t, h, rules=rules) for t, h in positions]
    assert fast == slow
