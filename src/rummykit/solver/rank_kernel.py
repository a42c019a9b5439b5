"""The rank programme for groups of distinct suits: Rummikub cases past the first path's budget.

A path of the chain (:mod:`.chain`) for one freeing case, under Rummikub-like
rules (groups of distinct suits, no high ace, at most two jokers in play) and
only with numba. The programme over ranks (:mod:`.programme`) answers nearly
every Rummikub question; the few it declines (past its budget: 28 of 71,600
random positions of 0-80 table cards, measured) come here before the split
search, which answers them about three times slower (9 against 28 ms a
position). It is kept for those, and because the answers to them (which of
equal plays) would change without it; the games (Vatikanen, Kontrakt) never
reach it. See docs/solver.md.

Per rank the four suits are decided one after another (how many cards of the
cell go on in runs, how many join the rank's groups, how many wild jokers take
a run cell), then the rank's groups are checked at once from the sizes per
suit and the jokers given to them. Those sizes are kept as a class of a small
automaton (:func:`rummykit.solver.groups.group_automaton`), so partial choices
that fit the same ways merge. With at most two jokers every run and group of
three or more holds a natural card, so the state needs no joker-only flag; a
suit's runs in progress use the canonical states of :mod:`.counts`.

Two searches walk that graph (:mod:`.rank_search`): depth first with branch
and bound and a memo, which finds full tables' answers at once; and, past
:data:`DEPTH_BUDGET` states on tables of up to :data:`BREADTH_TABLE` cards,
breadth first in passes that allow more and more hand points to be left out.
Hand cards that no meld could hold are set aside first. On fuller tables a
case past the budget goes on to the split search (:class:`.counts.TooHard`).
Both keep their answers deterministic.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

from rummykit.melds import MeldRules
from rummykit.solver.counts import NEXT, RUN_STATES, SUITS, Counts, Solution, TooHard
from rummykit.solver.groups import MAX_CELL, MAX_JOKERS, group_automaton
from rummykit.solver.kernels import COMPILE, Kernels, Programme

__all__ = [
    "AVAILABLE",
    "BREADTH_TABLE",
    "DEPTH_BUDGET",
    "answers",
    "applies",
    "solve",
    "solve_case",
    "warm",
]

AVAILABLE = COMPILE
"""Whether the compiled programme can run (numba and numpy installed)."""

_OVERFLOW = -2
"""The breadth-first search's answer when its scratch space is too small (it is then grown)."""
DEPTH_BUDGET = 20_000
"""States the depth-first search may visit before the breadth-first search takes over."""
BREADTH_TABLE = 64
"""Most table cards for the breadth-first search: on fuller tables its states multiply."""
MEMO_BITS = 18
"""The depth-first memo holds 2**MEMO_BITS states (half of them before it is forgotten)."""

_scratch = threading.local()
_TABLES: list[Any] = []
"""The state tables (:class:`.rank_search.RankTables`), made once."""


def answers(rules: MeldRules) -> bool:
    """Whether positions under ``rules`` may go to this programme (see :func:`applies`)."""
    return AVAILABLE and rules.group_distinct_suits and not rules.ace_high


def applies(cp: Counts) -> bool:
    """Whether this programme answers ``cp``: distinct-suit groups, no high ace, few jokers.

    (A cell with more cards than :data:`.groups.MAX_CELL` is found by :func:`solve`,
    which then raises :class:`.counts.TooHard`.)
    """
    if not AVAILABLE or not cp.distinct or cp.ace_high or cp.max_group < SUITS:
        return False
    jokers = cp.wild_mand + cp.wild_opt + sum(cp.gmand) + sum(map(sum, cp.fixed))
    return jokers <= MAX_JOKERS


def _numpy() -> Any:
    """numpy (installed with numba)."""
    return importlib.import_module("numpy")


def _search() -> Any:
    """The kernel module (imported only where numpy is)."""
    return importlib.import_module("rummykit.solver.rank_search")


def _tables() -> Any:
    """The state tables as arrays (made on the first call)."""
    if not _TABLES:
        np = _numpy()
        step, table = group_automaton(SUITS)
        steps = np.full((SUITS, max(map(len, step)), MAX_CELL + 1), -1, dtype=np.int64)
        for s, row in enumerate(step):
            steps[s, : len(row)] = row
        _TABLES.append(
            _search().RankTables(
                np.array(NEXT, dtype=np.int64),
                np.array(trim_table(), dtype=np.int64),
                steps,
                np.array(table, dtype=np.bool_),
                np.array([sum(st) for st in RUN_STATES], dtype=np.int64),
            )
        )
    return _TABLES[0]


def trim_table() -> list[list[int]]:
    """``[state][room]``: a suit's runs in progress cut to ``room`` runs going on, or -1.

    Runs shorter than three must all go on; runs of three or more beyond the
    room end (see :func:`rummykit.solver.rank_search.settle`).
    """
    index = {st: i for i, st in enumerate(RUN_STATES)}
    table = []
    for n1, n2, n3 in RUN_STATES:
        row = []
        for room in range(len(NEXT[0])):
            short = n1 + n2
            row.append(-1 if short > room else index[(n1, n2, min(n3, room - short))])
        table.append(row)
    return table


def _blank() -> Counts:
    """A case with no cards (for the first call, which loads the programme)."""
    grid = [[0] * SUITS for _ in range(14)]
    weight = [0] * 14
    return Counts(False, False, SUITS, True, grid, grid, grid, weight, weight, 0, 1, weight, 1)


def _warm_up(kernels: Kernels) -> None:
    """Run both searches once on an empty case, so that numba loads them now."""
    np = _numpy()
    _solve(kernels, _blank(), None)
    case = _search().Case(
        np.zeros((14, SUITS, 3), dtype=np.int64),
        np.zeros((3, 14), dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros((14, SUITS + 1), dtype=np.int64),
    )
    _breadth_first(kernels, case)


PROGRAMME = Programme(("rummykit.solver.rank_search",), _warm_up, allocates=True)
"""The compiled searches (loaded on first use, only where :data:`AVAILABLE`)."""


def warm() -> None:
    """Load (or compile) the programme now, so that no later solve pays for it."""
    if AVAILABLE:
        PROGRAMME.get()


def _pool(cap: int) -> Any:
    """Scratch space for the breadth-first search, for ``cap`` states."""
    np = _numpy()
    return _search().Pool(
        np.empty((4, cap), dtype=np.int64),
        np.full(2 * cap, -1, dtype=np.int64),
        np.zeros(2 * cap, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


def _memo() -> Any:
    """The depth-first search's memo (keys, points, generation), its generation counter
    and its choices per step: one set per thread, kept between solves."""
    memo = getattr(_scratch, "memo", None)
    if memo is None:
        np = _numpy()
        search = _search()
        memo = search.Memo(
            np.zeros((3, 1 << MEMO_BITS), dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros((search.STEPS, search.OPTIONS, 3), dtype=np.int64),
        )
        _scratch.memo = memo
    return memo


def solve_case(cp: Counts, floor: int | None = None) -> Solution | None:
    """A path of the chain (:mod:`.chain`): :func:`solve` where :func:`applies` and the
    programme is compiled, else :class:`.counts.TooHard`."""
    if not applies(cp):
        raise TooHard("not a case of the rank programme")
    return solve(cp, floor)


def solve(cp: Counts, floor: int | None = None) -> Solution | None:
    """The best placement of the cards of ``cp``, or None when the mandatory ones cannot go.

    With ``floor``, only an answer scoring more than ``floor`` is of use: None
    when there is none. Only for problems where :func:`applies` holds.

    The depth-first search answers first; past :data:`DEPTH_BUDGET` states it
    hands over to the breadth-first one on tables of up to
    :data:`BREADTH_TABLE` cards, and raises :class:`.counts.TooHard` on fuller
    ones (the split search's bound does better there).
    """
    kernels = PROGRAMME.get()
    if not kernels.compiled:  # pragma: no cover - numba failed to compile
        raise TooHard("the compiled rank programme is not available")
    return _solve(kernels, cp, floor)


def _solve(kernels: Kernels, cp: Counts, floor: int | None) -> Solution | None:
    """:func:`solve` with the kernels at hand."""
    np = _numpy()
    search = _search()
    cells = np.empty((14, SUITS, 3), dtype=np.int64)
    cells[:, :, 0] = cp.mand
    cells[:, :, 1] = cp.opt
    cells[:, :, 2] = cp.fixed
    if (cells[:, :, 0] + cells[:, :, 1]).max() > MAX_CELL:
        raise TooHard("more copies of a card than the programme's states allow")
    ranks = np.array([cp.gmand, cp.natmin, cp.weight], dtype=np.int64)
    limit = 0 if floor is None else floor - cp.base
    params = np.array(
        [cp.wild_mand, cp.wild_opt, cp.wjoker, floor is not None, limit], dtype=np.int64
    )
    path = np.zeros((14, SUITS + 1), dtype=np.int64)
    case = search.Case(cells.copy(), ranks, params, path)
    value = kernels["depth_first"](case, _memo(), _tables(), DEPTH_BUDGET)
    if value == search.NOTHING:
        return None
    if value != -search.NOTHING:
        return _solution(cp, path.tolist(), int(value) + cp.base)
    if sum(map(sum, cp.mand)) > BREADTH_TABLE:
        raise TooHard("past the depth-first budget on a table too full for breadth first")
    points = _breadth_first(kernels, search.Case(cells, ranks, params, path))
    if points is None:
        return None
    return _solution(cp, path.tolist(), points - cp.wild_mand * cp.wjoker + cp.base)


def _breadth_first(kernels: Kernels, case: Any) -> int | None:
    """The breadth-first search, its scratch space grown as it needs: the answer's points."""
    while True:
        space = getattr(_scratch, "pool", None)
        if space is None:
            space = _scratch.pool = _pool(1 << 14)
        found = kernels["breadth_first"](case, space, _tables())
        if found != _OVERFLOW:
            break
        _scratch.pool = _pool(4 * space.pool.shape[1])
    return None if found < 0 else int(space.pool[1, found])


def _solution(cp: Counts, choices: list[list[int]], score: int) -> Solution:
    """The answer from its choices per rank: each suit's, then the groups' jokers."""
    run_jokers = [[c >> 8 for c in row[:SUITS]] for row in choices]
    group_jokers = [row[SUITS] for row in choices]
    return Solution(
        score=score,
        run_cards=[[c & 15 for c in row[:SUITS]] for row in choices],
        run_jokers=run_jokers,
        group_cards=[[(c >> 4) & 15 for c in row[:SUITS]] for row in choices],
        group_jokers=group_jokers,
        hand_jokers=sum(map(sum, run_jokers)) + sum(group_jokers) - cp.wild_mand,
    )
