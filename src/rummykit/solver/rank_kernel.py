"""The joint programme over ranks for groups of distinct suits, compiled with numba.

Rummikub-like rules (groups of distinct suits, no high ace, at most two jokers
in play) keep the joint programme of :mod:`.dp` small enough to run whole in
compiled code: per rank the four suits are decided one after another (how
many cards of the cell go on in runs, how many join the rank's groups, how
many wild jokers take a run cell), then the rank's groups are checked at
once from the sizes per suit and the jokers given to them. Those sizes are
kept as a class of a small automaton (:func:`_group_automaton`), so partial
choices that fit the same ways merge. With at most two jokers every run and
group of three or more holds a natural card, so the state needs no
joker-only flag; a suit's runs in progress use the canonical states of
:mod:`.dp`.

Two searches walk that graph (:mod:`.rank_search`): depth first with branch
and bound and a memo, which finds full tables' answers at once; and, past
:data:`DEPTH_BUDGET` states on tables of up to :data:`BREADTH_TABLE` cards,
breadth first in passes that allow more and more hand points to be left
out. Hand cards that no meld could hold are set aside first. On fuller tables
a position past the budget goes back to the split search (:class:`TooHard`).
See docs/solver.md for the measurements behind these choices.

Both keep their answers deterministic. Used by
:func:`rummykit.solver._solve_position` where :func:`applies`; without numba
it is never used (the split search answers instead, with the same values).
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import threading
import warnings
from typing import Any

from rummykit.melds import MeldRules
from rummykit.solver.dp import NEXT, RUN_STATES, SUITS, Counts, Solution

__all__ = [
    "AVAILABLE",
    "BREADTH_TABLE",
    "DEPTH_BUDGET",
    "TooHard",
    "answers",
    "applies",
    "solve",
    "warm",
]

AVAILABLE = (
    importlib.util.find_spec("numba") is not None
    and importlib.util.find_spec("numpy") is not None
    and os.environ.get("RUMMYKIT_PURE_PYTHON", "") in ("", "0")
)
"""Whether the compiled programme can run (numba and numpy installed)."""

MAX_JOKERS = 2
"""Most jokers in play for this programme: more would allow melds of jokers only."""
MAX_CELL = 4
"""Most cards of one cell (two natural copies and two fixed jokers)."""
_OVERFLOW = -2
"""The breadth-first search's answer when its scratch space is too small (it is then grown)."""
DEPTH_BUDGET = 20_000
"""States the depth-first search may visit before the breadth-first search takes over."""
BREADTH_TABLE = 64
"""Most table cards for the breadth-first search: on fuller tables its states multiply."""
MEMO_BITS = 18
"""The depth-first memo holds 2**MEMO_BITS states (half of them before it is forgotten)."""

_loaded: dict[str, Any] = {}
_lock = threading.Lock()
_scratch = threading.local()


def answers(rules: MeldRules) -> bool:
    """Whether positions under ``rules`` may go to this programme (see :func:`applies`)."""
    return AVAILABLE and rules.group_distinct_suits and not rules.ace_high


def applies(cp: Counts) -> bool:
    """Whether this programme answers ``cp``: distinct-suit groups, no high ace, few jokers.

    (A cell with more cards than :data:`MAX_CELL` is found by :func:`solve`, which
    then raises :class:`TooHard`.)
    """
    if not AVAILABLE or not cp.distinct or cp.ace_high or cp.max_group < SUITS:
        return False
    jokers = cp.wild_mand + cp.wild_opt + sum(cp.gmand) + sum(map(sum, cp.fixed))
    return jokers <= MAX_JOKERS


def _group_fits(sizes: tuple[int, ...], jokers: int, max_group: int) -> bool:
    """Whether per-suit group cards ``sizes`` and ``jokers`` form groups of distinct suits."""
    total = sum(sizes) + jokers
    if total == 0:
        return True
    top = max(sizes)
    for k in range(max(top, 1), total // 3 + 1):
        # each suit's cards go to distinct groups: try every way for every suit
        ways = [list(itertools.combinations(range(k), g)) for g in sizes]
        for pick in itertools.product(*ways):
            naturals = [0] * k
            for chosen in pick:
                for i in chosen:
                    naturals[i] += 1
            if min(naturals) < 1 or max(naturals) > max_group:
                continue
            low = sum(max(0, 3 - n) for n in naturals)
            high = sum(max_group - n for n in naturals)
            if low <= jokers <= high:
                return True
    return False


def _group_automaton(max_group: int) -> tuple[list[list[list[int]]], list[list[bool]]]:
    """The rank's group check as a small automaton over the suits, taken in turn.

    After ``s`` suits, partial multisets of group sizes that fit the same ways for
    every rest of the rank (sizes of the other suits, jokers) share one class, so
    the programme keeps one state for them. Returns ``step[s][class][g]`` (the
    class after the next suit gives ``g`` cards, -1 when no rest can fit) and
    ``fits[class][jokers]`` for the classes after the last suit.
    """
    values = range(MAX_CELL + 1)
    jokers = range(2 * MAX_JOKERS + 1)
    memo: dict[tuple[tuple[int, ...], int], bool] = {}

    def fits(sizes: tuple[int, ...], j: int) -> bool:
        key = (tuple(sorted(sizes)), j)
        if key not in memo:
            memo[key] = _group_fits(key[0], j, max_group)
        return memo[key]

    classes: list[dict[tuple[int, ...], int]] = []
    for done in range(SUITS + 1):
        rests = list(itertools.combinations_with_replacement(values, SUITS - done))
        by_sig: dict[tuple[bool, ...], int] = {}
        ids: dict[tuple[int, ...], int] = {}
        for part in itertools.combinations_with_replacement(values, done):
            sig = tuple(fits(part + r, j) for r in rests for j in jokers)
            if any(sig):
                ids[part] = by_sig.setdefault(sig, len(by_sig))
        classes.append(ids)
    step: list[list[list[int]]] = []
    for done in range(SUITS):
        width = 1 + max(classes[done].values(), default=0)
        row = [[-1] * len(values) for _ in range(width)]
        for part, cid in classes[done].items():
            for g in values:
                nxt = classes[done + 1].get(tuple(sorted((*part, g))))
                row[cid][g] = -1 if nxt is None else nxt
        step.append(row)
    last = classes[SUITS]
    table = [[False] * len(jokers) for _ in range(1 + max(last.values(), default=0))]
    for part, cid in last.items():
        for j in jokers:
            table[cid][j] = fits(part, j)
    return step, table


_SEARCHES = ("settle", "set_aside", "breadth_pass", "breadth_first", "depth_first")
"""The compiled functions of :mod:`.rank_search`, callees before their callers."""


def _tables() -> dict[str, Any]:
    """numpy, the state tables, and the compiled searches (loaded once)."""
    with _lock:
        if not _loaded:
            np = importlib.import_module("numpy")
            numba = importlib.import_module("numba")
            search = importlib.import_module("rummykit.solver.rank_search")
            _loaded["np"] = np
            step, table = _group_automaton(SUITS)
            steps = np.full((SUITS, max(map(len, step)), MAX_CELL + 1), -1, dtype=np.int64)
            for s, row in enumerate(step):
                steps[s, : len(row)] = row
            _loaded["tables"] = (
                np.array(NEXT, dtype=np.int64),
                np.array(_trim_table(), dtype=np.int64),
                steps,
                np.array(table, dtype=np.bool_),
                np.array([sum(st) for st in RUN_STATES], dtype=np.int64),
                RUN_STATES.index((0, 0, 0)),
            )
            _loaded["search"] = None
            sources = {name: getattr(search, name) for name in _SEARCHES}
            for cache in (True, False):
                try:
                    # numba resolves the callees by their global names in the module
                    for name in _SEARCHES:
                        setattr(search, name, numba.njit(cache=cache, nogil=True)(sources[name]))
                    _loaded["search"] = search
                    # load (or compile) both searches now
                    _solve(_blank(), None)
                    blank = np.zeros((14, SUITS, 3), dtype=np.int64)
                    params = np.zeros(5, dtype=np.int64)
                    path = np.zeros((14, SUITS + 1), dtype=np.int64)
                    _breadth_first(blank, np.zeros((3, 14), dtype=np.int64), params, path)
                except Exception as exc:  # pragma: no cover - depends on the machine
                    warnings.warn(f"numba could not compile the solver: {exc}", stacklevel=2)
                    _loaded["search"] = None
                    for name in _SEARCHES:
                        setattr(search, name, sources[name])
                else:
                    break
    return _loaded


def _trim_table() -> list[list[int]]:
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
    grid = [[0] * SUITS for _ in range(14)]
    weight = [0] * 14
    return Counts(False, False, SUITS, True, grid, grid, grid, weight, weight, 0, 1, weight, 1)


def warm() -> None:
    """Load (or compile) the programme now, so that no later solve pays for it."""
    if AVAILABLE:
        _tables()


def _scratch_arrays(cap: int) -> tuple[Any, Any, Any, Any, Any]:
    np = _loaded["np"]
    pool = np.empty((4, cap), dtype=np.int64)
    slots = np.full(2 * cap, -1, dtype=np.int64)
    stamp = np.zeros(2 * cap, dtype=np.int64)
    clock = np.zeros(1, dtype=np.int64)
    info = np.zeros(1, dtype=np.int64)
    return pool, slots, stamp, clock, info


def _memo() -> tuple[Any, Any, Any]:
    """The depth-first search's memo (keys, points, generation), its generation counter
    and its choices per step: one set per thread, kept between solves."""
    memo = getattr(_scratch, "memo", None)
    if memo is None:
        np = _loaded["np"]
        search = _loaded["search"]
        memo = (
            np.zeros((3, 1 << MEMO_BITS), dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros((search.STEPS, search.OPTIONS, 3), dtype=np.int64),
        )
        _scratch.memo = memo
    return memo


class TooHard(Exception):
    """The depth-first search ran past its budget on a table too full for the breadth-first one."""


def solve(cp: Counts, floor: int | None = None) -> Solution | None:
    """The best placement of the cards of ``cp``, or None when the mandatory ones cannot go.

    With ``floor``, only an answer scoring more than ``floor`` is of use: None
    when there is none. Only for problems where :func:`applies` holds.

    The depth-first search answers first; past :data:`DEPTH_BUDGET` states it
    hands over to the breadth-first one on tables of up to
    :data:`BREADTH_TABLE` cards, and raises :class:`TooHard` on fuller ones
    (the split search's bound does better there).
    """
    if _tables()["search"] is None:  # pragma: no cover - numba failed to compile
        raise RuntimeError("the compiled rank programme is not available")
    return _solve(cp, floor)


def _solve(cp: Counts, floor: int | None) -> Solution | None:
    np = _loaded["np"]
    search = _loaded["search"]
    tables = _loaded["tables"]
    cells = np.empty((14, SUITS, 3), dtype=np.int64)
    cells[:, :, 0] = cp.mand
    cells[:, :, 1] = cp.opt
    cells[:, :, 2] = cp.fixed
    if (cells[:, :, 0] + cells[:, :, 1]).max() > MAX_CELL:
        raise TooHard  # more copies of a card than the programme's states allow
    ranks = np.array([cp.gmand, cp.natmin, cp.weight], dtype=np.int64)
    limit = 0 if floor is None else floor - cp.base
    params = np.array(
        [cp.wild_mand, cp.wild_opt, cp.wjoker, floor is not None, limit], dtype=np.int64
    )
    path = np.zeros((14, SUITS + 1), dtype=np.int64)
    value = search.depth_first(cells.copy(), ranks, params, *_memo(), *tables, path, DEPTH_BUDGET)
    if value == search.NOTHING:
        return None
    if value != -search.NOTHING:
        return _solution(cp, path.tolist(), int(value) + cp.base)
    if sum(map(sum, cp.mand)) > BREADTH_TABLE:
        raise TooHard
    points = _breadth_first(cells, ranks, params, path)
    if points is None:
        return None
    return _solution(cp, path.tolist(), points - cp.wild_mand * cp.wjoker + cp.base)


def _breadth_first(cells: Any, ranks: Any, params: Any, path: Any) -> int | None:
    """The breadth-first search, its scratch space grown as it needs: the answer's points."""
    search = _loaded["search"]
    while True:
        scratch = getattr(_scratch, "arrays", None)
        if scratch is None:
            scratch = _scratch.arrays = _scratch_arrays(1 << 14)
        found = search.breadth_first(cells, ranks, params, *scratch, *_loaded["tables"], path)
        if found != _OVERFLOW:
            break
        _scratch.arrays = _scratch_arrays(4 * scratch[0].shape[1])
    return None if found < 0 else int(scratch[0][1, found])


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
