"""The searches of the rank programme for groups of distinct suits (a kernel module).

Both walk the same graph: per rank, the four suits in turn (how many cards of
the cell go on in runs, how many join the rank's groups, how many wild jokers
take a run cell), then the rank's groups. A state's key holds the four suit
states (8 bits each), the jokers placed (bits 32-34), and inside a rank the
group class (bits 36-45) and the rank's naturals (bits 46-49). A choice packs
cards in runs (bits 0-3), cards in the group (4-7) and jokers in runs (8-) for
a suit, the jokers given to the groups for a rank's last step. After each
choice a suit's runs in progress are cut to what the next rank can carry
(the ``trim`` table, :func:`settle`), so states that differ only in runs
bound to end anyway merge.

- :func:`depth_first` follows the most promising choices first and stops a
  branch when it cannot beat the best answer found or when it reaches a state
  already reached with as many points. Few states on full tables.
- :func:`breadth_first` keeps every state of a step, in passes that allow more
  and more hand points to be left out. Steadier on half-full tables.

:mod:`.rank_kernel` compiles them (:mod:`.kernels`); they work on numpy arrays.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from rummykit.solver.counts import RUN_STATES

KERNELS = ("breadth_pass", "settle", "set_aside", "breadth_first", "depth_first")
"""The functions numba compiles."""

NOTHING = 1 << 62
"""No answer, or no partial answer dropped."""
OPTIONS = 96
"""Most choices at one step (cards used x cards in runs x jokers in runs)."""
STEPS = 13 * 5
"""Four suits and the groups, for each of the 13 ranks."""
EMPTY = RUN_STATES.index((0, 0, 0))
"""The run state with no run open."""
_MIX = -7046029254386353131
"""An odd multiplier for hashing keys (2**64 / golden ratio, as a signed integer)."""


class RankTables(NamedTuple):
    """The state tables both searches read (:func:`.rank_kernel._tables` builds them)."""

    nxt: Any
    """``[state, cells in runs]``: a suit's state at the next rank, or -1."""
    trim: Any
    """``[state, room]``: a state cut to the runs the next rank can carry, or -1."""
    gstep: Any
    """``[suit, class, cards]``: the groups' automaton's step (-1: no rest fits)."""
    fits: Any
    """``[class, jokers]``: whether a final class fits with that many jokers."""
    opened: Any
    """Runs open in each state."""


class Case(NamedTuple):
    """One freeing case and where its answer goes."""

    cells: Any
    """``[rank, suit]``: must-place cards, hand cards, fixed jokers among the first."""
    ranks: Any
    """``[0, rank]`` table group jokers, ``[1, rank]`` naturals the rank must hold,
    ``[2, rank]`` a hand card's gain."""
    params: Any
    """Wild jokers that must be placed, that may be, a joker's gain, whether there is a
    floor, the floor."""
    path: Any
    """``[rank, suit or 4]``: the best answer's choices."""


class Memo(NamedTuple):
    """The depth-first search's memory, kept between searches (one per thread)."""

    memo: Any
    """``[keys, points, generation]`` per slot."""
    generation: Any
    """The memo's generation."""
    opts: Any
    """``[step, choice, (key, gain, choice)]``."""


class Pool(NamedTuple):
    """The breadth-first search's scratch space (one per thread, grown as needed)."""

    pool: Any
    """``[key, score, parent, choice]`` per state."""
    slots: Any
    stamp: Any
    clock: Any
    info: Any
    """``info[0]``: the least loss a pass dropped."""


def breadth_pass(case: Case, space: Pool, tables: RankTables, lost: Any, slack: int) -> int:
    """One pass: fill ``pool`` (key, score, parent, choice) step by step; the best entry or -1.

    A key holds the four suit states (8 bits each), the jokers placed (bits 32-34),
    and inside a rank the group class (bits 36-45) and naturals (bits 46-49).
    States that have left out more than ``slack`` hand points are dropped; the
    least such loss goes to ``info[0]``. Returns -2 when ``pool`` or the merge
    table is too small.
    """
    cells = case.cells
    ranks = case.ranks
    wild_mand = case.params[0]
    wild_opt = case.params[1]
    wjoker = case.params[2]
    pool = space.pool
    slots = space.slots
    stamp = space.stamp
    clock = space.clock
    info = space.info
    nxt = tables.nxt
    trim = tables.trim
    gstep = tables.gstep
    fits = tables.fits
    opened = tables.opened
    empty = EMPTY
    cap = pool.shape[1]
    nslots = slots.shape[0]
    mask = nslots - 1
    width = nxt.shape[1]
    top = trim.shape[1] - 1
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
            ahead = 0 if rank == 13 else cells[rank + 1, s, 0] + cells[rank + 1, s, 1]
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
                        ns = trim[ns, min(ahead + jtotal - jp - js, top)]
                        if ns < 0:
                            continue  # a short run cannot go on at the next rank
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
                            # merge (written out here and at the groups below: a compiled
                            # helper per state made this search 1.6x slower)
                            h = ((nkey * _MIX) >> 24) & mask
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
                nkey = settle(key, cells, rank, jtotal - jp - jg, trim)
                if nkey < 0:
                    continue
                nkey |= (jp + jg) << 32
                nsc = score[i] + jg * wjoker
                h = ((nkey * _MIX) >> 24) & mask
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
    best = -1  # the last rank's groups left every run closed (settle)
    for i in range(lo, hi):
        if (keys[i] >> 32) & 7 >= wild_mand and (best < 0 or score[i] > score[best]):
            best = i
    return best


def settle(key: int, cells: Any, rank: int, jokers: int, trim: Any) -> int:
    """``key``'s suit states once ``rank`` is done, each cut to what the next rank can carry.

    A suit's next cell has at most its cards plus the jokers left for runs; runs of
    three or more beyond that end anyway, whatever is chosen, so they are dropped
    now and states that differ only in them merge. -1 when a run shorter than
    three cannot go on. The result holds the suit states only.
    """
    out = 0
    top = trim.shape[1] - 1
    for s in range(4):
        room = 0
        if rank < 13:
            room = min(cells[rank + 1, s, 0] + cells[rank + 1, s, 1] + jokers, top)
        state = trim[(key >> (8 * s)) & 255, room]
        if state < 0:
            return -1
        out |= state << (8 * s)
    return out


def set_aside(cells: Any, ranks: Any, jokers: int) -> None:
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


def breadth_first(case: Case, space: Pool, tables: RankTables) -> int:
    """The whole search: passes with a growing allowance of hand points left out.

    A pass keeps only the partial answers that have left out at most ``slack``
    hand points; each one it drops had already left out at least the least loss
    dropped. So once the best answer found leaves out no more than that, no
    dropped answer could beat it: each pass is exact in what it claims. With a
    floor (``params[3]``), answers that cannot beat it are never kept. Writes
    the best answer's choices to ``path`` and returns its entry; -1 when there
    is none, -2 when the scratch space is too small.
    """
    cells = case.cells
    ranks = case.ranks
    params = case.params
    path = case.path
    pool = space.pool
    info = space.info
    wild_mand = params[0]
    wild_opt = params[1]
    wjoker = params[2]
    set_aside(cells, ranks, wild_mand + wild_opt)
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
        info[0] = NOTHING
        found = breadth_pass(case, space, tables, lost, slack)
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
        elif dropped == NOTHING or last:
            return -1
        else:
            slack = max(dropped, 2 * slack)
        if has_most and slack > most:
            slack = most


def depth_first(case: Case, memory: Memo, tables: RankTables, budget: int) -> int:
    """The best answer's value (its choices in ``path``), NOTHING, or -NOTHING past ``budget``.

    Branch and bound: a branch ends when even every hand card after it could
    not beat the best answer so far, or when its state was already reached
    with at least as many points (the memo: keys, points and the generation
    that wrote them; forgetting it only costs time). Choices that use more
    cards come first, so a full table finds its answer at once.
    """
    cells = case.cells
    ranks = case.ranks
    params = case.params
    path = case.path
    memo = memory.memo
    generation = memory.generation
    opts = memory.opts
    nxt = tables.nxt
    trim = tables.trim
    gstep = tables.gstep
    fits = tables.fits
    opened = tables.opened
    empty = EMPTY
    wild_mand = params[0]
    wild_opt = params[1]
    wjoker = params[2]
    jtotal = wild_mand + wild_opt
    set_aside(cells, ranks, jtotal)
    ahead = np.zeros(STEPS + 1, np.int64)  # hand points in the steps from t on
    for t in range(STEPS - 1, -1, -1):
        ahead[t] = ahead[t + 1]
        if t % 5 < 4:
            rank = t // 5 + 1
            ahead[t] += cells[rank, t % 5, 1] * ranks[2, rank]
    best = params[4] if params[3] != 0 else -NOTHING  # an answer must beat it
    found = False
    mask = memo.shape[1] - 1
    generation[0] += 1
    gen = generation[0]
    filled = 0
    width = nxt.shape[1]
    top = trim.shape[1] - 1
    skey = np.zeros(STEPS + 1, np.int64)
    sscore = np.zeros(STEPS + 1, np.int64)
    nopt = np.zeros(STEPS, np.int64)
    cursor = np.zeros(STEPS, np.int64)
    chosen = np.zeros(STEPS, np.int64)
    for s in range(4):
        skey[0] |= empty << (8 * s)
    d = 0
    nodes = 0
    expand = True
    while d >= 0:
        if expand:
            expand = False
            nodes += 1
            if nodes > budget:
                return -NOTHING
            key = skey[d]
            sc = sscore[d]
            jp = (key >> 32) & 7
            if d == STEPS:  # every run is closed: the last groups settled them
                if jp >= wild_mand and sc - wild_mand * wjoker > best:
                    best = sc - wild_mand * wjoker
                    found = True
                    for t in range(STEPS):
                        path[t // 5 + 1, t % 5] = chosen[t]
                d -= 1
                continue
            if sc + ahead[d] + (jtotal - jp - wild_mand) * wjoker <= best:
                d -= 1
                continue
            rank = d // 5 + 1
            s = d % 5
            n = 0
            if s < 4:
                shift = 8 * s
                m = cells[rank, s, 0]
                a = m + cells[rank, s, 1]
                fj = cells[rank, s, 2]
                nearby = 0 if rank == 13 else cells[rank + 1, s, 0] + cells[rank + 1, s, 1]
                w = ranks[2, rank]
                need = ranks[1, rank]
                st = (key >> shift) & 255
                have = opened[st]
                gcode = (key >> 36) & 1023
                nat = (key >> 46) & 15
                for used in range(a, m - 1, -1):
                    for xc in range(used, -1, -1):
                        c = used - xc
                        ncode = gstep[s, gcode, c]
                        if ncode < 0:
                            continue
                        for js in range(jtotal - jp + 1):
                            x = xc + js
                            if x >= width:
                                break
                            ns = nxt[st, x]
                            if ns < 0 or (used < a and x < have):
                                continue  # no such state, or a spare card could go on
                            ns = trim[ns, min(nearby + jtotal - jp - js, top)]
                            if ns < 0:
                                continue  # a short run cannot go on at the next rank
                            nnat = min(nat + used - fj, need)
                            nkey = (key & ~(255 << shift)) | (ns << shift)
                            nkey = (nkey & ~(7 << 32)) | ((jp + js) << 32)
                            nkey = (nkey & ((1 << 36) - 1)) | (ncode << 36) | (nnat << 46)
                            opts[d, n, 0] = nkey
                            opts[d, n, 1] = (used - m) * w + js * wjoker
                            opts[d, n, 2] = xc | (c << 4) | (js << 8)
                            n += 1
            elif (key >> 46) & 15 >= ranks[1, rank]:
                gcode = (key >> 36) & 1023
                for jg in range(jtotal - jp + 1):
                    if fits[gcode, ranks[0, rank] + jg]:
                        nkey = settle(key, cells, rank, jtotal - jp - jg, trim) | ((jp + jg) << 32)
                        if nkey < 0:
                            continue
                        opts[d, n, 0] = nkey
                        opts[d, n, 1] = jg * wjoker
                        opts[d, n, 2] = jg
                        n += 1
            nopt[d] = n
            cursor[d] = 0
        if cursor[d] >= nopt[d]:
            d -= 1
            continue
        i = cursor[d]
        cursor[d] += 1
        nkey = opts[d, i, 0]
        nsc = sscore[d] + opts[d, i, 1]
        tag = nkey ^ ((d + 1) << 57)
        h = ((tag * _MIX) >> 24) & mask
        seen = False
        while True:
            if memo[2, h] != gen:
                if 2 * filled > mask:
                    generation[0] += 1  # full: forget it all
                    gen = generation[0]
                    filled = 0
                memo[0, h] = tag
                memo[1, h] = nsc
                memo[2, h] = gen
                filled += 1
                break
            if memo[0, h] == tag:
                if memo[1, h] >= nsc:
                    seen = True
                else:
                    memo[1, h] = nsc
                break
            h = (h + 1) & mask
        if seen:
            continue
        chosen[d] = opts[d, i, 2]
        d += 1
        skey[d] = nkey
        sscore[d] = nsc
        expand = True
    return best if found else NOTHING
