"""The programme over ranks: the first path of every question with at most two jokers in play.

Every preset's question - groups of any size (Vatikanen, Kontrakt) or of 3-4
distinct suits (Rummikub) - goes to :func:`ask`: one call of
:func:`.question.answer`, which counts the cards, searches every freeing case
from both ends and lays the best answer out, exactly. With numba installed it
runs compiled; without, the same functions run as plain Python on lists (see
:mod:`rummykit.solver.kernels`), so the answer, ties included, does not depend
on what is installed (only the time does). Past :data:`DEPTH_BUDGET` states,
with more than two jokers, or with more copies of a card than the states hold,
:func:`ask` returns None and the chain's next path answers (:mod:`..chain`).

The package, in the order a question goes through it:

- :mod:`.state`: card codes, limits and the typed structures (named tuples of
  flat integer arrays) every kernel shares;
- :mod:`.tables`: the state tables, built once;
- :mod:`.question`: a whole question (counting, freeing cases, both ends);
- :mod:`.search`: the depth-first search of one freeing case, and its memo;
- :mod:`.step`: the choices at one step;
- :mod:`.layout`: the answer laid out as melds;
- :mod:`.cards`: cards to codes, and an answer's codes back to melds and cards;
- this module: loading the kernels, each thread's arrays, the calls from Python.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from rummykit.melds import MeldRules
from rummykit.solver.counts import SUITS, Counts, TooHard
from rummykit.solver.kernels import Kernels, Programme
from rummykit.solver.programme.cards import code, codes
from rummykit.solver.programme.question import (
    ARENA_SIZE,
    SEARCH_SIZE,
    SEARCH_SIZES,
    search_at,
    tables_at,
    work_at,
)
from rummykit.solver.programme.state import (
    G_RUNNING,
    I_ALL_TABLE,
    I_BUDGET,
    I_DISTINCT,
    I_EMPTY,
    I_FREE,
    I_HAND,
    I_HIGH,
    I_LAYOUT,
    I_TABLE,
    INFO,
    MAX_CELL,
    MAX_STEPS,
    NOTHING,
    OUT_SIZE,
    SCRATCH,
    Ints,
    Question,
    Search,
    Tables,
    Work,
)
from rummykit.solver.programme.tables import EMPTY, flat_tables

__all__ = [
    "DEPTH_BUDGET",
    "MAX_JOKERS",
    "applies",
    "ask",
    "code",
    "codes",
    "compiled",
    "handles",
    "last_path",
    "search_case",
    "solve",
    "warm",
]

MAX_JOKERS = 2
"""Most jokers in play: with three, a run could hold jokers only."""
DEPTH_BUDGET = 60_000
"""States a question's searches (both ends together, per freeing case) may visit before
the next path of the chain takes over."""

PROGRAMME_MODULES = (
    "rummykit.solver.programme.step",
    "rummykit.solver.programme.search",
    "rummykit.solver.programme.layout",
    "rummykit.solver.programme.question",
)
"""The programme's kernel modules."""


def handles(rules: MeldRules) -> bool:
    """Whether questions under ``rules`` go to this programme: groups of any size with suits
    repeated (Vatikanen, Kontrakt), or groups of 3-4 distinct suits under low aces (Rummikub)."""
    if rules.max_group_size is None:
        return not rules.group_distinct_suits
    return rules.group_distinct_suits and rules.max_group_size == 4 and not rules.ace_high


def applies(cp: Counts) -> bool:
    """Whether this programme answers one freeing case ``cp`` (:func:`solve`): groups of any
    size, at most two jokers."""
    if not cp.big_groups or cp.joker_runs:
        return False
    jokers = cp.wild_mand + cp.wild_opt + sum(cp.gmand) + sum(map(sum, cp.fixed))
    return jokers <= MAX_JOKERS


# ---------------------------------------------------------------- loading


def _numpy() -> Any:
    """numpy (installed with numba)."""
    return importlib.import_module("numpy")


def _blank_arena(np: Any) -> tuple[Any, Any]:
    """A fresh arena and the tables, as int64 arrays, for :func:`.question.answer_in`."""
    return np.zeros(ARENA_SIZE, dtype=np.int64), _flat_array(np)


def _flat_array(np: Any) -> Any:
    """The tables in one int64 array: seven offsets, then each table (:func:`.tables_at`)."""
    parts = flat_tables()
    offsets = []
    at = len(parts)
    for part in parts:
        offsets.append(at)
        at += len(part)
    return np.array([*offsets, *(x for part in parts for x in part)], dtype=np.int64)


def _warm_up(kernels: Kernels) -> None:
    """Call both entry points once on blank questions, so that numba loads them now."""
    if not kernels.compiled:
        return
    np = _numpy()
    arena, flat = _blank_arena(np)
    info = arena[ARENA_SIZE - INFO :]
    info[I_HIGH] = 1
    info[I_BUDGET] = DEPTH_BUDGET
    info[I_LAYOUT] = 1
    info[I_EMPTY] = EMPTY
    weights = np.zeros(29, dtype=np.int64)
    kernels["answer_in"](arena, flat, np.zeros(0, dtype=np.int64), weights)
    kernels["search_in"](arena, flat, DEPTH_BUDGET)


PROGRAMME = Programme(PROGRAMME_MODULES, _warm_up)
"""The programme's kernels, compiled where numba is (loaded on first use)."""


def compiled() -> bool:
    """Whether the search runs compiled (loading it on the first call)."""
    return PROGRAMME.get().compiled


def warm() -> None:
    """Load (or compile) the programme now, so that no later solve pays for it."""
    _space()


# ---------------------------------------------------------------- each thread's arrays


@dataclass(frozen=True)
class Space:
    """One thread's structures for the programme (kept between calls).

    Compiled, every structure is a view into ``arena``, which the compiled entry
    points take whole (with ``flat``, the tables); plain, they are lists.
    """

    kernels: Kernels
    up: Search
    """The search from the bottom."""
    down: Search
    """The search from the top."""
    work: Work
    info: Ints
    tables: Tables
    arena: Any
    """The one int64 array that holds ``up``, ``down``, ``work`` and ``info`` (compiled)."""
    flat: Any
    """The tables in one int64 array (compiled)."""
    np: Any
    """numpy (compiled)."""


_local = threading.local()
_TABLES: list[Tables] = []
"""The tables as lists, built once (plain Python)."""


def _space() -> Space:
    """This thread's :class:`Space` (made on its first call)."""
    space: Space | None = getattr(_local, "space", None)
    if space is None:
        kernels = PROGRAMME.get()
        if kernels.compiled:
            np = _numpy()
            arena, flat = _blank_arena(np)
            space = Space(
                kernels,
                search_at(arena, 0),
                search_at(arena, SEARCH_SIZE),
                work_at(arena),
                arena[ARENA_SIZE - INFO :],
                tables_at(flat),
                arena,
                flat,
                np,
            )
        else:
            if not _TABLES:
                _TABLES.append(Tables(*flat_tables()))
            up, down = (Search(*([0] * n for n in SEARCH_SIZES)) for _ in range(2))
            work = Work([0] * MAX_STEPS, [0] * SCRATCH, [0] * OUT_SIZE)
            space = Space(kernels, up, down, work, [0] * INFO, _TABLES[0], None, None, None)
        _local.space = space
    return space


# ---------------------------------------------------------------- the calls


def ask(
    table: Sequence[int],
    hand: Sequence[int],
    weights: tuple[int, ...],
    *,
    free: bool,
    all_table: bool,
    high: bool,
    layout: bool,
    distinct: bool = False,
) -> list[int] | None:
    """The answer to one question (card codes, see :func:`code`), as the list ``out`` of
    :func:`.question.answer`: ``[0]`` no answer, ``[1]`` an answer (not laid out), None
    where the programme does not answer (the chain's next path does).

    ``weights``: a hand card's gain by rank, a joker's, then the points of a joker and
    of each rank (see :class:`.state.Question`).
    """
    space = getattr(_local, "space", None) or _space()
    info = space.info
    info[I_TABLE] = len(table)
    info[I_HAND] = len(hand)
    info[I_FREE] = free
    info[I_ALL_TABLE] = all_table
    info[I_HIGH] = high
    info[I_BUDGET] = DEPTH_BUDGET
    info[I_LAYOUT] = layout
    info[I_EMPTY] = EMPTY
    info[I_DISTINCT] = distinct
    kernels = space.kernels
    np = space.np
    if np is not None:
        status = kernels["answer_in"](
            space.arena, space.flat, np.array([*table, *hand], dtype=np.int64), _weights(weights)
        )
    else:
        question = Question([*table, *hand], list(weights), info)
        status = kernels["answer"](question, space.work, space.tables, space.up, space.down)
    if status == 2:
        return None
    if status == 0:
        return [0]
    if not layout:
        return [1]
    out: Any = space.work.out
    end = int(out[3])
    return cast("list[int]", out[:end].tolist() if np is not None else out[:end])


_WEIGHTS: dict[tuple[int, ...], Any] = {}
"""The weights asked with, as int64 arrays (a few presets and objectives)."""


def _weights(weights: tuple[int, ...]) -> Any:
    """``weights`` as an int64 array (compiled), made once."""
    got = _WEIGHTS.get(weights)
    if got is None:
        np = _numpy()
        got = _WEIGHTS[weights] = np.array(weights, dtype=np.int64)
    return got


def solve(cp: Counts, floor: int | None = None) -> int | None:
    """The best score of one freeing case ``cp`` by the search from the bottom alone, or None.

    With ``floor``, only a score above it counts. Only where :func:`applies`;
    :class:`.counts.TooHard` past the budget or where a cell holds more than
    :data:`.state.MAX_CELL` cards. The solver asks whole questions (:func:`ask`); this
    one case is for tests and measurements.
    """
    value = search_case(cp, floor, DEPTH_BUDGET, resume=False)
    if value == NOTHING:
        return None
    if value == -NOTHING:
        raise TooHard("past the programme's budget")
    return value + cp.base


def search_case(cp: Counts, floor: int | None, budget: int, *, resume: bool) -> int:
    """Search one freeing case from the bottom (this thread's search ``up``): the value
    found (before ``cp.base``), ``NOTHING``, or ``-NOTHING`` when paused past ``budget``;
    ``resume`` goes on with the search paused before (the same case).

    For tests and measurements; its path is in :func:`last_path`.
    """
    space = _space()
    up = space.up
    if not resume:
        cells: list[int] = []
        for rank in range(14):
            mand, opt, fixed = cp.mand[rank], cp.opt[rank], cp.fixed[rank]
            for s in range(SUITS):
                cells += (mand[s], opt[s], fixed[s])
        if max(cells) > MAX_CELL:
            raise TooHard("more copies of a card than the key holds")
        limit = 0 if floor is None else floor - cp.base
        params = [
            cp.wild_mand,
            cp.wild_opt,
            cp.wjoker,
            int(floor is not None),
            limit,
            int(cp.ace_high),
            EMPTY,
            int(cp.distinct),
        ]
        for i, x in enumerate(cells):
            up.cells[i] = x
        for i, x in enumerate([*cp.gmand, *cp.natmin, *cp.weight]):
            up.ranks[i] = x
        for i, x in enumerate(params):
            up.params[i] = x
        up.progress[G_RUNNING] = 0
    if space.np is not None:
        return int(space.kernels["search_in"](space.arena, space.flat, budget))
    return int(space.kernels["depth_first"](up, space.tables, budget))


def last_path() -> list[int]:
    """The choices of the last answer :func:`search_case` found, per step."""
    return [int(x) for x in _space().up.path]
