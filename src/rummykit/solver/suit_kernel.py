"""One suit's programme of the split search, compiled with numba when it is installed.

The programme itself is :func:`.suit_search.suit_programme` (the same answers
as :func:`rummykit.solver.split._suit`, ties included); this module loads it
through the kernel registry (:mod:`.kernels`) and calls it. ``numba`` is
optional (the ``fast`` extra); without it :data:`AVAILABLE` is False and the
split search runs its pure-Python programme. numba and numpy are imported, and
the compiled function loaded from numba's cache (compiled the first time on a
machine, about two seconds), on the first solve that needs them: a process
that never solves does not pay for them. ``RUMMYKIT_PURE_PYTHON=1`` keeps the
solver in Python.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from typing import Any

from rummykit.solver.counts import MUST, NEXT, RUN_STATES, SUITS, Counts
from rummykit.solver.kernels import COMPILE, Kernels, Programme

__all__ = ["AVAILABLE", "CELL_FIELDS", "ready", "solve_suit", "suit_cells", "warm"]

AVAILABLE = COMPILE
"""Whether the split search runs the compiled programme (numba and numpy installed)."""

CELL_FIELDS = 3
"""Per rank 0..13 of a suit: must-place cards, cards in all, weight of a card."""

_scratch = threading.local()
_BOUNDS_KEPT = 4096
_bounds_arrays: dict[tuple[tuple[int, int, int], ...], Any] = {}
"""Bounds already turned into arrays: the split search asks for the same few again and
again, and building a small array costs as much as half the programme (read only)."""
_TABLES: list[tuple[Any, Any, Any]] = []
"""The state tables as arrays (``nxt``, ``must``, ``closed``), made once."""


def _numpy() -> Any:
    """numpy (installed with numba)."""
    return importlib.import_module("numpy")


def _tables() -> tuple[Any, Any, Any]:
    """The state tables the programme reads, as arrays (made on the first call)."""
    if not _TABLES:
        np = _numpy()
        _TABLES.append(
            (
                np.array(NEXT, dtype=np.int64),
                np.array(MUST, dtype=np.int64),
                np.array([n1 == 0 and n2 == 0 for n1, n2, _ in RUN_STATES], dtype=np.bool_),
            )
        )
    return _TABLES[0]


def _warm_up(kernels: Kernels) -> None:
    """Run the programme once on an empty suit, so that numba loads it now."""
    np = _numpy()
    empty = np.zeros((14, CELL_FIELDS), dtype=np.int64)
    kernels["suit_programme"](_work(13, 0, 0), empty, empty, 13, False, False, 0, *_tables())


PROGRAMME = Programme(("rummykit.solver.suit_search",), _warm_up, allocates=True)
"""The compiled suit programme (loaded on first use, only where :data:`AVAILABLE`)."""


def ready() -> bool:
    """Whether the compiled programme is there to use (loading it on the first call)."""
    return AVAILABLE and PROGRAMME.get().compiled


def _work(npos: int, jmax: int, a1max: int) -> Any:
    """This thread's scratch space for the programme, grown when a problem needs more."""
    need = len(RUN_STATES) * (jmax + 1) * (a1max + 1)
    work = getattr(_scratch, "work", None)
    if work is None or work.shape[1] < npos + 1 or work.shape[2] < need:
        np = _numpy()
        work = np.empty((7, 15, max(need, len(RUN_STATES) * 3 * 3)), dtype=np.int64)
        _scratch.work = work
    return work


def warm() -> None:
    """Load (or compile, the first time on a machine) the compiled programme now.

    numba loads a cached function on its first call, which takes a few tenths
    of a second; callers that time the solver call this first.
    """
    if AVAILABLE:
        PROGRAMME.get()


def suit_cells(cp: Counts) -> list[Any]:
    """Each suit's cells for :func:`solve_suit`: an int64 array of shape
    (14, :data:`CELL_FIELDS`)."""
    np = _numpy()
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
    """One suit's best (score, value, path) per jokers in runs, or None; see
    :func:`.suit_search.suit_programme`.

    ``base`` is the suit's array from :func:`suit_cells`; ``bounds`` per rank
    0..13 the group's (fewest, most) cards and the fewest cards placed.
    """
    programme = PROGRAMME.get()["suit_programme"]
    work = _work(npos, jmax, base[1, 1] if high else 0)
    key = tuple(bounds)
    limits = _bounds_arrays.get(key)
    if limits is None:
        if len(_bounds_arrays) >= _BOUNDS_KEPT:
            _bounds_arrays.clear()
        np = _numpy()
        limits = _bounds_arrays[key] = np.array(key, dtype=np.int64)
    found, best, value, paths = programme(work, base, limits, npos, high, every_g, jmax, *_tables())
    found = found.tolist()
    best = best.tolist()
    value = value.tolist()
    return [
        (best[j], value[j], tuple(map(tuple, paths[j].tolist()))) if found[j] else None
        for j in range(jmax + 1)
    ]
