"""The compiled programme over ranks: every preset's questions with at most two jokers.

Plain Python on flat sequences, so that the very same functions run compiled
(numba, on int64 arrays) or as they are (on lists) and give the same answers
to the tie either way; :mod:`.big_kernel` prepares the inputs and compiles
them, and docs/solver.md describes the method and its measurements.

:func:`answer` takes a whole question (card codes: natural ``rank * 4 +
suit``, :data:`WILD`, :data:`RUN_JOKER` and :data:`GROUP_JOKER` for table
jokers standing for a card or a rank), counts the cards
(:func:`count_cards`), searches every freeing case (:func:`case_cells`,
V11), each from both ends of the run positions in turn (:func:`mirror`),
and lays the best answer out (:func:`lay_out`).

:func:`depth_first` walks, per run position 1..npos (npos 14 where an ace
may be high, V5), the four suits in turn, then the rank's groups. Where the
ace is high, position 1 only puts aces into runs (low) and position 14
decides the rest of the ace cell, its group included, so the aces used low
are carried per suit. Groups of any size (Vatikanen, Kontrakt): a rank's
group is *off* (no card of the rank outside runs; hand cards may stay in
hand) or *on* (every card of the rank not in runs joins it), chosen at the
rank's first suit. Groups of 3-4 distinct suits (Rummikub): each suit gives
the groups any of its cards, and an automaton's class sums up what fits.
With at most two jokers in play every meld of three cards holds a natural
one.

A state's key (int64):

- bits 0-31: each suit's runs in progress (the canonical states of :mod:`.dp`);
- bits 32-34: wild jokers placed; bit 35: some meld exists, which can take
  the spare jokers at the end (a group; a run, at an end, or split in two when
  it spans every position; groups of any size only);
- bits 36-47: each suit's aces used low (3 bits each, until position 14);
- inside a rank, groups of any size: bit 48 the group on, bits 49-51 its cards
  (at most 4 counted), bits 52-53 its natural cards (at most 2); groups of
  distinct suits: bits 48-52 the automaton's class; both: bits 54-55 the
  rank's natural cards placed (at most what its freed jokers need, two), bit
  56 a run ended that a card of the rank could have carried on.

A choice packs the cards in runs (bits 0-3), in the groups (4-7), the jokers
in runs (8-11) and the group's mode (bit 12) for a suit; for a rank's last
step the jokers given to its groups, and after the last position those that
complete short runs (bits 8-).
"""

from __future__ import annotations

from typing import Any

NOTHING = 1 << 62
"""No answer; its negative: the budget ran out."""
OPTIONS = 64
"""Most choices at one step."""
MAX_STEPS = 4 + 13 * 5
"""Steps where the ace may be high: the aces low, then four suits and a group per position."""
FIELDS = 3
"""Per cell: cards that must be placed, cards that may be, table jokers among the first."""
_MIX = -7046029254386353131
"""An odd multiplier for hashing keys (2**64 / golden ratio, as a signed integer)."""
_POINTS = (1 << 32) - 1
"""A memo entry's points, under its generation (bits 32-62)."""
_GENERATIONS = (1 << 31) - 1
"""After this many generations the memo is cleared and they start again at 1."""


def set_aside(cells: Any, ranks: Any, jokers: int, high: bool, distinct: bool) -> None:
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


def depth_first(
    cells: Any,
    ranks: Any,
    params: Any,
    nxt: Any,
    trim: Any,
    opened: Any,
    short: Any,
    dominators: Any,
    gstep: Any,
    fits: Any,
    memo: Any,
    generation: Any,
    opts: Any,
    stack: Any,
    path: Any,
    budget: int,
) -> int:
    """The best answer's value (its choices in ``path``), NOTHING, or -NOTHING when paused.

    ``cells`` per (rank, suit): :data:`FIELDS` counts at ``(rank * 4 + suit) * 3``;
    ``ranks``: the rank's table group jokers at ``rank``, the naturals it must hold
    (freed jokers) at ``14 + rank``, a hand card's weight at ``28 + rank``.
    ``params``: wild jokers that must be placed, that may be, a joker's weight,
    whether there is a floor, the floor, whether the ace is high, the empty state.
    ``generation`` holds the memo's generation, the states visited, and what a search
    paused past its budget needs to go on: the next call with a larger budget resumes
    it (``generation[8]`` is 1), until it ends (0); set it to 0 to start a new one.
    ``nxt`` and ``trim`` are flat tables of ``width`` columns (the run states of
    :mod:`.dp`), ``opened`` the runs open in each state,
    ``short`` the jokers that complete its runs shorter than three (one for a run of
    two, two for a run of one), ``dominators`` per state the states that do all it
    can (:func:`rummykit.solver.big_kernel._dominators`). ``memo`` holds entries of
    two: the key with the step in bits 57-63, the generation and the points.
    ``opts`` holds the choices per step, ``stack`` six rows of :data:`MAX_STEPS` + 1
    entries; ``path`` gets the best answer's choice per step.
    """
    wild_mand = params[0]
    wjoker = params[2]
    jtotal = wild_mand + params[1]
    high = params[5] != 0
    empty = params[6]
    distinct = params[7] != 0
    gw = len(gstep) // 20  # classes of the groups' automaton per suit
    npos = 14 if high else 13
    steps = 4 + 13 * 5 if high else 13 * 5
    width = len(nxt) // len(opened)
    top = width - 1
    size = len(memo) // 2
    mask = size - 1
    # stack rows: 0 key, 1 points, 2 choices, 3 cursor, 4 choice taken, 5 hand points ahead
    row = MAX_STEPS + 1
    if generation[8] == 0:  # a new search
        set_aside(cells, ranks, jtotal, high, distinct)
        stack[5 * row + steps] = 0
        for t in range(steps - 1, -1, -1):
            stack[5 * row + t] = stack[5 * row + t + 1]
            if high and t < 4:
                continue
            e = t - 4 if high else t
            s = e % 5
            if s < 4:
                p = (2 if high else 1) + e // 5
                rank = 1 if p == 14 else p
                stack[5 * row + t] += cells[(rank * 4 + s) * 3 + 1] * ranks[28 + rank]
        key0 = 0
        for s in range(4):
            key0 |= empty << (8 * s)
        stack[0] = key0
        stack[row] = 0
        generation[0] = generation[0] + 1 if generation[0] < _GENERATIONS else 1
        if generation[0] == 1:
            for k in range(len(memo)):
                memo[k] = 0
        generation[1] = 0  # states visited
        generation[2] = 0  # depth
        generation[3] = 1  # expand the state at that depth next
        generation[4] = params[4] if params[3] != 0 else -NOTHING  # an answer must beat it
        generation[5] = 0  # found one
        generation[6] = 0  # memo entries
        generation[7] = generation[0]
        generation[8] = 1
    nodes = generation[1]
    d = generation[2]
    expand = generation[3] != 0
    best = generation[4]
    found = generation[5] != 0
    filled = generation[6]
    gen = generation[7]
    while d >= 0:
        if expand:
            expand = False
            nodes += 1
            if nodes > budget:  # pause here: the next call goes on from this state
                generation[1] = nodes - 1
                generation[2] = d
                generation[3] = 1
                generation[4] = best
                generation[5] = 1 if found else 0
                generation[6] = filled
                generation[7] = gen
                return -NOTHING
            key = stack[d]
            sc = stack[row + d]
            jp = (key >> 32) & 7
            jleft = jtotal - jp
            if d == steps:  # every run closed at the last group
                placed = jtotal if (key >> 35) & 1 != 0 else jp
                value = sc + (placed - jp - wild_mand) * wjoker
                if placed >= wild_mand and value > best:
                    best = value
                    found = True
                    for t in range(steps):
                        path[t] = stack[4 * row + t]
                d -= 1
                continue
            if sc + stack[5 * row + d] + (jleft - wild_mand) * wjoker <= best:
                d -= 1
                continue
            if high and d < 4:
                p = 1
                s = d
                low = True
            else:
                e = d - 4 if high else d
                p = (2 if high else 1) + e // 5
                s = e % 5
                low = False
            rank = 1 if p == 14 else p
            n = 0
            base = (d * OPTIONS) * 3
            room_ok = (key >> 35) & 1
            if s < 4:
                shift = 8 * s
                at = (rank * 4 + s) * 3
                m = cells[at]
                a = m + cells[at + 1]
                fj = cells[at + 2]
                st = (key >> shift) & 255
                have = opened[st]
                nearby = 0
                if p < npos:
                    q = 1 if p == 13 else p + 1
                    nearby = cells[(q * 4 + s) * 3] + cells[(q * 4 + s) * 3 + 1]
                    if p == 13:
                        nearby -= (key >> (36 + 3 * s)) & 7
                room0 = nearby + jleft
                if low:  # runs start here: a joker would only start one
                    for xc in range(a, -1, -1):
                        if xc >= width:
                            continue
                        ns = trim[nxt[st * width + xc] * width + (room0 if room0 < top else top)]
                        if ns < 0:
                            continue
                        nkey = (key & ~(255 << shift)) | (ns << shift)
                        nkey = (nkey & ~(7 << (36 + 3 * s))) | (xc << (36 + 3 * s))
                        if xc > 0 and not distinct:
                            nkey |= 1 << 35  # a run: room for spare jokers
                        opts[base + 3 * n] = nkey
                        opts[base + 3 * n + 1] = 0
                        opts[base + 3 * n + 2] = xc
                        n += 1
                elif distinct:
                    # groups of distinct suits: any cards of the cell to the rank's groups,
                    # whose sizes per suit so far the automaton's class sums up
                    w = ranks[28 + rank]
                    need = ranks[14 + rank]
                    nat = (key >> 54) & 3
                    cls = (key >> 48) & 31
                    for used in range(a, m - 1, -1):
                        nn = nat + used - fj
                        for xc in range(used, -1, -1):
                            c = used - xc
                            if c > 4:
                                continue
                            ncls = gstep[(s * gw + cls) * 5 + c]
                            if ncls < 0:
                                continue
                            nkey = (key & ~(31 << 48)) | (ncls << 48)
                            nkey = (nkey & ~(3 << 54)) | ((nn if nn < need else need) << 54)
                            for js in range(jleft + 1):
                                x = xc + js
                                if x >= width:
                                    break  # (a joker may start a run: groups have no room)
                                ns = nxt[st * width + x]
                                if ns < 0 or (used < a and x < have):
                                    continue  # no such state, or a spare card could go on
                                room = nearby + jleft - js
                                ns = trim[ns * width + (room if room < top else top)]
                                if ns < 0:
                                    continue
                                k2 = (nkey & ~(255 << shift)) | (ns << shift)
                                k2 = (k2 & ~(7 << 32)) | ((jp + js) << 32)
                                opts[base + 3 * n] = k2
                                opts[base + 3 * n + 1] = (used - m) * w + js * wjoker
                                opts[base + 3 * n + 2] = xc | (c << 4) | (js << 8)
                                n += 1
                else:
                    u0 = (key >> (36 + 3 * s)) & 7 if p == 14 else 0
                    cap = a - u0
                    keep = have if have < cap else cap
                    w = ranks[28 + rank]
                    need = ranks[14 + rank]
                    nat = (key >> 54) & 3
                    gsum = (key >> 49) & 7
                    gnat = (key >> 52) & 3
                    ended = (key >> 56) & 1
                    first_mode = 1
                    last_mode = 0
                    if s == 0:
                        cards = ranks[rank]
                        for t in range(4):
                            ct = (rank * 4 + t) * 3
                            cards += cells[ct] + cells[ct + 1]
                            if p == 14:
                                cards -= (key >> (36 + 3 * t)) & 7
                        if cards + jleft < 3:
                            first_mode = 0
                        if ranks[rank] > 0:
                            last_mode = 1
                    else:
                        first_mode = (key >> 48) & 1
                        last_mode = first_mode
                    for mode in range(first_mode, last_mode - 1, -1):
                        if mode == 1:
                            for xc in range(cap, -1, -1):
                                c = cap - xc
                                fig = fj - u0 - xc
                                if fig < 0:
                                    fig = 0
                                ng = gsum + c
                                ngn = gnat + c - fig
                                nn = nat + a - fj
                                nkey = key | (1 << 48)
                                nkey = (nkey & ~(7 << 49)) | ((ng if ng < 4 else 4) << 49)
                                nkey = (nkey & ~(3 << 52)) | ((ngn if ngn < 2 else 2) << 52)
                                nkey = (nkey & ~(3 << 54)) | ((nn if nn < need else need) << 54)
                                for js in range(jleft + 1):
                                    x = xc + js
                                    if x >= width or (js > 0 and x > have):
                                        break  # a joker never starts a run
                                    if js > 0 and xc < cap and (room_ok != 0 or c >= 2):
                                        continue  # a card of the cell could take the joker's place
                                    ns = nxt[st * width + x]
                                    if ns < 0:
                                        continue
                                    room = nearby + jleft - js
                                    ns = trim[ns * width + (room if room < top else top)]
                                    if ns < 0:
                                        continue
                                    en = 1 if xc < keep - js else ended
                                    k2 = (nkey & ~(255 << shift)) | (ns << shift)
                                    k2 = (k2 & ~(7 << 32)) | ((jp + js) << 32)
                                    k2 = (k2 & ~(1 << 56)) | (en << 56)
                                    if x > 0:
                                        k2 |= 1 << 35  # a run: room for spare jokers
                                    opts[base + 3 * n] = k2
                                    opts[base + 3 * n + 1] = (a - m) * w + js * wjoker
                                    opts[base + 3 * n + 2] = xc | (c << 4) | (js << 8) | (1 << 12)
                                    n += 1
                        else:
                            least = m - u0 if m > u0 else 0
                            for xc in range(cap, least - 1, -1):
                                used = u0 + xc
                                nn = nat + used - fj
                                nkey = key & ~(1 << 48)
                                nkey = (nkey & ~(3 << 54)) | ((nn if nn < need else need) << 54)
                                for js in range(jleft + 1):
                                    x = xc + js
                                    if x >= width or (js > 0 and x > have):
                                        break  # a joker never starts a run
                                    if js > 0 and xc < cap and room_ok != 0:
                                        continue  # the card in the run, the joker on a meld
                                    if xc < cap and xc < keep - js:
                                        continue  # a run ended that a spare card carries on
                                    ns = nxt[st * width + x]
                                    if ns < 0:
                                        continue
                                    room = nearby + jleft - js
                                    ns = trim[ns * width + (room if room < top else top)]
                                    if ns < 0:
                                        continue
                                    k2 = (nkey & ~(255 << shift)) | (ns << shift)
                                    k2 = (k2 & ~(7 << 32)) | ((jp + js) << 32)
                                    if x > 0:
                                        k2 |= 1 << 35  # a run: room for spare jokers
                                    opts[base + 3 * n] = k2
                                    opts[base + 3 * n + 1] = (used - m) * w + js * wjoker
                                    opts[base + 3 * n + 2] = xc | (js << 8)
                                    n += 1
            elif (key >> 54) & 3 >= ranks[14 + rank]:
                gm = ranks[rank]
                lo = 0  # the jokers the group may take: lo..hi (none when hi < lo)
                hi = -1
                if distinct:
                    lo = 0
                    hi = jleft if jleft < 4 - gm else 4 - gm
                elif (key >> 48) & 1 == 0:
                    lo = 0
                    hi = 0
                else:
                    gsum = (key >> 49) & 7
                    gnat = (key >> 52) & 3
                    if gnat >= 1 and not (
                        (key >> 56) & 1 != 0 and gsum - 1 + gm >= 3 and gnat >= 2
                    ):
                        lo = 3 - gsum - gm
                        if lo < 0:
                            lo = 0
                        hi = lo if lo <= jleft else -1
                for jg in range(lo, hi + 1):
                    if distinct and not fits[((key >> 48) & 31) * 5 + gm + jg]:
                        continue
                    # each suit's runs cut to what the next position can carry; after the
                    # last one, runs shorter than three take jokers at their start
                    nkey = 0
                    done = 0
                    for t in range(4):
                        st = (key >> (8 * t)) & 255
                        if p == npos:
                            done += short[st]
                            continue
                        q = 1 if p == 13 else p + 1
                        room = cells[(q * 4 + t) * 3] + cells[(q * 4 + t) * 3 + 1] + jleft - jg
                        if p == 13:
                            room -= (key >> (36 + 3 * t)) & 7
                        state = trim[st * width + (room if room < top else top)]
                        if state < 0:
                            nkey = -1
                            break
                        nkey |= state << (8 * t)
                    if p == npos:
                        for t in range(4):
                            nkey |= empty << (8 * t)
                        if jg + done > jleft:
                            nkey = -1
                    if nkey >= 0:
                        nkey |= (jp + jg + done) << 32
                        if not distinct and (room_ok != 0 or (key >> 48) & 1 != 0):
                            nkey |= 1 << 35
                        if p != 14:
                            nkey |= key & (((1 << 12) - 1) << 36)
                        opts[base + 3 * n] = nkey
                        opts[base + 3 * n + 1] = (jg + done) * wjoker
                        opts[base + 3 * n + 2] = jg | (done << 8)
                        n += 1
            stack[2 * row + d] = n
            stack[3 * row + d] = 0
        if stack[3 * row + d] >= stack[2 * row + d]:
            d -= 1
            continue
        i = stack[3 * row + d]
        stack[3 * row + d] = i + 1
        at = (d * OPTIONS + i) * 3
        nkey = opts[at]
        nsc = stack[row + d] + opts[at + 1]
        if (
            nsc + stack[5 * row + d + 1] + (jtotal - ((nkey >> 32) & 7) - wild_mand) * wjoker
            <= best
        ):
            continue  # the child cannot beat the best answer: no need to remember it
        if (high and d < 4) or ((not high or d >= 4) and (d - 4 if high else d) % 5 < 4):
            # inside a position: on without the memo (remembering these states too cost
            # more than it saved: 0.6x the time for 1.25x the states, measured)
            stack[4 * row + d] = opts[at + 2]
            d += 1
            stack[d] = nkey
            stack[row + d] = nsc
            expand = True
            continue
        # at a position's start: this state at this step, seen with as many points?
        tag = nkey | (d << 57)
        h = ((tag * _MIX) >> 24) & mask
        slot = -1
        seen = False
        while True:
            if memo[2 * h + 1] >> 32 != gen:
                slot = h
                break
            if memo[2 * h] == tag:
                seen = memo[2 * h + 1] & _POINTS >= nsc
                break
            h = (h + 1) & mask
        if seen:
            continue
        jn = (nkey >> 32) & 7
        if (nkey >> 35) & 1 != 0 or distinct:
            if jn > 0 and not distinct:
                # a joker not yet placed can always join a meld at the end: the same state
                # with fewer jokers placed and as many points (counting them) wins
                for jq in range(jn):
                    k2 = ((nkey & ~(7 << 32)) | (jq << 32)) | (d << 57)
                    g = ((k2 * _MIX) >> 24) & mask
                    while memo[2 * g + 1] >> 32 == gen:
                        if memo[2 * g] == k2:
                            seen = (memo[2 * g + 1] & _POINTS) + (jn - jq) * wjoker >= nsc
                            break
                        g = (g + 1) & mask
                    if seen:
                        break
            if not seen:
                # a state whose runs in progress carry on at least as well in one suit
                # (a run longer, or one more of three cards or more), with as many points
                for t in range(4):
                    st = (nkey >> (8 * t)) & 255
                    for u in range(dominators[st], dominators[st + 1]):
                        k2 = (tag & ~(255 << (8 * t))) | (dominators[u] << (8 * t))
                        g = ((k2 * _MIX) >> 24) & mask
                        while memo[2 * g + 1] >> 32 == gen:
                            if memo[2 * g] == k2:
                                seen = memo[2 * g + 1] & _POINTS >= nsc
                                break
                            g = (g + 1) & mask
                        if seen:
                            break
                    if seen:
                        break
            if seen:
                continue
        if slot < 0:
            memo[2 * h + 1] = (gen << 32) | nsc  # seen before, with fewer points
        else:
            if 2 * filled > mask:
                # full: forget it all (slot is free then too)
                generation[0] = generation[0] + 1 if generation[0] < _GENERATIONS else 1
                if generation[0] == 1:
                    for k in range(len(memo)):
                        memo[k] = 0
                gen = generation[0]
                filled = 0
            memo[2 * slot] = tag
            memo[2 * slot + 1] = (gen << 32) | nsc
            filled += 1
        stack[4 * row + d] = opts[at + 2]
        d += 1
        stack[d] = nkey
        stack[row + d] = nsc
        expand = True
    generation[1] = nodes
    generation[8] = 0
    return best if found else NOTHING


# ---------------------------------------------------------------- the whole question

MAX_CELL = 6
"""Most cards of one cell (the key holds up to 7 aces used low)."""
WILD = 0
"""Card code of a joker that stands for nothing (wild); natural cards are ``rank * 4 + suit``."""
RUN_JOKER = 64
"""Card codes ``RUN_JOKER + rank * 4 + suit``: a joker standing for that card."""
GROUP_JOKER = 128
"""Card codes ``GROUP_JOKER + rank``: a joker standing for a rank (in a group)."""
OUT_MELDS = 60
"""Where the melds start in ``out``. Before them: the status, the score (laid out: the
points of the hand cards laid), the jokers laid, the natural cards laid (56 counts, at
``3 + code``; ``out[3]``, code 0, holds where ``out`` ends) and the number of melds. A
meld is its kind (0 run, 1 group), its start, its length and its cards' codes; after
the melds, the codes of the natural cards laid, by suit and rank."""
FIRST = 500
"""States the search from the bottom visits alone before the one from the top joins it."""
SLICE = 256
"""States each of the two searches visits in its turn."""
OUT_SIZE = 1024
"""The size of ``out``."""
# offsets into ``scratch``
_TN = 0  # table naturals per cell (rank * 4 + suit)
_HN = 56  # hand naturals per cell
_FIX = 112  # fixed run jokers per cell, in the case at hand
_FREED = 168  # freed run jokers per cell, in the case at hand
_RUNJ = 224  # the cells of the table's run jokers (at most 2)
_GRPJ = 226  # the ranks of the table's group jokers (at most 2)
_RC = 228  # per position and suit: natural cards in runs (15 * 4)
_RJ = 288  # per position and suit: wild jokers in runs
_GC = 348  # per rank and suit: cards in the group
_GJ = 404  # per rank: wild jokers in the group
_TAKEN = 418  # per cell: cards of the cell laid out so far
_HERE = 474  # scratch: the runs at one position
_RUNS = 490  # per run: suit, first, last, length, has a natural (5 fields)
_MAX_RUNS = 40
_RCARDS = _RUNS + 5 * _MAX_RUNS  # per run: up to 16 card codes
SCRATCH = _RCARDS + 16 * _MAX_RUNS
"""The size of ``scratch``."""


def count_cards(cards: Any, nt: int, nh: int, free: int, all_table: int, scratch: Any) -> int:
    """Count the cards into ``scratch``: the jokers in play, or -1 if more than two.

    The first ``nt`` codes are the table's, the next ``nh`` the hand's (all placed on
    the table when ``all_table``). Table jokers keep what they stand for (V11) unless
    ``free``. Returns wild table jokers, hand jokers, run jokers and group jokers,
    two bits each.
    """
    for i in range(_RC):
        scratch[i] = 0
    wild_table = 0
    wild_hand = 0
    nrun = 0
    ngrp = 0
    for i in range(nt + nh):
        c = cards[i]
        if 4 <= c < 56:
            if i < nt or all_table != 0:
                scratch[_TN + c] += 1
            else:
                scratch[_HN + c] += 1
        elif i >= nt:
            if all_table != 0:
                wild_table += 1
            else:
                wild_hand += 1
        elif free != 0 or c == WILD:
            wild_table += 1
        elif c >= GROUP_JOKER:
            if ngrp < 2:
                scratch[_GRPJ + ngrp] = c - GROUP_JOKER
            ngrp += 1
        else:
            if nrun < 2:
                scratch[_RUNJ + nrun] = c - RUN_JOKER
            nrun += 1
    if wild_table + wild_hand + nrun + ngrp > 2:
        return -1
    return wild_table | (wild_hand << 2) | (nrun << 4) | (ngrp << 6)


def case_cells(
    scratch: Any,
    weights: Any,
    counted: int,
    freed: int,
    high: int,
    empty: int,
    distinct: int,
    cells: Any,
    ranks: Any,
    params: Any,
) -> int:
    """Fill ``cells``, ``ranks`` and ``params`` for one freeing case (V11, V12): the weight of
    the hand cards it forces onto the table, or -1 when there is no such case.

    ``freed``: bit i frees run joker i, bit 2 + i group joker i. A freed joker is wild
    and the table must hold a natural copy of what it stood for: hand cards come in
    where the table has too few copies of a run joker's card (-1: too few in hand),
    and a rank must have as many natural cards as freed jokers of it.
    """
    nrun = (counted >> 4) & 3
    ngrp = (counted >> 6) & 3
    nfreed = 0
    for i in range(42):
        ranks[i] = 0
    for c in range(56):
        cells[c * 3] = scratch[_TN + c]
        cells[c * 3 + 1] = scratch[_HN + c]
        cells[c * 3 + 2] = 0
        scratch[_FIX + c] = 0
        scratch[_FREED + c] = 0
    for i in range(nrun):
        c = scratch[_RUNJ + i]
        if (freed >> i) & 1 != 0:
            nfreed += 1
            scratch[_FREED + c] += 1
            ranks[14 + c // 4] += 1
        else:
            cells[c * 3] += 1
            cells[c * 3 + 2] += 1
            scratch[_FIX + c] += 1
    for i in range(ngrp):
        r = scratch[_GRPJ + i]
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
            need = scratch[_FREED + c] - scratch[_TN + c]
            if need > 0:
                if need > cells[c * 3 + 1]:
                    return -1
                cells[c * 3 + 1] -= need
                cells[c * 3] += need
                base += need * weights[r]
            naturals += scratch[_TN + c] + scratch[_HN + c]
        if ranks[14 + r] > naturals:
            return -1
    for r in range(14):
        ranks[28 + r] = weights[r]
    params[0] = (counted & 3) + nfreed
    params[1] = (counted >> 2) & 3
    params[2] = weights[14]
    params[3] = 0
    params[4] = 0
    params[5] = high
    params[6] = empty
    params[7] = distinct
    return base


def answer(
    cards: Any,
    info: Any,
    weights: Any,
    nxt: Any,
    trim: Any,
    opened: Any,
    short: Any,
    dominators: Any,
    gstep: Any,
    fits: Any,
    memo: Any,
    generation: Any,
    opts: Any,
    stack: Any,
    path: Any,
    memo2: Any,
    generation2: Any,
    opts2: Any,
    stack2: Any,
    path2: Any,
    best_path: Any,
    cells: Any,
    ranks: Any,
    params: Any,
    cells2: Any,
    ranks2: Any,
    params2: Any,
    scratch: Any,
    out: Any,
) -> int:
    """The best play of a whole question, into ``out``: 1 an answer, 0 none, 2 not answered.

    ``weights``: a hand card's gain by rank, a joker's (14), then the points of a card by
    rank and a joker's (15 + 14: at 15 + 0). ``info``: table cards, hand cards, free
    jokers, the hand all placed (arranging),
    the ace high, the search's budget per case, whether to lay the answer out, the
    empty run state. Every freeing case is searched, the one that frees fewest
    jokers first, each only for answers better than the best so far (a tie keeps
    the earlier case); 2 when more than two jokers are in play, a cell holds more
    than :data:`MAX_CELL` cards, or a search runs past its budget.
    """
    nt = info[0]
    high = info[4]
    out[0] = 0
    counted = count_cards(cards, nt, info[1], info[2], info[3], scratch)
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
    ncases = 1 << total
    for k in range(ncases):
        # fewest freed first; among as many, the later combination first
        chosen = k if total < 2 or k == 0 or k == 3 else 3 - k
        freed = 0
        for i in range(total):
            if (chosen >> i) & 1 != 0:
                freed |= 1 << (i if i < nrun else 2 + i - nrun)
        base = case_cells(
            scratch, weights, counted, freed, high, info[7], info[8], cells, ranks, params
        )
        if base < 0:
            continue
        if ceiling < 0:  # the whole hand laid: no case can score more
            ceiling = base + params[1] * weights[14]
            for c in range(4, 56):
                ceiling += cells[c * 3 + 1] * weights[c // 4]
        for c in range(4, 56):
            if cells[c * 3] + cells[c * 3 + 1] > (4 if info[8] != 0 else MAX_CELL):
                out[0] = 2  # more cards of a cell than the states (or the groups') hold
                return 2
        if found:
            params[3] = 1
            params[4] = best - base
        # from the bottom alone at first; past FIRST states, from both ends in turn, and the
        # first to end answers (its cost: about twice the cheaper one's)
        mirror(cells, ranks, high, cells2, ranks2)
        for i in range(8):
            params2[i] = params[i]
        generation[8] = 0
        generation2[8] = 0
        value = depth_first(
            cells, ranks, params, nxt, trim, opened, short, dominators, gstep, fits,
            memo, generation, opts, stack, path, FIRST,
        )  # fmt: skip
        rev = 0
        quota = FIRST
        while value == -NOTHING:
            if generation[1] + generation2[1] > info[5]:
                out[0] = 2
                return 2
            quota += SLICE
            value = depth_first(
                cells2, ranks2, params2, nxt, trim, opened, short, dominators, gstep, fits,
                memo2, generation2, opts2, stack2, path2, quota - FIRST,
            )  # fmt: skip
            if value != -NOTHING:
                rev = 1
                break
            value = depth_first(
                cells, ranks, params, nxt, trim, opened, short, dominators, gstep, fits,
                memo, generation, opts, stack, path, quota,
            )  # fmt: skip
        if value != NOTHING and (not found or value + base > best):
            found = True
            best = value + base
            best_freed = freed
            best_rev = rev
            for t in range(len(path)):
                best_path[t] = path2[t] if rev != 0 else path[t]
            if best >= ceiling:
                break
    if not found:
        return 0
    out[0] = 1
    out[1] = best
    if info[6] != 0:
        case_cells(
            scratch, weights, counted, best_freed, high, info[7], info[8], cells, ranks, params
        )
        lay_out(best_path, best_rev, high, ranks, params, weights[15:], scratch, out)
    return 1


def lay_out(
    path: Any, rev: int, high: int, ranks: Any, params: Any, values: Any, scratch: Any, out: Any
) -> None:
    """Write the melds of the answer whose choices are ``path`` to ``out`` (see OUT_MELDS).

    As :func:`rummykit.solver.layout.build_melds` lays out an answer: runs cut by
    the canonical rule (start where the cells in runs rise, the oldest end where
    they fall), each cell's table jokers used first, natural cards given to runs
    that have none yet, soonest ending first; a run shorter than three (at the
    top) takes jokers at its start; spare jokers join the first group, else the
    ends of runs that have room; every rank's leftovers form one group.
    """
    npos = 14 if high != 0 else 13
    for i in range(_RC, _TAKEN + 56):
        scratch[i] = 0
    d = 0
    if high != 0:
        q = npos if rev != 0 else 1
        for s in range(4):
            scratch[_RC + q * 4 + s] = path[s] & 15
        d = 4
    for p in range(2 if high != 0 else 1, npos + 1):
        # a search from the top walked the positions the other way (ranks mirrored)
        q = npos + 1 - p if rev != 0 else p
        rank = 1 if p == 14 else p
        if rev != 0:
            rank = mirrored(rank, high)
        for s in range(4):
            c = path[d + s]
            scratch[_RC + q * 4 + s] = c & 15
            scratch[_GC + rank * 4 + s] += (c >> 4) & 15
            scratch[_RJ + q * 4 + s] = (c >> 8) & 15
        scratch[_GJ + rank] = path[d + 4] & 255
        d += 5
    placed = path[d - 1] >> 8  # jokers that complete short runs at the top
    for i in range(60):
        placed += scratch[_RJ + i]
    for r in range(14):
        placed += scratch[_GJ + r]
    # the natural cards laid from the hand
    for c in range(56):
        out[3 + c] = 0
    for rank in range(1, 14):
        for s in range(4):
            c = rank * 4 + s
            used = scratch[_RC + rank * 4 + s] + scratch[_GC + c]
            if rank == 1 and high != 0:
                used += scratch[_RC + 56 + s]
            if used > 0:
                out[3 + c] = used - scratch[_FIX + c] - scratch[_TN + c]
    # runs, suit by suit
    nruns = 0
    for s in range(4):
        first = nruns
        now = 0
        head = nruns
        for p in range(1, npos + 2):
            n = 0 if p > npos else scratch[_RC + p * 4 + s] + scratch[_RJ + p * 4 + s]
            while now > n:  # the oldest run ends
                scratch[_RUNS + 5 * head + 2] = p - 1
                head += 1
                now -= 1
            while now < n:
                at = _RUNS + 5 * nruns
                scratch[at] = s
                scratch[at + 1] = p
                scratch[at + 3] = 0
                scratch[at + 4] = 0
                nruns += 1
                now += 1
        for p in range(1, npos + 1):
            nat_runs = scratch[_RC + p * 4 + s]
            count = nat_runs + scratch[_RJ + p * 4 + s]
            if count == 0:
                continue
            rank = 1 if p == 14 else p
            c = rank * 4 + s
            nh = 0
            for i in range(first, nruns):
                if scratch[_RUNS + 5 * i + 1] <= p <= scratch[_RUNS + 5 * i + 2]:
                    scratch[_HERE + nh] = i
                    nh += 1
            taken = scratch[_TAKEN + c]
            fixed = scratch[_FIX + c] - taken
            if fixed < 0:
                fixed = 0
            if fixed > nat_runs:
                fixed = nat_runs
            naturals = nat_runs - fixed
            scratch[_TAKEN + c] = taken + nat_runs
            if nh > 1:
                # runs without a natural card first, then the soonest ending (insertion sort)
                for i in range(1, nh):
                    x = scratch[_HERE + i]
                    kx = (scratch[_RUNS + 5 * x + 4] * 16 + scratch[_RUNS + 5 * x + 2]) * 64 + x
                    j = i - 1
                    while j >= 0:
                        y = scratch[_HERE + j]
                        ky = (scratch[_RUNS + 5 * y + 4] * 16 + scratch[_RUNS + 5 * y + 2]) * 64 + y
                        if ky <= kx:
                            break
                        scratch[_HERE + j + 1] = y
                        j -= 1
                    scratch[_HERE + j + 1] = x
            for j in range(nh):
                i = scratch[_HERE + j]
                natural = j < naturals if nh > 1 else (fixed == 0 and nat_runs > 0)
                at = _RUNS + 5 * i
                n = scratch[at + 3]
                scratch[_RCARDS + 16 * i + n] = c if natural else RUN_JOKER + c
                scratch[at + 3] = n + 1
                if natural:
                    scratch[at + 4] = 1
    # runs shorter than three take jokers at their start (or, at the bottom, at their end)
    for i in range(nruns):
        at = _RUNS + 5 * i
        n = scratch[at + 3]
        if n >= 3:
            continue
        k = 3 - n
        s = scratch[at]
        if scratch[at + 2] == npos:
            for j in range(n - 1, -1, -1):
                scratch[_RCARDS + 16 * i + j + k] = scratch[_RCARDS + 16 * i + j]
            a = scratch[at + 1] - k
            for j in range(k):
                q = a + j
                scratch[_RCARDS + 16 * i + j] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[at + 1] = a
        else:
            b = scratch[at + 2]
            for j in range(k):
                q = b + 1 + j
                scratch[_RCARDS + 16 * i + n + j] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[at + 2] = b + k
        scratch[at + 3] = 3
    # spare jokers: to the first group, else to the ends of runs with room
    spare = params[0] + params[1] - placed
    if params[7] != 0:
        spare = 0  # groups of distinct suits have no room to spare: the search placed them
    host = 0
    for r in range(1, 14):
        g = scratch[_GJ + r] + ranks[r]
        for s in range(4):
            g += scratch[_GC + r * 4 + s]
        if g > 0:
            host = r
            break
    if spare > 0 and host > 0:
        scratch[_GJ + host] += spare
        placed += spare
        spare = 0
    _sort_runs(scratch, nruns)
    if spare > 0:
        for i in range(nruns):
            at = _RUNS + 5 * i
            s = scratch[at]
            while spare > 0 and scratch[at + 2] < npos:
                q = scratch[at + 2] + 1
                scratch[_RCARDS + 16 * i + scratch[at + 3]] = (
                    RUN_JOKER + (1 if q == 14 else q) * 4 + s
                )
                scratch[at + 2] = q
                scratch[at + 3] += 1
                spare -= 1
                placed += 1
            while spare > 0 and scratch[at + 1] > 1:
                n = scratch[at + 3]
                for j in range(n - 1, -1, -1):
                    scratch[_RCARDS + 16 * i + j + 1] = scratch[_RCARDS + 16 * i + j]
                q = scratch[at + 1] - 1
                scratch[_RCARDS + 16 * i] = RUN_JOKER + q * 4 + s
                scratch[at + 1] = q
                scratch[at + 3] = n + 1
                spare -= 1
                placed += 1
        for i in range(nruns):
            at = _RUNS + 5 * i
            n = scratch[at + 3]
            if spare == 0 or n < 6:
                continue
            # every run spans every position: one in two halves, a joker at the cut of each
            s = scratch[at]
            first = scratch[at + 1]
            half = n // 2
            bt = _RUNS + 5 * nruns
            scratch[bt] = s
            scratch[bt + 1] = first + half
            scratch[bt + 2] = scratch[at + 2]
            scratch[bt + 3] = n - half
            scratch[bt + 4] = 1
            for k in range(n - half):
                scratch[_RCARDS + 16 * nruns + k] = scratch[_RCARDS + 16 * i + half + k]
            q = first + half
            scratch[_RCARDS + 16 * i + half] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
            scratch[at + 2] = q
            scratch[at + 3] = half + 1
            spare -= 1
            placed += 1
            if spare > 0:
                for k in range(n - half - 1, -1, -1):
                    scratch[_RCARDS + 16 * nruns + k + 1] = scratch[_RCARDS + 16 * nruns + k]
                q = first + half - 1
                scratch[_RCARDS + 16 * nruns] = RUN_JOKER + (1 if q == 14 else q) * 4 + s
                scratch[bt + 1] = q
                scratch[bt + 3] = n - half + 1
                spare -= 1
                placed += 1
            nruns += 1
        _sort_runs(scratch, nruns)
    out[2] = placed - params[0]
    # write the runs, then each rank's group
    w = OUT_MELDS
    melds = 0
    for i in range(nruns):
        at = _RUNS + 5 * i
        n = scratch[at + 3]
        out[w] = 0
        out[w + 1] = scratch[at + 1]
        out[w + 2] = n
        for j in range(n):
            out[w + 3 + j] = scratch[_RCARDS + 16 * i + j]
        w += 3 + n
        melds += 1
    for rank in range(1, 14):
        jokers = scratch[_GJ + rank] + ranks[rank]
        start = w + 3
        n = 0
        for s in range(4):
            c = rank * 4 + s
            k = scratch[_GC + c]
            taken = scratch[_TAKEN + c]
            for j in range(k):
                code = RUN_JOKER + c if taken + j < scratch[_FIX + c] else c
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
            scratch[_TAKEN + c] = taken + k
        if n == 0 and jokers == 0:
            continue
        for j in range(jokers):
            out[start + n + j] = GROUP_JOKER + rank
        k = 1
        if params[7] != 0:
            # groups of at most four distinct suits: as few as the cards need
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
            w += 3 + n + jokers
            melds += 1
            continue
        # each card to the smallest group that lacks its suit (a table joker: the suit
        # of its card), then the jokers to the smallest groups
        for g in range(k):
            scratch[_HERE + g] = 0  # its size
            scratch[_HERE + 8 + g] = 0  # its suits
        for j in range(n + jokers):
            code = out[start + j]
            pick = -1
            for g in range(k):
                if j < n and (scratch[_HERE + 8 + g] >> (code % 4)) & 1 != 0:
                    continue
                if pick < 0 or scratch[_HERE + g] < scratch[_HERE + pick]:
                    pick = g
            scratch[_RCARDS + 16 * pick + scratch[_HERE + pick]] = code
            scratch[_HERE + pick] += 1
            if j < n:
                scratch[_HERE + 8 + pick] |= 1 << (code % 4)
        for g in range(k):
            size = scratch[_HERE + g]
            out[w] = 1
            out[w + 1] = rank
            out[w + 2] = size
            for j in range(size):
                out[w + 3 + j] = scratch[_RCARDS + 16 * g + j]
            w += 3 + size
            melds += 1
    out[OUT_MELDS - 1] = melds
    # the hand cards laid, natural ones by suit and rank, and their points
    points = out[2] * values[0]
    for s in range(4):
        for rank in range(1, 14):
            c = rank * 4 + s
            for _ in range(out[3 + c]):
                out[w] = c
                w += 1
                points += values[rank]
    out[1] = points
    out[3] = w  # (code 0 is no natural card)


def mirrored(rank: int, high: int) -> int:
    """The rank at the same place counted from the other end of the run positions."""
    if rank == 0:
        return 0
    if high != 0:
        return rank if rank == 1 else 15 - rank
    return 14 - rank


def mirror(cells: Any, ranks: Any, high: int, into_cells: Any, into_ranks: Any) -> None:
    """The question with the run positions taken from the other end (the same answers)."""
    for rank in range(14):
        m = mirrored(rank, high)
        for s in range(4):
            for k in range(3):
                into_cells[(m * 4 + s) * 3 + k] = cells[(rank * 4 + s) * 3 + k]
        for k in range(3):
            into_ranks[k * 14 + m] = ranks[k * 14 + rank]


def _sort_runs(scratch: Any, nruns: int) -> None:
    """Sort the runs by suit, first position and length, keeping the order of equals."""
    for i in range(1, nruns):
        j = i
        while j > 0:
            a = _RUNS + 5 * (j - 1)
            b = _RUNS + 5 * j
            ka = (scratch[a] * 16 + scratch[a + 1]) * 16 + scratch[a + 3]
            kb = (scratch[b] * 16 + scratch[b + 1]) * 16 + scratch[b + 3]
            if ka <= kb:
                break
            for f in range(5):
                scratch[a + f], scratch[b + f] = scratch[b + f], scratch[a + f]
            for f in range(16):
                x = scratch[_RCARDS + 16 * (j - 1) + f]
                scratch[_RCARDS + 16 * (j - 1) + f] = scratch[_RCARDS + 16 * j + f]
                scratch[_RCARDS + 16 * j + f] = x
            j -= 1
