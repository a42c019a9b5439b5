"""A whole question in one call: count the cards, search every freeing case, lay out the best.

A kernel module (:mod:`rummykit.solver.kernels`). :func:`answer` takes a
question as card codes (natural ``rank * 4 + suit``, :data:`.state.WILD`,
:data:`.state.RUN_JOKER` and :data:`.state.GROUP_JOKER` for table jokers
standing for a card or a rank), counts them (:func:`count_cards`), searches
every freeing case (:func:`case_cells`, V11), each from both ends of the run
positions in turn (:func:`both_ends`), and lays the best answer out
(:func:`.layout.lay_out`). :func:`answer_in` is the compiled entry: it takes
one array per thread that holds every structure, so that a call from Python
passes few arguments (numba's dispatch of named tuples costs microseconds).
"""

from __future__ import annotations

from rummykit.solver.programme.layout import lay_out, mirrored
from rummykit.solver.programme.search import depth_first
from rummykit.solver.programme.state import (
    FIELDS,
    FIRST,
    FIX,
    FREED,
    G_NODES,
    G_RUNNING,
    GROUP_JOKER,
    GRPJ,
    HN,
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
    OPTIONS,
    OUT_SIZE,
    P_DISTINCT,
    P_EMPTY,
    P_FLOOR,
    P_HAS_FLOOR,
    P_HIGH,
    P_JOKER,
    P_WILD_MAND,
    P_WILD_OPT,
    PARAMS,
    PROGRESS,
    RC,
    RUN_JOKER,
    RUNJ,
    SCRATCH,
    SLICE,
    TN,
    WILD,
    Ints,
    Question,
    Search,
    Tables,
    Work,
)

KERNELS = (
    "count_cards",
    "case_cells",
    "mirror",
    "both_ends",
    "answer",
    "search_at",
    "tables_at",
    "work_at",
    "answer_in",
    "search_in",
)
"""The functions numba compiles."""

MEMO_BITS = 16
"""The memo holds 2**MEMO_BITS states (half of them before it is forgotten)."""
CELLS = 14 * 4 * FIELDS
RANKS = 42
SEARCH_SIZES = (
    CELLS,
    RANKS,
    PARAMS,
    2 << MEMO_BITS,
    PROGRESS,
    MAX_STEPS * OPTIONS * 3,
    MAX_STEPS + 1,
    MAX_STEPS + 1,
    MAX_STEPS + 1,
    MAX_STEPS + 1,
    MAX_STEPS + 1,
    MAX_STEPS + 1,
    MAX_STEPS,
)
"""The sizes of the fields of :class:`.state.Search`, in order."""
SEARCH_SIZE = sum(SEARCH_SIZES)
WORK_SIZES = (MAX_STEPS, SCRATCH, OUT_SIZE)
"""The sizes of the fields of :class:`.state.Work`, in order."""
ARENA_SIZE = 2 * SEARCH_SIZE + sum(WORK_SIZES) + INFO
"""One thread's array for :func:`answer_in`: the search from the bottom, the one from the
top, the work of a question and its ``info``."""


def count_cards(q: Question, scratch: Ints) -> int:
    """Count the cards into ``scratch``: the jokers in play, or -1 if more than two.

    The first ``info[I_TABLE]`` codes are the table's, the next ``info[I_HAND]`` the
    hand's (all placed on the table when ``info[I_ALL_TABLE]``). Table jokers keep
    what they stand for (V11) unless ``info[I_FREE]``. Returns wild table jokers, hand
    jokers, run jokers and group jokers, two bits each.
    """
    cards = q.cards
    nt = q.info[I_TABLE]
    all_table = q.info[I_ALL_TABLE]
    free = q.info[I_FREE]
    for i in range(RC):
        scratch[i] = 0
    wild_table = 0
    wild_hand = 0
    nrun = 0
    ngrp = 0
    for i in range(nt + q.info[I_HAND]):
        c = cards[i]
        if 4 <= c < 56:
            if i < nt or all_table != 0:
                scratch[TN + c] += 1
            else:
                scratch[HN + c] += 1
        elif i >= nt:
            if all_table != 0:
                wild_table += 1
            else:
                wild_hand += 1
        elif free != 0 or c == WILD:
            wild_table += 1
        elif c >= GROUP_JOKER:
            if ngrp < 2:
                scratch[GRPJ + ngrp] = c - GROUP_JOKER
            ngrp += 1
        else:
            if nrun < 2:
                scratch[RUNJ + nrun] = c - RUN_JOKER
            nrun += 1
    if wild_table + wild_hand + nrun + ngrp > 2:
        return -1
    return wild_table | (wild_hand << 2) | (nrun << 4) | (ngrp << 6)


def case_cells(q: Question, scratch: Ints, counted: int, freed: int, into: Search) -> int:
    """Fill ``into``'s cells, ranks and params for one freeing case (V11, V12): the weight
    of the hand cards it forces onto the table, or -1 when there is no such case.

    ``freed``: bit i frees run joker i, bit 2 + i group joker i. A freed joker is wild
    and the table must hold a natural copy of what it stood for: hand cards come in
    where the table has too few copies of a run joker's card (-1: too few in hand),
    and a rank must have as many natural cards as freed jokers of it.
    """
    weights = q.weights
    cells = into.cells
    ranks = into.ranks
    params = into.params
    nrun = (counted >> 4) & 3
    ngrp = (counted >> 6) & 3
    nfreed = 0
    for i in range(42):
        ranks[i] = 0
    for c in range(56):
        cells[c * 3] = scratch[TN + c]
        cells[c * 3 + 1] = scratch[HN + c]
        cells[c * 3 + 2] = 0
        scratch[FIX + c] = 0
        scratch[FREED + c] = 0
    for i in range(nrun):
        c = scratch[RUNJ + i]
        if (freed >> i) & 1 != 0:
            nfreed += 1
            scratch[FREED + c] += 1
            ranks[14 + c // 4] += 1
        else:
            cells[c * 3] += 1
            cells[c * 3 + 2] += 1
            scratch[FIX + c] += 1
    for i in range(ngrp):
        r = scratch[GRPJ + i]
        if (freed >> (2 + i)) & 1 != 0:
            nfreed += 1
            ranks[14 + r] += 1
        else:
            ranks[r] += 1
    base = 0
    for r in range(1, 14):
        naturals = 0
        for s in range(4):
            c = r * 4 + s
            need = scratch[FREED + c] - scratch[TN + c]
            if need > 0:
                if need > cells[c * 3 + 1]:
                    return -1
                cells[c * 3 + 1] -= need
                cells[c * 3] += need
                base += need * weights[r]
            naturals += scratch[TN + c] + scratch[HN + c]
        if ranks[14 + r] > naturals:
            return -1
    for r in range(14):
        ranks[28 + r] = weights[r]
    params[P_WILD_MAND] = (counted & 3) + nfreed
    params[P_WILD_OPT] = (counted >> 2) & 3
    params[P_JOKER] = weights[14]
    params[P_HAS_FLOOR] = 0
    params[P_FLOOR] = 0
    params[P_HIGH] = q.info[I_HIGH]
    params[P_EMPTY] = q.info[I_EMPTY]
    params[P_DISTINCT] = q.info[I_DISTINCT]
    return base


def mirror(up: Search, down: Search, high: int) -> None:
    """Pose ``up``'s case to ``down`` with the run positions taken from the other end
    (ranks 2..13 read as 13..2, the ace at either end; the same answers)."""
    for rank in range(14):
        m = mirrored(rank, high)
        for s in range(4):
            for k in range(3):
                down.cells[(m * 4 + s) * 3 + k] = up.cells[(rank * 4 + s) * 3 + k]
        for k in range(3):
            down.ranks[k * 14 + m] = up.ranks[k * 14 + rank]
    for i in range(PARAMS):
        down.params[i] = up.params[i]


def both_ends(t: Tables, up: Search, down: Search, budget: int) -> tuple[int, int]:
    """Search one freeing case from both ends: the value found (``NOTHING``: none, or
    ``-NOTHING``: past ``budget`` states of both searches together), and 1 when the
    search from the top found it (else 0).

    The search from the bottom runs alone for :data:`.state.FIRST` states; then the
    one from the top joins it, :data:`.state.SLICE` states each in turn, and the first
    to end answers (its cost: about twice the cheaper one's). The order of turns is
    fixed, so the answer is too.
    """
    up.progress[G_RUNNING] = 0
    down.progress[G_RUNNING] = 0
    value = depth_first(up, t, FIRST)
    quota = FIRST
    while value == -NOTHING:
        if up.progress[G_NODES] + down.progress[G_NODES] > budget:
            return -NOTHING, 0
        quota += SLICE
        value = depth_first(down, t, quota - FIRST)
        if value != -NOTHING:
            return value, 1
        value = depth_first(up, t, quota)
    return value, 0


def answer(q: Question, w: Work, t: Tables, up: Search, down: Search) -> int:
    """The best play of a whole question, into ``w.out``: 1 an answer, 0 none, 2 not answered.

    Every freeing case is searched, the one that frees fewest jokers first, each only
    for answers better than the best so far (a tie keeps the earlier case); 2 when
    more than two jokers are in play, a cell holds more than :data:`.state.MAX_CELL`
    cards (groups of distinct suits: four), or a search runs past its budget.
    """
    info = q.info
    weights = q.weights
    scratch = w.scratch
    out = w.out
    high = info[I_HIGH]
    out[0] = 0
    counted = count_cards(q, scratch)
    if counted < 0:
        out[0] = 2
        return 2
    total = ((counted >> 4) & 3) + ((counted >> 6) & 3)
    nrun = (counted >> 4) & 3
    found = False
    best = 0
    best_freed = 0
    best_rev = 0
    ceiling = -1
    for k in range(1 << total):
        # fewest freed first; among as many, the later combination first
        chosen = k if total < 2 or k == 0 or k == 3 else 3 - k
        freed = 0
        for i in range(total):
            if (chosen >> i) & 1 != 0:
                freed |= 1 << (i if i < nrun else 2 + i - nrun)
        base = case_cells(q, scratch, counted, freed, up)
        if base < 0:
            continue
        cells = up.cells
        if ceiling < 0:  # the whole hand laid: no case can score more
            ceiling = base + up.params[P_WILD_OPT] * weights[14]
            for c in range(4, 56):
                ceiling += cells[c * 3 + 1] * weights[c // 4]
        for c in range(4, 56):
            if cells[c * 3] + cells[c * 3 + 1] > (4 if info[I_DISTINCT] != 0 else MAX_CELL):
                out[0] = 2  # more cards of a cell than the states (or the groups') hold
                return 2
        if found:
            up.params[P_HAS_FLOOR] = 1
            up.params[P_FLOOR] = best - base
        mirror(up, down, high)
        value, rev = both_ends(t, up, down, info[I_BUDGET])
        if value == -NOTHING:
            out[0] = 2
            return 2
        if value != NOTHING and (not found or value + base > best):
            found = True
            best = value + base
            best_freed = freed
            best_rev = rev
            for u in range(len(w.best_path)):
                w.best_path[u] = down.path[u] if rev != 0 else up.path[u]
            if best >= ceiling:
                break
    if not found:
        return 0
    out[0] = 1
    out[1] = best
    if info[I_LAYOUT] != 0:
        case_cells(q, scratch, counted, best_freed, up)
        lay_out(q, w, up, best_rev)
    return 1


def search_at(arena: Ints, at: int) -> Search:
    """The :class:`.state.Search` whose fields lie in ``arena`` from ``at`` on (views:
    compiled only, where slices of an array share its memory)."""
    a0 = at
    a1 = a0 + CELLS
    a2 = a1 + RANKS
    a3 = a2 + PARAMS
    a4 = a3 + (2 << MEMO_BITS)
    a5 = a4 + PROGRESS
    a6 = a5 + MAX_STEPS * OPTIONS * 3
    a7 = a6 + MAX_STEPS + 1
    a8 = a7 + MAX_STEPS + 1
    a9 = a8 + MAX_STEPS + 1
    a10 = a9 + MAX_STEPS + 1
    a11 = a10 + MAX_STEPS + 1
    a12 = a11 + MAX_STEPS + 1
    a13 = a12 + MAX_STEPS
    return Search(
        arena[a0:a1],
        arena[a1:a2],
        arena[a2:a3],
        arena[a3:a4],
        arena[a4:a5],
        arena[a5:a6],
        arena[a6:a7],
        arena[a7:a8],
        arena[a8:a9],
        arena[a9:a10],
        arena[a10:a11],
        arena[a11:a12],
        arena[a12:a13],
    )


def tables_at(flat: Ints) -> Tables:
    """The :class:`.state.Tables` held in one array: seven offsets, then the tables."""
    return Tables(
        flat[flat[0] : flat[1]],
        flat[flat[1] : flat[2]],
        flat[flat[2] : flat[3]],
        flat[flat[3] : flat[4]],
        flat[flat[4] : flat[5]],
        flat[flat[5] : flat[6]],
        flat[flat[6] : len(flat)],
    )


def work_at(arena: Ints) -> Work:
    """The :class:`.state.Work` in ``arena``, after the two searches (views, as
    :func:`search_at`)."""
    at = 2 * SEARCH_SIZE
    return Work(
        arena[at : at + MAX_STEPS],
        arena[at + MAX_STEPS : at + MAX_STEPS + SCRATCH],
        arena[at + MAX_STEPS + SCRATCH : at + MAX_STEPS + SCRATCH + OUT_SIZE],
    )


def answer_in(arena: Ints, flat: Ints, cards: Ints, weights: Ints) -> int:
    """:func:`answer`, compiled: every structure a view into ``arena`` (this thread's; see
    :data:`ARENA_SIZE`; ``info`` at its end, filled by the caller) and ``flat`` (the
    tables, :func:`tables_at`)."""
    q = Question(cards, weights, arena[ARENA_SIZE - INFO : ARENA_SIZE])
    up = search_at(arena, 0)
    down = search_at(arena, SEARCH_SIZE)
    return answer(q, work_at(arena), tables_at(flat), up, down)


def search_in(arena: Ints, flat: Ints, budget: int) -> int:
    """:func:`.search.depth_first`, compiled: the search from the bottom of ``arena`` (one
    freeing case, for tests and measurements)."""
    return depth_first(search_at(arena, 0), tables_at(flat), budget)
