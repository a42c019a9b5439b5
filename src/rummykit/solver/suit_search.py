"""One suit's programme of the split search, as numba compiles it (a kernel module).

:func:`rummykit.solver.split._suit` is the reference: the same layers, states,
options and order of visits, so the compiled programme returns the very same
answers (ties included) and the solver's output does not depend on whether
numba is there. A layer is a list of states in the order they were first
reached, like the dict of the pure-Python programme; a state replaces an
earlier way to it only when it scores strictly more. :mod:`.suit_kernel`
loads it (only where numba is: it works on numpy arrays).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummykit.solver.counts import RUN_STATES

KERNELS = ("suit_programme",)
"""The functions numba compiles."""

NST = len(RUN_STATES)
"""Run states of one suit."""
EMPTY = RUN_STATES.index((0, 0, 0))
"""The run state with no run open."""
TIE = 1024
"""Scale of the objective over the tie-break that keeps cards out of runs."""


def suit_programme(
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
) -> tuple[Any, Any, Any, Any]:
    """The programme over positions 1..npos; per jokers in runs j: (found, score, value, path).

    ``work`` is scratch space of shape (7, >= npos + 1, >= states), reused between
    calls: fresh arrays of this size would cost more than the programme.
    """
    nst = NST
    empty = EMPTY
    tie_scale = TIE
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
