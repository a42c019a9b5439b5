"""The depth-first search of one freeing case, from one end of the run positions.

A kernel module (:mod:`rummykit.solver.kernels`). :func:`depth_first` walks,
per run position 1..npos (npos 14 where an ace may be high, V5), the four
suits in turn, then the rank's groups (:mod:`.step` lists the choices at each
step). Depth first, choices that use more cards first; a branch ends when even
every hand card left and every joker could not beat the best answer so far,
or when its state was reached before at the same step
with at least as many points (:func:`seen`, a memo of 2^16 entries of two
words, forgotten when half full; states are remembered only at a position's
start), or when a state one step above it in one suit, or the same state with
fewer jokers placed (groups of any size), was. Among answers of equal score
the first in this order wins: the tie-break.

A search runs until it ends or its budget of states runs out; paused, it keeps
what it needs in ``Search.progress`` and the next call with a larger budget
goes on from there (:func:`depth_first`).
"""

from __future__ import annotations

from rummykit.solver.programme.state import (
    G_BEST,
    G_DEPTH,
    G_EXPAND,
    G_FILLED,
    G_FOUND,
    G_GENERATION,
    G_MEMO,
    G_NODES,
    G_RUNNING,
    GENERATIONS,
    MIX,
    NOTHING,
    OPTIONS,
    P_DISTINCT,
    P_EMPTY,
    P_FLOOR,
    P_HAS_FLOOR,
    P_HIGH,
    P_JOKER,
    P_WILD_MAND,
    P_WILD_OPT,
    POINTS,
    Ints,
    Search,
    Setup,
    Tables,
)
from rummykit.solver.programme.step import choices

KERNELS = (
    "set_aside",
    "setup",
    "new_generation",
    "start",
    "seen",
    "remember",
    "depth_first",
)
"""The functions numba compiles."""
INLINE = ("setup", "seen", "remember")


def set_aside(cells: Ints, ranks: Ints, jokers: int, high: bool, distinct: bool) -> None:
    """Set aside (in place) the hand cards that no meld of the cards at hand could hold.

    A card fits a group when its rank has three cards (its own, any other copy or
    suit, the rank's table jokers; ``distinct``: two other suits) or jokers to make
    them up; a run when a window of three positions around it lacks no more cells
    than there are jokers. Setting one aside can leave another without a meld, so
    it repeats. Exact.
    """
    npos = 14 if high else 13
    changed = True
    while changed:
        changed = False
        for rank in range(1, 14):
            total = ranks[rank]
            for s in range(4):
                at = (rank * 4 + s) * 3
                total += cells[at] + cells[at + 1]
            if not distinct and total + jokers >= 3:
                continue
            for s in range(4):
                at = (rank * 4 + s) * 3
                if cells[at + 1] == 0:
                    continue
                if distinct:
                    others = ranks[rank] + jokers
                    for t in range(4):
                        ct = (rank * 4 + t) * 3
                        if t != s and cells[ct] + cells[ct + 1] > 0:
                            others += 1
                    if others >= 2:
                        continue
                fits = False
                for place in range(2):
                    p = rank if place == 0 else 14
                    if place == 1 and not (high and rank == 1):
                        break
                    lo = p - 2 if p > 2 else 1
                    hi = p if p + 2 <= npos else npos - 2
                    for first in range(lo, hi + 1):
                        miss = 0
                        for q in range(first, first + 3):
                            cell = ((1 if q == 14 else q) * 4 + s) * 3
                            if cells[cell] + cells[cell + 1] == 0:
                                miss += 1
                        if miss <= jokers:
                            fits = True
                            break
                    if fits:
                        break
                if not fits:
                    cells[at + 1] = 0
                    changed = True


def setup(search: Search, t: Tables) -> Setup:
    """What the search reads at every step, from its case's parameters and the tables."""
    params = search.params
    wild_mand = params[P_WILD_MAND]
    high = params[P_HIGH] != 0
    width = len(t.nxt) // len(t.opened)
    return Setup(
        wild_mand,
        wild_mand + params[P_WILD_OPT],
        params[P_JOKER],
        high,
        params[P_DISTINCT] != 0,
        params[P_EMPTY],
        14 if high else 13,
        4 + 13 * 5 if high else 13 * 5,
        width,
        width - 1,
        len(search.memo) // 2 - 1,
        len(t.gstep) // 20,
    )


def new_generation(search: Search) -> int:
    """Start a new generation of the memo (forgetting every entry) and return it; the
    memo is cleared only when the generations wrap around."""
    progress = search.progress
    progress[G_MEMO] = progress[G_MEMO] + 1 if progress[G_MEMO] < GENERATIONS else 1
    if progress[G_MEMO] == 1:
        memo = search.memo
        for k in range(len(memo)):
            memo[k] = 0
    return progress[G_MEMO]


def start(search: Search, c: Setup) -> None:
    """Start a new search: set aside the hand cards no meld can hold, sum the hand points
    ahead of each step (the bound), and put the empty state at depth 0."""
    cells = search.cells
    ranks = search.ranks
    ahead = search.ahead
    set_aside(cells, ranks, c.jtotal, c.high, c.distinct)
    steps = c.steps
    ahead[steps] = 0
    for t in range(steps - 1, -1, -1):
        ahead[t] = ahead[t + 1]
        if c.high and t < 4:
            continue
        e = t - 4 if c.high else t
        s = e % 5
        if s < 4:
            p = (2 if c.high else 1) + e // 5
            rank = 1 if p == 14 else p
            ahead[t] += cells[(rank * 4 + s) * 3 + 1] * ranks[28 + rank]
    key0 = 0
    for s in range(4):
        key0 |= c.empty << (8 * s)
    search.keys[0] = key0
    search.points[0] = 0
    progress = search.progress
    params = search.params
    progress[G_GENERATION] = new_generation(search)
    progress[G_NODES] = 0
    progress[G_DEPTH] = 0
    progress[G_EXPAND] = 1
    progress[G_BEST] = params[P_FLOOR] if params[P_HAS_FLOOR] != 0 else -NOTHING
    progress[G_FOUND] = 0
    progress[G_FILLED] = 0
    progress[G_RUNNING] = 1


def seen(search: Search, t: Tables, c: Setup, tag: int, points: int) -> int:
    """Whether the state ``tag`` (its key and step) was reached before with as many points.

    Returns -1 when it was, or when a state that does at least as much was: the same
    state with fewer jokers placed (groups of any size: a joker not placed can join a
    meld at the end), or a state one step above it in one suit. Else where to remember
    it: the free slot ``h`` (``h + 1``), or the slot that holds it with fewer points
    (``-(h + 2)``).
    """
    memo = search.memo
    dominators = t.dominators
    gen = search.progress[G_GENERATION]
    mask = c.mask
    h = ((tag * MIX) >> 24) & mask
    while True:
        if memo[2 * h + 1] >> 32 != gen:
            slot = h + 1
            break
        if memo[2 * h] == tag:
            if memo[2 * h + 1] & POINTS >= points:
                return -1
            slot = -(h + 2)
            break
        h = (h + 1) & mask
    if (tag >> 35) & 1 == 0 and not c.distinct:
        return slot
    jn = (tag >> 32) & 7
    if jn > 0 and not c.distinct:
        for jq in range(jn):
            k2 = (tag & ~(7 << 32)) | (jq << 32)
            g = ((k2 * MIX) >> 24) & mask
            while memo[2 * g + 1] >> 32 == gen:
                if memo[2 * g] == k2:
                    if (memo[2 * g + 1] & POINTS) + (jn - jq) * c.wjoker >= points:
                        return -1
                    break
                g = (g + 1) & mask
    for u in range(4):
        st = (tag >> (8 * u)) & 255
        for v in range(dominators[st], dominators[st + 1]):
            k2 = (tag & ~(255 << (8 * u))) | (dominators[v] << (8 * u))
            g = ((k2 * MIX) >> 24) & mask
            while memo[2 * g + 1] >> 32 == gen:
                if memo[2 * g] == k2:
                    if memo[2 * g + 1] & POINTS >= points:
                        return -1
                    break
                g = (g + 1) & mask
    return slot


def remember(search: Search, c: Setup, slot: int, tag: int, points: int) -> None:
    """Remember the state ``tag`` with its points where :func:`seen` said; a memo half
    full is forgotten first (a new generation)."""
    if slot < -1:
        h = -slot - 2
        search.memo[2 * h + 1] = (search.progress[G_GENERATION] << 32) | points  # seen, fewer
        return
    h = slot - 1
    if 2 * search.progress[G_FILLED] > c.mask:
        # full: forget it all (the slot is free then too)
        search.progress[G_GENERATION] = new_generation(search)
        search.progress[G_FILLED] = 0
    search.memo[2 * h] = tag
    search.memo[2 * h + 1] = (search.progress[G_GENERATION] << 32) | points
    search.progress[G_FILLED] += 1


def depth_first(search: Search, t: Tables, budget: int) -> int:
    """The best answer's value (its choices in ``path``), NOTHING, or -NOTHING when paused.

    ``progress[G_RUNNING]`` 0 starts a new search; past ``budget`` states the search
    pauses (returning -NOTHING), and the next call with a larger budget resumes it,
    until it ends (``progress[G_RUNNING]`` 0 again).
    """
    c = setup(search, t)
    progress = search.progress
    if progress[G_RUNNING] == 0:
        start(search, c)
    keys = search.keys
    points = search.points
    n_choices = search.n_choices
    cursor = search.cursor
    chosen = search.chosen
    opts = search.opts
    ahead = search.ahead
    steps = c.steps
    nodes = progress[G_NODES]
    d = progress[G_DEPTH]
    expand = progress[G_EXPAND] != 0
    best = progress[G_BEST]
    found = progress[G_FOUND] != 0
    while d >= 0:
        if expand:
            expand = False
            nodes += 1
            if nodes > budget:  # pause here: the next call goes on from this state
                progress[G_NODES] = nodes - 1
                progress[G_DEPTH] = d
                progress[G_EXPAND] = 1
                progress[G_BEST] = best
                progress[G_FOUND] = 1 if found else 0
                return -NOTHING
            key = keys[d]
            if d == steps:  # every run closed at the last group
                jp = (key >> 32) & 7
                placed = c.jtotal if (key >> 35) & 1 != 0 else jp
                value = points[d] + (placed - jp - c.wild_mand) * c.wjoker
                if placed >= c.wild_mand and value > best:
                    best = value
                    found = True
                    for u in range(steps):
                        search.path[u] = chosen[u]
                d -= 1
                continue
            left = c.jtotal - ((key >> 32) & 7)
            if points[d] + ahead[d] + (left - c.wild_mand) * c.wjoker <= best:
                d -= 1  # even every hand card and joker to come cannot beat the best
                continue
            n_choices[d] = choices(search, t, c, d)
            cursor[d] = 0
        if cursor[d] >= n_choices[d]:
            d -= 1
            continue
        i = cursor[d]
        cursor[d] = i + 1
        at = (d * OPTIONS + i) * 3
        nkey = opts[at]
        nsc = points[d] + opts[at + 1]
        left = c.jtotal - ((nkey >> 32) & 7)
        if nsc + ahead[d + 1] + (left - c.wild_mand) * c.wjoker <= best:
            continue  # the child cannot beat the best answer: no need to remember it
        if (c.high and d < 4) or ((not c.high or d >= 4) and (d - 4 if c.high else d) % 5 < 4):
            # inside a position: on without the memo (remembering these states too cost
            # more than it saved: 0.6x the time for 1.25x the states, measured)
            chosen[d] = opts[at + 2]
            d += 1
            keys[d] = nkey
            points[d] = nsc
            expand = True
            continue
        # at a position's start: this state at this step, seen with as many points?
        tag = nkey | (d << 57)
        slot = seen(search, t, c, tag, nsc)
        if slot == -1:
            continue
        remember(search, c, slot, tag, nsc)
        chosen[d] = opts[at + 2]
        d += 1
        keys[d] = nkey
        points[d] = nsc
        expand = True
    progress[G_NODES] = nodes
    progress[G_RUNNING] = 0
    return best if found else NOTHING
