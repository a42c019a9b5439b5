"""One suit's programme of the split search, compiled with numba when it is installed.

:func:`rummykit.solver.split._suit` is the reference: the same layers, states,
options and order of visits, so the compiled programme returns the very same
answers (ties included) and the solver's output does not depend on whether
numba is there. A layer is a list of states in the order they were first
reached, like the dict of the pure-Python programme; a state replaces an
earlier way to it only when it scores strictly more.

``numba`` is optional (the ``fast`` extra); without it :data:`AVAILABLE` is
False and the split search runs its pure-Python programme. numba and numpy
are imported, and the compiled function loaded from numba's cache (compiled
the first time on a machine, about two seconds), on the first solve that
needs them: a process that never solves does not pay for them. Setting the
environment variable ``RUMMYKIT_PURE_PYTHON=1`` keeps the solver in Python.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from rummykit.solver.dp import MUST, NEXT, RUN_STATES, SUITS, Counts

__all__ = ["AVAILABLE", "CELL_FIELDS", "ready", "solve_suit", "suit_cells", "warm"]

AVAILABLE = (
    importlib.util.find_spec("numba") is not None
    and importlib.util.find_spec("numpy") is not None
    and os.environ.get("RUMMYKIT_PURE_PYTHON", "") in ("", "0")
)
"""Whether the split search runs the compiled programme (numba and numpy installed)."""

CELL_FIELDS = 3
"""Per rank 0..13 of a suit: must-place cards, cards in all, weight of a card."""

_NST = len(RUN_STATES)
_EMPTY = RUN_STATES.index((0, 0, 0))
_TIE = 1024
_loaded: dict[str, Any] = {}
_scratch = threading.local()
_BOUNDS_KEPT = 4096
_bounds_arrays: dict[tuple[tuple[int, int, int], ...], Any] = {}
"""Bounds already turned into arrays: the split search asks for the same few again and
again, and building a small array costs as much as half the programme (read only)."""
np: Any = None
"""numpy, once :func:`_tables` has imported it (the programme's arrays need it)."""


def _tables() -> dict[str, Any]:
    """numpy, the state tables as arrays, and the compiled programme (None without numba)."""
    global np
    if not _loaded:
        np = importlib.import_module("numpy")
        _loaded["np"] = np
        _loaded["tables"] = (
            np.array(NEXT, dtype=np.int64),
            np.array(MUST, dtype=np.int64),
            np.array([n1 == 0 and n2 == 0 for n1, n2, _ in RUN_STATES], dtype=np.bool_),
            _NST,
            _EMPTY,
            _TIE,
        )
        fn: Callable[..., Any] = _kernel
        _loaded["compiled"] = False
        if AVAILABLE:
            numba = importlib.import_module("numba")
            empty = np.zeros((14, CELL_FIELDS), dtype=np.int64)
            # an unwritable cache (a read-only install) only costs the compile time
            for cache in (True, False):
                try:
                    fn = numba.njit(cache=cache, nogil=True)(_kernel)
                    fn(_work(13, 0, 0), empty, empty, 13, False, False, 0, *_loaded["tables"])
                except Exception as exc:  # pragma: no cover - depends on the machine
                    warnings.warn(f"numba could not compile the solver: {exc}", stacklevel=2)
                    fn = _kernel
                else:
                    _loaded["compiled"] = True
                    break
            # numba leaves a great many new objects behind; collect them now, once,
            # rather than in the middle of some later solve
            gc.collect()
        _loaded["fn"] = fn
    return _loaded


def ready() -> bool:
    """Whether the compiled programme is there to use (loading it on the first call)."""
    return AVAILABLE and bool(_tables()["compiled"])


def _kernel(
    work: Any,
    cells: Any,
    bounds: Any,
    npos: int,
    high: bool,
    every_g: bool,
    jmax: int,
    nxt: Any,
    must: Any,
    closed: Any,
    nst: int,
    empty: int,
    tie_scale: int,
) -> tuple[Any, Any, Any, Any]:
    """The programme over positions 1..npos; per jokers in runs j: (found, score, value, path).

    ``work`` is scratch space of shape (7, >= npos + 1, >= states), reused between
    calls: fresh arrays of this size would cost more than the programme.
    """
    jw = jmax + 1
    a1max = cells[1, 1] if high else 0
    nstates = nst * jw * (a1max + 1)
    width = nxt.shape[1]
    layers = npos + 1
    keys = work[0]
    score = work[1]
    value = work[2]
    back = work[3]
    bxn = work[4]
    bxj = work[5]
    bg = work[6]
    size = np.zeros(layers, np.int64)
    where = np.full(nstates, -1, np.int64)
    keys[0, 0] = empty
    score[0, 0] = 0
    value[0, 0] = 0
    size[0] = 1
    maxopt = 64
    opts = np.empty((a1max + 1, maxopt, 4), np.int64)
    nopt = np.full(a1max + 1, -1, np.int64)
    for p in range(1, npos + 1):
        rank = 1 if p == 14 else p
        m = cells[rank, 0]
        a = cells[rank, 1]
        glo = bounds[rank, 0]
        ghi = bounds[rank, 1]
        umin = bounds[rank, 2]
        w = cells[rank, 2]
        low_pass = high and p == 1
        for i in range(a1max + 1):
            nopt[i] = -1
        if low_pass:
            for xn in range(a + 1):
                opts[0, xn, 0] = xn
                opts[0, xn, 1] = 0
                opts[0, xn, 2] = 0
                opts[0, xn, 3] = 0
            nopt[0] = a + 1
        n = 0
        for i in range(size[p - 1]):
            key = keys[p - 1, i]
            sc = score[p - 1, i]
            val = value[p - 1, i]
            st = key % nst
            rest = key // nst
            j = rest % jw
            a1 = rest // jw
            if nopt[a1] < 0:
                # the cell's options, as split._cell_options lists them
                b1 = a1 if p == 14 else 0
                floor = m - b1 if m > b1 else 0
                avail = a - b1
                k = 0
                for xn in range(avail + 1):
                    top = avail - xn if avail - xn < ghi else ghi
                    low = top
                    if every_g:
                        low = max(glo, floor - xn, 0)
                    for g in range(low, top + 1):
                        if g < glo or g < floor - xn:
                            continue
                        used = xn + g + (b1 if p == 14 else 0)
                        if used < umin:
                            continue
                        gain = (used - m) * w if used > m else 0
                        tie = (0 if g == 1 else 1) if every_g else (xn if ghi > 0 else 0)
                        opts[a1, k, 0] = xn
                        opts[a1, k, 1] = g
                        opts[a1, k, 2] = gain * tie_scale - tie
                        opts[a1, k, 3] = gain
                        k += 1
                nopt[a1] = k
            keep_a1 = 0 if p == 14 else a1
            mst = must[st]
            for xj in range(jw - j):
                jn = j + xj
                for o in range(nopt[a1]):
                    xn = opts[a1, o, 0]
                    x = xn + xj
                    if x < mst or x >= width:
                        continue
                    ns = nxt[st, x]
                    if ns < 0:
                        continue
                    nkey = ns + nst * (jn + jw * (xn if low_pass else keep_a1))
                    nscore = sc + opts[a1, o, 2] - 2 * xj
                    at = where[nkey]
                    if at < 0:
                        at = n
                        n += 1
                        where[nkey] = at
                        keys[p, at] = nkey
                    elif nscore <= score[p, at]:
                        continue
                    score[p, at] = nscore
                    value[p, at] = val + opts[a1, o, 3]
                    back[p, at] = i
                    bxn[p, at] = xn
                    bxj[p, at] = xj
                    bg[p, at] = opts[a1, o, 1]
        size[p] = n
        for i in range(n):
            where[keys[p, i]] = -1
    found = np.zeros(jw, np.bool_)
    best = np.zeros(jw, np.int64)
    best_value = np.zeros(jw, np.int64)
    at_end = np.zeros(jw, np.int64)
    for i in range(size[npos]):
        key = keys[npos, i]
        if not closed[key % nst]:
            continue
        j = (key // nst) % jw
        if not found[j] or score[npos, i] > best[j]:
            found[j] = True
            best[j] = score[npos, i]
            best_value[j] = value[npos, i]
            at_end[j] = i
    paths = np.zeros((jw, layers, 3), np.int64)
    for j in range(jw):
        if not found[j]:
            continue
        i = at_end[j]
        for p in range(npos, 0, -1):
            paths[j, p, 0] = bxn[p, i]
            paths[j, p, 1] = bxj[p, i]
            paths[j, p, 2] = bg[p, i]
            i = back[p, i]
    return found, best, best_value, paths


def _work(npos: int, jmax: int, a1max: int) -> Any:
    """This thread's scratch space for :func:`_kernel`, grown when a problem needs more."""
    need = _NST * (jmax + 1) * (a1max + 1)
    work = getattr(_scratch, "work", None)
    if work is None or work.shape[1] < npos + 1 or work.shape[2] < need:
        work = np.empty((7, 15, max(need, _NST * 3 * 3)), dtype=np.int64)
        _scratch.work = work
    return work


def warm() -> None:
    """Load (or compile, the first time on a machine) the compiled programme now.

    numba loads a cached function on its first call, which takes a few tenths
    of a second; callers that time the solver call this first.
    """
    if AVAILABLE:
        _tables()


def suit_cells(cp: Counts) -> list[Any]:
    """Each suit's cells for :func:`solve_suit`: an int64 array of shape
    (14, :data:`CELL_FIELDS`)."""
    _tables()
    out = []
    for s in range(SUITS):
        rows = [[0] * CELL_FIELDS]
        for rank in range(1, 14):
            m = cp.mand[rank][s]
            rows.append([m, m + cp.opt[rank][s], cp.weight[rank]])
        out.append(np.array(rows, dtype=np.int64))
    return out


def solve_suit(
    base: Any,
    bounds: Sequence[tuple[int, int, int]],
    npos: int,
    high: bool,
    every_g: bool,
    jmax: int,
) -> list[tuple[int, int, tuple[tuple[int, int, int], ...]] | None]:
    """One suit's best (score, value, path) per jokers in runs, or None; see :func:`_kernel`.

    ``base`` is the suit's array from :func:`suit_cells`; ``bounds`` per rank
    0..13 the group's (fewest, most) cards and the fewest cards placed.
    """
    got = _tables()
    work = _work(npos, jmax, base[1, 1] if high else 0)
    key = tuple(bounds)
    limits = _bounds_arrays.get(key)
    if limits is None:
        if len(_bounds_arrays) >= _BOUNDS_KEPT:
            _bounds_arrays.clear()
        limits = _bounds_arrays[key] = np.array(key, dtype=np.int64)
    found, best, value, paths = got["fn"](
        work, base, limits, npos, high, every_g, jmax, *got["tables"]
    )
    found = found.tolist()
    best = best.tolist()
    value = value.tolist()
    return [
        (best[j], value[j], tuple(map(tuple, paths[j].tolist()))) if found[j] else None
        for j in range(jmax + 1)
    ]
