"""The best answer laid out as melds, in the same call (written to ``out``, see OUT_MELDS).

A kernel module (:mod:`rummykit.solver.kernels`). :func:`lay_out` lays an
answer out as :func:`rummykit.solver.layout.build_melds` does: runs cut by the
canonical rule (start where the cells in runs rise, the oldest end where they
fall), each cell's table jokers used first, natural cards given to runs that
have none yet, soonest ending first; a run shorter than three (at the top)
takes jokers at its start; spare jokers join the first group, else the ends of
runs that have room (a run that spans every position splits in two); every
rank's leftovers form one group (distinct suits: the fewest groups).
"""

from __future__ import annotations

from rummykit.solver.programme.state import (
    FIX,
    GC,
    GJ,
    GROUP_JOKER,
    HERE,
    I_HIGH,
    OUT_MELDS,
    P_DISTINCT,
    P_WILD_MAND,
    P_WILD_OPT,
    RC,
    RCARDS,
    RJ,
    RUN_JOKER,
    RUNS,
    TAKEN,
    TN,
    Ints,
    Question,
    Search,
    Work,
)

KERNELS = (
    "mirrored",
    "tally",
    "hand_naturals",
    "order_runs_here",
    "cut_runs",
    "fill_short_runs",
    "sort_runs",
    "extend_runs",
    "split_full_runs",
    "write_runs",
    "split_groups",
    "write_groups",
    "write_played",
    "lay_out",
)
"""The functions numba compiles."""


def mirrored(rank: int, high: int) -> int:
    """The rank at the same place counted from the other end of the run positions."""
    if rank == 0:
        return 0
    if high != 0:
        return rank if rank == 1 else 15 - rank
    return 14 - rank


def tally(path: Ints, rev: int, high: int, scratch: Ints) -> int:
    """Read the answer's choices into ``scratch``: per position and suit the cards and
    jokers in runs, per rank the cards and jokers in groups. Returns the jokers placed.

    A search from the top walked the positions the other way (ranks mirrored).
    """
    npos = 14 if high != 0 else 13
    for i in range(RC, TAKEN + 56):
        scratch[i] = 0
    d = 0
    if high != 0:
        q = npos if rev != 0 else 1
        for s in range(4):
            scratch[RC + q * 4 + s] = path[s] & 15
        d = 4
    for p in range(2 if high != 0 else 1, npos + 1):
        q = npos + 1 - p if rev != 0 else p
        rank = 1 if p == 14 else p
        if rev != 0:
            rank = mirrored(rank, high)
        for s in range(4):
            c = path[d + s]
            scratch[RC + q * 4 + s] = c & 15
            scratch[GC + rank * 4 + s] += (c >> 4) & 15
            scratch[RJ + q * 4 + s] = (c >> 8) & 15
        scratch[GJ + rank] = path[d + 4] & 255
        d += 5
    placed = path[d - 1] >> 8  # jokers that complete short runs at the top
    for i in range(60):
        placed += scratch[RJ + i]
    for r in range(14):
        placed += scratch[GJ + r]
    return placed


def hand_naturals(high: int, scratch: Ints, out: Ints) -> None:
    """The natural cards laid from the hand, per card code (``out[3 + code]``)."""
    for c in range(56):
        out[3 + c] = 0
    for rank in range(1, 14):
        for s in range(4):
            c = rank * 4 + s
            used = scratch[RC + rank * 4 + s] + scratch[GC + c]
            if rank == 1 and high != 0:
                used += scratch[RC + 56 + s]
            if used > 0:
                out[3 + c] = used - scratch[FIX + c] - scratch[TN + c]


def order_runs_here(scratch: Ints, nh: int) -> None:
    """Order the runs at one position (``scratch[HERE:]``): runs without a natural card
    first, then the soonest ending (an insertion sort: stable)."""
    for i in range(1, nh):
        x = scratch[HERE + i]
        kx = (scratch[RUNS + 5 * x + 4] * 16 + scratch[RUNS + 5 * x + 2]) * 64 + x
        j = i - 1
        while j >= 0:
            y = scratch[HERE + j]
            ky = (scratch[RUNS + 5 * y + 4] * 16 + scratch[RUNS + 5 * y + 2]) * 64 + y
            if ky <= kx:
                break
            scratch[HERE + j + 1] = y
            j -= 1
        scratch[HERE + j + 1] = x


def cut_runs(scratch: Ints, npos: int) -> int:
    """Cut each suit's cells in runs into runs and give each run its cards; the runs."""
    nruns = 0
    for s in range(4):
        first = nruns
        now = 0
        head = nruns
        for p in range(1, npos + 2):
            n = 0 if p > npos else scratch[RC + p * 4 + s] + scratch[RJ + p * 4 + s]
            while now > n:  # the oldest run ends
                scratch[RUNS + 5 * head + 2] = p - 1
                head += 1
                now -= 1
            while now < n:
                at = RUNS + 5 * nruns
                scratch[at] = s
                scratch[at + 1] = p
                scratch[at + 3] = 0
                scratch[at + 4] = 0
                nruns += 1
                now += 1
        for p in range(1, npos + 1):
            nat_runs = scratch[RC + p * 4 + s]
            count = nat_runs + scratch[RJ + p * 4 + s]
            if count == 0:
                continue
            rank = 1 if p == 14 else p
            c = rank * 4 + s
            nh = 0
            for i in range(first, nruns):
                if scratch[RUNS + 5 * i + 1] <= p <= scratch[RUNS + 5 * i + 2]:
                    scratch[HERE + nh] = i
                    nh += 1
            taken = scratch[TAKEN + c]
            fixed = scratch[FIX + c] - taken
            if fixed < 0:
                fixed = 0
            if fixed > nat_runs:
                fixed = nat_runs
            naturals = nat_runs - fixed
            scratch[TAKEN + c] = taken + nat_runs
            if nh > 1:
                order_runs_here(scratch, nh)
            for j in range(nh):
                i = scratch[HERE + j]
                natural = j < naturals if nh > 1 else (fixed == 0 and nat_runs > 0)
                at = RUNS + 5 * i
                n = scratch[at + 3]
                scratch[RCARDS + 16 * i + n] = c if natural else RUN_JOKER + c
                scratch[at + 3] = n + 1
                if natural:
                    scratch[at + 4] = 1
    return nruns


def fill_short_runs(scratch: Ints, nruns: int, npos: int) -> None:
    """Runs shorter than three take jokers at their start (or, at the bottom, at their end)."""
    for i in range(nruns):
        at = RUNS + 5 * i
        n = scratch[at + 3]
        if n >= 3:
            continue
        k = 3 - n
        s = scratch[at]
        if scratch[at + 2] == npos:
            for j in range(n - 1, -1, -1):
                scratch[RCARDS + 16 * i + j + k] = scratch[RCARDS + 16 * i + j]
            a = scratch[at + 1] - k
            for j in range(k):
                q = a + j
                scratch[RCARDS + 16 * i + j] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[at + 1] = a
        else:
            b = scratch[at + 2]
            for j in range(k):
                q = b + 1 + j
                scratch[RCARDS + 16 * i + n + j] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[at + 2] = b + k
        scratch[at + 3] = 3


def sort_runs(scratch: Ints, nruns: int) -> None:
    """Sort the runs by suit, first position and length, keeping the order of equals."""
    for i in range(1, nruns):
        j = i
        while j > 0:
            a = RUNS + 5 * (j - 1)
            b = RUNS + 5 * j
            ka = (scratch[a] * 16 + scratch[a + 1]) * 16 + scratch[a + 3]
            kb = (scratch[b] * 16 + scratch[b + 1]) * 16 + scratch[b + 3]
            if ka <= kb:
                break
            for f in range(5):
                scratch[a + f], scratch[b + f] = scratch[b + f], scratch[a + f]
            for f in range(16):
                x = scratch[RCARDS + 16 * (j - 1) + f]
                scratch[RCARDS + 16 * (j - 1) + f] = scratch[RCARDS + 16 * j + f]
                scratch[RCARDS + 16 * j + f] = x
            j -= 1


def extend_runs(scratch: Ints, nruns: int, npos: int, spare: int) -> int:
    """Spare jokers to the ends of the runs that have room (top first); the jokers left."""
    for i in range(nruns):
        at = RUNS + 5 * i
        s = scratch[at]
        while spare > 0 and scratch[at + 2] < npos:
            q = scratch[at + 2] + 1
            scratch[RCARDS + 16 * i + scratch[at + 3]] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[at + 2] = q
            scratch[at + 3] += 1
            spare -= 1
        while spare > 0 and scratch[at + 1] > 1:
            n = scratch[at + 3]
            for j in range(n - 1, -1, -1):
                scratch[RCARDS + 16 * i + j + 1] = scratch[RCARDS + 16 * i + j]
            q = scratch[at + 1] - 1
            scratch[RCARDS + 16 * i] = RUN_JOKER + q * 4 + s
            scratch[at + 1] = q
            scratch[at + 3] = n + 1
            spare -= 1
    return spare


def split_full_runs(scratch: Ints, nruns: int, spare: int) -> tuple[int, int]:
    """Every run spans every position: split runs of six or more in two halves, a spare
    joker at the cut of each, while jokers are left. Returns the runs and the jokers left."""
    total = nruns
    for i in range(nruns):
        at = RUNS + 5 * i
        n = scratch[at + 3]
        if spare == 0 or n < 6:
            continue
        s = scratch[at]
        first = scratch[at + 1]
        half = n // 2
        bt = RUNS + 5 * total
        scratch[bt] = s
        scratch[bt + 1] = first + half
        scratch[bt + 2] = scratch[at + 2]
        scratch[bt + 3] = n - half
        scratch[bt + 4] = 1
        for k in range(n - half):
            scratch[RCARDS + 16 * total + k] = scratch[RCARDS + 16 * i + half + k]
        q = first + half
        scratch[RCARDS + 16 * i + half] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
        scratch[at + 2] = q
        scratch[at + 3] = half + 1
        spare -= 1
        if spare > 0:
            for k in range(n - half - 1, -1, -1):
                scratch[RCARDS + 16 * total + k + 1] = scratch[RCARDS + 16 * total + k]
            q = first + half - 1
            scratch[RCARDS + 16 * total] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[bt + 1] = q
            scratch[bt + 3] = n - half + 1
            spare -= 1
        total += 1
    return total, spare


def write_runs(scratch: Ints, out: Ints, nruns: int) -> int:
    """Write the runs to ``out`` from :data:`.state.OUT_MELDS` on; where the next meld goes."""
    w = OUT_MELDS
    for i in range(nruns):
        at = RUNS + 5 * i
        n = scratch[at + 3]
        out[w] = 0
        out[w + 1] = scratch[at + 1]
        out[w + 2] = n
        for j in range(n):
            out[w + 3 + j] = scratch[RCARDS + 16 * i + j]
        w += 3 + n
    return w


def split_groups(
    scratch: Ints, out: Ints, w: int, rank: int, n: int, jokers: int
) -> tuple[int, int]:
    """Groups of distinct suits: a rank's ``n`` cards and ``jokers`` (written at ``w + 3``)
    as the fewest groups of at most four distinct suits, written to ``out`` at ``w``.
    Returns where the next meld goes and the groups written."""
    start = w + 3
    k = (n + jokers + 3) // 4
    for t in range(4):
        same = 0
        for j in range(n):
            same += 1 if out[start + j] % 4 == t else 0
        k = same if same > k else k
    if k <= 1:
        out[w] = 1
        out[w + 1] = rank
        out[w + 2] = n + jokers
        return w + 3 + n + jokers, 1
    # each card to the smallest group that lacks its suit (a table joker: the suit of
    # its card), then the jokers to the smallest groups
    for g in range(k):
        scratch[HERE + g] = 0  # its size
        scratch[HERE + 8 + g] = 0  # its suits
    for j in range(n + jokers):
        code = out[start + j]
        pick = -1
        for g in range(k):
            if j < n and (scratch[HERE + 8 + g] >> (code % 4)) & 1 != 0:
                continue
            if pick < 0 or scratch[HERE + g] < scratch[HERE + pick]:
                pick = g
        scratch[RCARDS + 16 * pick + scratch[HERE + pick]] = code
        scratch[HERE + pick] += 1
        if j < n:
            scratch[HERE + 8 + pick] |= 1 << (code % 4)
    for g in range(k):
        size = scratch[HERE + g]
        out[w] = 1
        out[w + 1] = rank
        out[w + 2] = size
        for j in range(size):
            out[w + 3 + j] = scratch[RCARDS + 16 * g + j]
        w += 3 + size
    return w, k


def write_groups(ranks: Ints, distinct: int, scratch: Ints, out: Ints, w: int) -> tuple[int, int]:
    """Write each rank's group (distinct suits: groups) to ``out`` at ``w``: its cards
    by suit, a joker that stands for a card first, then its jokers. Returns where the
    next meld goes and the groups written."""
    melds = 0
    for rank in range(1, 14):
        jokers = scratch[GJ + rank] + ranks[rank]
        start = w + 3
        n = 0
        for s in range(4):
            c = rank * 4 + s
            k = scratch[GC + c]
            taken = scratch[TAKEN + c]
            for j in range(k):
                code = RUN_JOKER + c if taken + j < scratch[FIX + c] else c
                # sort key: a joker that stands for a card before every natural card
                key = (code - RUN_JOKER) % 4 if code >= RUN_JOKER else s * 100 + 10
                m = n
                while m > 0:
                    prev = out[start + m - 1]
                    pkey = (prev - RUN_JOKER) % 4 if prev >= RUN_JOKER else (prev % 4) * 100 + 10
                    if pkey <= key:
                        break
                    out[start + m] = prev
                    m -= 1
                out[start + m] = code
                n += 1
            scratch[TAKEN + c] = taken + k
        if n == 0 and jokers == 0:
            continue
        for j in range(jokers):
            out[start + n + j] = GROUP_JOKER + rank
        if distinct != 0:
            w, k = split_groups(scratch, out, w, rank, n, jokers)
            melds += k
            continue
        out[w] = 1
        out[w + 1] = rank
        out[w + 2] = n + jokers
        w += 3 + n + jokers
        melds += 1
    return w, melds


def write_played(weights: Ints, out: Ints, w: int) -> None:
    """After the melds: the codes of the natural cards laid, by suit and rank; their
    points (and the jokers') to ``out[1]``; where ``out`` ends to ``out[3]``."""
    points = out[2] * weights[15]
    for s in range(4):
        for rank in range(1, 14):
            c = rank * 4 + s
            for _ in range(out[3 + c]):
                out[w] = c
                w += 1
                points += weights[15 + rank]
    out[1] = points
    out[3] = w  # (code 0 is no natural card)


def lay_out(q: Question, work: Work, case: Search, rev: int) -> None:
    """Write the melds of the answer whose choices are ``work.best_path`` to ``work.out``
    (see OUT_MELDS); ``case`` holds its freeing case, ``rev`` whether the search from
    the top found it."""
    high = q.info[I_HIGH]
    scratch = work.scratch
    out = work.out
    params = case.params
    npos = 14 if high != 0 else 13
    placed = tally(work.best_path, rev, high, scratch)
    hand_naturals(high, scratch, out)
    nruns = cut_runs(scratch, npos)
    fill_short_runs(scratch, nruns, npos)
    # spare jokers: to the first group, else to the ends of runs with room
    spare = params[P_WILD_MAND] + params[P_WILD_OPT] - placed
    if params[P_DISTINCT] != 0:
        spare = 0  # groups of distinct suits have no room to spare: the search placed them
    host = 0
    for r in range(1, 14):
        g = scratch[GJ + r] + case.ranks[r]
        for s in range(4):
            g += scratch[GC + r * 4 + s]
        if g > 0:
            host = r
            break
    if spare > 0 and host > 0:
        scratch[GJ + host] += spare
        placed += spare
        spare = 0
    sort_runs(scratch, nruns)
    if spare > 0:
        left = extend_runs(scratch, nruns, npos, spare)
        placed += spare - left
        spare = left
        nruns, left = split_full_runs(scratch, nruns, spare)
        placed += spare - left
        sort_runs(scratch, nruns)
    out[2] = placed - params[P_WILD_MAND]
    w = write_runs(scratch, out, nruns)
    w, groups = write_groups(case.ranks, params[P_DISTINCT], scratch, out, w)
    out[OUT_MELDS - 1] = nruns + groups
    write_played(q.weights, out, w)
