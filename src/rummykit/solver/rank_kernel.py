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

The search runs in passes that allow more and more hand points to be left out
(see :func:`solve`), after hand cards that no meld could hold are set aside.
On tables of up to about 64 cards this is many times faster than the split
search; on fuller tables the joint states multiply and the split search wins
(docs/solver.md).

The states of a step are kept in one flat pool with their way back; a small
open-addressing table merges equal states (the first way to a state is kept
unless a later one scores strictly more), so the answer is deterministic.
Used by :func:`rummykit.solver._solve_position` when :func:`applies`; without
numba it is never used (the split search answers instead).
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import threading
import warnings
from collections.abc import Callable
from typing import Any

from rummykit.solver.dp import NEXT, RUN_STATES, SUITS, Counts, Solution

__all__ = ["AVAILABLE", "applies", "solve", "warm"]

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
"""The kernel's answer when its scratch space is too small (it is then grown)."""
_NOTHING = 1 << 62
"""No partial answer was dropped."""

_loaded: dict[str, Any] = {}
_lock = threading.Lock()
_scratch = threading.local()


def applies(cp: Counts) -> bool:
    """Whether this programme answers ``cp``: distinct-suit groups, no high ace, few jokers."""
    if not AVAILABLE or not cp.distinct or cp.ace_high or cp.max_group < SUITS:
        return False
    jokers = cp.wild_mand + cp.wild_opt + sum(cp.gmand)
    jokers += sum(cp.fixed[r][s] for r in range(14) for s in range(SUITS))
    if jokers > MAX_JOKERS:
        return False
    return all(cp.mand[r][s] + cp.opt[r][s] <= MAX_CELL for r in range(14) for s in range(SUITS))


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


def _tables() -> dict[str, Any]:
    """numpy, the state tables, and the compiled programme (loaded once)."""
    global np
    with _lock:
        if not _loaded:
            np = importlib.import_module("numpy")
            numba = importlib.import_module("numba")
            _loaded["np"] = np
            step, table = _group_automaton(SUITS)
            steps = np.full((SUITS, max(map(len, step)), MAX_CELL + 1), -1, dtype=np.int64)
            for s, row in enumerate(step):
                steps[s, : len(row)] = row
            _loaded["tables"] = (
                np.array(NEXT, dtype=np.int64),
                np.array([n1 == 0 and n2 == 0 for n1, n2, _ in RUN_STATES], dtype=np.bool_),
                steps,
                np.array(table, dtype=np.bool_),
                np.array([sum(st) for st in RUN_STATES], dtype=np.int64),
                RUN_STATES.index((0, 0, 0)),
            )
            _loaded["fn"] = None
            blank = np.zeros((14, SUITS, 3), np.int64)
            for cache in (True, False):
                try:
                    _compile(numba, cache)
                    fn: Callable[..., Any] = _loaded["compiled"]
                    args = (np.zeros((3, 14), np.int64), np.zeros(5, np.int64))
                    fn(
                        blank,
                        *args,
                        *_scratch_arrays(64),
                        *_loaded["tables"],
                        np.zeros((14, 5), np.int64),
                    )
                except Exception as exc:  # pragma: no cover - depends on the machine
                    warnings.warn(f"numba could not compile the solver: {exc}", stacklevel=2)
                else:
                    _loaded["fn"] = fn
                    break
    return _loaded


def warm() -> None:
    """Load (or compile) the programme now, so that no later solve pays for it."""
    if AVAILABLE:
        _tables()


def _compile(numba: Any, cache: bool) -> None:
    """Compile the pass, then the search that calls it (numba resolves it by its global name)."""
    global _pass, _set_aside
    _pass = numba.njit(cache=cache, nogil=True)(_pass_source)
    _set_aside = numba.njit(cache=cache, nogil=True)(_set_aside_source)
    _loaded["compiled"] = numba.njit(cache=cache, nogil=True)(_search)


def _scratch_arrays(cap: int) -> tuple[Any, Any, Any, Any, Any]:
    np = _loaded["np"]
    pool = np.empty((4, cap), dtype=np.int64)
    slots = np.full(2 * cap, -1, dtype=np.int64)
    stamp = np.zeros(2 * cap, dtype=np.int64)
    clock = np.zeros(1, dtype=np.int64)
    info = np.zeros(1, dtype=np.int64)
    return pool, slots, stamp, clock, info


def solve(cp: Counts, floor: int | None = None) -> Solution | None:
    """The best placement of the cards of ``cp``, or None when the mandatory ones cannot go.

    With ``floor``, only an answer scoring more than ``floor`` is of use: None
    when there is none. Only for problems where :func:`applies` holds.
    """
    loaded = _tables()
    fn = loaded["fn"]
    if fn is None:  # pragma: no cover - numba failed to compile
        raise RuntimeError("the compiled rank programme is not available")
    np = loaded["np"]
    cells = np.empty((14, SUITS, 3), dtype=np.int64)
    cells[:, :, 0] = cp.mand
    cells[:, :, 1] = cp.opt
    cells[:, :, 2] = cp.fixed
    ranks = np.array([cp.gmand, cp.natmin, cp.weight], dtype=np.int64)
    limit = 0 if floor is None else floor - cp.base
    params = np.array(
        [cp.wild_mand, cp.wild_opt, cp.wjoker, floor is not None, limit], dtype=np.int64
    )
    path = np.zeros((14, SUITS + 1), dtype=np.int64)
    while True:
        scratch = getattr(_scratch, "arrays", None)
        if scratch is None:
            scratch = _scratch.arrays = _scratch_arrays(1 << 14)
        found = fn(cells, ranks, params, *scratch, *loaded["tables"], path)
        if found != _OVERFLOW:
            break
        _scratch.arrays = _scratch_arrays(4 * scratch[0].shape[1])
    if found < 0:
        return None
    pool = scratch[0]
    placed = int(pool[0, found] >> 32) & 7
    choices = path.tolist()
    return Solution(
        score=int(pool[1, found]) - cp.wild_mand * cp.wjoker + cp.base,
        run_cards=[[c & 15 for c in row[:SUITS]] for row in choices],
        run_jokers=[[c >> 8 for c in row[:SUITS]] for row in choices],
        group_cards=[[(c >> 4) & 15 for c in row[:SUITS]] for row in choices],
        group_jokers=[row[SUITS] for row in choices],
        hand_jokers=placed - cp.wild_mand,
    )


np: Any = None
"""numpy, once :func:`_tables` has imported it."""


def _pass_source(
    cells: Any,
    ranks: Any,
    wild_mand: int,
    wild_opt: int,
    wjoker: int,
    pool: Any,
    slots: Any,
    stamp: Any,
    clock: Any,
    nxt: Any,
    closed: Any,
    gstep: Any,
    fits: Any,
    opened: Any,
    empty: int,
    lost: Any,
    slack: int,
    info: Any,
) -> int:
    """One pass: fill ``pool`` (key, score, parent, choice) step by step; the best entry or -1.

    A key holds the four suit states (8 bits each), the jokers placed (bits 32-34),
    and inside a rank the group class (bits 36-45) and naturals (bits 46-49).
    States that have left out more than ``slack`` hand points are dropped; the
    least such loss goes to ``info[0]``. Returns -2 when ``pool`` or the merge
    table is too small.
    """
    cap = pool.shape[1]
    nslots = slots.shape[0]
    mask = nslots - 1
    width = nxt.shape[1]
    jtotal = wild_mand + wild_opt
    keys = pool[0]
    score = pool[1]
    parent = pool[2]
    choice = pool[3]
    base = 0
    for s in range(4):
        base |= empty << (8 * s)
    keys[0] = base
    score[0] = 0
    parent[0] = -1
    choice[0] = 0
    lo = 0
    hi = 1
    step = clock[0]
    for rank in range(1, 14):
        need = ranks[1, rank]
        w = ranks[2, rank]
        for s in range(4):
            shift = 8 * s
            m = cells[rank, s, 0]
            a = m + cells[rank, s, 1]
            fj = cells[rank, s, 2]
            n = hi
            step += 1
            for i in range(lo, hi):
                key = keys[i]
                st = (key >> shift) & 255
                have = opened[st]
                jp = (key >> 32) & 7
                gcode = (key >> 36) & 1023
                nat = (key >> 46) & 15
                sc = score[i]
                for js in range(jtotal - jp + 1):
                    for xc in range(a + 1):
                        x = xc + js
                        if x >= width:
                            break
                        ns = nxt[st, x]
                        if ns < 0:
                            continue
                        cmin = m - xc if m > xc else 0
                        for c in range(cmin, a - xc + 1):
                            used = xc + c
                            if used < a and x < have:
                                continue  # dominated: a spare card would keep a run going
                            gain = (used - m) * w + js * wjoker
                            ncode = gstep[s, gcode, c]
                            if ncode < 0:
                                continue
                            nnat = nat + used - fj
                            if nnat > need:
                                nnat = need
                            nkey = (key & ~(255 << shift)) | (ns << shift)
                            nkey = (nkey & ~(7 << 32)) | ((jp + js) << 32)
                            nkey = (nkey & ((1 << 36) - 1)) | (ncode << 36) | (nnat << 46)
                            nsc = sc + gain
                            loss = lost[rank, s] - nsc + (jp + js) * wjoker
                            if loss > slack:
                                if loss < info[0]:
                                    info[0] = loss
                                continue
                            h = ((nkey * -7046029254386353131) >> 24) & mask
                            while True:
                                if stamp[h] != step:
                                    if n >= cap or (n - hi) * 2 >= nslots:
                                        clock[0] = step
                                        return -2
                                    stamp[h] = step
                                    slots[h] = n
                                    keys[n] = nkey
                                    score[n] = nsc
                                    parent[n] = i
                                    choice[n] = xc | (c << 4) | (js << 8)
                                    n += 1
                                    break
                                k = slots[h]
                                if keys[k] == nkey:
                                    if nsc > score[k]:
                                        score[k] = nsc
                                        parent[k] = i
                                        choice[k] = xc | (c << 4) | (js << 8)
                                    break
                                h = (h + 1) & mask
            lo = hi
            hi = n
            if lo == hi:
                clock[0] = step
                return -1
        # the rank's groups: give them jokers, check them, forget the rank's tallies
        gm = ranks[0, rank]
        n = hi
        step += 1
        for i in range(lo, hi):
            key = keys[i]
            if (key >> 46) & 15 < need:
                continue
            jp = (key >> 32) & 7
            gcode = (key >> 36) & 1023
            for jg in range(jtotal - jp + 1):
                if not fits[gcode, gm + jg]:
                    continue
                nkey = (key & ((1 << 32) - 1)) | ((jp + jg) << 32)
                nsc = score[i] + jg * wjoker
                h = ((nkey * -7046029254386353131) >> 24) & mask
                while True:
                    if stamp[h] != step:
                        if n >= cap or (n - hi) * 2 >= nslots:
                            clock[0] = step
                            return -2
                        stamp[h] = step
                        slots[h] = n
                        keys[n] = nkey
                        score[n] = nsc
                        parent[n] = i
                        choice[n] = jg
                        n += 1
                        break
                    k = slots[h]
                    if keys[k] == nkey:
                        if nsc > score[k]:
                            score[k] = nsc
                            parent[k] = i
                            choice[k] = jg
                        break
                    h = (h + 1) & mask
        lo = hi
        hi = n
        if lo == hi:
            clock[0] = step
            return -1
    clock[0] = step
    best = -1
    for i in range(lo, hi):
        key = keys[i]
        if (key >> 32) & 7 < wild_mand:
            continue
        ok = True
        for s in range(4):
            if not closed[(key >> (8 * s)) & 255]:
                ok = False
        if ok and (best < 0 or score[i] > score[best]):
            best = i
    return best


def _set_aside_source(cells: Any, ranks: Any, jokers: int) -> None:
    """Set aside the hand cards that no meld of the cards at hand could hold (in place).

    A card fits a run when a window of three around it lacks no more cells than
    there are jokers, and a group when two other suits of its rank (or jokers)
    are there. Leaving the others out is exact, and lets the first pass succeed.
    """
    have = np.zeros((15, 4), np.bool_)
    for rank in range(1, 14):
        for s in range(4):
            have[rank, s] = cells[rank, s, 0] + cells[rank, s, 1] > 0
    for rank in range(1, 14):
        for s in range(4):
            if cells[rank, s, 1] == 0:
                continue
            others = 0
            for t in range(4):
                if t != s and have[rank, t]:
                    others += 1
            if others + jokers + ranks[0, rank] >= 2:
                continue
            fits = False
            for lo in range(max(1, rank - 2), min(rank, 11) + 1):
                miss = 0
                for r in range(lo, lo + 3):
                    if not have[r, s]:
                        miss += 1
                if miss <= jokers:
                    fits = True
                    break
            if not fits:
                cells[rank, s, 1] = 0


def _search(
    cells: Any,
    ranks: Any,
    params: Any,
    pool: Any,
    slots: Any,
    stamp: Any,
    clock: Any,
    info: Any,
    nxt: Any,
    closed: Any,
    gstep: Any,
    fits: Any,
    opened: Any,
    empty: int,
    path: Any,
) -> int:
    """The whole search: passes with a growing allowance of hand points left out.

    A pass keeps only the partial answers that have left out at most ``slack``
    hand points; each one it drops had already left out at least the least loss
    dropped. So once the best answer found leaves out no more than that, no
    dropped answer could beat it: each pass is exact in what it claims. With a
    floor (``params[3]``), answers that cannot beat it are never kept. Writes
    the best answer's choices to ``path`` and returns its entry; -1 when there
    is none, -2 when the scratch space is too small.
    """
    wild_mand = params[0]
    wild_opt = params[1]
    wjoker = params[2]
    _set_aside(cells, ranks, wild_mand + wild_opt)
    lost = np.empty((14, 4), np.int64)
    total = 0
    for rank in range(14):
        for s in range(4):
            total += cells[rank, s, 1] * ranks[2, rank]
            lost[rank, s] = total
    total += wild_opt * wjoker
    has_most = params[3] != 0
    most = total - params[4] - 1  # the most loss that still beats the floor
    if has_most and most < 0:
        return -1
    slack = 0
    while True:
        info[0] = _NOTHING
        found = _pass(
            cells,
            ranks,
            wild_mand,
            wild_opt,
            wjoker,
            pool,
            slots,
            stamp,
            clock,
            nxt,
            closed,
            gstep,
            fits,
            opened,
            empty,
            lost,
            slack,
            info,
        )
        if found == -2:
            return -2
        dropped = info[0]
        last = has_most and slack >= most
        if found >= 0:
            loss = total - (pool[1, found] - wild_mand * wjoker)
            if loss <= dropped or last:
                if has_most and loss > most:
                    return -1
                at = found
                for rank in range(13, 0, -1):
                    path[rank, 4] = pool[3, at]
                    at = pool[2, at]
                    for s in range(3, -1, -1):
                        path[rank, s] = pool[3, at]
                        at = pool[2, at]
                return found
            slack = max(slack, loss)
        elif dropped == _NOTHING or last:
            return -1
        else:
            slack = max(dropped, 2 * slack)
        if has_most and slack > most:
            slack = most


_pass = _pass_source
_set_aside = _set_aside_source
